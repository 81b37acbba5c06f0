"""The components a seat reads in the variables it sees: identities it knows from the state alone.

Why: a resampled world (resample.py) lets the components in hidden places trade identities, each
place keeping its id. A variable the seat sees that holds a component's id (`last_taken =
top(table)`, a card taken into an opponent's hand) shows the seat that component for what it is;
if the id traded its identity, the same variable would name another card in the world, and the
seat could tell the world from the real game. Two repairs are conceivable: keep the identity of
every component so named, or let the identity go and rewrite the variable to whichever id now
bears it. The second is wrong under the rules: the variable names a component at a place (the
rules that wrote it put it there — into that hand), and the rewritten value would name one lying
wherever the trade sent it (in the deck, say), a place the seat may have watched it leave; the
id also carries the component's dynamic properties and every rule's reference to it. So the
components read in visible variables keep their identity where they are (`Pins.known`: their
hidden stretch may still be reordered, as the seat does not see its order).

What "sees" means is what `observation` shows: `hidden` variables not at all, an `owner`
per-player variable only in the seat's own entry. The values are walked by the variables'
declared (or inferred) types — components in lists, tuples and tables too; a value typed `any`
is not read (an integer there may be a number as well as a component).
"""
from __future__ import annotations

import weakref
from typing import Any

# per game: (variable, per player, type) of the variables whose values can hold components
_TYPED: weakref.WeakKeyDictionary[Any, tuple] = weakref.WeakKeyDictionary()


def read_components(st: Any, player: int) -> frozenset[int]:
    """The ids of the components `player` can read in the variables it sees in state `st`."""
    typed = _component_variables(st.game)
    if not typed:
        return frozenset()
    visibility = st.game.variable_visibility
    size = len(st.setup.clabel)
    found: set[int] = set()
    for name, per_player, ty in typed:
        vis = visibility.get(name, "all")
        value = st.vars.get(name)
        if vis == "hidden" or value is None:
            continue
        if per_player and isinstance(value, list) and len(value) == st.n:
            for i, entry in enumerate(value):
                if vis != "owner" or i == player:
                    _walk(ty, entry, size, found)
        elif vis != "owner" or not (isinstance(value, list) and len(value) == st.n):
            _walk(ty, value, size, found)  # (an `owner` list of one entry per seat: observation masks it)
        elif ty.kind == "list":
            _walk(ty.elem, value[player], size, found)
    return frozenset(found)


def _component_variables(game: Any) -> tuple:
    """The variables of `game` whose declared or inferred type can hold a component (read once)."""
    found = _TYPED.get(game)
    if found is None:
        symbols = game.compiler.symbols if game.compiler is not None else None
        infos = symbols.variables if symbols is not None else {}
        found = tuple((name, info.per_player, info.type) for name, info in infos.items()
                      if name in game.variables and info.type is not None and _holds_components(info.type))
        _TYPED[game] = found
    return found


def _holds_components(ty: Any) -> bool:
    if ty is None:
        return False
    if ty.kind == "component":
        return True
    if ty.kind in ("list", "table"):
        return _holds_components(ty.elem) or _holds_components(ty.key)
    if ty.kind == "tuple":
        return any(_holds_components(t) for t in ty.items or ())
    return False


def _walk(ty: Any, value: Any, size: int, found: set[int]) -> None:
    """Add to `found` the component ids in `value`, read as type `ty`."""
    if ty is None or value is None:
        return
    kind = ty.kind
    if kind == "component":
        if value.__class__ is int and 0 <= value < size:
            found.add(value)
    elif kind == "list" and isinstance(value, (list, tuple)):
        for v in value:
            _walk(ty.elem, v, size, found)
    elif kind == "tuple" and isinstance(value, (list, tuple)):
        for t, v in zip(ty.items or (), value):
            _walk(t, v, size, found)
    elif kind == "table" and isinstance(value, dict):
        for k, v in value.items():
            _walk(ty.key, k, size, found)
            _walk(ty.elem, v, size, found)
