"""The screen `leges play` shows one seat: the position as that seat may see it, then its options.

Kept beside the other pictures of a game (not in the command line) because `leges check-leaks`
(leaks.py) checks it too: what the terminal shows a seat is part of what may not leak.
"""
from __future__ import annotations


def screen(st, player: int, colour: bool = False) -> list[str]:
    """The lines shown to `player` when it decides: the position as it may see it, then its options."""
    from ..render.board_text import board_lines, key_line, paint
    from ..render.style import style_of
    from ..render.text import global_vars, player_vars, player_zones, shared_zones, status_line, value_text, zone_texts
    from ..render.view import seat_view
    style = style_of(st.game.board)
    view = seat_view(st, player, style)
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
            lines.append(f"  {i:3}. {action.text}")
    return lines
