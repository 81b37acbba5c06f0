"""Memoised user functions: what a function reads decides which changes of the state forget its values.

Rule functions are pure, so a call with the same arguments in the same state gives the same
value. While compiling a function the compiler records, from the syntax tree and from what each
built-in reads, every part of the state it depends on, as *read keys*: typed values (`Read`, a
named tuple of a kind and what of that kind), made by this module's constructors and read back by
their fields. Written out (`str(key)`, in tests and messages):

    where:T    where components of type T are, and their order within zones ("where:*": any type)
    spaces:T   which board spaces hold components of type T ("spaces:*": any type)
    near:T:P:R which spaces at most R steps from the function's space parameter P hold T: a
               move of T forgets only the values for spaces P near where it moved from or to
    near:@NAME:P:R  the changing property NAME of the spaces at most R steps from P: setting it
               on a space forgets only the values for spaces P near it
    zone:NAME  the contents of the zones declared as NAME (one zone, a player's, or a row of them)
    zones      the contents of a zone not known to be a board space, of any type, nor which it is
    var:NAME   a game variable;  cprop:NAME / sprop:NAME  a component's / space's changing property
    static:T   the fixed properties or the label of a component of type T ("static:*": any type).
               They never change in a game; a resampled world (engine/resample.py) trades them
               among hidden components, and forgets only the values of functions that read them.
               Not recorded for a component parameter keyed by its kind (the key is traded with
               them), nor for components taken from a board space (which everyone sees)
    turn       the phase, whose turn it is, the turn number
    me         the acting player (then the cache key includes it)

Each memoised function owns a slot of `state.memo` (a dict from arguments to values). Every
change of the state names what it changed (`State.place` the type it moved and whether a board
space was involved, an assignment its variable, ...) and replaces the slots of the functions that
read it with empty dicts. Replacing, never clearing, lets a copied state share its parent's slots
(see `State.copy`): a slot one of them invalidates stops being shared, so what either computes
in a shared slot holds for both.

At run time a change is named by a small number, not by its key: a tuple, unlike a string, does
not keep its hash, and the engine looks changes up at every move. Every key a change of the state
can name (the turn, each variable, zone, changing property) has an id in `MemoTable.ids` (the
turn's is `TURN_ID`; a generated assignment passes its variable's id as a constant), and the game
lists the slots reading each id (engine/game.py `key_slots`, indexed by id).
"""
from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

ANY_TYPE = "*"  # how a read of any type is written out (its `what` is None)

# the kinds of read keys
WHERE, SPACES, NEAR, NEAR_PROP, ZONE, ZONES_READ, VAR, CPROP, SPROP, STATIC, TURN_READ, ME_READ, UNREAD_KIND = (
    "where", "spaces", "near", "near_prop", "zone", "zones", "var", "cprop", "sprop", "static", "turn", "me", "unread")
NEAR_KINDS = (NEAR, NEAR_PROP)


class Read(NamedTuple):
    """One part of the state compiled code reads (a read key)."""

    kind: str  # WHERE, SPACES, NEAR, ... (above)
    what: str | None = None  # the component type (None: any type), or the zone, variable or property's name
    param: str | None = None  # a near read: the function's space parameter it is near
    radius: int = 0  # a near read: at most this many steps from it

    def __str__(self) -> str:
        kind = self.kind
        what = self.what or ANY_TYPE if kind in (WHERE, SPACES, STATIC, NEAR) else self.what
        if kind == NEAR_PROP:
            return f"near:@{what}:{self.param}:{self.radius}"
        if kind == NEAR:
            return f"near:{what}:{self.param}:{self.radius}"
        return kind if what is None else f"{kind}:{what}"


# (the keys a change of the state names, made once each: a re-deal, engine/resample.py, names
# where:T and static:T at every draw of a search)
@lru_cache(maxsize=4096)
def where(ctype: str | None) -> Read:
    return Read(WHERE, ctype)


@lru_cache(maxsize=4096)
def zone(name: str) -> Read:
    return Read(ZONE, name)


@lru_cache(maxsize=4096)
def on_spaces(ctype: str | None) -> Read:
    return Read(SPACES, ctype)


ZONES = Read(ZONES_READ)
TURN = Read(TURN_READ)
ME = Read(ME_READ)
# what no function reads: the contents of one board space as a zone (the board is read by type,
# spaces:T and near, which a move forgets by its type). A space's id, so that State.place looks
# up a space as it does a zone
UNREAD = Read(UNREAD_KIND)
UNREAD_ID, TURN_ID = 0, 1  # the first ids of every MemoTable


def near(ctype: str | None, param: str, radius: int) -> Read:
    return Read(NEAR, ctype, param, radius)


def near_prop(name: str, param: str, radius: int) -> Read:
    return Read(NEAR_PROP, name, param, radius)


@lru_cache(maxsize=4096)
def static(ctype: str | None) -> Read:
    return Read(STATIC, ctype)


@lru_cache(maxsize=4096)
def var(name: str) -> Read:
    return Read(VAR, name)


@lru_cache(maxsize=4096)
def cprop(name: str) -> Read:
    return Read(CPROP, name)


@lru_cache(maxsize=4096)
def sprop(name: str) -> Read:
    return Read(SPROP, name)


@dataclass
class MemoTable:
    """Which slots each change of the state invalidates (built from the functions' read keys)."""

    keys: list[frozenset[Read]] = field(default_factory=list)  # slot → read keys of its function
    names: list[str] = field(default_factory=list)  # slot → generated function name (for tests)
    layouts: list[tuple[str, ...]] = field(default_factory=list)  # slot → what its cache keys hold
    # slot → the space parameter its values are filed under (space → other key parts → value), or None:
    # a move then forgets a few spaces' values at once instead of looking through all of them
    by_space: list[str | None] = field(default_factory=list)
    # slot → component parameters keyed by fixed properties instead of themselves (functions.py)
    projected: list[dict[str, tuple[str, ...]]] = field(default_factory=list)
    # the keys a change of the state names at run time → their ids (0, 1, ... in the order given)
    ids: dict[Read, int] = field(default_factory=lambda: {UNREAD: UNREAD_ID, TURN: TURN_ID})

    def add(self, name: str, keys: frozenset[Read], layout: tuple[str, ...], by_space: str | None = None,
            projected: dict[str, tuple[str, ...]] | None = None) -> int:
        self.keys.append(keys)
        self.names.append(name)
        self.layouts.append(layout)
        self.by_space.append(by_space)
        self.projected.append(projected or {})
        return len(self.keys) - 1

    def id_of(self, key: Read) -> int:
        """The id a change of `key` is named by at run time (State.changed), given it the first time asked."""
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.ids)
        return found

    def space_index(self, slot: int, param: str) -> int | None:
        """Where the space `param` sits in the slot's cache keys: None when the key is the space
        itself (at the top level of the slot), else its place in the tuple."""
        layout = self.layouts[slot]
        return None if len(layout) == 1 or self.by_space[slot] == param else layout.index(param)

    def slots_reading(self, *keys: Read) -> tuple[int, ...]:
        wanted = set(keys)
        return tuple(i for i, k in enumerate(self.keys) if k & wanted)

    def place_slots(self, ctypes) -> dict[str, tuple[tuple, tuple, tuple]]:
        """For each component type, what a move forgets: the slots (off the board, touching a space)
        and, for a move touching a space, the near slots as (slot, place of the space in the cache
        key or None if the key is the space itself, radius)."""
        out = {}
        for t in ctypes:
            off = self.slots_reading(where(t), where(None), ZONES)
            on = self.slots_reading(where(t), where(None), ZONES, on_spaces(t), on_spaces(None))
            near_slots = []
            for slot, keys in enumerate(self.keys):
                if slot in on:
                    continue
                for key in keys:
                    if key.kind == NEAR and key.what in (t, None) and key.param is not None:
                        near_slots.append((slot, self.space_index(slot, key.param), key.radius))
            out[t] = (off, on, tuple(near_slots))
        return out

    def near_slots(self, kind: str, what: str | None) -> tuple[tuple[int, int | None, int], ...]:
        """(slot, place of the space in its keys or None, radius) of every near read of this kind
        (NEAR, NEAR_PROP) of `what` (a component type, or a space property)."""
        found = []
        for slot, keys in enumerate(self.keys):
            for key in keys:
                if key.kind == kind and key.what == what and key.param is not None:
                    found.append((slot, self.space_index(slot, key.param), key.radius))
        return tuple(found)


def nesting_space(keys, layout: tuple[str, ...]) -> str | None:
    """The space parameter to file a slot's values under: the one its near reads are around, when
    there is exactly one and the cache key holds more than the space."""
    params = {key.param for key in keys if key.kind in NEAR_KINDS}
    return next(iter(params)) if len(params) == 1 and len(layout) > 1 else None


def wrapper_source(fname: str, params: list[str], body: str, slot: int, uses_me: bool,
                   frozen: Set[str] = frozenset(), by_space: str | None = None,
                   projected: dict[str, str] | None = None) -> str:
    """A memoised function: the body, and a wrapper looking its value up in `st.memo[slot]`.

    `frozen`: parameters holding lists, frozen into the key (`H.frozen`); an
    argument that cannot be a key though its type did not say so is simply computed. `by_space`: the
    values are filed under that space parameter first (MemoTable.by_space). `projected`: component
    parameters keyed by the source given (their fixed properties the body reads).
    """
    projected = projected or {}
    args = "".join(f", v_{p}" for p in params)
    parts = (["me"] if uses_me else []) + [projected[p] if p in projected else f"H.frozen(st, v_{p})" if p in frozen
                                           else f"v_{p}" for p in params if p != by_space]
    key = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")" if parts else "None"
    head = f"def {fname}_body(st, me{args}):\n    return {body}\n" f"def {fname}(st, me{args}):\n"
    if frozen or projected:  # making the key may fail (a projected parameter given none, say): then no cache
        head = f"def {fname}_key(st, me{args}):\n    return {key}\n" + head  # (for tests: which key is served)
        head += (f"    try:\n        key = {key}\n    except Exception:\n"
                 f"        return {fname}_body(st, me{args})\n")
        key = "key"
    # `get` rather than `[]` and KeyError: a miss then costs a comparison, not an exception
    if by_space is not None:  # the space's own dict, made empty where there is none yet
        head += (f"    outer = st.memo[{slot}]\n"
                 f"    try:\n"
                 f"        cache = outer.get(v_{by_space})\n"
                 f"    except TypeError:\n"
                 f"        return {fname}_body(st, me{args})\n"
                 f"    if cache is None:\n"
                 f"        cache = outer[v_{by_space}] = {{}}\n")
    else:
        head += f"    cache = st.memo[{slot}]\n"
    return (head +
            f"    try:\n"
            f"        value = cache.get({key}, H.MISSING)\n"
            f"    except TypeError:\n"
            f"        return {fname}_body(st, me{args})\n"
            f"    if value is H.MISSING:\n"
            f"        value = cache[{key}] = {fname}_body(st, me{args})\n"
            f"    return value\n")


def plain_source(fname: str, params: list[str], body: str) -> str:
    """A function too cheap to memoise: looking it up would cost more than computing it."""
    args = "".join(f", v_{p}" for p in params)
    return f"def {fname}(st, me{args}):\n    return {body}\n"
