"""The screen `leges play` shows one seat: the position as that seat may see it, then its options.

Kept beside the other pictures of a game (not in the command line) because `leges check-leaks`
(leaks.py) checks it too: what the terminal shows a seat is part of what may not leak.

Every text of the view that a ruleset, map or saved state wrote (the title, seats, phase, labels,
values, log lines) is `shown` (terminal.py) before the screen is built and before any colour
is added: in colour or not, a file's escape sequence or newline is shown, never obeyed.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..text.terminal import shown
from .view import Piece, SeatView

NAME = 60  # characters of a seat's, a phase's or a component's name on the screen
HEIGHT = 50  # the lines of the screen it fits when the terminal does not say
WIDTH = 100  # its characters a line


def option_labels(st, player: int, lang: str | None = "en", texts: bool = False) -> list[str]:
    """Each legal action of `player` as the screen lists it: in words where the ruleset gives a phrase
    (engine/words.py; `texts` or no `lang`: the text forms, as they are typed), else its text form; each `shown`."""
    from ..engine.words import worded
    out = []
    for action in st.legal_actions(player):
        said = None if texts or lang is None else worded(st.game, action.text, lang)
        out.append(shown(said if said is not None else action.text))
    return out


def option_lines(labels: list[str], room: int, width: int = WIDTH, page: int = 0) -> list[str]:
    """Numbered options in at most `room` lines: in columns where they fit side by side, else by pages
    (`page` counts from 0 and wraps), the last line then telling which are shown and how to see more."""
    if not labels:
        return []
    items = [f"{i:3}. {label}" for i, label in enumerate(labels, 1)]
    room = max(room, 4)
    col = min(max(len(item) for item in items) + 2, width)
    ncols = max(1, width // col)
    rows = -(-len(items) // ncols)
    if rows <= room:
        per_page, first = len(items), 0
    else:
        rows = room - 1
        per_page = rows * ncols
        pages = -(-len(items) // per_page)
        first = (page % pages) * per_page
    shown_items = items[first:first + per_page]
    rows = -(-len(shown_items) // ncols)
    lines = []
    for r in range(rows):
        cells = [shown_items[c * rows + r] for c in range(ncols) if c * rows + r < len(shown_items)]
        lines.append(" " + "".join(cell.ljust(col) for cell in cells[:-1]) + cells[-1])
    if per_page < len(items):
        last = min(first + per_page, len(items))
        lines.append(f"   -- options {first + 1}-{last} of {len(items)}: type `more` for the next, "
                     "or any option's number --")
    return lines


def _wrapped(line: str, width: int, indent: str = "      ") -> list[str]:
    from .text import wrap
    if len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    parts = wrap(line.strip(), width - len(indent))
    return [" " * lead + parts[0]] + [indent + part for part in parts[1:]]


def screen(st, player: int, colour: bool = False, lang: str | None = None, texts: bool = False, page: int = 0,
           height: int = HEIGHT, width: int = WIDTH) -> list[str]:
    """The lines shown to `player` when it decides: the position as it may see it, then its options,
    in at most `height` lines of `width` characters (the options in columns, or by pages). Components'
    and zones' display names and the actions' phrases are in `lang` where the ruleset gives them (no
    `lang`: their ids and text forms, as `leges check-leaks` compares them)."""
    from .board_text import badge, board_lines, key_line, mark_line, signs_line
    from .style import style_of
    from .text import global_vars, player_vars, player_zones, shared_zones, status_line, value_text, zone_texts
    from .view import seat_view
    style = style_of(st.game.board)
    view = safe_view(seat_view(st, player, style))
    hide = set(style.panel.get("hide", []))
    phrases = getattr(st.game, "words", None)
    names = None
    if phrases and lang is not None:
        def names(label):
            said = phrases.name(label, lang)
            return shown(said, NAME) if said else None
    called = seats_called(st.game, view.seats, lang)  # the seats' display names (the view keeps their names)
    worded = replace(view, turn=_called(view, called, view.turn), to_move=_called(view, called, view.to_move))
    lines = [f"-- {view.title} · {status_line(worded)} · you are {called[player]}"]
    by_name = dict(zip(view.seats, called))
    board = board_lines(st.game.board, view, style, colour)
    for line in board:  # a graph's nodes may be long; the rows of squares and hexes are as wide as the map
        lines += [line] if "\x1b" in line else _wrapped(line, width)
    key = key_line(view, style, st.game.board) if board else None
    if key:
        lines.append(key)
    marked = mark_line(view) if board else None
    if marked:
        lines += _wrapped(marked, width)
    signs = signs_line(st.game.board, style) if board else None
    if signs:
        lines += _wrapped(signs, width)
    order = [player] + [p for p in range(len(view.seats)) if p != player]
    for p in order:
        items = zone_texts(player_zones(view, p, hide), view.seats, names)
        items += [f"{name} {value_text(_seats_in(st, name, value, by_name))}" for name, value in player_vars(view, p)]
        name = called[p] + (" (you)" if p == player else "") + (" *" if view.seats[p] == view.to_move and p != player else "")
        text = f"   {name}: " + (" · ".join(items) if items else "-")
        if colour:  # wrapped first, then the seat's name painted (a chip: readable on any background)
            parts = _wrapped(text, width)
            lines += [parts[0].replace(name, badge(name, view.colours[p]), 1)] + parts[1:]
        else:
            lines += _wrapped(text, width)
    table = zone_texts(shared_zones(view, hide), view.seats, names)
    if table:
        lines += _wrapped("   table: " + " · ".join(table), width)
    values = [f"{name} {value_text(_seats_in(st, name, value, by_name))}" for name, value in global_vars(view)]
    if values:
        lines += _wrapped("   variables: " + " · ".join(values), width)
    from ..engine.words import worded_log
    for line in view.log[-3:]:
        said = worded_log(st.game, line, lang, view.seats) if lang is not None else None
        lines += _wrapped(f"   log: {shown(said) if said else line}", width)
    if st.current_player() == player or st.legal_actions(player):
        labels = option_labels(st, player, lang, texts)
        lines += option_lines(labels, height - len(lines) - 2, width, page)
    return lines


def seats_called(game, seats: list[str], lang: str | None) -> list[str]:
    """Each seat as people read it in `lang` (its display name, engine/words.py), each `shown`; no
    `lang`: the names themselves (as `leges check-leaks` compares screens)."""
    from ..engine.words import seat_called
    return [shown(seat_called(game, s, lang), NAME) if lang is not None else s for s in seats]


def _seats_in(st, name: str, value: Any, called: dict[str, str]) -> Any:
    """A variable's value as the view shows it (seats by name), its seats by their display names
    where its declared type holds players (`leader x` → `leader Cross`); other values as they are."""
    symbols = st.game.compiler.symbols if st.game.compiler is not None else None
    info = symbols.variables.get(name) if symbols is not None else None
    ty = info.type if info is not None else None
    while ty is not None and ty.kind == "list":
        ty = ty.elem
    if ty is None or ty.kind != "player":
        return value

    def one(v: Any) -> Any:
        return [one(x) for x in v] if isinstance(v, list) else called.get(v, v) if isinstance(v, str) else v
    return one(value)


def _called(view: SeatView, called: list[str], name: str) -> str:
    return called[view.seats.index(name)] if name in view.seats else name


def safe_view(view: SeatView) -> SeatView:
    """`view` with each of its texts from files one harmless line of bounded length (comparisons
    of them, such as a label that is its owner's seat name, still hold: each is shown alike)."""
    def piece(p: Piece) -> Piece:
        return replace(p, label=shown(p.label, NAME))
    return replace(
        view, title=shown(view.title), seats=[shown(s, NAME) for s in view.seats],
        phase=None if view.phase is None else shown(view.phase, NAME),
        turn=shown(view.turn, NAME), to_move=shown(view.to_move, NAME),
        spaces={s: [piece(p) for p in ps] for s, ps in view.spaces.items()},
        zones=[replace(z, pieces=None if z.pieces is None else [piece(p) for p in z.pieces],
                       top=None if z.top is None else shown(z.top, NAME)) for z in view.zones],
        vars={name: _safe_value(value) for name, value in view.vars.items()},
        log=[shown(line) for line in view.log])


def _safe_value(value: Any) -> Any:
    """A variable's value with every text in it shown: texts, in lists and in mappings."""
    if isinstance(value, str):
        return shown(value, NAME)
    if isinstance(value, list):
        return [_safe_value(v) for v in value]
    if isinstance(value, dict):
        return {shown(k, NAME): _safe_value(v) for k, v in value.items()}
    return value
