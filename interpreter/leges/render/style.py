"""The look of a board: a map's `render:` section read with its defaults.

Nothing here knows a game. A map says how its spaces, areas, pieces and (graph maps) nodes and
edges look; whatever it does not say has a plain default, so any map renders. Texts shown on
the board are templates over properties — `{gate_name}`, `{number}` — never evaluated code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..text.errors import Collector, did_you_mean

# seat colours used when neither the map nor the ruleset gives one
PALETTE = ["#c0392b", "#2e5fa8", "#2e8b57", "#d4a017", "#222222", "#8e44ad", "#e67e22", "#16a085"]
NEUTRAL = "#f2f2f2"  # pieces owned by nobody

# colour names a seat may be called by (CSS names), with their RGB for terminals
NAMED = {
    "black": (34, 34, 34), "white": (245, 245, 245), "red": (192, 57, 43), "blue": (46, 95, 168),
    "green": (46, 139, 87), "yellow": (230, 190, 30), "orange": (230, 126, 34), "purple": (142, 68, 173),
    "brown": (140, 90, 50), "grey": (150, 150, 150), "gray": (150, 150, 150), "pink": (231, 128, 170),
    "cyan": (22, 160, 133), "turquoise": (64, 176, 172), "violet": (155, 89, 182), "gold": (212, 160, 23),
    "silver": (190, 190, 190), "navy": (31, 59, 115), "teal": (22, 128, 128), "maroon": (128, 30, 30),
    "olive": (128, 128, 0), "lime": (120, 200, 60), "beige": (225, 215, 185), "tan": (210, 180, 140),
}

_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def fill_template(template: str | None, values: dict) -> str:
    """`{name}` replaced by the value of `name` (nothing for a missing or null value)."""
    if not template:
        return ""

    def one(m):
        value = values.get(m.group(1))
        if value is None or value is False:
            return ""
        if value is True:
            return m.group(1)
        return str(value)
    return _TEMPLATE.sub(one, template).strip()


def rgb(colour: str | None) -> tuple[int, int, int] | None:
    """A colour's red, green and blue (for terminals), or None when it is not one we know."""
    if not colour:
        return None
    m = _HEX.match(colour)
    if m:
        h = m.group(1)
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    return NAMED.get(colour.lower())


def css_colour(colour: Any, fallback: str) -> str:
    """A colour safe to write into SVG: #hex or a known name, else the fallback."""
    if isinstance(colour, str) and (_HEX.match(colour) or colour.lower() in NAMED or colour == "none"):
        return colour
    return fallback


def matches(when: dict | None, props: dict) -> bool:
    """A style's `when`: every property has the value given ("*": any value but null and false;
    a list: one of its values)."""
    if not when:
        return True
    for key, want in when.items():
        have = props.get(key)
        if want == "*":
            if have is None or have is False:
                return False
        elif isinstance(want, list):
            if have not in want:
                return False
        elif have != want or isinstance(have, bool) != isinstance(want, bool):
            return False
    return True


@dataclass
class Look:
    """How one space (or node) is drawn, after the styles that apply to it."""

    fill: str
    stroke: str
    label: str = ""
    glyph: str = ""
    hidden: bool = False


@dataclass
class Style:
    size: float = 56.0
    hex: str = "pointy"
    background: str = "#faf7f0"
    space: dict = field(default_factory=dict)
    styles: list = field(default_factory=list)
    marks: list = field(default_factory=list)
    areas: dict = field(default_factory=dict)
    pieces: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)
    nodes: dict = field(default_factory=dict)  # id → (x, y)
    node_labels: dict = field(default_factory=dict)  # id → label
    node: dict = field(default_factory=dict)
    edges: dict = field(default_factory=dict)
    panel: dict = field(default_factory=dict)
    title: str | None = None

    # ------------------------------------------------------------------ spaces
    def looks(self, board, sprops: dict) -> dict[str, Look]:
        """Every space's look: those of spaces whose properties never changed are made once."""
        static = self.__dict__.setdefault("_static_looks", {}).get(id(board))
        if static is None:
            static = {}
            for s in board.spaces:
                props = dict(board.props.get(s, {}))
                props["id"] = s
                static[s] = self.look(props)
            self.__dict__["_static_looks"][id(board)] = static
        if not sprops:
            return static
        out = dict(static)
        for s, changed in sprops.items():
            if s in out and changed:
                props = dict(board.props.get(s, {}))
                props.update(changed)
                props["id"] = s
                out[s] = self.look(props)
        return out

    def look(self, props: dict) -> Look:
        base = self.space
        look = Look(fill=css_colour(base.get("fill"), "#f3ecd9"), stroke=css_colour(base.get("stroke"), "#a89a7a"))
        label, glyph = base.get("label"), base.get("glyph")
        for style in self.styles:
            if not matches(style.get("when"), props):
                continue
            if "fill" in style:
                look.fill = css_colour(style["fill"], look.fill)
            if "fill_by" in style:
                value = props.get(style["fill_by"])
                colours = style.get("colours") or {}
                if value is not None and str(value) in colours:
                    look.fill = css_colour(colours[str(value)], look.fill)
            if "stroke" in style:
                look.stroke = css_colour(style["stroke"], look.stroke)
            if "label" in style:
                label = style["label"]
            if "glyph" in style:
                glyph = style["glyph"]
            if "glyph_by" in style:
                value = props.get(style["glyph_by"])
                glyphs = style.get("glyphs") or {}
                if value is not None and str(value) in glyphs:
                    glyph = glyphs[str(value)]
            if "hidden" in style:
                look.hidden = bool(style["hidden"])
        look.label = fill_template(label, props)
        look.glyph = fill_template(glyph, props)
        return look

    # ------------------------------------------------------------------- areas
    def area_look(self, kind: str, props: dict) -> dict | None:
        """How an area of `kind` is drawn (None: not drawn)."""
        spec = self.areas.get(kind)
        if spec is None:
            spec = {}
        if spec.get("hidden"):
            return None
        fill = spec.get("fill")
        by = spec.get("fill_by")
        if by is not None:
            value = props.get(by)
            colours = spec.get("colours") or {}
            if value is not None and str(value) in colours:
                fill = colours[str(value)]
        return {
            "fill": css_colour(fill, "none") if fill else "none",
            "stroke": css_colour(spec.get("stroke"), "#4a3b28"),
            "width": float(spec.get("width", 3)),
            "label": fill_template(spec.get("label", "{id}"), props),
            "opacity": float(spec.get("opacity", 1.0)),
        }

    # ------------------------------------------------------------------ pieces
    def piece(self, ctype: str) -> dict:
        spec = dict(self.pieces.get(ctype) or {})
        spec.setdefault("shape", "disc")
        return spec

    # ----------------------------------------------------------------- players
    def player_colours(self, seat_names: list[str], seat_props: list[dict]) -> list[str]:
        out = []
        for i, name in enumerate(seat_names):
            props = seat_props[i] if i < len(seat_props) else {}
            colour = self.players.get(name)
            if colour is None and isinstance(props.get("colour"), str) and rgb(props["colour"]):
                colour = props["colour"]
            if colour is None and rgb(name):
                colour = name
            out.append(css_colour(colour, PALETTE[i % len(PALETTE)]))
        return out



def style_of(board, errors: Collector | None = None) -> Style:
    """The map's `render:` section with its defaults. Names it gives that the map does not have
    (a node, an area kind, a property in `when`) are reported to `errors`, located."""
    if board is not None and errors is None:  # a board never changes: its style is made once
        cached = board.__dict__.get("_render_style")
        if cached is None:
            cached = board.__dict__["_render_style"] = _style_of(board)
        return cached
    st = _style_of(board)
    if errors is not None and board is not None:
        data = board.doc.data.get("render") if board.doc is not None and isinstance(board.doc.data, dict) else None
        if data:
            _check(board, data, errors)
    return st


def _style_of(board) -> Style:
    data: dict = {}
    doc = getattr(board, "doc", None) if board is not None else None
    if doc is not None and isinstance(doc.data, dict):
        data = doc.data.get("render") or {}
    st = Style()
    if not data:
        return st
    for key in ("size", "hex", "background", "title"):
        if key in data:
            setattr(st, key, data[key])
    st.background = css_colour(st.background, "#faf7f0")
    st.space = dict(data.get("space") or {})
    st.styles = list(data.get("styles") or [])
    st.marks = list(data.get("marks") or [])
    st.areas = dict(data.get("areas") or {})
    st.pieces = dict(data.get("pieces") or {})
    st.players = dict(data.get("players") or {})
    st.node = dict(data.get("node") or {})
    st.edges = dict(data.get("edges") or {})
    st.panel = dict(data.get("panel") or {})
    for sid, where in (data.get("nodes") or {}).items():
        if isinstance(where, dict):
            at = where.get("at")
            if where.get("label") is not None:
                st.node_labels[str(sid)] = str(where["label"])
        else:
            at = where
        if isinstance(at, list) and len(at) == 2:
            st.nodes[str(sid)] = (float(at[0]), float(at[1]))
    return st


def _check(board, data: dict, errors: Collector) -> None:
    """Names in the render section must be the map's: nodes, area kinds, space properties."""
    doc = board.doc
    known = set(board.spaces)
    props = set(board.prop_defaults) | {"id", "row", "col"}
    for sid in (data.get("nodes") or {}):
        if str(sid) not in known:
            errors.error(doc.position(("render", "nodes", sid), key=True), f"render: no space '{sid}' on this board",
                         did_you_mean(str(sid), known))
    if board.topology == "graph":
        missing = [s for s in board.spaces if s not in (data.get("nodes") or {})]
        if data.get("nodes") and missing:
            errors.warning(doc.position(("render", "nodes"), key=True),
                           f"render: no position for {len(missing)} node(s): {', '.join(missing[:5])}",
                           "they are placed in a row below the others")
    for kind in (data.get("areas") or {}):
        if kind not in board.areas:
            errors.error(doc.position(("render", "areas", kind), key=True), f"render: the map has no areas of kind '{kind}'",
                         did_you_mean(str(kind), board.areas))
    for section in ("styles", "marks"):
        for i, item in enumerate(data.get(section) or []):
            for key in (item.get("when") or {}):
                if key not in props:
                    errors.error(doc.position(("render", section, i, "when", key), key=True),
                                 f"render: spaces have no property '{key}'", did_you_mean(str(key), props))
            for key in ("fill_by", "glyph_by", "property"):
                name = item.get(key)
                if name is not None and name not in props:
                    errors.error(doc.position(("render", section, i, key)), f"render: spaces have no property '{name}'",
                                 did_you_mean(str(name), props))
