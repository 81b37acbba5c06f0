"""Built-ins of the board: neighbours, rings, distances, reachability, groups, lines, areas, edges."""
from __future__ import annotations

from ...check import types as T
from ..runtime import FREE_ITEMS
from .registry import NONE, builtin, listy


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
