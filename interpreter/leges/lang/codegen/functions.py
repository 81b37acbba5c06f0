"""User functions: compiled once per kind of arguments into Python functions, memoised by what they read.

A function's reads (memo.py) are found while its body compiles. Two refinements keep cached
values alive where a per-type dependency would forget them all:

- *near reads*: a function of a space `s` that looks only at the contents of `s` and of the
  spaces around it (`neighbors(s)`, and theirs) depends on those spaces only; a move elsewhere
  keeps its values (a cost to build on a hex, a neighbourhood test);
- *hoisted calls*: such a function calling another one on its own arguments whose value depends
  on the whole board (a count of a player's groups on the board, say) takes that value into its cache
  key instead of its reads — the change of a far space then matters only if it changes that value;
- *projected components*: a component parameter the body reads only fixed properties of (its
  owner, its type, declared properties no rule sets) is keyed by those values, so every component
  alike in them shares one value (a test of the pieces around a space that asks only whose the
  piece is holds for all of that player's pieces).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..syntax import ast
from ..optimise import memo
from ..check import types as T
from ...text.errors import LegesError
from .call import NOTHING
from ..syntax.parser import parse_expression
from ..check.scope import Scope

CHEAP_SOURCE = 300  # a body shorter than this that does not loop is cheaper to compute than to look up


@dataclass
class Compiled:
    name: str  # the generated Python function
    type: T.Ty
    params: list[str]
    reads: frozenset  # for callers: what its value depends on, near reads relative to `params`
    memoised: bool
    filed: tuple[int, str] | None = None  # (memo slot, space parameter) of values filed by space under plain keys
    flat: int | None = None  # memo slot of values kept under their arguments alone (one, or a tuple of them)


@dataclass
class Body:
    """The function whose body is being compiled: its parameters and the calls hoisted into its key."""

    params: list[str]
    hoisted: dict[str, None] = field(default_factory=dict)  # call source → None (an ordered set)
    hoisted_reads: set[str] = field(default_factory=set)


class Functions:
    def __init__(self, compiler):
        self.c = compiler
        self.compiled: dict[tuple, Compiled] = {}  # (id, argument types, a player acts) → function
        self.busy: set = set()
        self.trees: dict[str, ast.Expr] = {}  # function → its body's syntax tree, for inlining
        self.unit: str | None = None  # the generated function being compiled
        self.inlined: dict[str, set[str]] = {}  # generated function → the functions compiled inline in it
        self.body: Body | None = None
        self.counter = 0

    def call(self, node: ast.Call, scope: Scope, origin) -> tuple[T.Ty, str]:
        c = self.c
        decl = c.symbols.functions[node.func]
        if node.kwargs:
            c.err(node, origin, f"{decl.id}() takes its arguments by position")
        if len(node.args) != len(decl.params):
            c.err(node, origin, f"{decl.id}() takes {len(decl.params)} arguments, {len(node.args)} given")
            return NOTHING
        args = [c.code(a, scope, origin) for a in node.args]
        key = (decl.id, tuple(t for t, _ in args), scope.me)
        if scope.me and key[:2] + (False,) in self.compiled:
            key = key[:2] + (False,)  # compiled where no player acts, hence not reading `me`: the same function
        if key in self.busy:
            c.err(node, origin, f"{decl.id}() calls itself; functions may not be recursive",
                  "use a board query such as reachable() or groups(), or a bounded loop in a procedure")
            return NOTHING
        if key not in self.compiled:
            self.compiled[key] = self._compile(decl, [t for t, _ in args], scope.me, key)
            if memo.ME not in self.compiled[key].reads:  # valid where no player acts too
                self.compiled.setdefault(key[:2] + (False,), self.compiled[key])
        fn = self.compiled[key]
        hoisting = c.hoist
        if hoisting is not None and not fn.memoised and not (id(node) in hoisting.reached and hoisting.invariant(node, scope.py)):
            inline = self._inline(decl, fn, node, args, scope)
            if inline is not None:
                return fn.type, inline
        source = f"{fn.name}(st, {scope.me_code if scope.me else 'None'}{''.join(f', {a}' for _, a in args)})"
        reads = self._reads_at_call(fn, node.args, scope)
        body = self.body
        if body is not None and self._hoistable(fn, node.args, scope, reads):  # (never hoistable without a body)
            body.hoisted[source] = None
            body.hoisted_reads |= reads
        else:
            c.reads |= reads
        if hoisting is not None:
            return fn.type, hoisting.call(fn, node, args, scope.py, source)
        return fn.type, source

    def element_anchor(self, node: ast.Call, scope: Scope) -> tuple[str, int] | None:
        """The anchor of every item a user function's list holds (compiler.element_anchor): its body's,
        relative to a parameter given an anchored space, moved to that space's anchor."""
        decl = self.c.symbols.functions[node.func]
        if len(node.args) != len(decl.params) or node.kwargs:
            return None
        tree = self._tree(decl)
        given = {p: self.c.anchor_of(a, scope) for p, a in zip(decl.params, node.args)}
        inner = Scope(me=scope.me, me_code=scope.me_code)
        for p, anchor in given.items():
            inner = inner.with_py(p, T.ANY, (p, 0) if anchor is not None else None)
        found = self.c.element_anchor(tree, inner) if tree is not None else None
        if found is None:
            return None
        outer = given[found[0]]
        return outer[0], outer[1] + found[1]

    def _tree(self, decl) -> ast.Expr | None:
        """A function body's syntax tree (parsed once), or None if it does not parse."""
        tree = self.trees.get(decl.id)
        if tree is None:
            try:
                tree = self.trees[decl.id] = parse_expression(decl.body.text, decl.body.at.origin())
            except LegesError:
                return None
        return tree

    def _inline(self, decl, fn: Compiled, node: ast.Call, args: list, scope: Scope) -> str | None:
        """A plain function's body compiled in place, in a comprehension (hoist.py), its parameters
        bound to the caller's names: only for a body that binds no name (so none of the caller's can
        be captured) called with names or constants (so no argument is computed twice), in a user
        function's body (which then counts as running it: `inlined`), else None."""
        if self.unit is None or not all(isinstance(a, ast.Literal) or isinstance(a, ast.Name) and a.id in scope.py
                                        for a in node.args):
            return None
        tree = self._tree(decl)
        if tree is None or any(isinstance(n, (ast.Lambda, ast.Comprehension, ast.LetExpr)) for n in tree.walk()):
            return None
        tree = copy.deepcopy(tree)  # its nodes' ids mark what every item reaches: one copy per call
        inner = Scope(me=scope.me, me_code=scope.me_code)
        for p, a, (t, code) in zip(decl.params, node.args, args):
            inner = inner.with_py(p, t, self.c.anchor_of(a, scope), code)
            if isinstance(a, ast.Literal):
                self.c.hoist.outer.add(code)  # a constant: the same for every item
        if id(node) in self.c.hoist.reached:
            self.c.hoist.reach(tree)
        self.inlined.setdefault(self.unit, set()).add(decl.id)
        outer, self.body = self.body, None  # the caller's key takes no call hoisted from a body not its own
        try:
            _, code = self.c.code(tree, inner, decl.body.at.origin())
        finally:
            self.body = outer
        return f"({code})"

    # ------------------------------------------------------------ compiling
    def _compile(self, decl, arg_types: list[T.Ty], me: bool, key: tuple) -> Compiled:
        c = self.c
        self.busy.add(key)
        self.counter += 1
        name = f"F{self.counter}_{decl.id}"
        scope = Scope(me=me, me_code="me")
        for p, t in zip(decl.params, arg_types):
            scope = scope.with_py(p, t, (p, 0) if t.kind == "space" else None)
        outer = c.reads, c.searches, c.zone_loops, self.body, self.unit, c.hoist
        # (compiled where a caller's comprehension is being compiled: none of its hoisting applies here)
        c.reads, c.searches, c.zone_loops, self.body, self.unit, c.hoist = set(), 0, 0, Body(list(decl.params)), name, None
        ty, body = c.parse_code(decl.body, scope)
        own, searches, loops, frame = frozenset(c.reads), c.searches, c.zone_loops, self.body
        c.reads, c.searches, c.zone_loops, self.body, self.unit, c.hoist = outer
        hoisted = list(frame.hoisted) if any(memo.parse_near(k) for k in own) else []
        slot_reads = own if hoisted else own | frame.hoisted_reads
        reads = own | frame.hoisted_reads  # the value depends on the hoisted calls' reads too
        c.function_reads[name] = reads
        memoised = c.optimise and (searches > 0 or loops > 0 or len(body) >= CHEAP_SOURCE)
        filed = flat = None
        if memoised:
            uses_me = memo.ME in reads
            layout = memo.key_layout(decl.params, uses_me, hoisted)
            by_space = memo.nesting_space(slot_reads, layout)
            projected = self._projections(decl, arg_types)
            slot = c.memo.add(name, slot_reads, layout, len(decl.params) + uses_me, by_space,
                              {p: props for p, (props, _) in projected.items()})
            frozen = {p for p, t in zip(decl.params, arg_types) if t.kind in ("list", "table")}
            source = memo.wrapper_source(name, decl.params, body, slot, uses_me, hoisted, frozen, by_space,
                                         {p: code for p, (_, code) in projected.items()})
            plain_key = not (uses_me or hoisted or frozen or projected)
            if by_space is not None and plain_key and len(decl.params) > 1:
                filed = (slot, by_space)  # memo[slot][space][the other arguments]: looked up in place (hoist.py)
            elif by_space is None and plain_key and decl.params:
                flat = slot  # memo[slot][the arguments]: looked up once for a comprehension (hoist.py)
        else:
            source = memo.plain_source(name, decl.params, body)
        c.define(source, decl.id)
        self.busy.discard(key)
        return Compiled(name, ty, list(decl.params), reads, memoised, filed, flat)

    def _projections(self, decl, arg_types: list[T.Ty]) -> dict[str, tuple[tuple[str, ...], str]]:
        """Component parameters the body reads only fixed properties of: parameter → (those
        properties, Python source of the key standing for the component)."""
        c = self.c
        sym = c.symbols
        out = {}
        for p, t in zip(decl.params, arg_types):
            if t.kind != "component":
                continue
            node = self._tree(decl)
            if node is None:
                return {}
            props = component_uses(node, p)
            if not props or not all(x in ("owner", "type") or x not in sym.dynamic_component_props for x in props):
                continue  # (a declared property some types lack reads as none, in the body and in the key alike)
            parts = []
            for x in sorted(props):
                if x == "owner":
                    parts.append(f"st.setup.cowner[v_{p}]")
                elif x == "type":
                    parts.append(f"st.setup.ctype[v_{p}]")
                else:  # a declared property: lists frozen, so that they can be part of a key
                    parts.append(f"H.freeze(st.setup.cstatic[v_{p}].get({x!r}))")
            code = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
            out[p] = (tuple(sorted(props)), code)
        return out

    # ------------------------------------------------------------ reads at a call
    def _reads_at_call(self, fn: Compiled, args: list, scope: Scope) -> set[str]:
        """The callee's reads in the caller's terms: a near read of a parameter becomes a near read of
        the caller's space the argument is near to, or a read of the whole board."""
        out = set()
        for key in fn.reads:
            near = memo.parse_near(key)
            if near is None:
                out.add(key)
                continue
            what, param, radius = near
            anchor = self.c.anchor_of(args[fn.params.index(param)], scope)
            if anchor is not None:
                out.add(f"near:{what}:{anchor[0]}:{radius + anchor[1]}")
            elif what.startswith("@"):
                out.add(memo.sprop(what[1:]))
            else:
                out.add(memo.on_spaces(None if what == memo.ANY_TYPE else what))
        return out

    def _hoistable(self, fn: Compiled, args: list, scope: Scope, reads: set[str]) -> bool:
        """A memoised call on the body's own arguments whose value depends on the whole board."""
        if self.body is None or not fn.memoised or not any(memo.broad(k) for k in reads):
            return False
        params = set(self.body.params)
        return all(ast.free_names(a) & scope.py.keys() <= params for a in args)


def component_uses(node: ast.Node, name: str) -> set[str] | None:
    """The properties an expression reads of `name` (free in it, as `name.prop`), or None if it
    uses `name` otherwise (compares it, passes it on, reads where it is ...)."""
    props: set[str] = set()

    def walk(n: ast.Node, bound: frozenset) -> bool:
        if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Name) and n.obj.id == name and name not in bound:
            props.add(n.name)
            return n.name not in ("zone", "space")
        if isinstance(n, ast.Name):
            return n.id != name or name in bound
        if isinstance(n, ast.Lambda):
            return walk(n.body, bound | {n.param})
        if isinstance(n, ast.Comprehension):
            inner = bound
            for clause in n.clauses:
                if not walk(clause.iterable, inner):
                    return False
                inner = inner | set(clause.names)
                if clause.condition is not None and not walk(clause.condition, inner):
                    return False
            return walk(n.element, inner)
        if isinstance(n, ast.LetExpr):
            inner = bound
            for binding in n.bindings:
                if not walk(binding.value, inner):
                    return False
                inner = inner | {binding.name}
            return walk(n.body, inner)
        return all(walk(child, bound) for child in n.children())

    return props if walk(node, frozenset()) else None
