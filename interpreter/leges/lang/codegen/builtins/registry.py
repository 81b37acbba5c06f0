"""The registry of built-ins: each one documented keyword with its signature, meaning and example,
and what most of them share in translating a call (a list argument, a predicate)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...syntax import ast
from ...check import types as T


@dataclass
class Builtin:
    name: str
    signature: str
    doc: str
    example: str
    compile: Callable


BUILTINS: dict[str, Builtin] = {}
NONE = (T.ANY, "None")


def builtin(signature: str, doc: str, example: str):
    def register(fn: Callable) -> Callable:
        name = signature.split("(")[0]
        BUILTINS[name] = Builtin(name, signature, doc, example, fn)
        return fn
    return register


def listy(cx, i, filtered_by=None, charged=True, kept=False):
    """Argument i as (element type, Python source of a list); `filtered_by`: the argument holding the
    predicate that filters it (a predicate keeping one component type makes the read narrower).
    `charged=False`: the built-in does not go through the items (its length, its first item), or
    charges the work it does itself: the list is not charged to the work budget here. `kept`: only
    the items the predicate holds for count (any, count), so those it cannot hold for may be left
    out (the components off the board, compile_loops.board_items)."""
    node = cx.arg_node(i)
    if node is None:
        return T.ANY, "[]"
    typed = None
    pred = cx.arg_node(filtered_by) if filtered_by is not None else None
    if isinstance(pred, ast.Lambda):
        typed = cx.c.type_filter(pred.body, pred.param)
    elem, code = cx.c.iterable(node, cx.scope, cx.origin, typed, charged)
    if kept and charged and cx.c.optimise and isinstance(pred, ast.Lambda):
        every = cx.c.code(node, cx.scope, cx.origin)[1]
        return elem, cx.c.board_items(node, pred.body, pred.param, cx.scope, cx.origin, every) or code
    return elem, code


def pred_of(cx, key, elem, required=False):
    """(param source name, body source) of a function argument, or None."""
    got = cx.lam(key, elem, required)
    if got is None:
        return None
    ty, param, body = got
    return ty, f"v_{param}", body
