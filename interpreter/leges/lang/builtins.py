"""Built-in functions of the rule language: collections, players, zones and board queries.

Each built-in is one documented keyword (Ludii's ludeme idea): its entry carries a signature,
a one-line meaning and an example that `docs/language.md` shows and the tests run. A built-in
translates its call into Python source, choosing the fast form for the argument types given.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import ast
from . import types as T
from .runtime import FREE_ITEMS


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


def listy(cx, i, filtered_by=None, charged=True):
    """Argument i as (element type, Python source of a list); `filtered_by`: the argument holding the
    predicate that filters it (a predicate keeping one component type makes the read narrower).
    `charged=False`: the built-in does not go through the items (its length, its first item), or
    charges the work it does itself: the list is not charged to the work budget here."""
    node = cx.arg_node(i)
    if node is None:
        return T.ANY, "[]"
    typed = None
    pred = cx.arg_node(filtered_by) if filtered_by is not None else None
    if isinstance(pred, ast.Lambda):
        typed = cx.c.type_filter(pred.body, pred.param)
    elem, code = cx.c.iterable(node, cx.scope, cx.origin, typed, charged)
    return elem, code


def pred_of(cx, key, elem, required=False):
    """(param source name, body source) of a function argument, or None."""
    got = cx.lam(key, elem, required)
    if got is None:
        return None
    ty, param, body = got
    return ty, f"v_{param}", body


# ------------------------------------------------------------- collections
@builtin("count(xs, [pred])", "How many items a list or zone holds; with a predicate, how many satisfy it.",
         "count([1, 2, 3], x => x > 1) == 2")
def _count(cx):
    cx.arity(1, 2)
    elem, xs = listy(cx, 0, filtered_by=1, charged=cx.nargs() == 2)  # a length costs nothing to take
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
    elem, xs = listy(cx, 0, filtered_by=1)
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


@builtin("index_of(xs, x)", "Position of the first x in xs (from 0), or none; x may be a predicate: the position of the "
         "first item that satisfies it.", "index_of([5, 6], 6) == 1 and index_of([5, 6, 7], x => x > 5) == 1")
def _index_of(cx):
    cx.arity(2, 2)
    if isinstance(cx.arg_node(1), ast.Lambda):
        return T.INT, _find(cx, "index")[1]
    _, xs = listy(cx, 0)
    _, x = cx.code(1)
    return T.INT, f"(lambda l, v: l.index(v) if v in l else None)({xs}, {x})"


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


# ------------------------------------------------------------------ players
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


# -------------------------------------------------------------------- zones
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


# -------------------------------------------------------------------- board
def _space_set(cx, key):
    """An optional keyword argument holding spaces, as the source of a Python set."""
    if cx.arg_node(key) is None:
        return "()"
    ty, code = cx.code(key)
    if ty.kind in ("space", "zone"):
        return f"({code},)"
    return f"H.as_set({code})"


def _sources(cx, i):
    ty, code = cx.code(i)
    if ty.kind == "list":
        return code
    if ty.kind not in ("space", "zone", "any"):
        cx.error(f"{cx.name}() needs a space or a list of spaces, not {ty}", i)
    return f"H.as_list({code})"


def _board(cx):
    """The board, for a query that searches it (worth memoising a function that makes it)."""
    cx.c.heavy()
    board = cx.board()
    return cx.const(board) if board is not None else "None"


def _degree(cx) -> int:
    """Neighbours of a space of the board, on average: what a search looks at for each space it reaches."""
    board = cx.board()
    return board.degree() if board is not None else 1


@builtin("neighbors(s)", "The spaces adjacent to s (for a graph board: those its edges lead to).",
         "count(neighbors(r1c1)) == 4")
def _neighbors(cx):
    cx.arity(1, 1)
    _, s = cx.code(0, T.SPACE)
    board = cx.board()
    table = cx.const({k: list(v) for k, v in board.neighbors.items()} if board else {})
    return T.list_of(T.SPACE), f"{table}.get({s}, {cx.const([])})"  # shared lists: rules never change a list


@builtin("ring(s)", "The six spaces around s on a hex board, turning in a fixed order (none where the board ends); "
         "on a grid, the four orthogonal neighbours.", "count(ring(r1c1)) == 4 and ring(r0c0)[0] == none")
def _ring(cx):
    cx.arity(1, 1)
    _, s = cx.code(0, T.SPACE)
    board = cx.board()
    table = cx.const({k: list(v) for k, v in board.rings.items()} if board else {})
    return T.list_of(T.SPACE), f"{table}.get({s}, {cx.const([])})"


@builtin("adjacent(a, b)", "Whether b is adjacent to a.", "adjacent(r0c0, r0c1) and not adjacent(r0c0, r1c1)")
def _adjacent(cx):
    cx.arity(2, 2)
    _, a = cx.code(0, T.SPACE)
    _, b = cx.code(1, T.SPACE)
    board = cx.board()
    table = cx.const(board.neighbors if board else {})
    return T.BOOL, f"({b} in {table}.get({a}, ()))"


@builtin("distance(a, b, [blocked=spaces])",
         "Fewest steps from a (a space or a list of spaces) to b, never entering a blocked space; none if unreachable.",
         "distance(r0c0, r2c2) == 4 and distance(r0c0, r0c2, blocked=[r0c1, r1c1]) == 6")
def _distance(cx):
    cx.arity(2, 2, kw=("blocked",))
    src = _sources(cx, 0)
    _, b = cx.code(1, T.SPACE)
    blocked = _space_set(cx, "blocked")
    return T.INT, f"(lambda t: H.searched(st, {_degree(cx)}, {_board(cx)}.distances({src}, {blocked}, target=t)).get(t))({b})"


@builtin("distances(from, [blocked=spaces], [steps=n])",
         "A table giving, for every space reachable from `from` (a space or a list), its fewest steps; index it with a space (none if unreachable).",
         "distances(r0c0)[r2c2] == 4 and distances(r0c0, steps=1)[r2c2] == none")
def _distances(cx):
    cx.arity(1, 1, kw=("blocked", "steps"))
    src = _sources(cx, 0)
    blocked = _space_set(cx, "blocked")
    steps = cx.code("steps", T.INT)[1] if cx.arg_node("steps") is not None else "None"
    return T.table_of(T.INT), f"H.searched(st, {_degree(cx)}, {_board(cx)}.distances({src}, {blocked}, {steps}))"


@builtin("reachable(from, steps, [blocked=spaces])",
         "The spaces within `steps` steps of `from` (a space or a list), never entering blocked spaces; the start is not included.",
         "count(reachable(r1c1, 1)) == 4")
def _reachable(cx):
    cx.arity(2, 2, kw=("blocked",))
    src = _sources(cx, 0)
    _, steps = cx.code(1, T.INT)
    blocked = _space_set(cx, "blocked")
    found = cx.c.iter_safe(f"H.searched(st, {_degree(cx)}, {_board(cx)}.distances({src}, {blocked}, {steps})).items()", cx.scope)
    return T.list_of(T.SPACE), f"[s for s, d in {found} if d > 0]"


@builtin("groups(spaces)", "The given spaces split into connected groups (each a list, in board order).",
         "count(groups([r0c0, r0c1, r2c2])) == 2")
def _groups(cx):
    cx.arity(1, 1)
    _, xs = listy(cx, 0)
    return T.list_of(T.list_of(T.SPACE)), f"{_board(cx)}.groups({xs})"


@builtin("connected(a, b, through=spaces)",
         "Whether a path leads from a to b whose every space after a is in `through` (b included).",
         "connected(r0c0, r0c2, through=[r0c1, r0c2]) and not connected(r0c0, r2c2, through=[r2c2])")
def _connected(cx):
    cx.arity(2, 2, kw=("through",))
    src = _sources(cx, 0)
    _, b = cx.code(1)
    cx.board()
    through = _space_set(cx, "through") if cx.arg_node("through") is not None else "None"
    return T.BOOL, (f"(lambda d, t: any(x in d for x in H.as_list(t)))"
                    f"(H.searched(st, {_degree(cx)}, {_board(cx)}.distances({src}, (), None, None, {through})), {b})")


@builtin("lines(n)", "Every straight line of n spaces on a grid or hex board (each direction once), from "
         "neighbour to neighbour of the board's adjacency.",
         "count(lines(3)) == 6")
def _lines(cx):
    cx.arity(1, 1)
    _, n = cx.code(0, T.INT)
    board, length = _board(cx), getattr(cx.arg_node(0), "value", None)
    if cx.board() is not None and length.__class__ is int and 0 <= length <= FREE_ITEMS:  # lines(3): known now
        found = cx.board().lines(length)
        if len(found) * length <= FREE_ITEMS:
            return T.list_of(T.list_of(T.SPACE)), cx.const(found)  # shared: rules never change a list
    return T.list_of(T.list_of(T.SPACE)), f"H.lines(st, {board}, {n})"


@builtin("areas(kind)", "The areas of a kind declared by the map (e.g. every building).",
         "areas(\"region\") == [area(\"north\"), area(\"south\")]")
def _areas(cx):
    cx.arity(1, 1)
    kind = getattr(cx.arg_node(0), "value", None)
    board = cx.board()
    kinds = board.areas if board else {}
    if not isinstance(kind, str):
        cx.error("areas() needs the area kind as a string literal, e.g. areas(\"building\")", 0)
        return T.list_of(T.AREA), "[]"
    if kind not in kinds:
        cx.error(f"the map has no areas of kind '{kind}'", 0, cx.suggest(kind, kinds))
        return T.list_of(T.AREA), "[]"
    return T.list_of(T.area(kind)), cx.const(list(kinds[kind]))


@builtin("area(id)", "The area with this id (an area is not a string: compare it with area(\"...\")).",
         "area(\"north\") == r0c0.region")
def _area(cx):
    cx.arity(1, 1)
    _, x = cx.code(0)
    board = cx.board()
    value = getattr(cx.arg_node(0), "value", None)
    kind = None
    if board is not None and isinstance(value, (str, int)):
        if str(value) not in board.area_spaces:
            cx.error(f"the map has no area '{value}'", 0, cx.suggest(str(value), board.area_spaces))
        kind = next((k for k, ids in board.areas.items() if str(value) in ids), None)
    return (T.area(kind) if kind else T.AREA), f"str({x})"


@builtin("edge(a, b, prop)", "A property of the edge from a to b on a graph board (none if there is no such edge).",
         "edge(r0c0, r0c1, \"cost\") == none")
def _edge(cx):
    cx.arity(3, 3)
    _, a = cx.code(0, T.SPACE)
    _, b = cx.code(1, T.SPACE)
    prop = getattr(cx.arg_node(2), "value", None)
    if not isinstance(prop, str):
        cx.error("edge() needs the property name as a string literal", 2)
        return NONE
    board = cx.board()
    edges = cx.const(board.edge_props if board else {})
    ty = cx.symbols.edge_props.get(prop, T.ANY)
    return ty, f"({edges}.get(({a}, {b})) or {{}}).get({prop!r})"
