"""Compiling checked syntax trees into Python closures and flat instruction lists.

Expressions become closures `fn(state, env)`; programs become lists of instructions with
jumps, so that a running program is fully described by (code id, instruction index, local
variables) — plain data that can sit in a JSON game state while the program waits for a
player's decision. Names and types are checked here, in the same pass: every problem is
collected with its file position, and compilation goes on to find the next one.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import Collector, Position, did_you_mean
from ..source import TextOrigin
from . import ast
from . import types as T
from .builtins import BUILTINS
from .parser import parse_expression, parse_program
from .symbols import Symbols

SUSPEND = -1  # the program waits for a decision (state.pending says which)
PUSHED = -2  # another frame was pushed on top; the current one resumes later
UNWIND = -3  # the frame stack was replaced (goto, end turn, end game)

Fn = Callable[[Any, dict], Any]

BUILTIN_NAMES = ("me", "current", "players", "num_players", "spaces", "phase", "turn_number", "true", "false", "none")
BUILTIN_EVENTS = {
    "drawn": {"item": T.COMPONENT, "source": T.ZONE, "to": T.ZONE, "player": T.PLAYER},
    "moved": {"item": T.COMPONENT, "source": T.ZONE, "to": T.ZONE, "player": T.PLAYER},
}


@dataclass
class Code:
    """One compiled program: its instructions and, per instruction, where it was written."""

    id: str
    instructions: list = field(default_factory=list)
    positions: list = field(default_factory=list)


class Scope:
    """Names visible at a point of a rule, with their types."""

    def __init__(self, locals_: dict[str, T.Ty] | None = None, me: bool = True, in_turn: bool = False,
                 can_decide: bool = True):
        self.locals = dict(locals_ or {})
        self.me = me
        self.in_turn = in_turn
        self.can_decide = can_decide

    def with_local(self, name: str, ty: T.Ty) -> "Scope":
        s = Scope(self.locals, self.me, self.in_turn, self.can_decide)
        s.locals[name] = ty
        return s


class _Call:
    """What a built-in sees of its call: arguments to compile, errors to report."""

    def __init__(self, compiler: "Compiler", node: ast.Call, scope: Scope, origin: TextOrigin):
        self.c, self.node, self.scope, self.origin = compiler, node, scope, origin
        self.name = node.func
        self.symbols = compiler.symbols

    def arg_node(self, key):
        if isinstance(key, int):
            return self.node.args[key] if key < len(self.node.args) else None
        return self.node.kwargs.get(key)

    def arity(self, lo: int, hi: int, kw: tuple = ()) -> None:
        n = len(self.node.args)
        if not lo <= n <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            self.error(f"{self.name}() takes {want} arguments, {n} given")
        for k in self.node.kwargs:
            if k not in kw:
                self.c.err(self.node.kwargs[k], self.origin, f"{self.name}() has no argument named '{k}'",
                           did_you_mean(k, kw) if kw else None)

    def expr(self, i: int, want: T.Ty | None = None):
        node = self.arg_node(i)
        if node is None:
            return T.ANY, (lambda st, env: None)
        if isinstance(node, ast.Lambda):
            self.c.err(node, self.origin, f"{self.name}() does not take a function here")
            return T.ANY, (lambda st, env: None)
        ty, fn = self.c.expr(node, self.scope, self.origin)
        if want is not None and not T.compatible(ty, want):
            self.c.err(node, self.origin, f"{self.name}() needs {want} here, not {ty}")
        return ty, fn

    def kw_expr(self, key: str):
        node = self.node.kwargs.get(key)
        if node is None:
            return None
        return self.c.expr(node, self.scope, self.origin)

    def lam(self, node, elem: T.Ty):
        if not isinstance(node, ast.Lambda):
            self.c.err(node, self.origin, f"{self.name}() needs a function here, such as x => x.value")
            return T.ANY, "_", (lambda st, env: None)
        ty, fn = self.c.expr(node.body, self.scope.with_local(node.param, elem), self.origin)
        return ty, node.param, fn

    def error(self, message: str, arg: int | None = None, hint: str | None = None) -> None:
        node = self.arg_node(arg) if arg is not None else None
        self.c.err(node or self.node, self.origin, message, hint)

    def suggest(self, name, candidates):
        return did_you_mean(str(name), [str(c) for c in candidates])

    def board(self):
        if self.c.board is None:
            self.error(f"{self.name}() needs a board, and this ruleset declares no map")
        return self.c.board

    def board_attr(self, name, default):
        return getattr(self.c.board, name, default) if self.c.board is not None else default

    def formatter(self, ty):
        return self.c.formatter(ty)


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


class Compiler:
    def __init__(self, symbols: Symbols, board, errors: Collector):
        self.symbols = symbols
        self.board = board
        self.errors = errors
        self.codes: dict[str, Code] = {}
        self.function_cache: dict[tuple, tuple[T.Ty, Fn]] = {}
        self.function_busy: set = set()
        self.used_events: set[str] = set()
        self.goto_targets: set[str] = set()

    # ------------------------------------------------------------ reporting
    def err(self, node, origin: TextOrigin, message: str, hint: str | None = None) -> None:
        line = getattr(node, "line", 0) or 1
        col = getattr(node, "col", 0) or 1
        self.errors.error(origin.locate(line, col), message, hint)

    def parse_expr(self, text, scope: Scope, want: T.Ty | None = None) -> tuple[T.Ty, Fn]:
        """Parse and compile the expression in a declaration's `Text`."""
        from ..errors import LegesError
        origin = text.at.origin()
        try:
            node = parse_expression(text.text, origin)
        except LegesError as exc:
            self.errors.extend(exc.diagnostics)
            return T.ANY, (lambda st, env: None)
        ty, fn = self.expr(node, scope, origin)
        if want is not None and not T.compatible(ty, want):
            self.err(node, origin, f"expected {want} here, found {ty}")
        return ty, fn

    def parse_program(self, text, scope: Scope, code_id: str) -> str:
        from ..errors import LegesError
        origin = text.at.origin()
        try:
            program = parse_program(text.text, origin)
        except LegesError as exc:
            self.errors.extend(exc.diagnostics)
            self.codes[code_id] = Code(code_id)
            return code_id
        return self.program(program.body, scope, origin, code_id)

    # ----------------------------------------------------------- formatting
    def formatter(self, ty: T.Ty) -> Callable[[Any, Any], str]:
        """How a value of this type is written in action texts and views."""
        kind = ty.kind
        if kind == "component":
            return lambda st, v: "none" if v is None else st.setup.clabel[v]
        if kind == "player":
            return lambda st, v: "none" if v is None else st.setup.seat_names[v]
        if kind == "bool":
            return lambda st, v: "true" if v else "false"
        if kind == "list":
            inner = self.formatter(ty.elem or T.ANY)
            return lambda st, v: "[" + ",".join(inner(st, x) for x in v) + "]"
        return lambda st, v: "none" if v is None else str(v)

    # ----------------------------------------------------------- expressions
    def expr(self, node: ast.Expr, scope: Scope, origin: TextOrigin) -> tuple[T.Ty, Fn]:
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            self.err(node, origin, f"{type(node).__name__} is not allowed here")
            return T.ANY, (lambda st, env: None)
        return method(node, scope, origin)

    def _e_Literal(self, node, scope, origin):
        value = node.value
        from .symbols import type_of_value
        return type_of_value(value), (lambda st, env: value)

    def _e_Lambda(self, node, scope, origin):
        self.err(node, origin, "a function (x => ...) may only be given to a built-in such as count or sort")
        return T.ANY, (lambda st, env: None)

    def _e_Name(self, node, scope, origin):
        name = node.id
        sym = self.symbols
        if name in scope.locals:
            return scope.locals[name], (lambda st, env: env[name])
        if name == "me":
            if not scope.me:
                self.err(node, origin, "'me' has no meaning here: no player is acting",
                         "use 'current' for the player whose turn it is")
            return T.PLAYER, (lambda st, env: env.get("me"))
        if name == "current":
            return T.PLAYER, (lambda st, env: st.turn_player)
        if name == "players":
            return T.list_of(T.PLAYER), (lambda st, env: list(range(st.n)))
        if name == "num_players":
            return T.INT, (lambda st, env: st.n)
        if name == "phase":
            return T.STR, (lambda st, env: st.phase)
        if name == "turn_number":
            return T.INT, (lambda st, env: st.turn_count)
        if name == "spaces":
            spaces = list(self.board.spaces) if self.board else []
            if self.board is None:
                self.err(node, origin, "'spaces' needs a board, and this ruleset declares no map")
            return T.list_of(T.SPACE), (lambda st, env: list(spaces))
        if name in sym.variables:
            var = sym.variables[name]
            if var.per_player:
                return var.type, (lambda st, env: st.vars[name])  # the whole per-player list
            return var.type, (lambda st, env: st.vars[name])
        if name in sym.constants:
            ty, value = sym.constants[name]
            return ty, (lambda st, env: value)
        if name in sym.zones:
            zone = sym.zones[name]
            if zone.per_player:
                self.err(node, origin, f"zone '{name}' is per player: write {name}(p)")
            elif zone.count:
                self.err(node, origin, f"zone '{name}' is a row of zones: write {name}(i)")
            return T.ZONE, (lambda st, env: name)
        if name in sym.seats:
            seat = sym.seats.index(name)
            return T.PLAYER, (lambda st, env: seat)
        if name in sym.space_ids:
            return T.SPACE, (lambda st, env: name)
        candidates = list(scope.locals) + list(sym.variables) + list(sym.constants) + list(sym.zones) + \
            list(sym.seats) + list(BUILTIN_NAMES)
        hint = did_you_mean(name, candidates)
        if name in sym.functions or name in BUILTINS:
            hint = f"'{name}' is a function: call it as {name}(...)"
        self.err(node, origin, f"unknown name '{name}'", hint)
        return T.ANY, (lambda st, env: None)

    def _e_Attr(self, node, scope, origin):
        ty, obj = self.expr(node.obj, scope, origin)
        name = node.name
        kind = ty.kind
        sym = self.symbols
        if kind == "component":
            types = ty.sub or set(sym.component_types)
            if name == "type":
                return T.STR, (lambda st, env: st.setup.ctype[obj(st, env)])
            if name == "owner":
                return T.PLAYER, (lambda st, env: st.setup.cowner[obj(st, env)])
            if name == "zone":
                return T.ZONE, (lambda st, env: st.where[obj(st, env)])
            if name == "space":
                spaces = set(self.board.spaces) if self.board else set()
                return T.SPACE, (lambda st, env: st.where[obj(st, env)] if st.where[obj(st, env)] in spaces else None)
            found = [sym.component_types[t][name] for t in types if name in sym.component_types.get(t, {})]
            if not found:
                known = {p for t in types for p in sym.component_types.get(t, {})} | {"type", "owner", "zone", "space"}
                self.err(node, origin, f"{ty} has no property '{name}'", did_you_mean(name, known))
                return T.ANY, (lambda st, env: None)
            pty = found[0]
            for other in found[1:]:
                pty = T.join(pty, other)
            if name in sym.dynamic_component_props:
                def dyn(st, env):
                    c = obj(st, env)
                    d = st.cprops.get(c)
                    if d is not None and name in d:
                        return d[name]
                    return st.setup.cstatic[c].get(name)
                return pty, dyn
            return pty, (lambda st, env: st.setup.cstatic[obj(st, env)].get(name))
        if kind == "space" or (kind == "zone" and name in sym.space_props):
            if self.board is not None:
                for akind in self.board.areas:
                    if name == akind:
                        area_of = self.board.area_of[akind]
                        return T.area(akind), (lambda st, env: area_of.get(obj(st, env)))
            if name in sym.space_props:
                props = self.board.props
                pty = sym.space_props[name]

                def space_prop(st, env):
                    s = obj(st, env)
                    d = st.sprops.get(s)
                    if d is not None and name in d:
                        return d[name]
                    return props[s][name]
                return pty, space_prop
            known = set(sym.space_props) | set(self.board.areas if self.board else ())
            self.err(node, origin, f"a space has no property '{name}'", did_you_mean(name, known))
            return T.ANY, (lambda st, env: None)
        if kind == "area":
            board = self.board
            if name == "spaces":
                return T.list_of(T.SPACE), (lambda st, env: list(board.area_spaces[obj(st, env)]))
            kinds = ty.sub or set(sym.area_kinds)
            found = [sym.area_kinds[k][name] for k in kinds if name in sym.area_kinds.get(k, {})]
            if not found:
                known = {p for k in kinds for p in sym.area_kinds.get(k, {})} | {"spaces"}
                self.err(node, origin, f"{ty} has no property '{name}'", did_you_mean(name, known))
                return T.ANY, (lambda st, env: None)
            by_id = {aid: props for k in board.areas.values() for aid, props in k.items()}
            return found[0], (lambda st, env: by_id[obj(st, env)].get(name))
        if kind == "player":
            if name == "seat":
                return T.INT, obj
            if name in sym.seat_props:
                return sym.seat_props[name], (lambda st, env: st.setup.seat_props[obj(st, env)].get(name))
            self.err(node, origin, f"a player has no property '{name}'", did_you_mean(name, list(sym.seat_props) + ["seat"]))
            return T.ANY, (lambda st, env: None)
        if kind == "zone":
            if name == "owner":
                return T.PLAYER, (lambda st, env: st.setup.zone_owner.get(obj(st, env)))
            self.err(node, origin, f"a zone has no property '{name}'", "zones have: owner")
            return T.ANY, (lambda st, env: None)
        if kind == "any":
            return T.ANY, (lambda st, env: _dynamic_attr(st, obj(st, env), name))
        self.err(node, origin, f"{ty} has no properties (asked for '{name}')")
        return T.ANY, (lambda st, env: None)

    def _e_Index(self, node, scope, origin):
        ty, obj = self.expr(node.obj, scope, origin)
        ity, idx = self.expr(node.index, scope, origin)
        if isinstance(node.obj, ast.Name) and node.obj.id in self.symbols.variables \
                and self.symbols.variables[node.obj.id].per_player and node.obj.id not in scope.locals:
            if not T.compatible(ity, T.PLAYER):
                self.err(node.index, origin, f"'{node.obj.id}' is per player: index it with a player, not {ity}")
            name = node.obj.id
            return ty, (lambda st, env: st.vars[name][idx(st, env)])
        if ty.kind in ("zone", "space"):
            return T.COMPONENT, (lambda st, env: st.zones[obj(st, env)][idx(st, env)])
        if ty.kind not in ("list", "any"):
            self.err(node, origin, f"cannot index {ty}")
            return T.ANY, (lambda st, env: None)
        if not T.compatible(ity, T.INT):
            self.err(node.index, origin, f"a list index must be a number, not {ity}")

        def index(st, env):
            items = obj(st, env)
            i = idx(st, env)
            return items[i] if -len(items) <= i < len(items) else None
        return (ty.elem or T.ANY) if ty.kind == "list" else T.ANY, index

    def _e_Call(self, node, scope, origin):
        name = node.func
        sym = self.symbols
        if name in sym.zones:
            zone = sym.zones[name]
            if len(node.args) != 1 or node.kwargs:
                self.err(node, origin, f"zone '{name}' takes one argument")
                return T.ZONE, (lambda st, env: name)
            ty, arg = self.expr(node.args[0], scope, origin)
            if zone.per_player:
                if not T.compatible(ty, T.PLAYER):
                    self.err(node.args[0], origin, f"'{name}' is per player: give a player, not {ty}")
                return T.ZONE, (lambda st, env: st.setup.zkeys[name][arg(st, env)])
            if zone.count:
                if not T.compatible(ty, T.INT):
                    self.err(node.args[0], origin, f"'{name}' is a row of zones: give a number, not {ty}")
                return T.ZONE, (lambda st, env: st.setup.zkeys[name][arg(st, env)])
            self.err(node, origin, f"zone '{name}' is a single zone: write {name} without arguments")
            return T.ZONE, (lambda st, env: name)
        if name in sym.functions:
            return self._user_function(node, scope, origin)
        if name in BUILTINS:
            return BUILTINS[name].compile(_Call(self, node, scope, origin))
        if name in sym.procedures:
            self.err(node, origin, f"'{name}' is a procedure: call it as a statement, not inside an expression")
            return T.ANY, (lambda st, env: None)
        hint = did_you_mean(name, list(BUILTINS) + list(sym.functions) + list(sym.zones))
        self.err(node, origin, f"unknown function '{name}'", hint)
        return T.ANY, (lambda st, env: None)

    def _user_function(self, node, scope, origin):
        decl = self.symbols.functions[node.func]
        if node.kwargs:
            self.err(node, origin, f"{decl.id}() takes its arguments by position")
        if len(node.args) != len(decl.params):
            self.err(node, origin, f"{decl.id}() takes {len(decl.params)} arguments, {len(node.args)} given")
            return T.ANY, (lambda st, env: None)
        compiled = [self.expr(a, scope, origin) for a in node.args]
        key = (decl.id, tuple(t for t, _ in compiled), scope.me)
        if key in self.function_busy:
            self.err(node, origin, f"{decl.id}() calls itself; functions may not be recursive",
                     "use a board query such as reachable() or groups(), or a bounded loop in a procedure")
            return T.ANY, (lambda st, env: None)
        if key not in self.function_cache:
            self.function_busy.add(key)
            body_scope = Scope({p: t for p, (t, _) in zip(decl.params, compiled)}, me=scope.me)
            self.function_cache[key] = self.parse_expr(decl.body, body_scope)
            self.function_busy.discard(key)
        ty, body = self.function_cache[key]
        params = decl.params
        args = [fn for _, fn in compiled]
        fid = decl.id

        # Functions are pure: between two changes of the state (st.version) a call with the
        # same arguments gives the same value, so it is computed once (arguments that are
        # lists cannot be keys and are simply computed).
        if len(params) == 1:
            p0, a0 = params[0], args[0]

            def call1(st, env):
                value = a0(st, env)
                me = env.get("me")
                if st.fversion != st.version:
                    st.fcache.clear()
                    st.fversion = st.version
                key = (fid, me, value)
                try:
                    return st.fcache[key]
                except KeyError:
                    pass
                except TypeError:
                    return body(st, {"me": me, p0: value})
                result = st.fcache[key] = body(st, {"me": me, p0: value})
                return result
            return ty, call1
        if len(params) == 2:
            p0, a0, p1, a1 = params[0], args[0], params[1], args[1]

            def call2(st, env):
                v0, v1 = a0(st, env), a1(st, env)
                me = env.get("me")
                if st.fversion != st.version:
                    st.fcache.clear()
                    st.fversion = st.version
                key = (fid, me, v0, v1)
                try:
                    return st.fcache[key]
                except KeyError:
                    pass
                except TypeError:
                    return body(st, {"me": me, p0: v0, p1: v1})
                result = st.fcache[key] = body(st, {"me": me, p0: v0, p1: v1})
                return result
            return ty, call2

        def call(st, env):
            values = tuple(a(st, env) for a in args)
            me = env.get("me")
            if st.fversion != st.version:
                st.fcache.clear()
                st.fversion = st.version
            key = (fid, me, values)
            try:
                return st.fcache[key]
            except KeyError:
                pass
            except TypeError:
                key = None
            local = {"me": me}
            for p, v in zip(params, values):
                local[p] = v
            result = body(st, local)
            if key is not None:
                st.fcache[key] = result
            return result
        return ty, call

    def _e_ListLit(self, node, scope, origin):
        compiled = [self.expr(item, scope, origin) for item in node.items]
        elem = T.NONE
        for ty, _ in compiled:
            if not T.compatible(elem, ty):
                self.err(node, origin, f"a list mixes {elem} and {ty}")
            elem = T.join(elem, ty)
        fns = [fn for _, fn in compiled]
        return T.list_of(elem if elem != T.NONE else T.ANY), (lambda st, env: [f(st, env) for f in fns])

    @staticmethod
    def split_type_test(cond, var: str):
        """`var.type == "T" and rest` → ("T", rest): the type test can run natively."""
        parts = []

        def conjuncts(n):
            if isinstance(n, ast.BoolOp) and n.op == "and":
                conjuncts(n.left)
                conjuncts(n.right)
            else:
                parts.append(n)
        conjuncts(cond)
        first = parts[0]
        if isinstance(first, ast.Compare) and first.op == "==":
            for attr, lit in ((first.left, first.right), (first.right, first.left)):
                if (isinstance(attr, ast.Attr) and attr.name == "type" and isinstance(attr.obj, ast.Name)
                        and attr.obj.id == var and isinstance(lit, ast.Literal) and isinstance(lit.value, str)):
                    rest = None
                    for p in parts[1:]:
                        rest = p if rest is None else ast.BoolOp("and", rest, p, line=p.line, col=p.col)
                    return lit.value, rest
        return None, cond

    def _e_Comprehension(self, node, scope, origin):
        ity, items = self.expr(node.iterable, scope, origin)
        elem = T.iter_elem(ity)
        if elem is None:
            self.err(node.iterable, origin, f"cannot go through {ity}: a list or a zone is needed")
            elem = T.ANY
        inner = scope.with_local(node.var, elem)
        ety, element = self.expr(node.element, inner, origin)
        var = node.var
        if ity.kind in ("zone", "space"):
            source = items
            items = lambda st, env: st.zones[source(st, env)]
        if node.condition is None:
            if isinstance(node.element, ast.Name) and node.element.id == var:
                return T.list_of(ety), (lambda st, env: list(items(st, env)))

            def mapped(st, env):
                out = []
                for x in items(st, env):
                    env[var] = x
                    out.append(element(st, env))
                return out
            return T.list_of(ety), mapped
        wanted, rest = self.split_type_test(node.condition, var)
        if wanted is not None:
            self.expr(node.condition, inner, origin)  # still checked in full
            typed, items = items, (lambda st, env: [c for c in typed(st, env) if st.setup.ctype[c] == wanted])
            if rest is None:
                if isinstance(node.element, ast.Name) and node.element.id == var:
                    return T.list_of(T.component(wanted)), items

                def mapped_typed(st, env):
                    out = []
                    for x in items(st, env):
                        env[var] = x
                        out.append(element(st, env))
                    return out
                return T.list_of(ety), mapped_typed
            _, cond = self.expr(rest, inner, origin)
        else:
            _, cond = self.expr(node.condition, inner, origin)
        if isinstance(node.element, ast.Name) and node.element.id == var:
            def filtered(st, env):
                out = []
                for x in items(st, env):
                    env[var] = x
                    if cond(st, env):
                        out.append(x)
                return out
            return T.list_of(ety), filtered

        def comp(st, env):
            out = []
            for x in items(st, env):
                env[var] = x
                if cond(st, env):
                    out.append(element(st, env))
            return out
        return T.list_of(ety), comp

    def _e_Neg(self, node, scope, origin):
        ty, fn = self.expr(node.operand, scope, origin)
        if not T.numeric(ty):
            self.err(node, origin, f"cannot negate {ty}")
        return T.INT, (lambda st, env: -fn(st, env))

    def _e_Not(self, node, scope, origin):
        _, fn = self.expr(node.operand, scope, origin)
        return T.BOOL, (lambda st, env: not fn(st, env))

    def _e_BinOp(self, node, scope, origin):
        lt, left = self.expr(node.left, scope, origin)
        rt, right = self.expr(node.right, scope, origin)
        op = node.op
        if op == "+" and (lt.kind == "list" or rt.kind == "list"):
            if not (T.is_list(lt) and T.is_list(rt)):
                self.err(node, origin, f"cannot add {lt} and {rt}")
            return T.join(lt, rt), (lambda st, env: list(left(st, env)) + list(right(st, env)))
        if op == "+" and lt.kind == "str" and rt.kind == "str":
            return T.STR, (lambda st, env: left(st, env) + right(st, env))
        if not (T.numeric(lt) and T.numeric(rt)):
            self.err(node, origin, f"'{op}' needs numbers, found {lt} and {rt}")
            return T.ANY, (lambda st, env: None)
        f = _ARITH[op]
        if op in ("/", "%"):
            def safe(st, env):
                b = right(st, env)
                if b == 0:
                    raise ZeroDivisionError("division by zero")
                return f(left(st, env), b)
            return T.INT, safe
        return T.INT, (lambda st, env: f(left(st, env), right(st, env)))

    def _e_Compare(self, node, scope, origin):
        lt, left = self.expr(node.left, scope, origin)
        rt, right = self.expr(node.right, scope, origin)
        op = node.op
        if op in ("in", "notin"):
            elem = T.iter_elem(rt)
            if elem is None:
                self.err(node.right, origin, f"'in' needs a list or a zone on its right, not {rt}")
                return T.BOOL, (lambda st, env: False)
            if not T.compatible(lt, elem):
                self.err(node, origin, f"{lt} can never be in a collection of {elem}")
            negate = op == "notin"
            if rt.kind in ("zone", "space") and lt.kind == "component":
                return T.BOOL, (lambda st, env: (st.where[left(st, env)] == right(st, env)) != negate)
            if rt.kind in ("zone", "space"):
                return T.BOOL, (lambda st, env: (left(st, env) in st.zones[right(st, env)]) != negate)
            return T.BOOL, (lambda st, env: (left(st, env) in right(st, env)) != negate)
        if not T.compatible(lt, rt):
            self.err(node, origin, f"comparing {lt} with {rt} is always {'false' if op == '==' else 'meaningless'}")
        self._check_literal_domain(node, lt, rt, origin)
        if op in ("<", "<=", ">", ">=") and not (T.numeric(lt) and T.numeric(rt)) and not (lt.kind == rt.kind == "str"):
            self.err(node, origin, f"'{op}' needs numbers, found {lt} and {rt}")
        f = _COMPARE[op]
        if op in ("<", "<=", ">", ">="):
            def ordered(st, env):
                a, b = left(st, env), right(st, env)
                if a is None or b is None:
                    return False
                return f(a, b)
            return T.BOOL, ordered
        return T.BOOL, (lambda st, env: f(left(st, env), right(st, env)))

    def _check_literal_domain(self, node, lt, rt, origin):
        """`c.type == "omen"` and `c.colour == "gren"`: check the string against known values."""
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
        _, left = self.expr(node.left, scope, origin)
        _, right = self.expr(node.right, scope, origin)
        if node.op == "and":
            return T.BOOL, (lambda st, env: bool(left(st, env)) and bool(right(st, env)))
        return T.BOOL, (lambda st, env: bool(left(st, env)) or bool(right(st, env)))

    def _e_IfExpr(self, node, scope, origin):
        _, cond = self.expr(node.condition, scope, origin)
        at, a = self.expr(node.then, scope, origin)
        bt, b = self.expr(node.otherwise, scope, origin)
        if not T.compatible(at, bt):
            self.err(node, origin, f"the two branches give {at} and {bt}")
        return T.join(at, bt), (lambda st, env: a(st, env) if cond(st, env) else b(st, env))

    # -------------------------------------------------------------- programs
    def procedure_code(self, decl, arg_types: list, me: bool) -> str:
        """The code of a procedure compiled for these argument types (compiled once per kind of call)."""
        signature = ",".join(str(t) for t in arg_types)
        code_id = f"procedure:{decl.id}({signature})"
        if code_id not in self.codes:
            self.codes[code_id] = Code(code_id)  # registered first: a recursive call finds it
            scope = Scope(dict(zip(decl.params, arg_types)), me=me)
            self.parse_program(decl.body, scope, code_id)
        return code_id

    def program(self, body: list, scope: Scope, origin: TextOrigin, code_id: str) -> str:
        code = Code(code_id)
        self.codes[code_id] = code
        from .statements import StatementCompiler
        StatementCompiler(self, code, origin).block(body, scope)
        return code_id


def _dynamic_attr(st, value, name):
    """Attribute of a value whose type was not known when the rule was compiled."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        d = st.cprops.get(value)
        if d is not None and name in d:
            return d[name]
        return st.setup.cstatic[value].get(name)
    return None
