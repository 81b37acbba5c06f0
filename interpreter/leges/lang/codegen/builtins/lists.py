"""Built-ins over lists: counting, summing, extremes, quantifiers, filtering, mapping, sorting, slicing."""
from __future__ import annotations

from ...syntax import ast
from ...check import types as T
from .registry import builtin, listy, pred_of


@builtin("count(xs, [pred])", "How many items a list or zone holds; with a predicate, how many satisfy it.",
         "count([1, 2, 3], x => x > 1) == 2")
def _count(cx):
    cx.arity(1, 2)
    elem, xs = listy(cx, 0, filtered_by=1, charged=cx.nargs() == 2, kept=True)  # a length costs nothing to take
    pred = pred_of(cx, 1, elem)
    if pred is None:
        return T.INT, f"len({xs})"
    _, v, body = pred
    return T.INT, cx.c.loop("count", cx.scope, v[2:], xs, body)


@builtin("sum(xs, [f])", "The sum of the numbers of a list, or of f applied to each item.",
         "sum([1, 2, 3], x => x * 2) == 12")
def _sum(cx):
    cx.arity(1, 2)
    elem, xs = listy(cx, 0)
    f = pred_of(cx, 1, elem)
    if f is None:
        return T.INT, f"sum({xs})"
    _, v, body = f
    return T.INT, cx.c.loop("sum", cx.scope, v[2:], xs, body)


def _extreme(cx, larger: bool):
    cx.arity(1, 1, kw=("by",))
    elem, xs = listy(cx, 0)
    by = pred_of(cx, "by", elem)
    if by is None:
        return elem, f"H.{'maximum' if larger else 'minimum'}({xs})"
    _, v, body = by
    return elem, f"H.arg_best({xs}, lambda {v}: {body}, {larger})"


@builtin("max(xs, [by=f])", "The largest item; with `by`, the first item whose f is largest. none if empty.",
         "max([3, 7, 5]) == 7 and max([3, 7, 5], by=x => -x) == 3")
def _max(cx):
    return _extreme(cx, True)


@builtin("min(xs, [by=f])", "The smallest item; with `by`, the first item whose f is smallest. none if empty.",
         "min([3, 7, 5]) == 3 and min([], by=x => x) == none")
def _min(cx):
    return _extreme(cx, False)


def _extremes(cx, larger: bool):
    cx.arity(1, 1, kw=("by",))
    elem, xs = listy(cx, 0)
    by = pred_of(cx, "by", elem, required=True)
    if by is None:
        return T.list_of(elem), "[]"
    _, v, body = by
    return T.list_of(elem), f"H.all_best({xs}, lambda {v}: {body}, {larger})"


@builtin("maxima(xs, by=f)", "All items whose f is largest (ties included): a sole leader is a list of one.",
         "maxima([1, 3, 3], by=x => x) == [3, 3]")
def _maxima(cx):
    return _extremes(cx, True)


@builtin("minima(xs, by=f)", "All items whose f is smallest (ties included).",
         "minima([2, 1, 1], by=x => x) == [1, 1]")
def _minima(cx):
    return _extremes(cx, False)


def _quantifier(cx, name: str):
    cx.arity(1, 2)
    elem, xs = listy(cx, 0, filtered_by=1, kept=name == "any")  # (`all`: an item left out would count as holding)
    pred = pred_of(cx, 1, elem)
    if pred is None:
        return T.BOOL, f"{name}({xs})"
    _, v, body = pred
    return T.BOOL, cx.c.loop(name, cx.scope, v[2:], xs, body)


@builtin("any(xs, [pred])", "Whether some item satisfies the predicate (or is true).", "any([1, 5], x => x > 4)")
def _any(cx):
    return _quantifier(cx, "any")


@builtin("all(xs, [pred])", "Whether every item satisfies the predicate (true for an empty list).",
         "all([], x => x > 4)")
def _all(cx):
    return _quantifier(cx, "all")


@builtin("filter(xs, pred)", "The items that satisfy the predicate, in order.", "filter([1, 2, 3], x => x != 2) == [1, 3]")
def _filter(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0, filtered_by=1)
    pred = pred_of(cx, 1, elem, required=True)
    if pred is None:
        return T.list_of(elem), "[]"
    _, v, body = pred
    return T.list_of(elem), f"[{v} for {v} in {cx.c.iter_safe(xs, cx.scope)} if {body}]"


@builtin("map(xs, f)", "f applied to each item.", "map([1, 2], x => x * 10) == [10, 20]")
def _map(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    f = pred_of(cx, 1, elem, required=True)
    if f is None:
        return T.list_of(T.ANY), "[]"
    ty, v, body = f
    return T.list_of(ty), f"[{body} for {v} in {cx.c.iter_safe(xs, cx.scope)}]"


@builtin("sort(xs, [by=f], [descending=b])", "The items in increasing order (of f), stable.",
         "sort([3, 1, 2]) == [1, 2, 3] and sort([3, 1, 2], descending=true) == [3, 2, 1]")
def _sort(cx):
    cx.arity(1, 1, kw=("by", "descending"))
    elem, xs = listy(cx, 0)
    by = pred_of(cx, "by", elem)
    desc = cx.code("descending") if cx.arg_node("descending") is not None else (T.BOOL, "False")
    key = "None" if by is None else f"lambda {by[1]}: {by[2]}"
    return T.list_of(elem), f"H.sort(st, {xs}, {key}, {desc[1]})"


@builtin("reverse(xs)", "The items in reverse order.", "reverse([1, 2]) == [2, 1]")
def _reverse(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)
    return T.list_of(elem), f"list(reversed({xs}))"


def _find(cx, kind: str):
    """(element type, source) of first, last or index_of with a predicate: a generated loop that stops
    at the item found (loops.py)."""
    elem, xs = listy(cx, 0, filtered_by=1)
    pred = pred_of(cx, 1, elem)
    if pred is None:
        return elem, "None"
    _, v, body = pred
    return elem, cx.c.loop(kind, cx.scope, v[2:], xs, body)


@builtin("first(xs, [pred])", "The first item (with a predicate: the first that satisfies it), or none.",
         "first([4, 5]) == 4 and first([4, 5, 6], x => x > 4) == 5")
def _first(cx):
    cx.arity(1, 2)
    if cx.nargs() == 2:
        return _find(cx, "first")
    elem, xs = listy(cx, 0, charged=False)
    return elem, f"H.first({xs})"


@builtin("last(xs, [pred])", "The last item (with a predicate: the last that satisfies it), or none.",
         "last([4, 5]) == 5 and last([4, 5, 6], x => x < 6) == 5")
def _last(cx):
    cx.arity(1, 2)
    if cx.nargs() == 2:
        return _find(cx, "last")
    elem, xs = listy(cx, 0, charged=False)
    return elem, f"H.last({xs})"


@builtin("take(xs, n)", "The first n items (fewer if there are fewer).", "take([1, 2, 3], 2) == [1, 2]")
def _take(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    _, n = cx.code(1, T.INT)
    return T.list_of(elem), f"list({xs}[:max(0, {n})])"


@builtin("drop(xs, n)", "All but the first n items.", "drop([1, 2, 3], 2) == [3]")
def _drop(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    _, n = cx.code(1, T.INT)
    return T.list_of(elem), f"list({xs}[max(0, {n}):])"


@builtin("unique(xs)", "The items without repeats, first occurrences kept in order.", "unique([1, 2, 1]) == [1, 2]")
def _unique(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)
    return T.list_of(elem), f"H.unique(st, {xs})"


@builtin("flatten(xss)", "One list of the items of a list of lists.", "flatten([[1], [2, 3]]) == [1, 2, 3]")
def _flatten(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)
    if elem.kind not in ("list", "any"):
        cx.error(f"flatten() needs a list of lists, not a list of {elem}", 0)
        return T.list_of(T.ANY), "[]"
    inner = elem.elem or T.ANY if elem.kind == "list" else T.ANY
    return T.list_of(inner), f"[y for x in {cx.c.iter_safe(xs, cx.scope)} for y in H.each(st, x)]"


@builtin("without(xs, ys)", "xs with one occurrence of each item of ys taken out, where present (a multiset difference).",
         "without([1, 2, 2, 3], [2, 3, 4]) == [1, 2]")
def _without(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    _, ys = listy(cx, 1)
    return T.list_of(elem), f"H.without(st, {xs}, {ys})"


@builtin("index_of(xs, x)", "Position of the first x in xs (from 0), or none; x may be a predicate: the position of the "
         "first item that satisfies it.", "index_of([5, 6], 6) == 1 and index_of([5, 6, 7], x => x > 5) == 1")
def _index_of(cx):
    cx.arity(2, 2)
    if isinstance(cx.arg_node(1), ast.Lambda):
        return T.INT, _find(cx, "index")[1]
    _, xs = listy(cx, 0)
    _, x = cx.code(1)
    return T.INT, f"(lambda l, v: l.index(v) if v in l else None)({xs}, {x})"
