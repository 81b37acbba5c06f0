"""An SVG picture of a game as one seat sees it: the board and a side panel.

The board: every space (squares, hexes, or a graph's nodes and edges), the areas filled and
outlined and labelled, the signs the map's `render:` section asks for (circles, gates, ...),
and the components on each space in their owner's colour with counts. The panel: whose turn,
which phase, each player's zones (hidden ones as counts) and variables, the shared zones.

Everything drawn comes from a `SeatView` (view.py), so a picture never shows what its seat may
not see. Each space is a `<g class="space" data-space="ID">`, which the web page makes clickable.
"""
from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from .layout import Layout, hull, layout_of
from .style import NEUTRAL, Style, css_colour, fill_template, matches, rgb, style_of
from .text import global_vars, player_vars, player_zones, ranking_text, shared_zones, status_line, value_text, wrap, zone_texts
from .view import Piece, SeatView, seat_view

PANEL_WIDTH = 330
MARGIN = 16
FONT = "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _points(points) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _text(x, y, text, size=12, anchor="middle", fill="#222", weight="normal", extra="") -> str:
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" text-anchor="{anchor}" fill={quoteattr(fill)}'
            f' font-weight="{weight}"{extra}>{escape(text)}</text>')


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    value = rgb(colour)
    if value is None:
        return "#111"
    r, g, b = value
    return "#111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#fff"


def render_svg(st, seat: int | None = None, *, style: Style | None = None, targets=(), panel: bool = True,
               view: SeatView | None = None) -> str:
    """The picture of `st` as `seat` sees it (None: what everybody sees).

    `targets` are spaces an action names (the web page makes them clickable): they are drawn even
    where the map's look hides them (the bare table around a map that grows during play)."""
    game = st.game
    if style is None:
        style = style_of(game.board)
    if view is None:
        view = seat_view(st, seat, style)
    return render_view(game.board, view, style, targets=targets, panel=panel)


def render_board(board, style: Style | None = None) -> str:
    """A map alone, with nothing on it (for the map's author)."""
    from .view import SeatView
    style = style or style_of(board)
    title = (board.doc.data.get("title") if board.doc is not None and isinstance(board.doc.data, dict) else None) or board.id
    view = SeatView(title=str(title), ruleset=board.id, seat=None, seats=[], colours=[], phase=None, turn="", to_move="",
                    terminal=False, style=style)
    return render_view(board, view, style, panel=False)


def render_view(board, view: SeatView, style: Style, targets=(), panel: bool = True) -> str:
    parts: list[str] = []
    width = height = 0.0
    if board is not None:
        board_svg, width, height = _board(board, view, style, set(targets))
        parts.append(board_svg)
    if panel:
        panel_svg, panel_height = _panel(view, style, x0=width + (MARGIN if width else 0))
        parts.append(panel_svg)
        height = max(height, panel_height)
        width = width + (MARGIN if width else 0) + PANEL_WIDTH
    width, height = math.ceil(width), math.ceil(height)
    who = view.seats[view.seat] if view.seat is not None else "public"
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'{FONT} data-ruleset={quoteattr(view.ruleset)} data-view={quoteattr(who)}>')
    return "\n".join([head, f'<rect width="100%" height="100%" fill="{style.background}"/>', *parts, "</svg>"]) + "\n"


# ---------------------------------------------------------------------- the board
def _board(board, view: SeatView, style: Style, targets: set) -> tuple[str, float, float]:
    lay = layout_of(board, style)
    looks = style.looks(board, view.sprops)
    occupied = set(view.spaces) | set(view.hidden_spaces)
    shown = [s for s in board.spaces if not looks[s].hidden or s in occupied or s in targets]
    ghosts = []
    if board.topology != "graph":
        near = set()
        for s in shown:
            near.update(board.neighbors.get(s, ()))
        ghosts = [s for s in board.spaces if s in near and s not in set(shown)]
    x0, y0, x1, y1 = lay.bounds(shown + ghosts)
    if board.topology == "graph":
        pad = style.node.get("label_room", 34)
        x0, x1, y0, y1 = x0 - 70, x1 + 70, y0 - pad, y1 + 26 + (60 if board.areas else 0)
    dx, dy = MARGIN - x0, MARGIN - y0
    out = [f'<g class="board" transform="translate({_f(dx)},{_f(dy)})">']
    if board.topology == "graph":
        out += _graph(board, view, style, lay, looks, targets)
    else:
        out += _cells(board, view, style, lay, looks, shown, ghosts, targets)
    out.append("</g>")
    return "\n".join(out), (x1 - x0) + 2 * MARGIN, (y1 - y0) + 2 * MARGIN


def _cells(board, view, style, lay: Layout, looks, shown, ghosts, targets) -> list[str]:
    """The cells of a grid or hex board and what they hold: one branch a layer or a look drawn."""
    out = []
    for s in ghosts:
        out.append(f'<g class="space ghost" data-space={quoteattr(s)}><polygon points="{_points(lay.shapes[s])}" '
                   f'fill="none" stroke="#c8bfa8" stroke-dasharray="3 3"/></g>')
    area_fill: dict[str, str] = {}
    outlines = []
    for kind, areas in board.areas.items():
        for aid, props in areas.items():
            look = style.area_look(kind, dict(props, id=aid))
            if look is None:
                continue
            members = [s for s in board.area_spaces.get(aid, []) if s in lay.shapes]
            if look["fill"] != "none":
                for s in members:
                    area_fill[s] = look["fill"]
            outlines.append((aid, members, look))
    for s in shown:
        look = looks[s]
        fill = area_fill.get(s, look.fill)
        out.append(f'<g class="space" data-space={quoteattr(s)}><title>{escape(s)}</title>'
                   f'<polygon points="{_points(lay.shapes[s])}" fill={quoteattr(fill)} stroke={quoteattr(look.stroke)} stroke-width="1"/></g>')
    for aid, members, look in outlines:
        segs = lay.outline(members)
        if segs:
            path = " ".join(f"M{_f(a[0])},{_f(a[1])}L{_f(b[0])},{_f(b[1])}" for a, b in segs)
            out.append(f'<path class="area" d="{path}" stroke={quoteattr(look["stroke"])} stroke-width="{_f(look["width"])}" '
                       f'stroke-linecap="round" fill="none"/>')
    size = lay.size
    for s in shown:
        out += _space_marks(board, view, style, lay, looks[s], s, size)
    for aid, members, look in outlines:
        if look["label"] and members:
            first = min(members, key=lambda m: (lay.centres[m][1], lay.centres[m][0]))
            cx, cy = lay.centres[first]
            r = size * 0.17
            bx, by = cx - size * 0.5 + r + 2, cy - size * 0.5 + r + 2
            if board.topology == "hex":
                bx, by = cx, cy - size * 0.25
            out.append(f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="{_f(r)}" fill="#fffaf0" stroke={quoteattr(look["stroke"])} stroke-width="1"/>')
            out.append(_text(bx, by + r * 0.45, look["label"], size=r * 1.25, weight="bold", fill="#2b2116"))
    for s in shown:
        drawn = _pieces_at(view, style, lay.centres[s], size, view.spaces.get(s, []), view.hidden_spaces.get(s))
        if drawn:  # over the outlines; clicking a piece is clicking its space
            out.append(f'<g class="pieces" data-space={quoteattr(s)}>' + "".join(drawn) + "</g>")
    for s in shown:  # spaces an action names: a highlight over everything, which takes the click
        if s in targets:
            out.append(f'<g class="hit target" data-space={quoteattr(s)}><title>{escape(s)}</title>'
                       f'<polygon points="{_points(lay.shapes[s])}" fill="#1d6fd8" fill-opacity="0.12" '
                       f'stroke="#1d6fd8" stroke-width="3"/></g>')
    return out


def _space_marks(board, view, style, lay, look, s, size) -> list[str]:
    """A space's label and the signs its properties ask for (`render: marks`)."""
    cx, cy = lay.centres[s]
    props = view.space_props(board, s)
    out = []
    top = cy - size * 0.5
    for mark in style.marks:
        if not matches(mark.get("when"), props):
            continue
        colour = css_colour(mark.get("colour"), "#5a4a32")
        shape = mark.get("shape", "text")
        if shape == "dots":
            n = props.get(mark.get("property", ""))
            if isinstance(n, int) and not isinstance(n, bool) and n > 0:
                r = size * 0.06
                gap = r * 2.6
                right = cx + size * 0.5 - r - size * 0.08  # from the right: the area's badge is at the left
                for i in range(min(n, 8)):
                    out.append(f'<circle cx="{_f(right - i * gap)}" cy="{_f(top + size * 0.13)}" r="{_f(r)}" '
                               f'fill="none" stroke={quoteattr(colour)} stroke-width="1.2"/>')
        else:
            text = fill_template(mark.get("text", "{" + str(mark.get("property", "id")) + "}"), props)
            if not text:
                continue
            where = mark.get("at", "bottom")
            fs = float(mark.get("size", size * 0.2))
            y = {"top": top + fs, "centre": cy + fs * 0.35, "bottom": cy + size * 0.5 - fs * 0.35}.get(where, cy)
            if board.topology == "graph":  # inside the node's circle
                y = {"top": cy - size * 0.2, "centre": cy + fs * 0.35, "bottom": cy + size * 0.32 + fs * 0.35}.get(where, cy)
            out.append(_text(cx, y, text, size=fs, fill=colour, weight=mark.get("weight", "normal")))
    if look.label:
        fs = size * 0.16
        lines = wrap(look.label, 12)[:2]
        for i, line in enumerate(lines):
            out.append(_text(cx, cy + size * 0.5 - fs * 0.5 - (len(lines) - 1 - i) * fs * 1.05, line, size=fs,
                             fill="#4a3b28", extra=' font-style="italic"'))
    return out


def _piece_fill(view: SeatView, spec: dict, piece: Piece) -> str:
    if "fill" in spec:
        return css_colour(spec["fill"], NEUTRAL)
    if piece.owner is not None and piece.owner < len(view.colours):
        return view.colours[piece.owner]
    return css_colour(spec.get("neutral"), NEUTRAL)


def _pieces_at(view: SeatView, style: Style, centre, size: float, pieces: list[Piece], hidden: int | None) -> list[str]:
    cx, cy = centre
    out = []
    if hidden:
        out.append(_text(cx, cy + size * 0.1, f"{hidden}?", size=size * 0.3, fill="#555"))
    if not pieces:
        return out
    small = []
    for p in pieces:
        spec = style.piece(p.type)
        shape = spec["shape"]
        fill = _piece_fill(view, spec, p)
        label = fill_template(spec.get("text", ""), {"label": p.label, "type": p.type, "count": p.count})
        title = f"<title>{escape(_describe(view, p))}</title>"
        if shape == "tile":
            h = size * 0.5 - 3
            out.append(f'<g class="piece">{title}<rect x="{_f(cx - h)}" y="{_f(cy - h)}" width="{_f(2 * h)}" height="{_f(2 * h)}" rx="4" '
                       f'fill={quoteattr(fill)} stroke="#3a2a1a" stroke-width="1.5"/>'
                       + _text(cx, cy + size * 0.08, label or p.label, size=size * 0.22, fill=ink_on(fill)) + "</g>")
        elif shape == "text":
            text = label or p.label
            out.append(f'<g class="piece">{title}' + _text(cx, cy + size * 0.2, text.upper() if spec.get("upper", True) else text,
                                                          size=size * 0.62, fill=fill, weight="bold") + "</g>")
            if p.count > 1:
                out.append(_text(cx + size * 0.3, cy + size * 0.35, f"×{p.count}", size=size * 0.18))
        else:
            small.append((p, spec, fill, label, title))
    if small:
        n = len(small)
        cols = 1 if n == 1 else 2 if n <= 4 else 3
        rows = math.ceil(n / cols)
        r = size * (0.22 if n == 1 else 0.17 if n == 2 else 0.14 if n <= 4 else 0.11)
        gap = r * 2.35
        for i, (p, spec, fill, label, title) in enumerate(small):
            row, col = divmod(i, cols)
            in_row = min(cols, n - row * cols)
            x = cx + (col - (in_row - 1) / 2) * gap
            y = cy + size * 0.04 + (row - (rows - 1) / 2) * gap
            out.append(f'<g class="piece">{title}{_shape(spec["shape"], x, y, r, fill)}')
            inside = label[: int(spec.get("abbrev", 3))] if label else ""
            if p.count > 1:
                inside = (inside + " " if inside else "") + str(p.count)
            if inside:
                out.append(_text(x, y + r * 0.38, inside, size=r * (1.05 if len(inside) <= 2 else 0.8),
                                 fill=ink_on(fill), weight="bold"))
            out.append("</g>")
    return out


def _describe(view: SeatView, p: Piece) -> str:
    whose = f"{view.seats[p.owner]}'s " if p.owner is not None and p.owner < len(view.seats) else ""
    return f"{p.count} × {whose}{p.type} {p.label}"


def _shape(shape: str, x: float, y: float, r: float, fill: str) -> str:
    stroke = f'fill={quoteattr(fill)} stroke="#1b1b1b" stroke-width="1.2"'
    if shape in ("square", "cube"):
        return f'<rect x="{_f(x - r)}" y="{_f(y - r)}" width="{_f(2 * r)}" height="{_f(2 * r)}" rx="2" {stroke}/>'
    if shape == "triangle":
        return f'<polygon points="{_points([(x, y - r * 1.15), (x + r * 1.1, y + r * 0.85), (x - r * 1.1, y + r * 0.85)])}" {stroke}/>'
    if shape == "house":
        return (f'<polygon points="{_points([(x - r, y + r), (x - r, y - r * 0.2), (x, y - r * 1.1), (x + r, y - r * 0.2), (x + r, y + r)])}" '
                f'{stroke}/>')
    if shape == "hex":
        pts = [(x + r * 1.05 * math.cos(math.radians(60 * i - 30)), y + r * 1.05 * math.sin(math.radians(60 * i - 30))) for i in range(6)]
        return f'<polygon points="{_points(pts)}" {stroke}/>'
    if shape == "pawn":
        return (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" {stroke}/>'
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.55)}" fill="none" stroke="#000" stroke-opacity="0.25"/>')
    return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" {stroke}/>'


def _graph(board, view, style: Style, lay: Layout, looks, targets) -> list[str]:
    """A graph board (areas, edges, nodes and what they hold): one branch a layer or a look drawn."""
    out, labels = [], []
    r = lay.radius
    # areas: a soft hull around their nodes
    for kind, areas in board.areas.items():
        for aid, props in areas.items():
            look = style.area_look(kind, dict(props, id=aid))
            if look is None:
                continue
            members = [s for s in board.area_spaces.get(aid, []) if s in lay.centres]
            if not members:
                continue
            pad = r * 1.9
            pts = [(lay.centres[s][0] + pad * math.cos(a * math.pi / 8), lay.centres[s][1] + pad * math.sin(a * math.pi / 8))
                   for s in members for a in range(16)]
            fill = look["fill"] if look["fill"] != "none" else "#e8e0cc"
            out.append(f'<polygon class="area" points="{_points(hull(pts))}" fill={quoteattr(fill)} fill-opacity="{_f(look["opacity"])}" '
                       f'stroke={quoteattr(look["stroke"])} stroke-width="{_f(look["width"])}" stroke-linejoin="round"/>')
            if look["label"]:  # below the area, where the nodes' labels (above them) are not
                low = max(lay.centres[s][1] for s in members)
                lx = sum(lay.centres[s][0] for s in members) / len(members)
                labels.append(_text(lx, low + pad + 16, look["label"], size=13, weight="bold", fill=look["stroke"]))
    out += labels
    # edges
    edge_spec = style.edges
    out.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
               '<path d="M0,0L10,5L0,10z" fill="context-stroke"/></marker></defs>')
    drawn = set()
    for (a, b), props in board.edge_props.items():
        if (b, a) in drawn or a not in lay.centres or b not in lay.centres:
            continue
        drawn.add((a, b))
        two_way = (b, a) in board.edge_props and board.edge_props[(b, a)] is props
        stroke, dash, width = css_colour(edge_spec.get("stroke"), "#6b5b45"), edge_spec.get("dash"), float(edge_spec.get("width", 1.8))
        for st_ in edge_spec.get("styles", []):
            if matches(st_.get("when"), props):
                stroke = css_colour(st_.get("stroke"), stroke)
                dash = st_.get("dash", dash)
                width = float(st_.get("width", width))
        (x1, y1), (x2, y2) = lay.centres[a], lay.centres[b]
        d = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        sx, sy, ex, ey = x1 + ux * (r + 1), y1 + uy * (r + 1), x2 - ux * (r + 3), y2 - uy * (r + 3)
        dash_attr = f' stroke-dasharray={quoteattr(str(dash))}' if dash else ""
        marker = "" if two_way else ' marker-end="url(#arrow)"'
        out.append(f'<line class="edge" x1="{_f(sx)}" y1="{_f(sy)}" x2="{_f(ex)}" y2="{_f(ey)}" stroke={quoteattr(stroke)} '
                   f'stroke-width="{_f(width)}"{dash_attr}{marker}/>')
        label = fill_template(edge_spec.get("label", ""), props)
        if label:
            mx, my = (sx + ex) / 2, (sy + ey) / 2
            out.append(f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="7" fill="#fffaf0" stroke={quoteattr(stroke)} stroke-width="0.8"/>')
            out.append(_text(mx, my + 3.5, label, size=9.5, fill="#333"))
    # nodes
    label_tpl = style.node.get("label", "{id}")
    for s in board.spaces:
        if s not in lay.centres:
            continue
        x, y = lay.centres[s]
        look = looks[s]
        props = view.space_props(board, s)
        out.append(f'<g class="space" data-space={quoteattr(s)}><title>{escape(s)}</title>'
                   f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill={quoteattr(look.fill)} stroke={quoteattr(look.stroke)} stroke-width="1.5"/></g>')
        label = style.node_labels.get(s) or fill_template(label_tpl, props)
        if look.label:
            label = look.label
        for i, line in enumerate(reversed(wrap(label, 16)[:2])):
            out.append(_text(x, y - r - 4 - i * 11, line, size=10.5, fill="#2b2116"))
        out += _space_marks(board, view, style, lay, type(look)(look.fill, look.stroke), s, r * 2)
        pieces = view.spaces.get(s, [])
        if pieces or view.hidden_spaces.get(s):
            out.append(f'<g class="pieces" data-space={quoteattr(s)}>'
                       + "".join(_node_pieces(view, style, x, y + r + 10, pieces, view.hidden_spaces.get(s))) + "</g>")
    for s in board.spaces:
        if s in targets and s in lay.centres:
            x, y = lay.centres[s]
            out.append(f'<g class="hit target" data-space={quoteattr(s)}><title>{escape(s)}</title>'
                       f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r + 3)}" fill="#1d6fd8" fill-opacity="0.12" '
                       f'stroke="#1d6fd8" stroke-width="3"/></g>')
    return out


def _node_pieces(view, style, x, y, pieces: list[Piece], hidden) -> list[str]:
    out = []
    r = 7.0
    items = list(pieces)
    n = len(items) + (1 if hidden else 0)
    gap = r * 2.5
    start = x - gap * (n - 1) / 2
    for i, p in enumerate(items):
        spec = style.piece(p.type)
        fill = _piece_fill(view, spec, p)
        px = start + i * gap
        out.append(f'<g class="piece"><title>{escape(_describe(view, p))}</title>{_shape(spec["shape"], px, y, r, fill)}')
        if p.count > 1:
            out.append(_text(px, y + r * 0.42, str(p.count), size=r * 1.2, fill=ink_on(fill), weight="bold"))
        out.append("</g>")
    if hidden:
        out.append(_text(start + len(items) * gap, y + 4, f"{hidden}?", size=10, fill="#555"))
    return out


# ---------------------------------------------------------------------- the panel
def _legend(style: Style) -> list[tuple[str, str]]:
    """What the fill colours mean, where the map fills by a property's value."""
    out = []
    for item in style.styles:
        if item.get("fill_by") and item.get("colours"):
            out += [(f"{item['fill_by']} {value}", css_colour(colour, "#fff")) for value, colour in item["colours"].items()]
    for kind, spec in style.areas.items():
        if spec.get("fill_by") and spec.get("colours"):
            out += [(f"{kind} {value}", css_colour(colour, "#fff")) for value, colour in spec["colours"].items()]
    return out


def _panel(view: SeatView, style: Style, x0: float) -> tuple[str, float]:
    """The side panel of a seat's view: one branch a part shown, most of which a style may hide."""
    hide = set(style.panel.get("hide", []))
    x = x0 + 10
    y = MARGIN + 4
    width_chars = 46
    out = [f'<g class="panel"><rect x="{_f(x0)}" y="{_f(MARGIN - 6)}" width="{PANEL_WIDTH - 6}" height="@H@" rx="8" fill="#fffdf7" stroke="#d5cbb3"/>']

    def line(text, size=12.0, weight="normal", fill="#222", indent=0.0, swatch=None):
        nonlocal y
        y += size + 4
        if swatch:
            out.append(f'<rect x="{_f(x + indent)}" y="{_f(y - size + 1)}" width="{_f(size)}" height="{_f(size)}" rx="2" '
                       f'fill={quoteattr(swatch)} stroke="#222" stroke-width="0.8"/>')
            indent += size + 5
        out.append(_text(x + indent, y, text, size=size, anchor="start", fill=fill, weight=weight))

    for i, piece in enumerate(wrap(style.title or view.title, 36)):
        line(piece, size=15, weight="bold")
    line(status_line(view), fill="#5b4a2f")
    line("view: " + (view.seats[view.seat] if view.seat is not None else "public (what every player sees)"), size=11, fill="#777")
    if view.terminal and view.ranking is not None:
        line("ranking: " + ranking_text(view), weight="bold")
        if view.scores is not None:
            line("scores: " + ", ".join(f"{view.seats[p]} {value_text(s)}" for p, s in enumerate(view.scores)))
    y += 6
    for p, name in enumerate(view.seats):
        marks = []
        if view.seat == p:
            marks.append("you")
        if name == view.to_move and not view.terminal:
            marks.append("to move")
        line(name + (f"  ({', '.join(marks)})" if marks else ""), size=13, weight="bold", swatch=view.colours[p])
        items = zone_texts(player_zones(view, p, hide), view.seats)
        items += [f"{k} {value_text(v)}" for k, v in player_vars(view, p)]
        for piece in wrap(" · ".join(items), width_chars):
            line(piece, size=11.5, indent=22)
    shared = zone_texts(shared_zones(view, hide), view.seats)
    if shared:
        y += 4
        line("on the table", size=12, weight="bold")
        for piece in wrap(" · ".join(shared), width_chars):
            line(piece, size=11.5, indent=10)
    key = _legend(style)
    if key:
        y += 4
        line("key", size=12, weight="bold")
        for name, colour in key:
            line(name, size=11.5, indent=10, swatch=colour)
    values = [f"{k} {value_text(v)}" for k, v in global_vars(view)]
    if values:
        y += 4
        line("variables", size=12, weight="bold")
        for piece in wrap(" · ".join(values), width_chars):
            line(piece, size=11.5, indent=10)
    if view.log:
        y += 4
        line("log", size=12, weight="bold")
        for entry in view.log[-4:]:
            for piece in wrap(entry, width_chars)[:2]:
                line(piece, size=11, indent=10, fill="#555")
    y += 12
    out.append("</g>")
    text = "\n".join(out).replace("@H@", _f(y - MARGIN + 6))
    return text, y + MARGIN
