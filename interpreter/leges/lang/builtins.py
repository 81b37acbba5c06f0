"""Built-in functions of the rule language: collections, players, zones and board queries.

Each built-in is one documented keyword (Ludii's ludeme idea): its entry carries a signature,
a one-line meaning and an example that `docs/language.md` shows and the tests run. A built-in
compiles its call into a closure `fn(state, env)`, choosing the fast path for the argument
types it was given.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import ast
from . import types as T

MISSING = object()


@dataclass
class Builtin:
    name: str
    signature: str
    doc: str
    example: str
    compile: Callable


BUILTINS: dict[str, Builtin] = {}


def builtin(signature: str, doc: str, example: str):
    def register(fn: Callable) -> Callable:
        name = signature.split("(")[0]
        BUILTINS[name] = Builtin(name, signature, doc, example, fn)
        return fn
    return register


# ----------------------------------------------------------------- helpers
def listy(cx, i: int):
    """Argument i as (element type, fn returning a Python list)."""
    ty, fn = cx.expr(i)
    elem = T.iter_elem(ty)
    if elem is None:
        cx.error(f"{cx.name}() needs a list or a zone, not {ty}", i)
        return T.ANY, lambda st, env: []
    if ty.kind in ("zone", "space"):
        return elem, lambda st, env: st.zones[fn(st, env)]
    return elem, fn


def lam(cx, key, elem: T.Ty, optional: bool = True):
    """A lambda argument (positional index or keyword) compiled for elements of type `elem`."""
    node = cx.arg_node(key)
    if node is None:
        if not optional:
            cx.error(f"{cx.name}() needs a function argument such as x => x.value")
        return None
    return cx.lam(node, elem)


def typed_lambda(cx, key, elem):
    """A lambda of the form `x => x.type == "T" [and ...]`: ("T", lambda for the rest or None)."""
    node = cx.arg_node(key)
    if not isinstance(node, ast.Lambda):
        return None, None
    wanted, rest = cx.c.split_type_test(node.body, node.param)
    if wanted is None:
        return None, None
    cx.lam(node, elem)  # still checked in full
    if rest is None:
        return wanted, None
    inner = ast.Lambda(node.param, rest, line=node.line, col=node.col)
    return wanted, cx.lam(inner, elem)


# ------------------------------------------------------------- collections
@builtin("count(xs, [pred])", "How many items a list or zone holds; with a predicate, how many satisfy it.",
         "count([1, 2, 3], x => x > 1) == 2")
def _count(cx):
    cx.arity(1, 2)
    elem, xs = listy(cx, 0)
    wanted, rest = typed_lambda(cx, 1, elem)
    if wanted is not None and rest is None:
        return T.INT, lambda st, env: sum(1 for c in xs(st, env) if st.setup.ctype[c] == wanted)
    pred = lam(cx, 1, elem)
    if pred is None:
        return T.INT, lambda st, env: len(xs(st, env))
    _, param, body = pred

    def count(st, env):
        n = 0
        for x in xs(st, env):
            env[param] = x
            if body(st, env):
                n += 1
        return n
    return T.INT, count


@builtin("sum(xs, [f])", "The sum of the numbers of a list, or of f applied to each item.",
         "sum([1, 2, 3], x => x * 2) == 12")
def _sum(cx):
    cx.arity(1, 2)
    elem, xs = listy(cx, 0)
    f = lam(cx, 1, elem)
    if f is None:
        return T.INT, lambda st, env: sum(xs(st, env))
    _, param, body = f

    def total(st, env):
        s = 0
        for x in xs(st, env):
            env[param] = x
            s += body(st, env)
        return s
    return T.INT, total


def _extreme(cx, pick):
    cx.arity(1, 1, kw=("by",))
    elem, xs = listy(cx, 0)
    by = lam(cx, "by", elem)
    if by is None:
        def value(st, env):
            items = xs(st, env)
            return pick(items) if items else None
        return elem, value
    _, param, body = by

    def best(st, env):
        result, key = None, None
        for x in xs(st, env):
            env[param] = x
            k = body(st, env)
            if key is None or pick((k, key)) == k and k != key:
                result, key = x, k
        return result
    return elem, best


@builtin("max(xs, [by=f])", "The largest item; with `by`, the first item whose f is largest. none if empty.",
         "max([3, 7, 5]) == 7 and max([3, 7, 5], by=x => -x) == 3")
def _max(cx):
    return _extreme(cx, max)


@builtin("min(xs, [by=f])", "The smallest item; with `by`, the first item whose f is smallest. none if empty.",
         "min([3, 7, 5]) == 3")
def _min(cx):
    return _extreme(cx, min)


def _extremes(cx, pick):
    cx.arity(1, 1, kw=("by",))
    elem, xs = listy(cx, 0)
    by = lam(cx, "by", elem, optional=False)
    if by is None:
        return T.list_of(elem), lambda st, env: []
    _, param, body = by

    def best(st, env):
        items = list(xs(st, env))
        keys = []
        for x in items:
            env[param] = x
            keys.append(body(st, env))
        if not items:
            return []
        top = pick(keys)
        return [x for x, k in zip(items, keys) if k == top]
    return T.list_of(elem), best


@builtin("maxima(xs, by=f)", "All items whose f is largest (ties included): a sole leader is a list of one.",
         "maxima([1, 3, 3], by=x => x) == [3, 3]")
def _maxima(cx):
    return _extremes(cx, max)


@builtin("minima(xs, by=f)", "All items whose f is smallest (ties included).",
         "minima([2, 1, 1], by=x => x) == [1, 1]")
def _minima(cx):
    return _extremes(cx, min)


def _quantifier(cx, wanted: bool):
    cx.arity(1, 2)
    elem, xs = listy(cx, 0)
    of_type, rest = typed_lambda(cx, 1, elem)
    if of_type is not None and rest is None:
        if wanted:
            return T.BOOL, lambda st, env: any(st.setup.ctype[c] == of_type for c in xs(st, env))
        return T.BOOL, lambda st, env: all(st.setup.ctype[c] == of_type for c in xs(st, env))
    pred = lam(cx, 1, elem)
    if pred is None:
        if wanted:
            return T.BOOL, lambda st, env: any(xs(st, env))
        return T.BOOL, lambda st, env: all(xs(st, env))
    _, param, body = pred

    def test(st, env):
        for x in xs(st, env):
            env[param] = x
            if bool(body(st, env)) == wanted:
                return wanted
        return not wanted
    return T.BOOL, test


@builtin("any(xs, [pred])", "Whether some item satisfies the predicate (or is true).", "any([1, 5], x => x > 4)")
def _any(cx):
    return _quantifier(cx, True)


@builtin("all(xs, [pred])", "Whether every item satisfies the predicate (true for an empty list).",
         "all([], x => x > 4)")
def _all(cx):
    return _quantifier(cx, False)


@builtin("filter(xs, pred)", "The items that satisfy the predicate, in order.", "filter([1, 2, 3], x => x != 2) == [1, 3]")
def _filter(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    _, param, body = lam(cx, 1, elem, optional=False) or (None, "_", lambda st, env: True)

    def keep(st, env):
        out = []
        for x in xs(st, env):
            env[param] = x
            if body(st, env):
                out.append(x)
        return out
    return T.list_of(elem), keep


@builtin("map(xs, f)", "f applied to each item.", "map([1, 2], x => x * 10) == [10, 20]")
def _map(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    f = lam(cx, 1, elem, optional=False)
    if f is None:
        return T.list_of(T.ANY), lambda st, env: []
    ty, param, body = f

    def apply(st, env):
        out = []
        for x in xs(st, env):
            env[param] = x
            out.append(body(st, env))
        return out
    return T.list_of(ty), apply


@builtin("sort(xs, [by=f], [descending=b])", "The items in increasing order (of f), stable.",
         "sort([3, 1, 2]) == [1, 2, 3] and sort([3, 1, 2], descending=true) == [3, 2, 1]")
def _sort(cx):
    cx.arity(1, 1, kw=("by", "descending"))
    elem, xs = listy(cx, 0)
    by = lam(cx, "by", elem)
    desc = cx.kw_expr("descending")
    descending = (lambda st, env: False) if desc is None else desc[1]
    if by is None:
        return T.list_of(elem), lambda st, env: sorted(xs(st, env), reverse=bool(descending(st, env)))
    _, param, body = by

    def order(st, env):
        items = list(xs(st, env))
        keys = []
        for x in items:
            env[param] = x
            keys.append(body(st, env))
        idx = sorted(range(len(items)), key=keys.__getitem__, reverse=bool(descending(st, env)))
        return [items[i] for i in idx]
    return T.list_of(elem), order


@builtin("reverse(xs)", "The items in reverse order.", "reverse([1, 2]) == [2, 1]")
def _reverse(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)
    return T.list_of(elem), lambda st, env: list(reversed(xs(st, env)))


@builtin("first(xs)", "The first item, or none if empty.", "first([4, 5]) == 4")
def _first(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)

    def first(st, env):
        items = xs(st, env)
        return items[0] if items else None
    return elem, first


@builtin("last(xs)", "The last item, or none if empty.", "last([4, 5]) == 5")
def _last(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)

    def last(st, env):
        items = xs(st, env)
        return items[-1] if items else None
    return elem, last


@builtin("take(xs, n)", "The first n items (fewer if there are fewer).", "take([1, 2, 3], 2) == [1, 2]")
def _take(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    _, n = cx.expr(1, T.INT)
    return T.list_of(elem), lambda st, env: list(xs(st, env)[:max(0, n(st, env))])


@builtin("drop(xs, n)", "All but the first n items.", "drop([1, 2, 3], 2) == [3]")
def _drop(cx):
    cx.arity(2, 2)
    elem, xs = listy(cx, 0)
    _, n = cx.expr(1, T.INT)
    return T.list_of(elem), lambda st, env: list(xs(st, env)[max(0, n(st, env)):])


@builtin("unique(xs)", "The items without repeats, first occurrences kept in order.", "unique([1, 2, 1]) == [1, 2]")
def _unique(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)

    def unique(st, env):
        seen, out = set(), []
        for x in xs(st, env):
            key = repr(x) if isinstance(x, list) else x
            if key not in seen:
                seen.add(key)
                out.append(x)
        return out
    return T.list_of(elem), unique


@builtin("flatten(xss)", "One list of the items of a list of lists.", "flatten([[1], [2, 3]]) == [1, 2, 3]")
def _flatten(cx):
    cx.arity(1, 1)
    elem, xs = listy(cx, 0)
    inner = T.iter_elem(elem) or T.ANY
    return T.list_of(inner), lambda st, env: [y for x in xs(st, env) for y in x]


@builtin("index_of(xs, x)", "Position of the first x in xs (from 0), or none.", "index_of([5, 6], 6) == 1")
def _index_of(cx):
    cx.arity(2, 2)
    _, xs = listy(cx, 0)
    _, x = cx.expr(1)

    def index_of(st, env):
        items = xs(st, env)
        value = x(st, env)
        return items.index(value) if value in items else None
    return T.INT, index_of


@builtin("range(a, [b])", "The integers from a to b - 1 (from 0 to a - 1 with one argument).",
         "range(3) == [0, 1, 2] and range(2, 4) == [2, 3]")
def _range(cx):
    cx.arity(1, 2)
    _, a = cx.expr(0, T.INT)
    if len(cx.node.args) == 1:
        return T.list_of(T.INT), lambda st, env: list(range(min(a(st, env), 100_000)))
    _, b = cx.expr(1, T.INT)
    return T.list_of(T.INT), lambda st, env: list(range(a(st, env), min(b(st, env), a(st, env) + 100_000)))


@builtin("abs(x)", "The absolute value.", "abs(-3) == 3")
def _abs(cx):
    cx.arity(1, 1)
    _, x = cx.expr(0, T.INT)
    return T.INT, lambda st, env: abs(x(st, env))


@builtin("text(x)", "The text form of a value, as actions show it.", "text(12) == \"12\"")
def _text(cx):
    cx.arity(1, 1)
    ty, x = cx.expr(0)
    fmt = cx.formatter(ty)
    return T.STR, lambda st, env: fmt(st, x(st, env))


@builtin("components(type)", "Every component of a type in this game (for this number of players), wherever it is.",
         "count(components(\"mark\")) == 10")
def _components(cx):
    cx.arity(1, 1)
    node = cx.node.args[0]
    kind = getattr(node, "value", None)
    if not isinstance(kind, str) or kind not in cx.symbols.component_types:
        cx.error("components() needs a component type as a string literal", 0,
                 cx.suggest(kind, cx.symbols.component_types) if isinstance(kind, str) else None)
        return T.list_of(T.COMPONENT), lambda st, env: []
    return T.list_of(T.component(kind)), lambda st, env: list(st.setup.by_type.get(kind, ()))


# ------------------------------------------------------------------ players
@builtin("next_player(p, [k])", "The player k seats after p in turn order (clockwise), default 1.",
         "next_player(players[0]) == players[1]")
def _next_player(cx):
    cx.arity(1, 2)
    _, p = cx.expr(0, T.PLAYER)
    if len(cx.node.args) == 1:
        return T.PLAYER, lambda st, env: (p(st, env) + 1) % st.n
    _, k = cx.expr(1, T.INT)
    return T.PLAYER, lambda st, env: (p(st, env) + k(st, env)) % st.n


@builtin("previous_player(p)", "The player one seat before p (counter-clockwise).",
         "previous_player(players[0]) == last(players)")
def _previous_player(cx):
    cx.arity(1, 1)
    _, p = cx.expr(0, T.PLAYER)
    return T.PLAYER, lambda st, env: (p(st, env) - 1) % st.n


@builtin("players_from(p)", "All players in turn order, starting with p.",
         "first(players_from(players[1])) == players[1]")
def _players_from(cx):
    cx.arity(1, 1)
    _, p = cx.expr(0, T.PLAYER)
    return T.list_of(T.PLAYER), lambda st, env: [(p(st, env) + i) % st.n for i in range(st.n)]


# -------------------------------------------------------------------- zones
def _zone_arg(cx, i):
    ty, fn = cx.expr(i)
    if ty.kind not in ("zone", "space", "any"):
        cx.error(f"{cx.name}() needs a zone, not {ty}", i)
    return fn


@builtin("top(zone, [n])", "The top item of an ordered zone (none if empty); with n, the top n items, topmost first.",
         "top(deck) == none")
def _top(cx):
    cx.arity(1, 2)
    z = _zone_arg(cx, 0)
    if len(cx.node.args) == 1:
        def top1(st, env):
            items = st.zones[z(st, env)]
            return items[-1] if items else None
        return T.COMPONENT, top1
    _, n = cx.expr(1, T.INT)
    return T.list_of(T.COMPONENT), lambda st, env: list(reversed(st.zones[z(st, env)][-n(st, env):])) if n(st, env) > 0 else []


@builtin("bottom(zone, [n])", "The bottom item of an ordered zone; with n, the bottom n items, bottom-most first.",
         "bottom(deck) == none")
def _bottom(cx):
    cx.arity(1, 2)
    z = _zone_arg(cx, 0)
    if len(cx.node.args) == 1:
        def bottom1(st, env):
            items = st.zones[z(st, env)]
            return items[0] if items else None
        return T.COMPONENT, bottom1
    _, n = cx.expr(1, T.INT)
    return T.list_of(T.COMPONENT), lambda st, env: list(st.zones[z(st, env)][:max(0, n(st, env))])


# -------------------------------------------------------------------- board
def _space_set(cx, key):
    """Optional keyword argument holding spaces, as a fn returning a set."""
    got = cx.kw_expr(key)
    if got is None:
        return None
    ty, fn = got
    if ty.kind in ("space", "zone"):
        return lambda st, env: {fn(st, env)}
    return lambda st, env: set(fn(st, env))


def _sources(cx, i):
    ty, fn = cx.expr(i)
    if ty.kind == "list":
        return fn
    if ty.kind not in ("space", "zone", "any"):
        cx.error(f"{cx.name}() needs a space or a list of spaces, not {ty}", i)
    return lambda st, env: [fn(st, env)]


@builtin("neighbors(s)", "The spaces adjacent to s (for a graph board: those its edges lead to).",
         "count(neighbors(first(spaces))) >= 0")
def _neighbors(cx):
    cx.arity(1, 1)
    _, s = cx.expr(0, T.SPACE)
    neighbors = cx.board_attr("neighbors", {})
    return T.list_of(T.SPACE), lambda st, env: list(neighbors.get(s(st, env), ()))


@builtin("adjacent(a, b)", "Whether b is adjacent to a.", "not adjacent(first(spaces), first(spaces))")
def _adjacent(cx):
    cx.arity(2, 2)
    _, a = cx.expr(0, T.SPACE)
    _, b = cx.expr(1, T.SPACE)
    neighbors = cx.board_attr("neighbors", {})
    return T.BOOL, lambda st, env: b(st, env) in neighbors.get(a(st, env), ())


@builtin("distance(a, b, [blocked=spaces])", "Fewest steps from a to b never entering a blocked space; none if unreachable.",
         "distance(first(spaces), first(spaces)) == 0")
def _distance(cx):
    cx.arity(2, 2, kw=("blocked",))
    src = _sources(cx, 0)
    _, b = cx.expr(1, T.SPACE)
    blocked = _space_set(cx, "blocked")
    board = cx.board()

    def distance(st, env):
        target = b(st, env)
        dist = board.distances(src(st, env), blocked(st, env) if blocked else frozenset(), target=target)
        return dist.get(target)
    return T.INT, distance


@builtin("reachable(from, steps, [blocked=spaces])",
         "The spaces within `steps` steps of `from` (a space or a list), never entering blocked spaces; the start is not included.",
         "reachable(first(spaces), 0) == []")
def _reachable(cx):
    cx.arity(2, 2, kw=("blocked",))
    src = _sources(cx, 0)
    _, steps = cx.expr(1, T.INT)
    blocked = _space_set(cx, "blocked")
    board = cx.board()

    def reachable(st, env):
        starts = src(st, env)
        dist = board.distances(starts, blocked(st, env) if blocked else frozenset(), steps(st, env))
        return [s for s, d in dist.items() if d > 0]
    return T.list_of(T.SPACE), reachable


@builtin("groups(spaces)", "The given spaces split into connected groups (each a list, in board order).",
         "groups([]) == []")
def _groups(cx):
    cx.arity(1, 1)
    _, xs = listy(cx, 0)
    board = cx.board()
    return T.list_of(T.list_of(T.SPACE)), lambda st, env: board.groups(xs(st, env))


@builtin("connected(a, b, through=spaces)",
         "Whether a path leads from a to b whose every space after a is in `through` (b included).",
         "connected(first(spaces), first(spaces), through=[])")
def _connected(cx):
    cx.arity(2, 2, kw=("through",))
    src = _sources(cx, 0)
    _, b = cx.expr(1)
    through = _space_set(cx, "through")
    board = cx.board()
    spaces = set(board.spaces) if board else set()

    def connected(st, env):
        allowed = through(st, env) if through else spaces
        dist = board.distances(src(st, env), spaces - allowed)
        target = b(st, env)
        targets = target if isinstance(target, list) else [target]
        return any(t in dist for t in targets)
    return T.BOOL, connected


@builtin("lines(n)", "Every straight line of n spaces on a grid or hex board (each direction once).",
         "count(lines(1)) >= 0")
def _lines(cx):
    cx.arity(1, 1)
    ty, n = cx.expr(0, T.INT)
    board = cx.board()
    cache: dict[int, list] = {}

    def lines(st, env):
        k = n(st, env)
        if k not in cache:
            cache[k] = board.lines(k)
        return cache[k]
    return T.list_of(T.list_of(T.SPACE)), lines


@builtin("areas(kind)", "The areas of a kind declared by the map (e.g. every building).",
         "count(areas(\"region\")) >= 0")
def _areas(cx):
    cx.arity(1, 1)
    node = cx.node.args[0]
    kind = getattr(node, "value", None)
    board = cx.board()
    kinds = board.areas if board else {}
    if not isinstance(kind, str):
        cx.error("areas() needs the area kind as a string literal, e.g. areas(\"building\")", 0)
        return T.list_of(T.AREA), lambda st, env: []
    if kind not in kinds:
        cx.error(f"the map has no areas of kind '{kind}'", 0, cx.suggest(kind, kinds))
        return T.list_of(T.AREA), lambda st, env: []
    ids = list(kinds[kind])
    return T.list_of(T.area(kind)), lambda st, env: list(ids)


@builtin("area(id)", "The area with this id.", "count(areas(\"region\")) >= 0")
def _area(cx):
    cx.arity(1, 1)
    _, x = cx.expr(0)
    board = cx.board()
    node = cx.node.args[0]
    value = getattr(node, "value", None)
    if isinstance(value, (str, int)) and board is not None and str(value) not in board.area_spaces:
        cx.error(f"the map has no area '{value}'", 0, cx.suggest(str(value), board.area_spaces))
    kind = None
    if board is not None and isinstance(value, (str, int)):
        kind = next((k for k, ids in board.areas.items() if str(value) in ids), None)
    return (T.area(kind) if kind else T.AREA), lambda st, env: str(x(st, env))


@builtin("edge(a, b, prop)", "A property of the edge from a to b on a graph board (none if there is no such edge).",
         "edge(first(spaces), first(spaces), \"cost\") == none")
def _edge(cx):
    cx.arity(3, 3)
    _, a = cx.expr(0, T.SPACE)
    _, b = cx.expr(1, T.SPACE)
    node = cx.node.args[2]
    prop = getattr(node, "value", None)
    if not isinstance(prop, str):
        cx.error("edge() needs the property name as a string literal", 2)
    edges = cx.board_attr("edge_props", {})
    ty = cx.symbols.edge_props.get(prop, T.ANY)

    def edge(st, env):
        e = edges.get((a(st, env), b(st, env)))
        return None if e is None else e.get(prop)
    return ty, edge
