"""Built-ins of turn order: the next and previous player, the players from one."""
from __future__ import annotations

from ...check import types as T
from .registry import builtin


@builtin("next_player(p, [k])", "The player k seats after p in turn order (clockwise), default 1.",
         "next_player(players[0]) == players[1]")
def _next_player(cx):
    cx.arity(1, 2)
    _, p = cx.code(0, T.PLAYER)
    k = cx.code(1, T.INT)[1] if cx.nargs() == 2 else "1"
    return T.PLAYER, f"(({p}) + ({k})) % st.n"


@builtin("previous_player(p)", "The player one seat before p (counter-clockwise).",
         "previous_player(players[0]) == last(players)")
def _previous_player(cx):
    cx.arity(1, 1)
    _, p = cx.code(0, T.PLAYER)
    return T.PLAYER, f"(({p}) - 1) % st.n"


@builtin("players_from(p)", "All players in turn order, starting with p.",
         "first(players_from(players[1])) == players[1]")
def _players_from(cx):
    cx.arity(1, 1)
    _, p = cx.code(0, T.PLAYER)
    return T.list_of(T.PLAYER), f"(lambda p: [(p + i) % st.n for i in range(st.n)])({p})"
