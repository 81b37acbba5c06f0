"""The side panel of an SVG picture: whose turn, the phase, each player's zones and variables, the
shared zones, the legend."""
from __future__ import annotations

from xml.sax.saxutils import quoteattr

from .style import Style, css_colour
from .svg_ink import MARGIN, PANEL_WIDTH, num, svg_text
from .text import global_vars, player_vars, player_zones, ranking_text, shared_zones, status_line, value_text, wrap, zone_texts
from .view import SeatView


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


def side_panel(view: SeatView, style: Style, x0: float) -> tuple[str, float]:
    """The side panel of a seat's view: one branch a part shown, most of which a style may hide."""
    hide = set(style.panel.get("hide", []))
    x = x0 + 10
    y = MARGIN + 4
    width_chars = 46
    out = [f'<g class="panel"><rect x="{num(x0)}" y="{num(MARGIN - 6)}" width="{PANEL_WIDTH - 6}" height="@H@" rx="8" fill="#fffdf7" stroke="#d5cbb3"/>']

    def line(text, size=12.0, weight="normal", fill="#222", indent=0.0, swatch=None):
        nonlocal y
        y += size + 4
        if swatch:
            out.append(f'<rect x="{num(x + indent)}" y="{num(y - size + 1)}" width="{num(size)}" height="{num(size)}" rx="2" '
                       f'fill={quoteattr(swatch)} stroke="#222" stroke-width="0.8"/>')
            indent += size + 5
        out.append(svg_text(x + indent, y, text, size=size, anchor="start", fill=fill, weight=weight))

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
    text = "\n".join(out).replace("@H@", num(y - MARGIN + 6))
    return text, y + MARGIN
