"""The table of a game without a map: its zones laid out as on a table, components drawn as cards.

The shared zones lie in a row in the middle; each player's zones in an area of its own, in its
colour — the seat the picture is for (or the first) below the middle, the others above it. A zone
is a `<g class="zone" data-zone="KEY">`:

- a deck or a pile is a stack with its count, its top card face up where the seat sees it (a
  visible pile, or a zone whose visibility shows its top), else a back;
- any other zone is a row of card faces (fanned when many) where the seat sees it, else of backs
  with the count: a back never carries a label, so a hidden hand shows only how many cards it holds.

A face shows the component's label and the numbers and colours its type declares (`value`,
`colour`: `Piece.props`), its border in the owner's colour where it has one.
"""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .style import Style, rgb
from .svg_ink import MARGIN, ink_on, num, svg_text
from .text import player_zones, shared_zones, value_text, wrap
from .view import Piece, SeatView, ZoneView

CARD_W, CARD_H = 50.0, 70.0
GAP = 14.0  # between zones
HEAD = 20.0  # a zone's name above it
STACKS = ("deck", "pile", "stack", "discard")  # zone kinds drawn as a stack (the top item on top)
MOST_FACES = 10  # a row of more faces is fanned into this many cards' width
BACK = "#7a5c3e"
MARK_FROM, MARK_TO = "#c0392b", "#d35400"


def _colour_prop(piece: Piece) -> str | None:
    for value in piece.props.values():
        colour = rgb(value) if isinstance(value, str) else None
        if colour is not None:
            return "#%02x%02x%02x" % colour  # the palette's red, not the browser's
    return None


def _numbers(piece: Piece) -> list[str]:
    out = []
    for value in piece.props.values():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out.append(f"{value:g}" if isinstance(value, float) else str(value))
    return out


def card_face(view: SeatView, p: Piece, x: float, y: float, count: int | None = None, shown: float = CARD_W) -> str:
    """One card face up: its label, its numbers in the corner, its colour as a band (`shown`: how much
    of its width the next card of a fan leaves uncovered; the label then starts at its left)."""
    colour = _colour_prop(p)
    border = view.colours[p.owner] if p.owner is not None and p.owner < len(view.colours) else "#3a2a1a"
    whose = f"{view.seats[p.owner]}'s " if p.owner is not None and p.owner < len(view.seats) else ""
    props = ", ".join(f"{k} {v}" for k, v in p.props.items())
    title = f"{p.count} × {whose}{p.type} {p.label}" + (f" ({props})" if props else "")
    out = [f'<g class="card face" data-label={quoteattr(p.label)}><title>{escape(title)}</title>',
           f'<rect x="{num(x)}" y="{num(y)}" width="{num(CARD_W)}" height="{num(CARD_H)}" rx="5" fill="#fffdf7" '
           f'stroke={quoteattr(border)} stroke-width="{2 if p.owner is not None else 1.2}"/>']
    if colour:
        out.append(f'<rect x="{num(x + 3)}" y="{num(y + CARD_H - 14)}" width="{num(CARD_W - 6)}" height="10" rx="2" '
                   f'fill={quoteattr(colour)}/>')
    ink = colour if colour and ink_on(colour) == "#fff" else "#2b2116"
    numbers = _numbers(p)
    if numbers:
        out.append(svg_text(x + 5, y + 17, numbers[0], size=15, anchor="start", fill=ink, weight="bold"))
    lines = wrap(p.label, 8 if shown >= CARD_W else max(3, int(shown / 6.2)))[:2]
    for i, line in enumerate(lines):
        lx, anchor = (x + CARD_W / 2, "middle") if shown >= CARD_W else (x + 4, "start")
        out.append(svg_text(lx, y + CARD_H / 2 + 6 + i * 11 - (len(lines) - 1) * 5.5, line,
                            size=10, anchor=anchor, fill="#2b2116"))
    n = p.count if count is None else count
    if n > 1:
        out.append(_badge(x + CARD_W - 4, y + 4, f"×{n}"))
    out.append("</g>")
    return "".join(out)


def card_back(x: float, y: float) -> str:
    return (f'<rect class="card back" x="{num(x)}" y="{num(y)}" width="{num(CARD_W)}" height="{num(CARD_H)}" rx="5" '
            f'fill="{BACK}" stroke="#3a2a1a" stroke-width="1.2"/>'
            f'<rect x="{num(x + 5)}" y="{num(y + 5)}" width="{num(CARD_W - 10)}" height="{num(CARD_H - 10)}" rx="3" '
            f'fill="none" stroke="#e8dcc0" stroke-opacity="0.6"/>')


def _badge(x: float, y: float, text: str) -> str:
    w = 8 + 6.5 * len(text)
    return (f'<rect x="{num(x - w / 2)}" y="{num(y - 8)}" width="{num(w)}" height="16" rx="8" fill="#2b2116"/>'
            + svg_text(x, y + 4, text, size=10.5, fill="#fff", weight="bold"))


def _faces(zone: ZoneView) -> list[Piece]:
    return list(zone.pieces or [])


def zone_width(zone: ZoneView) -> float:
    if zone.kind in STACKS or zone.count == 0:
        body = CARD_W + 8
    elif zone.pieces is None:
        body = CARD_W + (min(zone.count, 5) - 1) * 10
    else:
        n = len(_faces(zone))
        body = CARD_W + (n - 1) * _step(n)
    return max(body, 7.0 * len(_title(zone))) + 2 * 8


def _step(n: int) -> float:
    if n <= 1:
        return 0.0
    return min(CARD_W + 5, (MOST_FACES - 1) * (CARD_W + 5) / (n - 1) if n > MOST_FACES else CARD_W + 5)


def _title(zone: ZoneView) -> str:
    return f"{zone.name} {zone.count}"


ZONE_H = HEAD + CARD_H + 16


def draw_zone(view: SeatView, zone: ZoneView, x: float, y: float, width: float) -> str:
    """A zone at (x, y), `width` wide: its name and count above, its cards below (only what the seat sees)."""
    mark = view.last.get(zone.key)
    cls = "zone" + (f" last {mark}" if mark else "")
    out = [f'<g class="{cls}" data-zone={quoteattr(zone.key)}>',
           f'<rect x="{num(x)}" y="{num(y)}" width="{num(width)}" height="{num(ZONE_H)}" rx="6" fill="#fffaf0" '
           f'fill-opacity="0.7" stroke="#d5cbb3"/>',
           svg_text(x + width / 2, y + 14, _title(zone), size=11.5, fill="#4a3b28", weight="bold")]
    cy = y + HEAD + 4
    if zone.count == 0:
        cx = x + (width - CARD_W) / 2
        out.append(f'<rect x="{num(cx)}" y="{num(cy)}" width="{num(CARD_W)}" height="{num(CARD_H)}" rx="5" fill="none" '
                   f'stroke="#b8ab8c" stroke-dasharray="4 3"/>')
    elif zone.kind in STACKS:
        out += _stack(view, zone, x + (width - CARD_W - 8) / 2, cy)
    elif zone.pieces is None:  # a hidden hand: backs and how many
        n = min(zone.count, 5)
        body = CARD_W + (n - 1) * 10
        cx = x + (width - body) / 2
        for i in range(n):
            out.append(card_back(cx + i * 10, cy))
        out.append(_badge(cx + body - CARD_W / 2, cy + CARD_H / 2, str(zone.count)))
    else:
        faces = _faces(zone)
        step = _step(len(faces))
        body = CARD_W + (len(faces) - 1) * step
        cx = x + (width - body) / 2
        for i, p in enumerate(faces):
            out.append(card_face(view, p, cx + i * step, cy, shown=step if i < len(faces) - 1 else CARD_W))
    if mark:
        dash = ' stroke-dasharray="7 4"' if mark == "from" else ""
        colour = MARK_FROM if mark == "from" else MARK_TO
        out.append(f'<rect class="mark {mark}" x="{num(x - 2)}" y="{num(y - 2)}" width="{num(width + 4)}" '
                   f'height="{num(ZONE_H + 4)}" rx="8" fill="none" stroke="{colour}" stroke-width="3"{dash}/>')
    out.append("</g>")
    return "\n".join(out)


def _stack(view: SeatView, zone: ZoneView, x: float, y: float) -> list[str]:
    """A stack: backs under its top card, the top face up where the seat sees it, the count."""
    out = []
    under = min(zone.count - 1, 3)
    for i in range(under, 0, -1):
        out.append(card_back(x + i * 2.5, y + i * 2.5))
    top = None
    if zone.pieces is not None and zone.pieces:
        top = zone.pieces[-1] if zone.kind not in ("bag", "set") else None
        if top is not None:
            top = Piece(top.type, top.owner, top.label, 1, top.props)
    elif zone.top_piece is not None:
        top = Piece(zone.top_piece.type, zone.top_piece.owner, zone.top_piece.label, 1, zone.top_piece.props)
    if top is not None:
        out.append(card_face(view, top, x, y, count=1))
    else:
        out.append(card_back(x, y))
    out.append(_badge(x + CARD_W + 2, y + CARD_H + 2, str(zone.count)))
    return out


def _row(view: SeatView, zones: list[ZoneView], y: float) -> tuple[list[tuple[ZoneView, float]], float]:
    widths = [zone_width(z) for z in zones]
    return list(zip(zones, widths)), sum(widths) + GAP * max(0, len(zones) - 1)


def _visible(zones: list[ZoneView]) -> list[ZoneView]:
    return [z for z in zones if not (z.name == "out_of_game" and z.count == 0)]  # the built-in zone, when empty


def table(view: SeatView, style: Style) -> tuple[str, float, float]:
    """The table: the shared zones in the middle, each player's area around them. Returns (svg, width, height)."""
    hide = set(style.panel.get("hide", []))
    n = len(view.seats)
    me = view.seat if view.seat is not None else 0
    others = [p for p in range(me + 1, n)] + [p for p in range(0, me)]
    areas = {}
    for p in range(n):
        zones = _visible(player_zones(view, p, hide))
        items, w = _row(view, zones, 0)
        areas[p] = (items, max(w, 140.0) + 2 * 12)
    shared_items, shared_w = _row(view, _visible(shared_zones(view, hide)), 0)
    area_h = 26 + ZONE_H + 12
    top_w = sum(areas[p][1] for p in others) + GAP * max(0, len(others) - 1)
    width = max(top_w, shared_w, areas[me][1] if n else 0.0, 200.0)
    out = ['<g class="table">']
    y: float = MARGIN

    def area(p: int, x: float, y: float) -> str:
        items, w = areas[p]
        marks = []
        if view.seat == p:
            marks.append("you")
        if view.seats[p] == view.to_move and not view.terminal:
            marks.append("to move")
        if view.terminal and view.ranking is not None:  # the end: each player's place and score
            place = next((i for i, group in enumerate(view.ranking) if p in group), None)
            if place is not None:
                place_n = 1 + sum(len(g) for g in view.ranking[:place])
                marks.append({1: "1st", 2: "2nd", 3: "3rd"}.get(place_n, f"{place_n}th"))
            if view.scores is not None and p < len(view.scores):
                marks.append(f"score {value_text(view.scores[p])}")
        colour = view.colours[p]
        parts = [f'<g class="area player" data-player={quoteattr(view.seats[p])}>',
                 f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(area_h)}" rx="10" fill={quoteattr(colour)} '
                 f'fill-opacity="0.10" stroke={quoteattr(colour)} stroke-width="2"/>',
                 svg_text(x + 12, y + 18, view.seats[p] + (f"  ({', '.join(marks)})" if marks else ""), size=13,
                          anchor="start", fill="#2b2116", weight="bold")]
        zx = x + (w - (sum(zw for _, zw in items) + GAP * max(0, len(items) - 1))) / 2
        for z, zw in items:
            parts.append(draw_zone(view, z, zx, y + 26, zw))
            zx += zw + GAP
        parts.append("</g>")
        return "\n".join(parts)

    if others:
        x = MARGIN + (width - top_w) / 2
        for p in others:
            out.append(area(p, x, y))
            x += areas[p][1] + GAP
        y += area_h + GAP * 1.5
    if shared_items:
        x = MARGIN + (width - shared_w) / 2
        out.append('<g class="area shared">')
        for z, zw in shared_items:
            out.append(draw_zone(view, z, x, y, zw))
            x += zw + GAP
        out.append("</g>")
        y += ZONE_H + GAP * 1.5
    if n:
        out.append(area(me, MARGIN + (width - areas[me][1]) / 2, y))
        y += area_h
    out.append("</g>")
    return "\n".join(out), width + 2 * MARGIN, y + MARGIN
