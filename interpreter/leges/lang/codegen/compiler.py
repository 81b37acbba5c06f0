"""Compiling checked expressions into Python functions.

Every expression is checked (names, types) and translated into the source of one Python
expression; it is then compiled once into a function `fn(state, env)`. The translation only
ever emits our own operators and helper calls: names written in a ruleset become dictionary
keys (via `repr`) or `v_`-prefixed locals, literals are `repr`ed, so ruleset text is never
evaluated — only the checked tree is compiled. Generated code runs several times faster than
a tree of closures, which matters for random play-outs.

Expressions only read the state; programs, which change it, are compiled by the engine
(`engine/program/`) with this compiler's help.
"""
from __future__ import annotations

from typing import Any

from ...text import cache
from ...text.errors import Collector, LegesError, did_you_mean
from ...text.origin import TextOrigin
from ..syntax import ast
from ..optimise import memo
from . import payments, runtime
from ..check import types as T
from .builtins import BUILTINS
from .call import NOTHING, Call
from .compile_loops import LoopCompiling
from .compile_names import NameCompiling
from .compile_operators import OperatorCompiling
from .compile_reads import ReadRecording
from .formatting import formatter
from .functions import Functions
from ..optimise.hoist import Hoisting, keeps_inline
from ..optimise.python_passes import python_passes
from .loops import LoopFunctions
from ..syntax.parser import parse_expression, parse_program
from ..check.scope import Fn, Scope
from ..check.symbols import Symbols, type_of_value

BUILTIN_EVENTS = {
    "drawn": {"item": T.COMPONENT, "source": T.ZONE, "to": T.ZONE, "player": T.PLAYER},
    "moved": {"item": T.COMPONENT, "source": T.ZONE, "to": T.ZONE, "player": T.PLAYER},
}


class Compiler(NameCompiling, ReadRecording, LoopCompiling, OperatorCompiling):
    """One game's compiler of expressions: the checks and translations of each kind of node are in
    the mixins (compile_names, compile_reads, compile_loops, compile_operators); calls, `let` and
    the generated code's namespace are here."""

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
            "KeyError": KeyError, "TypeError": TypeError, "zip": zip, "bool": bool, "enumerate": enumerate,
            "map": map, "dict": dict, "isinstance": isinstance}}
        self._fn_cache: dict[str, Fn] = {}
        # what the expression being compiled reads of the state that may change (memo.py's read
        # keys), and whether it loops over lists (then a function of it is worth memoising)
        self.reads: set[memo.Read] = set()
        self.searches = 0
        self.lets = 0  # `let` expressions compiled: each binds Python names of its own
        self.iterables: list[str] = []  # generated functions computing a comprehension's items (iter_safe)
        self.zone_loops = 0  # loops (over a zone's few items, or a list: then a search too)
        # the state's index of the components on the board (engine/board_index.py): a loop may go
        # through it while the rules compile (`board_index`), and once one does (`board_index_used`),
        # the game's states keep it; what compiles later (a scenario, a learned heuristic) uses it
        # only if they do — a game whose rules never read it does not pay for keeping it
        self.board_index = optimise
        self.board_index_used = False
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
            exec(cache.compiled(source, "<rule>", self.python_pass), self.namespace, local)  # our own generated source
            fn = self._fn_cache[code] = local["_e"]
        return fn

    def define(self, source: str, name: str) -> None:
        exec(cache.compiled(source, f"<{name}>", self.python_pass), self.namespace)  # our own generated source

    @property
    def python_pass(self):
        """What rewrites generated source before it is compiled (optimise/python_passes.py); nothing
        in the reference build."""
        return python_passes if self.optimise else None

    def formatter(self, ty: T.Ty):
        self.read_labels(ty)
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
