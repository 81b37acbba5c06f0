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


def screen(st, player: int, colour: bool = False) -> list[str]:
    """The lines shown to `player` when it decides: the position as it may see it, then its options."""
    from .board_text import board_lines, key_line, paint
    from .style import style_of
    from .text import global_vars, player_vars, player_zones, shared_zones, status_line, value_text, zone_texts
    from .view import seat_view
    style = style_of(st.game.board)
    view = safe_view(seat_view(st, player, style))
    hide = set(style.panel.get("hide", []))
    lines = [f"-- {view.title} · {status_line(view)} · you are {view.seats[player]}"]
    board = board_lines(st.game.board, view, style, colour)
    lines += board
    key = key_line(view, style, st.game.board) if board else None
    if key:
        lines.append(key)
    order = [player] + [p for p in range(len(view.seats)) if p != player]
    for p in order:
        items = zone_texts(player_zones(view, p, hide), view.seats)
        items += [f"{name} {value_text(value)}" for name, value in player_vars(view, p)]
        name = view.seats[p] + (" (you)" if p == player else "") + (" *" if view.seats[p] == view.to_move and p != player else "")
        if colour:
            name = paint(name, fg=view.colours[p], bold=True)
        lines.append(f"   {name}: " + (" · ".join(items) if items else "-"))
    table = zone_texts(shared_zones(view, hide), view.seats)
    if table:
        lines.append("   table: " + " · ".join(table))
    values = [f"{name} {value_text(value)}" for name, value in global_vars(view)]
    if values:
        lines.append("   variables: " + " · ".join(values))
    for line in view.log[-3:]:
        lines.append(f"   log: {line}")
    if st.current_player() == player or st.legal_actions(player):
        for i, action in enumerate(st.legal_actions(player), 1):
            lines.append(f"  {i:3}. {shown(action.text)}")
    return lines


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
