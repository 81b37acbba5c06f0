"""Compiling checked expressions into Python functions.

Every expression is checked (names, types) and translated into the source of one Python
expression; it is then compiled once into a function `fn(state, env)`. The translation only
ever emits our own operators and helper calls: names written in a ruleset become dictionary
keys (via `repr`) or `v_`-prefixed locals, literals are `repr`ed, so ruleset text is never
evaluated — only the checked tree is compiled. Generated code runs several times faster than
a tree of closures, which matters for random play-outs.

Expressions only read the state; programs, which change it, are compiled by the engine
(`engine/program.py`) with this compiler's help.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from ..text import cache
from ..text.errors import Collector, LegesError, did_you_mean
from ..text.yaml_source import TextOrigin
from . import ast, memo, payments, runtime
from . import types as T
from .builtins import BUILTINS
from .call import NOTHING, Call
from .formatting import formatter
from .functions import Functions
from .hoist import Hoisting, keeps_inline
from .loops import LoopFunctions
from .parser import parse_expression, parse_program
from .scope import Fn, Scope
from .symbols import Symbols, type_of_value

BUILTIN_NAMES = ("me", "current", "players", "num_players", "spaces", "phase", "turn_number", "in_round", "true", "false",
                 "none")
BUILTIN_EVENTS = {
    "drawn": {"item": T.COMPONENT, "source": T.ZONE, "to": T.ZONE, "player": T.PLAYER},
    "moved": {"item": T.COMPONENT, "source": T.ZONE, "to": T.ZONE, "player": T.PLAYER},
}


_ARITH = {"+": "+", "-": "-", "*": "*"}


class Compiler:
    def __init__(self, symbols: Symbols, board, errors: Collector, optimise: bool = True):
        self.symbols = symbols
        # False: the reference build — every function computed afresh at every call, nothing
        # hoisted or inlined — which the optimised build must match game for game
        self.optimise = optimise
        self.board = board
        self.errors = errors
        self.goto_targets: set[str] = set()
        self.dynamic_space_props: set[str] = set()
        self.uniform_props: dict[str, set] = {}  # component type → properties every instance has
        self.constants: list = []
        self.namespace: dict[str, Any] = {"H": runtime, "P": payments, "K": self.constants, "__builtins__": {
            "len": len, "sum": sum, "any": any, "all": all, "list": list, "range": range, "min": min, "max": max,
            "abs": abs, "sorted": sorted, "reversed": reversed, "str": str, "set": set, "tuple": tuple,
            "KeyError": KeyError, "TypeError": TypeError, "zip": zip, "bool": bool, "enumerate": enumerate}}
        self._fn_cache: dict[str, Fn] = {}
        # what the expression being compiled reads of the state that may change (memo.py's read
        # keys), and whether it loops over lists (then a function of it is worth memoising)
        self.reads: set[str] = set()
        self.searches = 0
        self.lets = 0  # `let` expressions compiled: each binds Python names of its own
        self.iterables: list[str] = []  # generated functions computing a comprehension's items (iter_safe)
        self.zone_loops = 0  # loops (over a zone's few items, or a list: then a search too)
        self.function_reads: dict[str, frozenset] = {}  # generated function name → its read keys
        self.memo = memo.MemoTable()
        self.loops = LoopFunctions(self.define)
        self._trees: dict[tuple, ast.Program | None] = {}
        self.functions = Functions(self)
        self.hoist: Hoisting | None = None  # the comprehension whose items are being compiled (hoist.py)
        self.hoistings = 0

    # ------------------------------------------------------------ reporting
    def err(self, node, origin: TextOrigin, message: str, hint: str | None = None) -> None:
        line = getattr(node, "line", 0) or 1
        col = getattr(node, "col", 0) or 1
        self.errors.error(origin.locate(line, col), message, hint)

    # ------------------------------------------------------------- codegen
    def const(self, value) -> str:
        """A name for a constant the generated code needs (lists, dicts, sets)."""
        self.constants.append(value)
        return f"K[{len(self.constants) - 1}]"

    def function(self, code: str) -> Fn:
        """Compile the source of one expression into `fn(st, env)`."""
        fn = self._fn_cache.get(code)
        if fn is None:
            source = f"def _e(st, env):\n    return {code}\n"
            local: dict = {}
            exec(cache.compiled(source, "<rule>"), self.namespace, local)  # our own generated source
            fn = self._fn_cache[code] = local["_e"]
        return fn

    def define(self, source: str, name: str) -> None:
        exec(cache.compiled(source, f"<{name}>"), self.namespace)  # our own generated source

    def define_function(self, source: str, name: str, filename: str):
        """Compile generated source defining function `name` and return it (it sees the namespace)."""
        local: dict = {}
        exec(cache.compiled(source, filename), self.namespace, local)  # our own generated source
        return local[name]

    def formatter(self, ty: T.Ty):
        return formatter(ty)

    def expr(self, node: ast.Expr, scope: Scope, origin: TextOrigin) -> tuple[T.Ty, Fn]:
        ty, code = self.code(node, scope, origin)
        return ty, self.function(code)

    def code(self, node: ast.Expr, scope: Scope, origin: TextOrigin) -> tuple[T.Ty, str]:
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            self.err(node, origin, f"{type(node).__name__} is not allowed here")
            return NOTHING
        return method(node, scope, origin)

    def parse_expr(self, text, scope: Scope, want: T.Ty | None = None) -> tuple[T.Ty, Fn]:
        """Parse, check and compile the expression in a declaration's `Text`."""
        ty, code = self.parse_code(text, scope, want)
        return ty, self.function(code)

    def parse_code(self, text, scope: Scope, want: T.Ty | None = None) -> tuple[T.Ty, str]:
        origin = text.at.origin()
        try:
            node = parse_expression(text.text, origin)
        except LegesError as exc:
            self.errors.extend(exc.diagnostics)
            return NOTHING
        ty, code = self.code(node, scope, origin)
        if want is not None and not T.compatible(ty, want):
            self.err(node, origin, f"expected {want} here, found {ty}")
        return ty, code

    def parse_tree(self, text) -> ast.Program | None:
        """The syntax tree of a program text (parsed once; syntax errors are reported once)."""
        key = (text.at.file, text.at.path, text.text)
        if key not in self._trees:
            try:
                self._trees[key] = parse_program(text.text, text.at.origin())
            except LegesError as exc:
                self.errors.extend(exc.diagnostics)
                self._trees[key] = None
        return self._trees[key]

    def note_dynamic_props(self, texts) -> None:
        """Properties some rule sets (`set x.prop = ...`) must be read from the state, not the declarations."""
        for text in texts:
            tree = self.parse_tree(text)
            if tree is not None:
                for node in tree.walk():
                    if isinstance(node, ast.SetProp):
                        if node.name in self.symbols.space_props:
                            self.dynamic_space_props.add(node.name)
                        self.symbols.dynamic_component_props.add(node.name)

    # ----------------------------------------------------------- expressions
    def _e_Literal(self, node, scope, origin):
        value = node.value
        return type_of_value(value), repr(value)

    def _e_Lambda(self, node, scope, origin):
        self.err(node, origin, "a function (x => ...) may only be given to a built-in such as count or sort")
        return NOTHING

    def _e_Name(self, node, scope, origin):
        name = node.id
        sym = self.symbols
        if name in scope.locals:
            return scope.locals[name], scope.ref(name)
        if name == "me":
            if not scope.me:
                self.err(node, origin, "'me' has no meaning here: no player is acting",
                         "use 'current' for the player whose turn it is")
            self.read(memo.ME)
            return T.PLAYER, scope.me_code
        if name == "current":
            self.read(memo.TURN)
            return T.PLAYER, "st.turn_player"
        if name == "players":
            return T.list_of(T.PLAYER), "list(range(st.n))"
        if name == "num_players":
            return T.INT, "st.n"
        if name == "in_round":  # the players who have not dropped out of the phase's turns
            self.read(memo.TURN)
            return T.list_of(T.PLAYER), "[p for p in range(st.n) if p not in st.dropped]"
        if name == "phase":
            self.read(memo.TURN)
            return T.STR, "st.phase"
        if name == "turn_number":
            self.read(memo.TURN)
            return T.INT, "st.turn_count"
        if name == "spaces":
            if self.board is None:
                self.err(node, origin, "'spaces' needs a board, and this ruleset declares no map")
                return T.list_of(T.SPACE), "[]"
            return T.list_of(T.SPACE), self.const(list(self.board.spaces))
        if name in sym.variables:
            var = sym.variables[name]
            self.read(memo.var(name))
            if var.per_player:  # the whole row: one value per player
                return T.list_of(var.type), f"st.vars[{name!r}]"
            return var.type, f"st.vars[{name!r}]"
        if name in sym.constants:
            ty, value = sym.constants[name]
            return ty, (repr(value) if not isinstance(value, list) else self.const(value))
        if name in sym.zones:
            zone = sym.zones[name]
            if zone.per_player and zone.count:
                self.err(node, origin, f"zone '{name}' is a row of zones for each player: write {name}(p, i)")
            elif zone.per_player:
                self.err(node, origin, f"zone '{name}' is per player: write {name}(p)")
            elif zone.count:
                self.err(node, origin, f"zone '{name}' is a row of zones: write {name}(i)")
            return T.zone(name), repr(name)
        if name in sym.seats:
            return T.PLAYER, repr(sym.seats.index(name))
        if name in sym.space_ids:
            return T.SPACE, repr(name)
        candidates = list(scope.locals) + list(sym.variables) + list(sym.constants) + list(sym.zones) + \
            list(sym.seats) + list(BUILTIN_NAMES)
        hint = did_you_mean(name, candidates)
        if name in sym.functions or name in BUILTINS:
            hint = f"'{name}' is a function: call it as {name}(...)"
        self.err(node, origin, f"unknown name '{name}'", hint)
        return NOTHING

    def _e_Attr(self, node, scope, origin):
        ty, obj = self.code(node.obj, scope, origin)
        name = node.name
        kind = ty.kind
        sym = self.symbols
        if kind == "component":
            types = ty.sub or set(sym.component_types)
            if name == "type":
                return T.STR, f"st.setup.ctype[{obj}]"
            if name == "owner":
                return T.PLAYER, f"st.setup.cowner[{obj}]"
            if name == "zone":
                self.read_where(ty.sub)
                return T.ZONE, f"st.where[{obj}]"
            if name == "space":
                self.read_where(ty.sub, on_spaces=True)
                spaces = self.const(frozenset(self.board.spaces) if self.board else frozenset())
                if obj.startswith("v_") and obj[2:].isidentifier():  # a plain local: inline it
                    return T.SPACE, f"(st.where[{obj}] if st.where[{obj}] in {spaces} else None)"
                return T.SPACE, f"H.space_of(st, {obj}, {spaces})"
            found = [sym.component_types[t][name] for t in types if name in sym.component_types.get(t, {})]
            if not found:
                known = {p for t in types for p in sym.component_types.get(t, {})} | {"type", "owner", "zone", "space"}
                self.err(node, origin, f"{ty} has no property '{name}'", did_you_mean(name, known))
                return NOTHING
            pty = found[0]
            for other in found[1:]:
                pty = T.join(pty, other)
            if name in sym.dynamic_component_props:
                self.read(memo.cprop(name))
                return pty, f"H.cprop(st, {obj}, {name!r})"
            if len(found) == len(types) and all(name in sym.component_types.get(t, {}) for t in types) \
                    and all(name in self.uniform_props.get(t, ()) for t in types):
                return pty, f"st.setup.cstatic[{obj}][{name!r}]"  # every such component has it
            return pty, f"st.setup.cstatic[{obj}].get({name!r})"
        if kind == "space" or (kind == "zone" and name in sym.space_props):
            if self.board is not None and name in self.board.areas:
                return T.area(name), f"{self.const(self.board.area_of[name])}.get({obj})"
            if name in sym.space_props:
                static = self.const(self.board.props)
                if kind == "zone" or name in self.dynamic_space_props:  # a zone may not be a space
                    if name in self.dynamic_space_props:
                        anchor = self.anchor_of(node.obj, scope) if kind == "space" else None
                        self.read(memo.near_prop(name, *anchor) if anchor else memo.sprop(name))
                    return sym.space_props[name], f"H.sprop(st, {obj}, {name!r}, {static})"
                return sym.space_props[name], f"{static}[{obj}][{name!r}]"
            known = set(sym.space_props) | set(self.board.areas if self.board else ())
            self.err(node, origin, f"a space has no property '{name}'", did_you_mean(name, known))
            return NOTHING
        if kind == "area":
            board = self.board
            if board is None:  # `area(x).spaces` in a ruleset without a map: there are no areas
                self.err(node, origin, f"an area's '{name}' needs a board, and this ruleset declares no map",
                         "name the board with `map:`, or leave out what reads areas")
                return (T.list_of(T.SPACE), "[]") if name == "spaces" else NOTHING
            if name == "spaces":
                return T.list_of(T.SPACE), f"{self.const(board.area_spaces)}[{obj}]"
            kinds = ty.sub or set(sym.area_kinds)
            found = [sym.area_kinds[k][name] for k in kinds if name in sym.area_kinds.get(k, {})]
            if not found:
                known = {p for k in kinds for p in sym.area_kinds.get(k, {})} | {"spaces"}
                self.err(node, origin, f"{ty} has no property '{name}'", did_you_mean(name, known))
                return NOTHING
            by_id = {aid: props for k in board.areas.values() for aid, props in k.items()}
            return found[0], f"{self.const(by_id)}[{obj}].get({name!r})"
        if kind == "player":
            if name == "seat":
                return T.INT, obj
            if name in sym.seat_props:
                return sym.seat_props[name], f"st.setup.seat_props[{obj}].get({name!r})"
            self.err(node, origin, f"a player has no property '{name}'", did_you_mean(name, list(sym.seat_props) + ["seat"]))
            return NOTHING
        if kind == "zone":
            if name == "owner":
                return T.PLAYER, f"st.setup.zone_owner.get({obj})"
            self.err(node, origin, f"a zone has no property '{name}'", "zones have: owner")
            return NOTHING
        if kind == "any":
            self.read(memo.cprop(name))
            return T.ANY, f"H.dynamic_attr(st, {obj}, {name!r})"
        self.err(node, origin, f"{ty} has no properties (asked for '{name}')")
        return NOTHING

    def _e_Index(self, node, scope, origin):
        if isinstance(node.obj, ast.Name) and node.obj.id in self.symbols.variables \
                and self.symbols.variables[node.obj.id].per_player and node.obj.id not in scope.locals:
            ity, idx = self.code(node.index, scope, origin)
            if not T.compatible(ity, T.PLAYER):
                self.err(node.index, origin, f"'{node.obj.id}' is per player: index it with a player, not {ity}")
            self.read(memo.var(node.obj.id))
            return self.symbols.variables[node.obj.id].type, f"st.vars[{node.obj.id!r}][{idx}]"
        ty, obj = self.code(node.obj, scope, origin)
        ity, idx = self.code(node.index, scope, origin)
        if ty.kind in ("zone", "space"):
            return T.COMPONENT, f"H.index({self.contents(ty, obj, None, node.obj, scope)}, {idx})"
        if ty.kind == "table":
            key = T.key_of(ty)
            if not T.compatible(ity, key):
                self.err(node.index, origin, f"a table is indexed by {'a ' if key.kind in ('space', 'player') else ''}{key}, not {ity}")
            if key.kind == "player":  # a table by player is a list by seat
                return ty.elem or T.ANY, f"{obj}[{idx}]"
            return ty.elem or T.ANY, f"{obj}.get({idx})"
        if ty.kind == "tuple":
            if not T.compatible(ity, T.INT):
                self.err(node.index, origin, f"a tuple index must be a number, not {ity}")
            at = node.index.value if isinstance(node.index, ast.Literal) and type(node.index.value) is int else None
            if at is not None and -len(ty.items) <= at < len(ty.items):
                return ty.items[at], f"{obj}[{at}]"
            if at is not None:
                self.err(node.index, origin, f"{ty} has {len(ty.items)} items: no item {at}",
                         f"items are numbered from 0 to {len(ty.items) - 1}")
                return NOTHING
            elem = T.NONE
            for item in ty.items:
                elem = T.join(elem, item)
            return elem, f"H.index({obj}, {idx})"
        if ty.kind not in ("list", "any"):
            self.err(node, origin, f"cannot index {ty}")
            return NOTHING
        if not T.compatible(ity, T.INT):
            self.err(node.index, origin, f"a list index must be a number, not {ity}")
        return ((ty.elem or T.ANY) if ty.kind == "list" else T.ANY), f"H.index({obj}, {idx})"

    def _player_row(self, node, zone, scope, origin):
        """`zone(p, i)`: zone number i of player p's row (a per-player zone with a count)."""
        name = zone.id
        if len(node.args) != 2 or node.kwargs:
            self.err(node, origin, f"zone '{name}' is a row of zones for each player: write {name}(p, i)")
            return T.ZONE, repr(name)
        (pty, player), (ity, index) = (self.code(a, scope, origin) for a in node.args)
        if not T.compatible(pty, T.PLAYER):
            self.err(node.args[0], origin, f"'{name}(p, i)' takes a player first, not {pty}")
        if not T.compatible(ity, T.INT):
            self.err(node.args[1], origin, f"'{name}(p, i)' takes a number second, not {ity}")
        return T.zone(name), f"H.row_zone(st, {name!r}, {player}, {index})"

    def _e_Call(self, node, scope, origin):
        name = node.func
        sym = self.symbols
        if name in sym.zones:
            zone = sym.zones[name]
            if zone.per_player and zone.count:
                return self._player_row(node, zone, scope, origin)
            if len(node.args) != 1 or node.kwargs:
                self.err(node, origin, f"zone '{name}' takes one argument")
                return T.ZONE, repr(name)
            ty, arg = self.code(node.args[0], scope, origin)
            if zone.per_player:
                if not T.compatible(ty, T.PLAYER):
                    self.err(node.args[0], origin, f"'{name}' is per player: give a player, not {ty}")
                return T.zone(name), f"st.setup.zkeys[{name!r}][{arg}]"
            if zone.count:
                if not T.compatible(ty, T.INT):
                    self.err(node.args[0], origin, f"'{name}' is a row of zones: give a number, not {ty}")
                return T.zone(name), f"st.setup.zkeys[{name!r}][{arg}]"
            self.err(node, origin, f"zone '{name}' is a single zone: write {name} without arguments")
            return T.ZONE, repr(name)
        if name in sym.functions:
            return self.functions.call(node, scope, origin)
        if name in BUILTINS:
            if self.hoist is None or keeps_inline(node):
                return BUILTINS[name].compile(Call(self, node, scope, origin))
            with self.hoisting(None):  # its arguments may move into a function of their own
                return BUILTINS[name].compile(Call(self, node, scope, origin))
        if name in sym.procedures:
            self.err(node, origin, f"'{name}' is a procedure: call it as a statement, not inside an expression")
            return NOTHING
        hint = did_you_mean(name, list(BUILTINS) + list(sym.functions) + list(sym.zones))
        self.err(node, origin, f"unknown function '{name}'", hint)
        return NOTHING

    # ------------------------------------------------------- state reads
    def read(self, *keys: str) -> None:
        """The code being compiled reads these parts of the state (memo.py's read keys)."""
        self.reads.update(keys)

    def read_where(self, types, on_spaces: bool = False) -> None:
        """It reads where components of these types are (None or empty: of any type); `on_spaces`:
        only which board spaces hold them, which changes only when such a component moves to, from
        or between spaces."""
        key = memo.on_spaces if on_spaces else memo.where
        self.reads.update(key(t) for t in types) if types else self.reads.add(key(None))

    def contents(self, ty: T.Ty, code: str, typed: str | None = None, node=None, scope: Scope | None = None) -> str:
        """Source reading the contents of the zone or space `code` (of type `ty`, written as `node`
        in `scope`), the read recorded.

        `typed`: the reader keeps only components of this type, so what it reads changes only
        when such components move; a space near a function's space parameter is a near read.
        """
        space = ty.kind == "space"
        ctype = typed if typed is not None and typed in self.symbols.component_types else None
        anchor = self.anchor_of(node, scope) if space and node is not None and scope is not None else None
        if anchor is not None:
            self.read(memo.near(ctype, *anchor))
        elif ctype is not None:
            self.read_where({ctype}, on_spaces=space)
        elif space:
            self.read(memo.on_spaces(None))
        elif ty.kind == "zone" and ty.sub:  # declared zones, known by name: a move elsewhere keeps the value
            self.read(*(memo.zone(name) for name in ty.sub))
        else:
            self.read(memo.ZONES)
        return f"st.zones[{code}]"

    NEAR_QUERIES = ("neighbors", "ring")  # built-ins giving the spaces one step from a space

    def anchor_of(self, node, scope: Scope) -> tuple[str, int] | None:
        """(space parameter, greatest distance) of a space near a function's space parameter, else None."""
        if isinstance(node, ast.Name) and node.id in scope.py:
            return scope.anchors.get(node.id)
        return None

    def element_anchor(self, node, scope: Scope) -> tuple[str, int] | None:
        """The anchor of every item of the list `node`: the spaces around an anchored space, or some
        of them (a comprehension or `filter` keeping its items as they are), a list of anchored
        spaces, two such lists joined, or what a user function gives that is one of these."""
        if isinstance(node, ast.Call) and node.func in self.symbols.functions:
            return self.functions.element_anchor(node, scope)
        if isinstance(node, ast.Call) and node.args:
            if node.func in self.NEAR_QUERIES and len(node.args) == 1:
                inner = self.anchor_of(node.args[0], scope)
                return (inner[0], inner[1] + 1) if inner is not None else None
            if node.func == "filter":
                return self.element_anchor(node.args[0], scope)
        if isinstance(node, ast.ListLit) and node.items:
            anchors = [self.anchor_of(item, scope) for item in node.items]
            return _farthest(anchors)
        if isinstance(node, ast.BinOp) and node.op == "+":
            return _farthest([self.element_anchor(node.left, scope), self.element_anchor(node.right, scope)])
        if isinstance(node, ast.Comprehension) and len(node.clauses) == 1 and node.clauses[0].names == [
                getattr(node.element, "id", None)] and isinstance(node.element, ast.Name):
            return self.element_anchor(node.clauses[0].iterable, scope)
        return None

    def loop(self, kind: str, scope: Scope, var: str, items: str, body: str) -> str:
        """Source computing `kind` (any, all, count, sum) of `body` over `items` (see loops.py)."""
        self.zone_loops += 1
        return self.loops.call(kind, scope.free_names(), f"v_{var}", items, body)

    def heavy(self) -> None:
        """The code being compiled loops or searches (a board query): worth memoising."""
        self.searches += 1

    def _e_ListLit(self, node, scope, origin):
        compiled = [self.code(item, scope, origin) for item in node.items]
        elem = T.NONE
        for ty, _ in compiled:
            if not T.compatible(elem, ty):
                self.err(node, origin, f"a list mixes {elem} and {ty}")
            elem = T.join(elem, ty)
        return T.list_of(elem if elem != T.NONE else T.ANY), "[" + ", ".join(c for _, c in compiled) + "]"

    def iterable(self, node, scope, origin, typed: str | None = None, charged: bool = True) -> tuple[T.Ty, str]:
        """Element type and Python source of something to go through (a list, or a zone's contents),
        its items charged to the work budget (`H.each`) unless not `charged`.

        `typed`: the caller keeps only components of this type, so what it reads of the zone
        changes only when such components move (see `contents`).
        """
        ty, code = self.code(node, scope, origin)
        elem = T.iter_elem(ty)
        if elem is None:
            self.err(node, origin, f"cannot go through {ty}: a list or a zone is needed")
            return T.ANY, "[]"
        charge = (lambda items: f"H.each(st, {items})") if charged else (lambda items: items)
        if ty.kind in ("zone", "space"):
            return elem, charge(self.contents(ty, code, typed, node, scope))
        if charged:  # gone through: worth memoising (a length, or a lookup by value, is not)
            self.heavy()
        if ty.kind == "table" and T.key_of(ty).kind == "player":  # a list by seat: its keys are the seats
            return elem, f"range(len({code}))"
        return elem, charge(code)

    @staticmethod
    def type_filter(condition, var: str) -> str | None:
        """The T of a condition that starts `var.type == "T" and ...`, else None."""
        node = condition
        while isinstance(node, ast.BoolOp) and node.op == "and":
            node = node.left
        if isinstance(node, ast.Compare) and node.op == "==":
            for attr, lit in ((node.left, node.right), (node.right, node.left)):
                if (isinstance(attr, ast.Attr) and attr.name == "type" and isinstance(attr.obj, ast.Name)
                        and attr.obj.id == var and isinstance(lit, ast.Literal) and isinstance(lit.value, str)):
                    return lit.value
        return None

    def iter_safe(self, code: str, scope: Scope) -> str:
        """`code` where Python expects the iterable of a comprehension, which may not hold an assignment
        expression (a `let` compiles to one), not even inside a lambda: there, it is computed by a
        generated function of its own, given the names it may use."""
        if ":=" not in code:
            return code
        signature = ", ".join(["st", *scope.free_names()])
        name = f"I{len(self.iterables)}_items"
        self.iterables.append(name)
        self.define(f"def {name}({signature}):\n    return {code}\n", name)
        return f"{name}({signature})"

    def unpack_types(self, names: list, elem: T.Ty, node, origin) -> list:
        """The types of the names a loop's items unpack into (several names: the items are tuples)."""
        if len(names) == 1:
            return [elem]
        if len(set(names)) != len(names):
            self.err(node, origin, "a name is given twice: " + ", ".join(names))
        if elem.kind == "tuple" and len(elem.items) != len(names):
            self.err(node, origin, f"cannot unpack {elem} into {len(names)} names",
                     f"give {len(elem.items)} names, one for each item")
        elif elem.kind not in ("tuple", "any"):
            self.err(node, origin, f"cannot unpack {elem} into {len(names)} names: only tuples unpack",
                     "a tuple is written (a, b)")
        return list(elem.items) if elem.kind == "tuple" and len(elem.items) == len(names) else [T.ANY] * len(names)

    def bind(self, names: list, elem: T.Ty, scope: Scope, node, origin, anchor=None) -> tuple[Scope, str]:
        """The scope with a loop's names bound to the items of a list of `elem` (several names unpack
        tuples), and the Python target of the loop."""
        if len(names) == 1:
            return scope.with_py(names[0], elem, anchor), f"v_{names[0]}"
        for name, ty in zip(names, self.unpack_types(names, elem, node, origin)):
            scope = scope.with_py(name, ty)
        return scope, ", ".join(f"v_{n}" for n in names)

    @contextmanager
    def hoisting(self, hoisting: Hoisting | None):
        """Compile with `hoisting` as the comprehension whose items are being compiled (hoist.py)."""
        outer, self.hoist = self.hoist, hoisting
        try:
            yield
        finally:
            self.hoist = outer

    def _e_Comprehension(self, node, scope, origin):
        with self.hoisting(None):
            return self._comprehension(node, scope, origin)

    def _comprehension(self, node, scope, origin):
        parts = []
        inner = scope
        hoisting = None
        if len(node.clauses) == 1 and self.optimise:  # its loop-invariant calls computed once (hoist.py)
            self.hoistings += 1
            bound = {f"v_{n}" for n in node.clauses[0].names}  # (an outer name the loop's shadows is not outer)
            hoisting = Hoisting(self.hoistings, set(scope.py.values()) - bound, frozenset(self.symbols.functions))
            clause = node.clauses[0]
            hoisting.reach(clause.condition if clause.condition is not None else node.element)
        for clause in node.clauses:
            var = clause.names[0] if len(clause.names) == 1 else None
            typed = self.type_filter(clause.condition, var) if clause.condition is not None and var else None
            elem, items = self.iterable(clause.iterable, inner, origin, typed)
            self.zone_loops += 1
            anchor = self.element_anchor(clause.iterable, inner) if var else None
            before = inner
            inner, target = self.bind(clause.names, elem, inner, clause, origin, anchor)
            self.hoist = hoisting
            part = f"for {target} in {self.iter_safe(items, before)}"
            if clause.condition is not None:
                _, cond = self.code(clause.condition, inner, origin)
                part += f" if {cond}"
            parts.append(part)
        ety, element = self.code(node.element, inner, origin)
        if hoisting is None or not hoisting.parts:
            return T.list_of(ety), f"[{element} {' '.join(parts)}]"
        # [element for xs in [items] if xs for h in [value] ... for target in xs if condition]: the
        # hoisted values are computed once, after the items, and only when there are items
        xs = f"x{hoisting.number}"
        values = " ".join(f"for {name} in [{self.iter_safe(code, before)}]" for name, code in hoisting.parts)
        condition = f" if {cond}" if clause.condition is not None else ""
        return T.list_of(ety), (f"[{element} for {xs} in [{self.iter_safe(items, before)}] if {xs} {values} "
                                f"for {target} in {xs}{condition}]")

    def _e_TupleLit(self, node, scope, origin):
        compiled = [self.code(item, scope, origin) for item in node.items]
        return T.tuple_of(*(t for t, _ in compiled)), "[" + ", ".join(c for _, c in compiled) + "]"

    def _e_LetExpr(self, node, scope, origin):
        inner = scope
        parts = []
        bound: set[str] = set()
        sym = self.symbols
        for binding in node.bindings:
            name = binding.name
            if name in bound:
                self.err(binding, origin, f"'{name}' is bound twice in this let", "give the second value another name")
            if name in sym.variables or name in sym.zones or name in sym.constants:
                self.err(binding, origin, f"'{name}' is already a game variable, zone or constant; choose another local name")
            bound.add(name)
            ty, code = self.code(binding.value, inner, origin)
            self.lets += 1
            python = f"l{self.lets}_{name}"
            inner = inner.with_py(name, ty, self.anchor_of(binding.value, inner), python)
            parts.append(f"({python} := {code})")
        ty, body = self.code(node.body, inner, origin)
        return ty, f"({', '.join(parts)}, {body})[-1]"

    def _e_Neg(self, node, scope, origin):
        ty, code = self.code(node.operand, scope, origin)
        if not T.numeric(ty):
            self.err(node, origin, f"cannot negate {ty}")
        return T.INT, f"(-{code})"

    def _e_Not(self, node, scope, origin):
        _, code = self.code(node.operand, scope, origin)
        return T.BOOL, f"(not {code})"

    def _e_BinOp(self, node, scope, origin):
        lt, left = self.code(node.left, scope, origin)
        rt, right = self.code(node.right, scope, origin)
        op = node.op
        if op == "+" and (lt.kind == "list" or rt.kind == "list"):
            if not (T.is_list(lt) and T.is_list(rt)):
                self.err(node, origin, f"cannot add {lt} and {rt}")
            return T.join(lt, rt), f"H.concat(st, {left}, {right})"
        if op == "+" and lt.kind == "str" and rt.kind == "str":
            return T.STR, f"H.concat(st, {left}, {right})"
        if not (T.numeric(lt) and T.numeric(rt)):
            self.err(node, origin, f"'{op}' needs numbers, found {lt} and {rt}")
            return NOTHING
        if op == "/":
            return T.INT, f"H.div({left}, {right})"
        if op == "%":
            return T.INT, f"H.mod({left}, {right})"
        if op == "*":
            return T.INT, f"H.mul({left}, {right})"
        return T.INT, f"({left} {_ARITH[op]} {right})"

    def _e_Compare(self, node, scope, origin):
        lt, left = self.code(node.left, scope, origin)
        rt, right = self.code(node.right, scope, origin)
        op = node.op
        if op in ("in", "notin"):
            elem = T.iter_elem(rt)
            if elem is None:
                self.err(node.right, origin, f"'in' needs a list or a zone on its right, not {rt}")
                return T.BOOL, "False"
            if not T.compatible(lt, elem):
                self.err(node, origin, f"{lt} can never be in a collection of {elem}")
            pyop = "not in" if op == "notin" else "in"
            if rt.kind in ("zone", "space") and lt.kind == "component":
                anchor = self.anchor_of(node.right, scope) if rt.kind == "space" else None
                if anchor is not None and lt.sub and len(lt.sub) == 1:  # is it on a space near the parameter
                    self.read(memo.near(next(iter(lt.sub)), *anchor))
                else:
                    self.read_where(lt.sub, on_spaces=rt.kind == "space")
                eq = "!=" if op == "notin" else "=="
                return T.BOOL, f"(st.where[{left}] {eq} {right})"
            if rt.kind in ("zone", "space"):
                return T.BOOL, f"({left} {pyop} {self.contents(rt, right, None, node.right, scope)})"
            if rt.kind == "table" and T.key_of(rt).kind == "player":
                return T.BOOL, f"({left} {pyop} range(len({right})))"
            if rt.kind == "list":  # looked through: charged when long
                return T.BOOL, f"({'not ' if op == 'notin' else ''}H.member(st, {left}, {right}))"
            return T.BOOL, f"({left} {pyop} {right})"
        if not T.compatible(lt, rt):
            self.err(node, origin, f"comparing {lt} with {rt} is always {'false' if op == '==' else 'meaningless'}")
        self._check_literal_domain(node, origin)
        if op in ("<", "<=", ">", ">=") and not (T.numeric(lt) and T.numeric(rt)) and not (lt.kind == rt.kind == "str"):
            self.err(node, origin, f"'{op}' needs numbers, found {lt} and {rt}")
        if op in ("==", "!=") and "list" in (lt.kind, rt.kind):  # compared item by item: charged when long
            return T.BOOL, f"({'not ' if op == '!=' else ''}H.equal(st, {left}, {right}))"
        return T.BOOL, f"({left} {op} {right})"

    def _check_literal_domain(self, node, origin):
        """`c.type == "crad"` and `c.colour == "gren"`: check the string against known values."""
        for attr, lit in ((node.left, node.right), (node.right, node.left)):
            if isinstance(attr, ast.Attr) and isinstance(lit, ast.Literal) and isinstance(lit.value, str):
                if attr.name == "type":
                    known = set(self.symbols.component_types)
                else:
                    known = self.symbols.prop_values.get(attr.name)
                if known and lit.value not in known:
                    self.err(lit, origin, f"'{lit.value}' is not a known value of '{attr.name}'",
                             did_you_mean(lit.value, known) or "known values: " + ", ".join(sorted(map(str, known))[:12]))

    def _e_BoolOp(self, node, scope, origin):
        lt, left = self.code(node.left, scope, origin)
        rt, right = self.code(node.right, scope, origin)
        if lt.kind == rt.kind == "bool":  # already true or false: no bool() call needed
            return T.BOOL, f"({left} {node.op} {right})"
        return T.BOOL, f"bool({left} {node.op} {right})"

    def _e_IfExpr(self, node, scope, origin):
        _, cond = self.code(node.condition, scope, origin)
        at, a = self.code(node.then, scope, origin)
        bt, b = self.code(node.otherwise, scope, origin)
        if not T.compatible(at, bt):
            self.err(node, origin, f"the two branches give {at} and {bt}")
        return T.join(at, bt), f"({a} if {cond} else {b})"


def _farthest(anchors: list) -> tuple[str, int] | None:
    """The anchor of items each near one of `anchors`: the same space, at the greatest distance."""
    if not anchors or any(a is None for a in anchors) or len({a[0] for a in anchors}) != 1:
        return None
    return anchors[0][0], max(a[1] for a in anchors)
