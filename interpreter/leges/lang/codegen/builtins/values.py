"""Built-ins that make values: payments from a pool, tables, pairs, ranges, numbers and
texts, the components of a type."""
from __future__ import annotations

import ast as python_ast

from ...syntax import ast
from ...check import types as T
from .registry import builtin, listy, pred_of


def _payment_args(cx, charged=True):
    """(pool, need, wildcard, substitute, wild) sources of payments() and payable()."""
    cx.arity(2, 2, kw=("wildcard", "substitute", "wild"))
    elem, pool = listy(cx, 0, charged=charged)
    need_elem, need = listy(cx, 1, charged=charged)
    wildcard = cx.code("wildcard")[1] if cx.arg_node("wildcard") is not None else "None"
    wild = cx.code("wild")[1] if cx.arg_node("wild") is not None else "None"
    substitute = "0"
    if isinstance(cx.arg_node("substitute"), ast.Lambda):  # a rate per needed kind
        ty, v, body = pred_of(cx, "substitute", need_elem)
        if not T.compatible(ty, T.INT):
            cx.error(f"{cx.name}()'s substitute gives how many items stand for a needed one: a number, not {ty}", "substitute")
        substitute = f"lambda {v}: {body}"
    elif cx.arg_node("substitute") is not None:
        substitute = cx.code("substitute", T.INT)[1]
    return elem, pool, need, wildcard, substitute, wild


def _joined(source: str) -> tuple[str, str] | None:
    """The sources of `first` and `then` if the generated `source` is `H.concat(st, first, then)` (the
    need may come from a function compiled in place, so it is read off the code, not the syntax tree)."""
    tree = python_ast.parse(source, mode="eval").body
    if (isinstance(tree, python_ast.Call) and python_ast.unparse(tree.func) == "H.concat" and len(tree.args) == 3
            and not tree.keywords):
        return python_ast.unparse(tree.args[1]), python_ast.unparse(tree.args[2])
    return None


@builtin("payments(pool, need, [wildcard=w], [wild=v], [substitute=n])",
         "Every distinct way to meet a list of needs from a pool of items: each need is met by an equal item, by any "
         "item if the need is `wildcard`, by an item equal to `wild` whatever it needs, or by `substitute` items of any "
         "kinds (a number, or a function of the needed kind: a rate per kind). Each way is a sorted list of pool items.",
         "payments([1, 1, 2], [1]) == [[1]] and payments([1, 1, 2], [1], substitute=2) == [[1], [1, 1], [1, 2]]")
def _payments(cx):
    elem, pool, need, wildcard, substitute, wild = _payment_args(cx)
    return T.list_of(T.list_of(elem)), f"P.payments(st, {pool}, {need}, {wildcard}, {substitute}, {wild})"


@builtin("payable(pool, need, [wildcard=w], [wild=v], [substitute=n])",
         "Whether payments() with the same arguments finds a way: computed without listing them.",
         "payable([1, 2], [1, 3], substitute=1) and not payable([1, 2], [3, 3], substitute=2)")
def _payable(cx):
    _, pool, need, wildcard, substitute, wild = _payment_args(cx, charged=False)  # charged once worked out
    hoisting = cx.c.hoist
    if (hoisting is not None and id(cx.node) in hoisting.reached and not substitute.startswith("lambda")
            and all(hoisting.invariant(n, cx.scope.py) for n in [cx.arg_node(0), *cx.node.kwargs.values()])):
        prepared = hoisting.add(f"P.payable_from({pool}, {wildcard}, {substitute}, {wild})")  # (hoist.py)
        parts = _joined(need)
        if parts is not None:  # a cost and what is added to it: checked without joining them
            return T.BOOL, f"{hoisting.add(prepared + '.joined')}(st, {parts[0]}, {parts[1]})"
        return T.BOOL, f"{prepared}(st, {need})"
    return T.BOOL, f"P.payable(st, {pool}, {need}, {wildcard}, {substitute}, {wild})"


TABLE_KEYS = ("player", "space", "area", "zone", "str", "any")


@builtin("table(keys, f)", "A table giving f(k) for each key k; index it with a key (none for a key it does not hold). "
         "Keys are players, spaces, areas, zones or strings; a table by player holds every player (none where f was not given).",
         "table([\"a\", \"b\"], k => k + \"!\")[\"b\"] == \"b!\"")
def _table(cx):
    cx.arity(2, 2)
    elem, keys = listy(cx, 0)
    if elem.kind not in TABLE_KEYS:
        cx.error(f"a table's keys are players, spaces, areas, zones or strings, not {elem}", 0,
                 "to number things, a list indexed by position does: [f(x) for x in xs][i]")
    f = pred_of(cx, 1, elem, required=True)
    if f is None:
        return T.table_of(T.ANY, elem), "{}"
    ty, v, body = f
    if elem.kind == "player":  # a list by seat: it survives a saved state's JSON (whose keys are text)
        node = cx.arg_node(0)
        if isinstance(node, ast.Name) and node.id == "players" and "players" not in cx.scope.locals:
            return T.table_of(ty, T.PLAYER), f"[{body} for {v} in range(st.n)]"
        return T.table_of(ty, T.PLAYER), f"H.player_table(st.n, {keys}, lambda {v}: {body})"
    return T.table_of(ty, elem), f"{{{v}: {body} for {v} in {cx.c.iter_safe(keys, cx.scope)}}}"


@builtin("product(xs, ys)", "Every pair (x, y) of an item of xs and an item of ys, xs varying slowest.",
         "product([1, 2], [\"a\", \"b\"]) == [(1, \"a\"), (1, \"b\"), (2, \"a\"), (2, \"b\")]")
def _product(cx):
    cx.arity(2, 2)
    xt, xs = listy(cx, 0)
    yt, ys = listy(cx, 1)
    return T.list_of(T.tuple_of(xt, yt)), f"[[x, y] for x in {cx.c.iter_safe(xs, cx.scope)} for y in H.each(st, {cx.c.iter_safe(ys, cx.scope)})]"


@builtin("range(a, [b])", "The integers from a to b - 1 (from 0 to a - 1 with one argument).",
         "range(3) == [0, 1, 2] and range(2, 4) == [2, 3]")
def _range(cx):
    cx.arity(1, 2)
    _, a = cx.code(0, T.INT)
    if cx.nargs() == 1:
        return T.list_of(T.INT), f"H.span(st, 0, {a})"
    _, b = cx.code(1, T.INT)
    return T.list_of(T.INT), f"H.span(st, {a}, {b})"


@builtin("abs(x)", "The absolute value.", "abs(-3) == 3")
def _abs(cx):
    cx.arity(1, 1)
    _, x = cx.code(0, T.INT)
    return T.INT, f"abs({x})"


@builtin("text(x)", "The text form of a value, as actions show it.", "text(12) == \"12\"")
def _text(cx):
    cx.arity(1, 1)
    ty, x = cx.code(0)
    fmt = cx.const(cx.formatter(ty))
    return T.STR, f"H.chars(st, {fmt}(st, {x}))"


@builtin("components(type, [owner])", "Every component of a type in this game (for this number of players), wherever it is; with an owner, only theirs.",
         "count(components(\"mark\")) == 10 and count(components(\"mark\", x)) == 5")
def _components(cx):
    cx.arity(1, 2)
    kind = getattr(cx.arg_node(0), "value", None)
    if not isinstance(kind, str) or kind not in cx.symbols.component_types:
        cx.error("components() needs a component type as a string literal", 0,
                 cx.suggest(kind, cx.symbols.component_types) if isinstance(kind, str) else None)
        return T.list_of(T.COMPONENT), "[]"
    if cx.nargs() == 2:
        _, owner = cx.code(1, T.PLAYER)
        return T.list_of(T.component(kind)), f"st.setup.by_owner.get(({kind!r}, {owner}), [])"
    return T.list_of(T.component(kind)), f"st.setup.by_type.get({kind!r}, [])"
