"""Compiling what goes through items: lists, comprehensions (their loop-invariant calls hoisted,
hoist.py), the loops of built-ins (loops.py) and the names a loop binds. A mixin of `compiler.Compiler`."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable

from ..syntax import ast
from ..check import types as T
from .compile_parts import CompilerParts
from ..optimise.hoist import Hoisting
from ..check.scope import Scope


class LoopCompiling(CompilerParts):
    def loop(self, kind: str, scope: Scope, var: str, items: str, body: str) -> str:
        """Source computing `kind` (any, all, count, sum) of `body` over `items` (see loops.py)."""
        self.zone_loops += 1
        return self.loops.call(kind, scope.free_names(), f"v_{var}", items, body)

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
        return self.iterable_of(self.code(node, scope, origin), node, scope, origin, typed, charged)

    def iterable_of(self, compiled: tuple[T.Ty, str], node, scope, origin, typed: str | None = None,
                    charged: bool = True) -> tuple[T.Ty, str]:
        """`iterable`, of `node` compiled already (its type and source)."""
        ty, code = compiled
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
        if charged and isinstance(node, ast.Call) and node.func == "range" and code.startswith("H.span("):
            return elem, "H.span_items" + code[len("H.span"):]  # gone through, never kept: no list made
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

    def space_prop_filter(self, clause, scope: Scope) -> str | None:
        """The source of the spaces to go through instead of all of them, where the clause goes through
        the board's `spaces` keeping first those whose property or area P is not none (`s.P != none
        and ...`), holds (`s.P and ...`) or equals a literal (`s.P == "x" and ...`); else None. Only
        the spaces the map gives such a P, and those a rule has set P on, are gone through (in the
        board's order, charged as all of them: runtime.spaces_with): the rest of the condition is
        asked only where that part holds, so the spaces skipped cost no work anyway. A map of a few
        dozen spaces on a table of thousands, asking each of them, spent a twelfth of a play-out."""
        node, it, board = clause.condition, clause.iterable, self.board
        if (node is None or len(clause.names) != 1 or board is None or not isinstance(it, ast.Name)
                or it.id != "spaces" or "spaces" in scope.locals):
            return None
        while isinstance(node, ast.BoolOp) and node.op == "and":
            node = node.left
        keep: Callable[[Any], bool] | None = None
        attr: ast.Node = node
        if isinstance(node, ast.Compare) and node.op in ("!=", "=="):
            for attr, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(other, ast.Literal) and (other.value is None or node.op == "=="
                                                      and isinstance(other.value, (str, int, float))):
                    value = other.value
                    keep = (lambda v: v is not None) if node.op == "!=" else (lambda v: v == value)
                    break
        elif isinstance(node, ast.Attr):
            keep = bool
        if (keep is None or not isinstance(attr, ast.Attr) or not isinstance(attr.obj, ast.Name)
                or attr.obj.id != clause.names[0]):
            return None
        name = attr.name
        if name in board.areas:
            static = board.area_of.get(name, {}).get
        elif name in self.symbols.space_props and self.symbols.space_props[name].kind not in ("list", "table", "any"):
            static = lambda sid: board.props.get(sid, {}).get(name)  # noqa: E731 (a list compares by H.equal, charged)
        else:
            return None
        holding = [sid for sid in board.spaces if keep(static(sid))]
        order = self.const(board.order())
        if name in self.dynamic_space_props and name not in board.areas:
            return f"H.spaces_with(st, {name!r}, {self.const(holding)}, {order})"
        return f"H.spaces_among(st, {self.const(holding)}, {order})"

    def board_items(self, it, condition, var: str, scope: Scope, origin, every: str) -> str | None:
        """The source of the components to go through instead of all those of a type (and owner),
        where a loop over `components(T)` or `components(T, owner)` (`it`, its source `every`) keeps
        only those on the board (`condition` of `var`: `var.space != none`, after nothing but
        comparisons of names, literals and their attributes, which cannot fail): the state's index of
        the components on the board, in the same order (engine/board_index.py), charged as all of
        them (runtime.board_items). The condition is still asked of each: what it keeps is the same."""
        if (not self.board_index or condition is None or not isinstance(it, ast.Call)
                or it.func != "components" or "components" in scope.locals or it.kwargs
                or len(it.args) not in (1, 2) or not isinstance(it.args[0], ast.Literal)
                or it.args[0].value not in self.symbols.component_types
                or len(it.args) == 2 and not isinstance(it.args[1], (ast.Name, ast.Literal))):  # (compiled again below)
            return None
        for part in _conjuncts(condition):
            if _on_board_test(part, var):
                break
            if not _plain_test(part):
                return None
        else:
            return None
        kind = it.args[0].value
        key = repr(kind) if len(it.args) == 1 else f"({kind!r}, {self.code(it.args[1], scope, origin)[1]})"
        self.board_index_used = True
        return f"H.board_items(st, {key}, {every})"

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
        items = elem.items or ()
        if elem.kind == "tuple" and len(items) != len(names):
            self.err(node, origin, f"cannot unpack {elem} into {len(names)} names",
                     f"give {len(items)} names, one for each item")
        elif elem.kind not in ("tuple", "any"):
            self.err(node, origin, f"cannot unpack {elem} into {len(names)} names: only tuples unpack",
                     "a tuple is written (a, b)")
        return list(items) if elem.kind == "tuple" and len(items) == len(names) else [T.ANY] * len(names)

    def bind(self, names: list, elem: T.Ty, scope: Scope, node, origin, anchor=None,
             on_board: bool = False) -> tuple[Scope, str]:
        """The scope with a loop's names bound to the items of a list of `elem` (several names unpack
        tuples; `on_board`: the components on a board space), and the Python target of the loop."""
        if len(names) == 1:
            return scope.with_py(names[0], elem, anchor, on_board=on_board), f"v_{names[0]}"
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
            compiled = self.code(clause.iterable, inner, origin)
            elem, items = self.iterable_of(compiled, clause.iterable, inner, origin, typed)
            among = self.space_prop_filter(clause, inner) if var and self.optimise else None
            if among is not None:  # only the spaces that may pass the condition's first part
                items = among
            aboard = (self.board_items(clause.iterable, clause.condition, var, inner, origin, compiled[1])
                      if var and self.optimise else None)
            if aboard is not None:  # only the components on the board
                items = aboard
            self.zone_loops += 1
            anchor = self.element_anchor(clause.iterable, inner) if var else None
            before = inner
            inner, target = self.bind(clause.names, elem, inner, clause, origin, anchor, compiled[0].kind == "space")
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


def _conjuncts(node) -> list:
    """The parts of a condition joined by `and`, in the order they are asked."""
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _on_board_test(node, var: str) -> bool:
    """`var.space != none` (either way round)."""
    if not isinstance(node, ast.Compare) or node.op != "!=":
        return False
    for attr, other in ((node.left, node.right), (node.right, node.left)):
        if (isinstance(attr, ast.Attr) and attr.name == "space" and isinstance(attr.obj, ast.Name)
                and attr.obj.id == var and isinstance(other, ast.Literal) and other.value is None):
            return True
    return False


def _plain_test(node) -> bool:
    """A comparison of names, literals and their attributes: asked of any component, it cannot fail."""
    def plain(x) -> bool:
        return isinstance(x, (ast.Name, ast.Literal)) or isinstance(x, ast.Attr) and plain(x.obj)
    return isinstance(node, ast.Compare) and node.op in ("==", "!=") and plain(node.left) and plain(node.right)
