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

from .highlights import cell_circle, cell_polygon, highlight_svg
from .layout import Layout, hull, layout_of
from .style import Style, css_colour, fill_template, matches, style_of
from .svg_ink import FONT, MARGIN, PANEL_WIDTH, num, points, svg_text
from .svg_panel import side_panel
from .svg_pieces import node_pieces, pieces_at
from .svg_table import MARK_FROM, MARK_TO, table
from .text import ranking_text, value_text, wrap
from .view import SeatView, seat_view


def render_svg(st, seat: int | None = None, *, style: Style | None = None, targets=(), panel: bool = True,
               view: SeatView | None = None, before=None) -> str:
    """The picture of `st` as `seat` sees it (None: what everybody sees). With `before`, the state
    before the last action, the spaces and zones that action changed are marked (`SeatView.last`).

    `targets` are spaces an action names (the web page makes them clickable): they are drawn even
    where the map's look hides them (the bare table around a map that grows during play)."""
    game = st.game
    if style is None:
        style = style_of(game.board)
    if view is None:
        view = seat_view(st, seat, style, before=before)
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
    elif view.seats:  # no map: the zones laid out as a table (svg_table.py)
        table_svg, width, height = table(view, style)
        parts.append(table_svg)
    if width and view.terminal and view.ranking is not None:  # the end: the ranking and the scores below
        banner_svg, banner_height = _result_banner(view, width)
        parts.append(banner_svg.replace("@Y@", num(height - MARGIN / 2)))
        height += banner_height
    if panel:
        panel_svg, panel_height = side_panel(view, style, x0=width + (MARGIN if width else 0))
        parts.append(panel_svg)
        height = max(height, panel_height)
        width = width + (MARGIN if width else 0) + PANEL_WIDTH
    width, height = math.ceil(width), math.ceil(height)
    who = view.seats[view.seat] if view.seat is not None else "public"
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'{FONT} data-ruleset={quoteattr(view.ruleset)} data-view={quoteattr(who)}>')
    return "\n".join([head, f'<rect width="100%" height="100%" fill="{style.background}"/>', *parts, "</svg>"]) + "\n"


def _result_banner(view: SeatView, width: float) -> tuple[str, float]:
    """A banner across the picture at a terminal state: who won (the ranking) and the scores.
    Its top is left as @Y@ for the caller."""
    ranking = view.ranking or []
    first = ranking[0] if ranking else []
    if len(first) == 1 and len(ranking) > 1:
        head = f"{view.seats[first[0]]} wins"
    elif len(ranking) == 1:
        head = "a draw" if len(first) > 1 else f"{view.seats[first[0]]} wins"
    else:
        head = " and ".join(view.seats[p] for p in first) + " share first place"
    lines = [("game over · " + head, 16.0, "bold")]
    if len(view.seats) > 1:
        lines.append(("ranking: " + ranking_text(view), 12.0, "normal"))
    if view.scores is not None:
        lines.append(("scores: " + " · ".join(f"{view.seats[p]} {value_text(v)}" for p, v in enumerate(view.scores)), 12.0, "normal"))
    h = 14 + sum(size + 6 for _, size, _ in lines)
    colour = view.colours[first[0]] if len(first) == 1 and first[0] < len(view.colours) else "#5a4a32"
    out = ['<g class="result" transform="translate(0,@Y@)">',
           f'<rect x="{num(MARGIN)}" y="0" width="{num(width - 2 * MARGIN)}" height="{num(h)}" rx="8" fill="#fffdf7" '
           f'stroke={quoteattr(colour)} stroke-width="3"/>']
    y = 8.0
    for text, size, weight in lines:
        y += size + 4
        out.append(svg_text(width / 2, y, text, size=size, weight=weight, fill="#2b2116"))
        y += 2
    out.append("</g>")
    return "\n".join(out), h + MARGIN / 2


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
    out = [f'<g class="board" transform="translate({num(dx)},{num(dy)})">']
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
        out.append(f'<g class="space ghost" data-space={quoteattr(s)}><polygon points="{points(lay.shapes[s])}" '
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
                   f'<polygon points="{points(lay.shapes[s])}" fill={quoteattr(fill)} stroke={quoteattr(look.stroke)} stroke-width="1"/></g>')
    for aid, members, look in outlines:
        segs = lay.outline(members)
        if segs:
            path = " ".join(f"M{num(a[0])},{num(a[1])}L{num(b[0])},{num(b[1])}" for a, b in segs)
            out.append(f'<path class="area" d="{path}" stroke={quoteattr(look["stroke"])} stroke-width="{num(look["width"])}" '
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
            out.append(f'<circle cx="{num(bx)}" cy="{num(by)}" r="{num(r)}" fill="#fffaf0" stroke={quoteattr(look["stroke"])} stroke-width="1"/>')
            out.append(svg_text(bx, by + r * 0.45, look["label"], size=r * 1.25, weight="bold", fill="#2b2116"))
    for s in shown:
        drawn = pieces_at(view, style, lay.centres[s], size, view.spaces.get(s, []), view.hidden_spaces.get(s))
        if drawn:  # over the outlines; clicking a piece is clicking its space
            out.append(f'<g class="pieces" data-space={quoteattr(s)}>' + "".join(drawn) + "</g>")
    for s in shown:  # what the last action changed: where it took from dashed, where it put solid
        if s in view.last:
            out.append(f'<polygon class="last {view.last[s]}" data-space={quoteattr(s)} points="{points(lay.shapes[s])}" '
                       f'{_last_stroke(view.last[s])}/>')
    out += highlight_svg(view.highlights, {s: lay.centres[s] for s in shown}, cell_polygon(lay.shapes), size)
    for s in shown:  # spaces an action names: a highlight over everything, which takes the click
        if s in targets:
            out.append(f'<g class="hit target" data-space={quoteattr(s)}><title>{escape(s)}</title>'
                       f'<polygon points="{points(lay.shapes[s])}" fill="#1d6fd8" fill-opacity="0.12" '
                       f'stroke="#1d6fd8" stroke-width="3"/></g>')
    return out


def _last_stroke(mark: str) -> str:
    """The mark of a space or zone the last action changed: "from" dashed, "to" solid (svg_table.py too)."""
    colour = MARK_FROM if mark == "from" else MARK_TO
    dash = ' stroke-dasharray="7 4"' if mark == "from" else ""
    return f'fill="none" stroke="{colour}" stroke-width="3" pointer-events="none"{dash}'


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
                    out.append(f'<circle cx="{num(right - i * gap)}" cy="{num(top + size * 0.13)}" r="{num(r)}" '
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
            out.append(svg_text(cx, y, text, size=fs, fill=colour, weight=mark.get("weight", "normal")))
    if look.label:
        fs = size * 0.16
        lines = wrap(look.label, 12)[:2]
        for i, line in enumerate(lines):
            out.append(svg_text(cx, cy + size * 0.5 - fs * 0.5 - (len(lines) - 1 - i) * fs * 1.05, line, size=fs,
                             fill="#4a3b28", extra=' font-style="italic"'))
    return out


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
            out.append(f'<polygon class="area" points="{points(hull(pts))}" fill={quoteattr(fill)} fill-opacity="{num(look["opacity"])}" '
                       f'stroke={quoteattr(look["stroke"])} stroke-width="{num(look["width"])}" stroke-linejoin="round"/>')
            if look["label"]:  # below the area, where the nodes' labels (above them) are not
                low = max(lay.centres[s][1] for s in members)
                lx = sum(lay.centres[s][0] for s in members) / len(members)
                labels.append(svg_text(lx, low + pad + 16, look["label"], size=13, weight="bold", fill=look["stroke"]))
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
        out.append(f'<line class="edge" x1="{num(sx)}" y1="{num(sy)}" x2="{num(ex)}" y2="{num(ey)}" stroke={quoteattr(stroke)} '
                   f'stroke-width="{num(width)}"{dash_attr}{marker}/>')
        label = fill_template(edge_spec.get("label", ""), props)
        if label:
            mx, my = (sx + ex) / 2, (sy + ey) / 2
            out.append(f'<circle cx="{num(mx)}" cy="{num(my)}" r="7" fill="#fffaf0" stroke={quoteattr(stroke)} stroke-width="0.8"/>')
            out.append(svg_text(mx, my + 3.5, label, size=9.5, fill="#333"))
    # nodes
    label_tpl = style.node.get("label", "{id}")
    for s in board.spaces:
        if s not in lay.centres:
            continue
        x, y = lay.centres[s]
        look = looks[s]
        props = view.space_props(board, s)
        out.append(f'<g class="space" data-space={quoteattr(s)}><title>{escape(s)}</title>'
                   f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill={quoteattr(look.fill)} stroke={quoteattr(look.stroke)} stroke-width="1.5"/></g>')
        label = style.node_labels.get(s) or fill_template(label_tpl, props)
        if look.label:
            label = look.label
        for i, line in enumerate(reversed(wrap(label, 16)[:2])):
            out.append(svg_text(x, y - r - 4 - i * 11, line, size=10.5, fill="#2b2116"))
        out += _space_marks(board, view, style, lay, type(look)(look.fill, look.stroke), s, r * 2)
        pieces = view.spaces.get(s, [])
        if pieces or view.hidden_spaces.get(s):
            out.append(f'<g class="pieces" data-space={quoteattr(s)}>'
                       + "".join(node_pieces(view, style, x, y + r + 10, pieces, view.hidden_spaces.get(s))) + "</g>")
    for s in board.spaces:
        if s in view.last and s in lay.centres:
            x, y = lay.centres[s]
            out.append(f'<circle class="last {view.last[s]}" data-space={quoteattr(s)} cx="{num(x)}" cy="{num(y)}" '
                       f'r="{num(r + 5)}" {_last_stroke(view.last[s])}/>')
    out += highlight_svg(view.highlights, lay.centres, cell_circle(lay.centres, r + 7), r * 2)
    for s in board.spaces:
        if s in targets and s in lay.centres:
            x, y = lay.centres[s]
            out.append(f'<g class="hit target" data-space={quoteattr(s)}><title>{escape(s)}</title>'
                       f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r + 3)}" fill="#1d6fd8" fill-opacity="0.12" '
                       f'stroke="#1d6fd8" stroke-width="3"/></g>')
    return out
