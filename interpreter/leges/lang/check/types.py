"""Static types of rule-language values.

Types let `leges validate` catch mistakes before a game runs (a zone used as a number, an
unknown property of a component) and let the compiler pick the right fast operation
(a component's property is looked up differently from a board space's).

Runtime representations: players are seat numbers, components are integer ids, spaces, areas
and zones are strings, lists are Python lists. All of it is plain JSON data.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ty:
    kind: str  # int bool str none any player component space area zone list tuple table
    elem: "Ty | None" = None  # element type of a list, value type of a table
    sub: frozenset | None = None  # component types, area kinds, or declared zones the value may be
    items: tuple | None = None  # item types of a tuple
    key: "Ty | None" = None  # key type of a table

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list of {self.elem}"
        if self.kind == "table":
            return f"table of {self.elem} by {self.key or SPACE}"
        if self.kind == "tuple":
            return "(" + ", ".join(str(t) for t in self.items or ()) + ")"
        if self.kind == "component" and self.sub:
            return "component (" + " or ".join(sorted(self.sub)) + ")"
        if self.kind == "area" and self.sub:
            return "area (" + " or ".join(sorted(self.sub)) + ")"
        return self.kind


INT = Ty("int")
BOOL = Ty("bool")
STR = Ty("str")
NONE = Ty("none")
ANY = Ty("any")
PLAYER = Ty("player")
SPACE = Ty("space")
ZONE = Ty("zone")
AREA = Ty("area")
COMPONENT = Ty("component")


def list_of(elem: Ty) -> Ty:
    return Ty("list", elem)


def table_of(elem: Ty, key: Ty | None = None) -> Ty:
    """A table from keys (spaces, unless said otherwise) to values: what distances() and table() give."""
    return Ty("table", elem, key=key if key is not None and key != SPACE else None)


def tuple_of(*items: Ty) -> Ty:
    """A tuple: a fixed number of values, each of its own type (at run time, a list)."""
    return Ty("tuple", items=tuple(items))


def key_of(t: Ty) -> Ty:
    """The key type of a table."""
    return t.key or SPACE


def component(*types: str) -> Ty:
    return Ty("component", None, frozenset(types) if types else None)


def zone(name: str) -> Ty:
    """A zone known to be one declared as `name` (what is read of it is then that zone's contents only)."""
    return Ty("zone", None, frozenset((name,)))


def area(*kinds: str) -> Ty:
    return Ty("area", None, frozenset(kinds) if kinds else None)


def is_list(t: Ty) -> bool:
    return t.kind in ("list", "any")


def iter_elem(t: Ty) -> Ty | None:
    """Element type when iterating over a value of type t (zones hold components)."""
    if t.kind == "list":
        return t.elem or ANY
    if t.kind in ("zone", "space"):
        return COMPONENT
    if t.kind == "table":
        return key_of(t)
    if t.kind == "any":
        return ANY
    return None


def numeric(t: Ty) -> bool:
    return t.kind in ("int", "any", "bool")


def compatible(a: Ty, b: Ty) -> bool:
    """Could values of a and b be equal / mixed? Used for comparisons and list literals."""
    if a.kind == "any" or b.kind == "any" or a.kind == "none" or b.kind == "none":
        return True
    if a.kind == b.kind:
        if a.kind == "list":
            return compatible(a.elem or ANY, b.elem or ANY)
        if a.kind == "tuple":
            a_items, b_items = a.items or (), b.items or ()
            return len(a_items) == len(b_items) and all(compatible(x, y) for x, y in zip(a_items, b_items))
        return True
    if {a.kind, b.kind} <= {"space", "zone"}:
        return True
    if {a.kind, b.kind} <= {"int", "bool"}:
        return True
    return False


def join(a: Ty, b: Ty) -> Ty:
    """The type of a value that is either an a or a b."""
    if a == b:
        return a
    if a.kind == "none":
        return b
    if b.kind == "none":
        return a
    if a.kind == b.kind == "component":
        if a.sub is None or b.sub is None:
            return COMPONENT
        return Ty("component", None, a.sub | b.sub)
    if a.kind == b.kind and a.kind in ("area", "zone"):
        if a.sub is None or b.sub is None:
            return Ty(a.kind)
        return Ty(a.kind, None, a.sub | b.sub)
    if a.kind == b.kind == "list":
        return list_of(join(a.elem or ANY, b.elem or ANY))
    if a.kind == b.kind == "tuple" and len(a.items or ()) == len(b.items or ()):
        return tuple_of(*(join(x, y) for x, y in zip(a.items or (), b.items or ())))
    if a.kind == b.kind == "table" and key_of(a) == key_of(b):
        return table_of(join(a.elem or ANY, b.elem or ANY), key_of(a))
    if {a.kind, b.kind} <= {"space", "zone"}:
        return ZONE
    if {a.kind, b.kind} <= {"int", "bool"}:
        return INT
    return ANY


TYPE_NAMES = {
    "int": INT, "bool": BOOL, "str": STR, "player": PLAYER, "space": SPACE, "zone": ZONE,
    "area": AREA, "component": COMPONENT, "any": ANY,
}
