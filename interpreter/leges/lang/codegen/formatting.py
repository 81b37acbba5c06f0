"""How values are written in action texts, logs and views — the stable text form of every value."""
from __future__ import annotations

from typing import Any, Callable

from ..check import types as T

Formatter = Callable[[Any, Any], str]  # fmt(state, value) -> text


def formatter(ty: T.Ty) -> Formatter:
    """How a value of this type is written in action texts and views."""
    kind = ty.kind
    if kind == "component":
        return lambda st, v: "none" if v is None else st.setup.clabel[v]
    if kind == "player":
        return lambda st, v: "none" if v is None else st.setup.seat_names[v]
    if kind == "bool":
        return lambda st, v: "true" if v else "false"
    if kind == "list":
        inner = formatter(ty.elem or T.ANY)
        return lambda st, v: "[" + ",".join(inner(st, x) for x in v) + "]"
    if kind == "table":
        inner = formatter(ty.elem or T.ANY)
        if T.key_of(ty).kind == "player":  # a list by seat
            return lambda st, v: "{" + ",".join(f"{st.setup.seat_names[p]}:{inner(st, x)}" for p, x in enumerate(v)) + "}"
        return lambda st, v: "{" + ",".join(f"{k}:{inner(st, x)}" for k, x in v.items()) + "}"
    if kind == "tuple":
        inners = [formatter(t) for t in ty.items or ()]  # a tuple type has its items
        return lambda st, v: "none" if v is None else "(" + ",".join(f(st, x) for f, x in zip(inners, v)) + ")"
    return lambda st, v: "none" if v is None else str(v)


def text_source(ty: T.Ty, var: str, const: Callable[[Any], str]) -> str:
    """Python source of the text form of a value of type `ty` held in the Python local `var`.

    The common cases (a space's name, a component's label, a seat's name) are inlined: option
    texts are built for every legal action of every decision.
    """
    fmt = const(formatter(ty))
    if ty.kind in ("space", "zone", "area", "str"):
        return f"({var} if {var}.__class__ is str else {fmt}(st, {var}))"
    if ty.kind == "component":
        return f"({fmt}(st, {var}) if {var} is None else st.setup.clabel[{var}])"
    if ty.kind == "player":
        return f"({fmt}(st, {var}) if {var} is None else st.setup.seat_names[{var}])"
    if ty.kind in ("list", "table", "tuple", "any"):  # as long as the value: charged by its characters
        return f"H.chars(st, {fmt}(st, {var}))"
    return f"{fmt}(st, {var})"
