"""Built-ins of ordered zones: their top and bottom items."""
from __future__ import annotations

from ...check import types as T
from .registry import builtin


def _zone_contents(cx, i):
    """Source of the contents of the zone given as argument i (the read recorded)."""
    ty, code = cx.code(i)
    if ty.kind == "list":
        end = "last(xs)" if cx.name == "top" else "first(xs)"
        cx.error(f"{cx.name}() needs a zone, not {ty}", i,
                 f"for a list, {end} is its {'last' if cx.name == 'top' else 'first'} item, take(xs, n) its first n "
                 f"items and drop(xs, count(xs) - n) its last n")
        return "[]"
    if ty.kind not in ("zone", "space", "any"):
        cx.error(f"{cx.name}() needs a zone, not {ty}", i)
    return cx.c.contents(ty, code, None, cx.arg_node(i), cx.scope)


@builtin("top(zone, [n])", "The top item of an ordered zone (none if empty); with n, the top n items, topmost first.",
         "top(supply(x)) != none")
def _top(cx):
    cx.arity(1, 2)
    z = _zone_contents(cx, 0)
    if cx.nargs() == 1:
        return T.COMPONENT, f"H.top({z})"
    _, n = cx.code(1, T.INT)
    return T.list_of(T.COMPONENT), f"H.top_n(st, {z}, {n})"


@builtin("bottom(zone, [n])", "The bottom item of an ordered zone; with n, the bottom n items, bottom-most first.",
         "bottom(supply(x)) != none")
def _bottom(cx):
    cx.arity(1, 2)
    z = _zone_contents(cx, 0)
    if cx.nargs() == 1:
        return T.COMPONENT, f"H.bottom({z})"
    _, n = cx.code(1, T.INT)
    return T.list_of(T.COMPONENT), f"H.bottom_n(st, {z}, {n})"
