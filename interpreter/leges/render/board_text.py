"""The board as text, for the terminal: squares in rows, hexes in staggered rows, a graph's
occupied nodes as a list. Each space is four characters: what stands on it (`R2`: two of red's
pieces; `X`: a mark labelled x; a piece the map writes a text on, by that text in capitals: a tile
labelled vase `VAS`), else the map's own label for it — the label of the area it lies in where the map labels
areas of that kind (a building's number), else the text a mark writes on it (a start square's
`vase`), else a short label of its own — else the sign the map's `render:` gives it (`glyph`), else `.`.
Whatever label fields a map declares are used; the interpreter knows none by name.

With `colour`, a space is painted in its area's or its own colour and each piece in its owner's
(24-bit colour where the terminal says it has it, else the 256-colour palette). A seat's name is a
chip of its colour with black or white ink on it (`badge`), readable on a dark and a light theme
alike (the seat `black` on a dark terminal). Every text that
comes from a ruleset or a map is `shown` (terminal.py) before colour codes are added.
"""
from __future__ import annotations

import os
import re

from ..text.terminal import shown
from .style import Style, fill_template, matches, rgb
from .view import Piece, SeatView

CELL = 4
RESET = "\x1b[0m"


def truecolor() -> bool:
    return os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")


def _code(colour: str | None, background: bool) -> str:
    value = rgb(colour)
    if value is None:
        return ""
    r, g, b = value
    if truecolor():
        return f"\x1b[{48 if background else 38};2;{r};{g};{b}m"
    return f"\x1b[{48 if background else 38};5;{xterm256(r, g, b)}m"


CUBE = (0, 95, 135, 175, 215, 255)  # the levels of xterm's 6×6×6 colour cube


def xterm256(r: int, g: int, b: int) -> int:
    """The nearest of the 256-colour palette's cube and grey ramp."""
    def level(v):
        return min(range(6), key=lambda i: abs(CUBE[i] - v))
    i, j, k = level(r), level(g), level(b)
    cube = (CUBE[i], CUBE[j], CUBE[k])
    grey_index = min(23, max(0, round((r + g + b) / 3 - 8) // 10))
    grey = 8 + 10 * grey_index

    def dist(c):
        return (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2
    if dist((grey, grey, grey)) < dist(cube):
        return 232 + grey_index
    return 16 + 36 * i + 6 * j + k


def paint(text: str, fg: str | None = None, bg: str | None = None, bold: bool = False) -> str:
    """`text` (shown: one harmless line) in colours; plain when no colour is known."""
    codes = ("\x1b[1m" if bold else "") + (_code(fg, False) if fg else "") + (_code(bg, True) if bg else "")
    text = shown(text)
    return codes + text + RESET if codes else text


def ink_on(colour: str | None) -> str:
    """Black or white, whichever reads better on `colour`."""
    value = rgb(colour)
    if value is None:
        return "#111111"
    r, g, b = value
    return "#111111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#ffffff"


def badge(text: str, colour: str | None) -> str:
    """`text` on a chip of `colour` in black or white ink: readable whatever the terminal's own background."""
    if rgb(colour) is None:
        return paint(text, bold=True)
    return paint(f" {text} ", fg=ink_on(colour), bg=colour, bold=True)


def space_labels(board, style: Style) -> dict[str, str]:
    """The map's own label of each space that has one, as the board shows an empty space: the label of
    the area it lies in where the map labels areas of that kind (`areas: KIND: label:`), else the text
    a mark writes on it (`marks: - text:`), else its own label where it fits a cell."""
    labels: dict[str, str] = {}
    for kind, areas in board.areas.items():
        spec = style.areas.get(kind) or {}
        if not spec.get("label") or spec.get("hidden"):
            continue
        for aid, props in areas.items():
            text = fill_template(spec["label"], dict(props, id=aid))
            for s in board.area_spaces.get(aid, []):
                if text:
                    labels.setdefault(s, text)
    text_marks = [m for m in style.marks if m.get("shape", "text") == "text" and m.get("text")]
    for s in board.spaces:
        if s in labels or not text_marks:
            continue
        props = dict(board.props.get(s, {}), id=s)
        for mark in text_marks:
            if matches(mark.get("when"), props):
                text = fill_template(mark["text"], props)
                if text:
                    labels[s] = text.lower()
                    break
    return labels


def signs_line(board, style: Style) -> str | None:
    """What the signs on empty spaces are, as the map's `render:` declares them (`11: building's number ·
    scroll: vent · G: gate`), or None when the map declares none."""
    if board is None or board.topology == "graph":
        return None
    parts = []
    for kind, spec in style.areas.items():
        if isinstance(spec, dict) and spec.get("label") and kind in board.areas:
            fields = [m for m in re.findall(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", str(spec["label"]))]
            parts.append(f"{kind} {' '.join(fields) or 'id'}")
    marked = set()
    for mark in style.marks:
        if mark.get("shape", "text") == "text" and mark.get("text"):
            fields = re.findall(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", str(mark["text"]))
            if fields:
                marked.update(fields)
                parts.append(f"{', '.join(fields)} in small letters")
    for look in style.styles:
        glyph = str(look.get("glyph") or "")
        if (glyph.strip() and glyph != "." and isinstance(look.get("when"), dict) and len(glyph) < CELL
                and not glyph.isdigit() and not set(look["when"]) <= marked):  # a sign a mark's text replaces: not told
            parts.append(f"{glyph}: {', '.join(str(k) for k in look['when'])}")
        if look.get("glyph_by") and isinstance(look.get("glyphs"), dict):
            parts += [f"{g}: {value}" for value, g in look["glyphs"].items() if str(g).strip() and str(g) != "."]
    if not parts:
        return None
    return "   signs: " + " · ".join(dict.fromkeys(shown(p, 60) for p in parts))


def seat_glyphs(seats: list[str]) -> list[str]:
    """A different capital for each seat: its initial, else the next letter of its name not taken
    (black B, blue L), else its number."""
    taken, out = set(), []
    for i, name in enumerate(seats):
        letters = [c.upper() for c in name if c.isalpha()]
        glyph = next((c for c in letters if c not in taken), str(i + 1))
        taken.add(glyph)
        out.append(glyph)
    return out


def piece_glyph(view: SeatView, style: Style, piece: Piece) -> str:
    spec = style.piece(piece.type)
    if spec.get("text") and piece.owner is None:  # a text the map writes on an unowned piece (a tile's symbol): in capitals
        text = fill_template(spec["text"], {"label": piece.label, "type": piece.type, "count": piece.count})
        if text:
            return text.upper()[:CELL - 1]
    if spec.get("glyph"):
        return str(spec["glyph"])
    if spec.get("shape") == "text":
        return (piece.label[:1] or "?").upper()
    if piece.owner is not None and piece.owner < len(view.seats):
        return seat_glyphs(view.seats)[piece.owner]
    return (piece.label[:1] or piece.type[:1] or "?").lower()


def key_line(view: SeatView, style: Style, board) -> str | None:
    """Which letter is whose, when a seat's letter is not its initial or the board holds pieces by letter."""
    glyphs = seat_glyphs(view.seats)
    if board is None or board.topology == "graph" or all(style.piece(t).get("shape") == "text" for t in _types(view)):
        return None
    return "   key: " + " · ".join(f"{g} {name}" for g, name in zip(glyphs, view.seats))


def _types(view: SeatView) -> set:
    return {p.type for ps in view.spaces.values() for p in ps}


def cell_text(view: SeatView, style: Style, pieces: list[Piece], hidden: int | None, glyph: str,
              label: str = "") -> list[tuple[str, str | None]]:
    """What a space shows, as (text, colour) runs filling CELL - 1 characters."""
    runs: list[tuple[str, str | None]] = []
    if pieces:
        for p in pieces:
            g = piece_glyph(view, style, p)
            spec = style.piece(p.type)
            colour = spec.get("fill") if spec.get("fill") else (view.colours[p.owner] if p.owner is not None and p.owner < len(view.colours) else None)
            runs.append((shown(g, CELL) + (str(p.count) if p.count > 1 else ""), colour))
    elif hidden:
        runs.append((f"{hidden}?", None))
    elif label:
        runs.append((shown(label, CELL), None))
    else:
        runs.append((shown(glyph, CELL) if glyph else ".", None))
    out, used = [], 0
    for text, colour in runs:
        room = CELL - 1 - used
        if room <= 0:
            break
        if len(text) > room:
            text = text[:room] if not pieces else text[: room - 1] + "+" if room > 1 else "+"
        out.append((text, colour))
        used += len(text)
    return out


def _lightness(colour: str | None) -> float | None:
    value = rgb(colour)
    return None if value is None else 0.299 * value[0] + 0.587 * value[1] + 0.114 * value[2]


def _alike(a: str, b: str) -> bool:
    """Two colours too alike in lightness for one to be read on the other."""
    x, y = _lightness(a), _lightness(b)
    return x is not None and y is not None and abs(x - y) < 60


def _render_cell(runs, bg: str | None, colour: bool, marked: bool = False) -> str:
    """A space's CELL characters. A space a highlight marks (a winning line): in colour on the mark's
    colour, without colour followed by `*` (`mark_line` says what the stars are)."""
    used = sum(len(t) for t, _ in runs)
    pad = " " * (CELL - used)
    if not colour:
        return "".join(t for t, _ in runs) + ("*" + pad[1:] if marked else pad)
    text = ""
    for t, fg in runs:
        if fg is not None and bg is not None and _alike(fg, bg):  # a piece the colour of its space: on a chip
            text += paint(t, fg=ink_on(fg), bg=fg, bold=True)
        else:
            text += paint(t, fg=fg or "#222222", bg=bg, bold=fg is not None)
    return text + paint(pad, bg=bg) if pad else text


def _space_colours(board, style: Style) -> dict[str, str]:
    """Each space's fill: its area's where the map fills areas of a kind, else its own look's."""
    fills: dict[str, str] = {}
    for kind, areas in board.areas.items():
        for aid, props in areas.items():
            look = style.area_look(kind, dict(props, id=aid))
            if look is not None and look["fill"] != "none":
                for s in board.area_spaces.get(aid, []):
                    fills.setdefault(s, look["fill"])
    return fills


def board_lines(board, view: SeatView, style: Style, colour: bool = False) -> list[str]:
    """The board as lines of text (nothing for a board of another topology than squares and hexes:
    `graph_lines` lists what stands on a graph's nodes)."""
    if board is None:
        return []
    if board.topology == "graph":
        return graph_lines(board, view, style, colour)
    looks = style.looks(board, view.sprops)
    occupied = set(view.spaces) | set(view.hidden_spaces)
    shown = [s for s in board.spaces if not looks[s].hidden or s in occupied]
    if not shown:
        return []
    fills = _space_colours(board, style)
    labels = space_labels(board, style)
    hexes = board.topology == "hex"
    place = {}
    for s in shown:
        a, b = board.coords[s]
        if hexes:  # axial q, r: rows by r, staggered by half a cell
            place[s] = (b, 2 * a + b)
        else:
            place[s] = (a, 2 * b)
    rows = sorted({r for r, _ in place.values()})
    x0 = min(x for _, x in place.values())
    x1 = max(x for _, x in place.values())
    by_place = {v: s for s, v in place.items()}
    marks = marked_spaces(view)
    half = CELL // 2
    lines = []
    if not hexes:
        cols = range(x0 // 2, x1 // 2 + 1)
        lines.append("     " + "".join(f"{'c' + str(c):<{CELL}}" for c in cols))
    for r in rows:
        label = f"r{r}" if not hexes else f"{r:>3}"
        text = f"{label:>4} "
        x = x0
        while x <= x1:
            s = by_place.get((r, x))
            if s is None:
                text += " " * half
                x += 1
                continue
            look = looks[s]
            own = look.label if look.label and len(look.label) < CELL else ""
            runs = cell_text(view, style, view.spaces.get(s, []), view.hidden_spaces.get(s), look.glyph,
                             labels.get(s) or own)
            bg = (marks.get(s) or fills.get(s, look.fill)) if colour else None
            text += _render_cell(runs, bg, colour, s in marks)
            x += 2
        lines.append(text.rstrip() if not colour else text)
    return lines


def marked_spaces(view: SeatView) -> dict[str, str]:
    """Space → the colour of the first highlight marking it (render/highlights.py)."""
    out: dict[str, str] = {}
    for mark in view.highlights:
        for s in mark.spaces:
            out.setdefault(s, mark.colour)
    return out


def mark_line(view: SeatView) -> str | None:
    """What the board's marks are: each highlight by its id, with its spaces in order."""
    if not view.highlights:
        return None
    return "   marked (*): " + " · ".join(f"{shown(m.id)} {' '.join(m.spaces)}" for m in view.highlights)


def graph_lines(board, view: SeatView, style: Style, colour: bool = False) -> list[str]:
    """A graph's occupied nodes (and those a highlight marks, with a `*`), one line each:
    `rome: 2 red cube, 1 blue city`."""
    out = []
    marks = marked_spaces(view)
    for s in board.spaces:
        pieces = view.spaces.get(s)
        hidden = view.hidden_spaces.get(s)
        if not pieces and not hidden and s not in marks:
            continue
        name = style.node_labels.get(s) or s
        parts = []
        for p in pieces or []:
            whose = view.seats[p.owner] + " " if p.owner is not None and p.owner < len(view.seats) else ""
            text = f"{p.count} {whose}{p.type}"
            fg = view.colours[p.owner] if colour and p.owner is not None and p.owner < len(view.colours) else None
            parts.append(badge(text, fg) if colour and fg else text)
        if hidden:
            parts.append(f"{hidden} hidden")
        out.append(f"   {paint(s)}" + ("*" if s in marks else "") + (f" ({shown(name)})" if name != s else "") + ": "
                   + (", ".join(parts) or "-"))
    return out
