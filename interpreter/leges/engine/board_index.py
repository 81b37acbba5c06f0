"""The components on the board's spaces, kept by every move: a generic index the compiled rules go
through instead of every component of a type.

Rules often go through the components of a type (and owner) that stand on the board —
`[t.space for t in components("tile") if t.space != none]`, the pieces a player still has on the
map. Going through all of them asks each where it is, though most may be in a pile, a supply or the box.
So a state keeps, for each type and each (type, owner), the ids of those on a board space, in id
order (the order `components` gives): a move onto or off the board changes two short tuples (never
changed in place, so a copy shares them), a move from space to space nothing. It is derived from
the zones (not saved), made again where a state is laid out or loaded, and kept only for games whose
compiled rules read it (`game.index_board`); the reference build never does
(lang/codegen/compile_loops.py, `board_items`).
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Any


def board_index(st) -> dict[Any, tuple[int, ...]]:
    """The index of a state laid out afresh (or loaded): its board spaces gone through once."""
    if not st.game.index_board:
        return {}
    ctype, cowner = st.setup.ctype, st.setup.cowner
    found: dict[Any, list[int]] = {}
    zones = st.zones
    for space in st.setup.spaces:
        for c in zones.get(space, ()):
            t = ctype[c]
            found.setdefault(t, []).append(c)
            found.setdefault((t, cowner[c]), []).append(c)
    return {key: tuple(sorted(items)) for key, items in found.items()}


def moved_on_or_off(aboard: dict, c: int, t: str, owner: Any, onto: bool) -> None:
    """Component c (of type t) came onto the board (`onto`) or left it."""
    for key in (t, (t, owner)):
        items = aboard.get(key, ())
        if onto:
            i = bisect_left(items, c)
            aboard[key] = items[:i] + (c,) + items[i:]
        elif len(items) > 1:
            i = items.index(c)
            aboard[key] = items[:i] + items[i + 1:]
        else:
            del aboard[key]  # (as made afresh: no key for none)
