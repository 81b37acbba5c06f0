"""User functions: compiled once per kind of arguments into Python functions, memoised by what they read.

A function's reads (memo.py) are found while its body compiles. Two refinements keep cached
values alive where a per-type dependency would forget them all:

- *near reads*: a function of a space `s` that looks only at the contents of `s` and of the
  spaces around it (`neighbors(s)`, and theirs) depends on those spaces only; a move elsewhere
  keeps its values (a cost to build on a hex, a neighbourhood test);
- *projected components*: a component parameter the body reads only fixed properties of (its
  owner, its type, declared properties no rule sets), itself or through the functions it is passed
  to, is keyed by those values, so every component alike in them shares one value (a test of the
  pieces around a space that asks only whose the piece is holds for all of that player's pieces).
  Its fixed properties are then part of the key, not of what the cached values depend on (*absorbed*
  reads): a resampled world, where hidden components trade identities, keeps them.
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
    # fixed properties read of a projected parameter (memo.py's static:T keys), per parameter; a
    # caller passing its own projected parameter there absorbs them too (else they are plain reads)
    absorbed: dict[str, frozenset] = field(default_factory=dict)
    plain: frozenset = frozenset()  # `reads` without what is read only through projected parameters
    keyed: dict[str, str] = field(default_factory=dict)  # projected parameter → its key's source, "{}" the argument


@dataclass
class Body:
    """The function whose body is being compiled: the fixed properties of its projected parameters it reads."""

    absorbed: dict[str, set[memo.Read]] = field(default_factory=dict)  # projected parameter → static:T keys read of it


class Functions:
    def __init__(self, compiler):
        self.c = compiler
        self.compiled: dict[tuple, Compiled] = {}  # (id, argument types, a player acts) → function
        self.busy: set = set()
        self.props_cache: dict[tuple[str, int], set[str] | None] = {}  # param_props, per (function, parameter)
        self.trees: dict[str, ast.Expr] = {}  # function → its body's syntax tree, for inlining
        self.unit: str | None = None  # the generated function being compiled
        self.inlined: dict[str, set[str]] = {}  # generated function → the functions compiled inline in it
        # the function whose projected parameters' fixed properties are being absorbed, and the
        # names standing for them in the code being compiled (its own, or an inlined body's)
        self.absorber: Body | None = None
        self.aliases: dict[str, str] = {}
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
        c.reads |= self._reads_at_call(fn, self._absorb(fn, node.args), node.args, scope)
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
            named = a.id if isinstance(a, ast.Name) else None
            inner = inner.with_py(p, t, self.c.anchor_of(a, scope), code, on_board=named in scope.on_board)
            if isinstance(a, ast.Literal):
                self.c.hoist.outer.add(code)  # a constant: the same for every item
        if id(node) in self.c.hoist.reached:
            self.c.hoist.reach(tree)
        self.inlined.setdefault(self.unit, set()).add(decl.id)
        # what the body reads of the caller's projected parameters it is given is the caller's to absorb
        aliases = {p: self.aliases[a.id] for p, a in zip(decl.params, node.args)
                   if isinstance(a, ast.Name) and a.id in self.aliases}
        outer_aliases, self.aliases = self.aliases, aliases
        try:
            _, code = self.c.code(tree, inner, decl.body.at.origin())
        finally:
            self.aliases = outer_aliases
        return f"({code})"

    def absorb(self, name: str, keys) -> bool:
        """Record that the code being compiled reads fixed properties (`keys`, static:T) of the
        component named `name`, if that is a projected parameter of the function being compiled
        (then they are in its key, not among its reads); whether it was."""
        param = self.aliases.get(name)
        if param is None or self.absorber is None:
            return False
        self.absorber.absorbed.setdefault(param, set()).update(keys)
        return True

    # ------------------------------------------------------------ compiling
    def _compile(self, decl, arg_types: list[T.Ty], me: bool, key: tuple) -> Compiled:
        c = self.c
        self.busy.add(key)
        self.counter += 1
        name = f"F{self.counter}_{decl.id}"
        scope = Scope(me=me, me_code="me")
        for p, t in zip(decl.params, arg_types):
            scope = scope.with_py(p, t, (p, 0) if t.kind == "space" else None)
        projected = self._projections(decl, arg_types)
        outer = c.reads, c.searches, c.zone_loops, self.unit, c.hoist, self.absorber, self.aliases
        # (compiled where a caller's comprehension is being compiled: none of its hoisting applies here)
        frame = Body()
        aliases = {p: p for p in projected} if c.optimise else {}
        c.reads, c.searches, c.zone_loops, self.unit, c.hoist, self.absorber, self.aliases = \
            set(), 0, 0, name, None, frame, aliases
        try:
            ty, body = c.parse_code(decl.body, scope)
        finally:
            own, searches, loops = frozenset(c.reads), c.searches, c.zone_loops
            c.reads, c.searches, c.zone_loops, self.unit, c.hoist, self.absorber, self.aliases = outer
        # the slot forgets what its values depend on; the fixed properties of projected parameters
        # are in its key instead (absorbed), unless the body reads them otherwise too
        absorbed = {p: frozenset(keys) for p, keys in frame.absorbed.items() if keys}
        reads = own.union(*absorbed.values())
        c.function_reads[name] = reads
        memoised = c.optimise and (searches > 0 or loops > 0 or len(body) >= CHEAP_SOURCE)
        filed = flat = None
        if memoised:
            uses_me = memo.ME in reads
            layout = (("me",) if uses_me else ()) + tuple(decl.params)  # what its cache keys hold
            by_space = memo.nesting_space(own, layout)
            slot = c.memo.add(name, own, layout, by_space,
                              {p: props for p, (props, _) in projected.items()})
            frozen = {p for p, t in zip(decl.params, arg_types) if t.kind in ("list", "table")}
            keyed = {p: template for p, (_, template) in projected.items()}
            source = memo.wrapper_source(name, decl.params, body, slot, uses_me, frozen, by_space,
                                         {p: template.replace("{}", f"v_{p}") for p, template in keyed.items()})
            plain_key = not (uses_me or frozen)
            if by_space is not None and plain_key and len(decl.params) > 1:
                filed = (slot, by_space)  # memo[slot][space][the other arguments]: looked up in place (hoist.py)
            elif by_space is None and plain_key and decl.params:
                flat = slot  # memo[slot][the arguments]: looked up once for a comprehension (hoist.py)
        else:
            source = memo.plain_source(name, decl.params, body)
        c.define(source, decl.id)
        self.busy.discard(key)
        return Compiled(name, ty, list(decl.params), reads, memoised, filed, flat, absorbed, own,
                        keyed if memoised else {})

    def _projections(self, decl, arg_types: list[T.Ty]) -> dict[str, tuple[tuple[str, ...], str]]:
        """Component parameters the body reads only fixed properties of, itself or through the
        functions it passes them to: parameter → (those properties, Python source of the key
        standing for the component, "{}" where the component goes). None is rebound in the body, so
        that every `p.prop` there is the parameter's (compile_names absorbs those reads)."""
        node = self._tree(decl)
        if node is None:
            return {}
        bound = bound_names(node)
        out = {}
        for i, (p, t) in enumerate(zip(decl.params, arg_types)):
            if t.kind != "component" or p in bound:
                continue
            props = self.param_props(decl, i)
            if not props:
                continue
            parts = []
            for x in sorted(props):
                if x == "owner":
                    parts.append("st.setup.cowner[{}]")
                elif x == "type":
                    parts.append("st.setup.ctype[{}]")
                else:  # a declared property: the component's kind stands for all of them (one lookup)
                    parts = ["st.setup.ckind[{}]"]
                    break
            code = parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")"
            out[p] = (tuple(sorted(props)), code)
        return out

    def param_props(self, decl, index: int) -> set[str] | None:
        """The fixed properties a function reads of its parameter number `index`, itself or through
        the functions it passes it to; None if it uses the parameter otherwise (compares it, reads
        where it is or a property rules set, passes it to a built-in ...)."""
        key = (decl.id, index)
        if key in self.props_cache:
            return self.props_cache[key]
        self.props_cache[key] = None  # (functions are not recursive: a cycle is an error reported elsewhere)
        node = self._tree(decl)
        functions = self.c.symbols.functions

        def through(name: str, i: int) -> set[str] | None:
            callee = functions.get(name)
            return self.param_props(callee, i) if callee is not None and i < len(callee.params) else None

        props = component_uses(node, decl.params[index], through) if node is not None else None
        dynamic = self.c.symbols.dynamic_component_props
        if props is not None and not all(x in ("owner", "type") or x not in dynamic for x in props):
            props = None  # (a declared property some types lack reads as none, in the body and in the key alike)
        self.props_cache[key] = props
        return props

    # ------------------------------------------------------------ reads at a call
    def _absorb(self, fn: Compiled, args: list) -> frozenset:
        """What the callee reads, as far as the caller's cached values depend on it: the fixed
        properties it reads of a parameter given one of the caller's projected parameters are in
        the caller's key, and recorded as absorbed by it; the rest are the caller's reads."""
        if not fn.absorbed:
            return fn.reads
        keys = set(fn.plain)
        for p, read in fn.absorbed.items():
            arg = args[fn.params.index(p)]
            if not (isinstance(arg, ast.Name) and self.absorb(arg.id, read)):
                keys |= read
        return frozenset(keys)

    def _reads_at_call(self, fn: Compiled, keys: frozenset, args: list, scope: Scope) -> set[memo.Read]:
        """The callee's reads `keys` in the caller's terms: a near read of a parameter becomes a near read of
        the caller's space the argument is near to, or a read of the whole board."""
        out = set()
        for key in keys:
            if key.kind not in memo.NEAR_KINDS:
                out.add(key)
                continue
            anchor = self.c.anchor_of(args[fn.params.index(key.param)], scope)
            if anchor is not None:
                out.add(key._replace(param=anchor[0], radius=key.radius + anchor[1]))
            elif key.kind == memo.NEAR_PROP:
                out.add(memo.sprop(key.what))
            else:
                out.add(memo.on_spaces(key.what))
        return out


def component_uses(node: ast.Node, name: str, through=None) -> set[str] | None:
    """The properties an expression reads of `name` (free in it, as `name.prop`), or None if it
    uses `name` otherwise (compares it, reads where it is, passes it on ...). `through(function,
    index)`: the properties a user function reads of its parameter number `index` (or None), for
    `name` passed on to one as it is."""
    props: set[str] = set()

    def walk(n: ast.Node, bound: frozenset) -> bool:
        if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Name) and n.obj.id == name and name not in bound:
            props.add(n.name)
            return n.name not in ("zone", "space")
        if through is not None and isinstance(n, ast.Call) and not n.kwargs and name not in bound:
            passed = [i for i, a in enumerate(n.args) if isinstance(a, ast.Name) and a.id == name]
            if passed:
                for i in passed:
                    found = through(n.func, i)
                    if found is None:
                        return False
                    props.update(found)
                return all(walk(a, bound) for i, a in enumerate(n.args) if i not in passed)
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


def bound_names(node: ast.Node) -> set[str]:
    """The names an expression binds anywhere in it (functions' parameters, comprehensions', lets')."""
    out: set[str] = set()
    for n in node.walk():
        if isinstance(n, ast.Lambda):
            out.add(n.param)
        elif isinstance(n, ast.Comprehension):
            for clause in n.clauses:
                out.update(clause.names)
        elif isinstance(n, ast.LetExpr):
            out.update(b.name for b in n.bindings)
    return out
