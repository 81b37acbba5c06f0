"""The components drawn on a space or a node: their shapes, fills (an owner's colour, a look's),
counts and the title a hover shows."""
from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from .style import NEUTRAL, Style, css_colour, fill_template
from .svg_ink import ink_on, num, points, svg_text
from .view import Piece, SeatView


def _piece_fill(view: SeatView, spec: dict, piece: Piece) -> str:
    if "fill" in spec:
        return css_colour(spec["fill"], NEUTRAL)
    if piece.owner is not None and piece.owner < len(view.colours):
        return view.colours[piece.owner]
    return css_colour(spec.get("neutral"), NEUTRAL)


def pieces_at(view: SeatView, style: Style, centre, size: float, pieces: list[Piece], hidden: int | None) -> list[str]:
    cx, cy = centre
    out = []
    if hidden:
        out.append(svg_text(cx, cy + size * 0.1, f"{hidden}?", size=size * 0.3, fill="#555"))
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
            out.append(f'<g class="piece">{title}<rect x="{num(cx - h)}" y="{num(cy - h)}" width="{num(2 * h)}" height="{num(2 * h)}" rx="4" '
                       f'fill={quoteattr(fill)} stroke="#3a2a1a" stroke-width="1.5"/>'
                       + svg_text(cx, cy + size * 0.08, label or p.label, size=size * 0.22, fill=ink_on(fill)) + "</g>")
        elif shape == "text":
            text = label or p.label
            out.append(f'<g class="piece">{title}' + svg_text(cx, cy + size * 0.2, text.upper() if spec.get("upper", True) else text,
                                                          size=size * 0.62, fill=fill, weight="bold") + "</g>")
            if p.count > 1:
                out.append(svg_text(cx + size * 0.3, cy + size * 0.35, f"×{p.count}", size=size * 0.18))
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
                out.append(svg_text(x, y + r * 0.38, inside, size=r * (1.05 if len(inside) <= 2 else 0.8),
                                 fill=ink_on(fill), weight="bold"))
            out.append("</g>")
    return out


def _describe(view: SeatView, p: Piece) -> str:
    whose = f"{view.seats[p.owner]}'s " if p.owner is not None and p.owner < len(view.seats) else ""
    return f"{p.count} × {whose}{p.type} {p.label}"


def _shape(shape: str, x: float, y: float, r: float, fill: str) -> str:
    stroke = f'fill={quoteattr(fill)} stroke="#1b1b1b" stroke-width="1.2"'
    if shape in ("square", "cube"):
        return f'<rect x="{num(x - r)}" y="{num(y - r)}" width="{num(2 * r)}" height="{num(2 * r)}" rx="2" {stroke}/>'
    if shape == "triangle":
        return f'<polygon points="{points([(x, y - r * 1.15), (x + r * 1.1, y + r * 0.85), (x - r * 1.1, y + r * 0.85)])}" {stroke}/>'
    if shape == "house":
        return (f'<polygon points="{points([(x - r, y + r), (x - r, y - r * 0.2), (x, y - r * 1.1), (x + r, y - r * 0.2), (x + r, y + r)])}" '
                f'{stroke}/>')
    if shape == "hex":
        pts = [(x + r * 1.05 * math.cos(math.radians(60 * i - 30)), y + r * 1.05 * math.sin(math.radians(60 * i - 30))) for i in range(6)]
        return f'<polygon points="{points(pts)}" {stroke}/>'
    if shape == "pawn":
        return (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" {stroke}/>'
                f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r * 0.55)}" fill="none" stroke="#000" stroke-opacity="0.25"/>')
    return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" {stroke}/>'


def node_pieces(view, style, x, y, pieces: list[Piece], hidden) -> list[str]:
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
            out.append(svg_text(px, y + r * 0.42, str(p.count), size=r * 1.2, fill=ink_on(fill), weight="bold"))
        out.append("</g>")
    if hidden:
        out.append(svg_text(start + len(items) * gap, y + 4, f"{hidden}?", size=10, fill="#555"))
    return out
