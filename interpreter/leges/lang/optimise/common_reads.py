"""A read of the state one expression makes several times, made once: `zones[s]` bound where first read.

Generated expressions read the same item of the state again and again: `count(s) > 0 and
top(s).owner == me` reads `zones[s]` three times (its truth, then `top`'s test and item), a
component's space `where[c]` twice (whether it is a board space, then the space). Expressions only
read the state, so within one expression such a read has one value; this pass binds it to a local
where it is first read (`(_r0 := zones[s])`) and reads the local after. Then, in `x and y`
where `x` is that local, `y` knows it holds items: `top`'s inlined test on it (`_r0[-1] if _r0 else
None`) is `_r0[-1]`.

Only a read evaluated before every other one of it, whatever the branches, is bound — one in an
`and`'s or `if`'s later part may not run at all. What is read: an item of a local or of the state's
tables by a local or a constant (`_st_zones[v_s]`, `st.where[v_c]`). A comprehension's body and a
`lambda` are expressions of their own (run once an item, or later), never sharing a local with the
expression around them; nothing is bound in a comprehension's lists, where Python forbids it.

A pure tree-to-tree function over the generated source's Python tree, keeping its lines; the
reference build does not run it; tests/test_common_reads.py checks values are unchanged.
"""
from __future__ import annotations

import ast

PREFIX = "_r"
SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def bind_common_reads(module: ast.Module) -> ast.Module:
    """`module` with each top-level function's repeated reads bound once (changed in place)."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and not any(
                isinstance(n, ast.Name) and n.id.startswith(PREFIX) for n in ast.walk(node)):
            _Function().statements(node.body)
    return ast.fix_missing_locations(module)


def _read(node: ast.AST) -> bool:
    """An item of a local or of a state table, by a local or a constant: nothing to compute twice."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)):
        return False
    base, index = node.value, node.slice
    base_ok = isinstance(base, ast.Name) or (isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name)
                                             and base.value.id == "st")
    return base_ok and isinstance(index, (ast.Name, ast.Constant))


class _Function:
    def __init__(self) -> None:
        self.count = 0

    def statements(self, body: list[ast.stmt]) -> None:
        for statement in body:
            for field in ("test", "value", "iter"):
                value = getattr(statement, field, None)
                if isinstance(value, ast.expr):
                    setattr(statement, field, self.expression(value))
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    self.statements(inner)
            if isinstance(statement, ast.Try):
                for handler in statement.handlers:
                    self.statements(handler.body)

    def expression(self, root: ast.expr) -> ast.expr:
        """`root` with its repeated reads bound; its comprehensions' bodies done as expressions of their own."""
        for node in _comprehensions(root):
            if isinstance(node, ast.DictComp):
                node.key, node.value = self.expression(node.key), self.expression(node.value)
            else:
                node.elt = self.expression(node.elt)
            for gen in node.generators:
                gen.ifs = [self.expression(test) for test in gen.ifs]
        order: list[tuple[ast.AST, bool]] = []  # the reads in the order Python evaluates them, and whether surely
        _in_order(root, True, order)
        groups: dict[str, list[tuple[ast.AST, bool]]] = {}
        for node, sure in order:
            groups.setdefault(ast.dump(node), []).append((node, sure))
        bound: dict[int, ast.expr] = {}  # id of a read → what replaces it
        for reads in groups.values():
            if len(reads) < 2 or not reads[0][1]:
                continue
            name = f"{PREFIX}{self.count}"
            self.count += 1
            first = reads[0][0]
            assert isinstance(first, ast.expr)
            bound[id(first)] = ast.copy_location(ast.NamedExpr(ast.Name(name, ast.Store()), first), first)
            for node, _ in reads[1:]:
                bound[id(node)] = ast.copy_location(ast.Name(name, ast.Load()), node)
        if not bound:
            return root
        root = _Replace(bound).visit(root)
        return _KnownItems().visit(root)


def _comprehensions(node: ast.AST):
    """The comprehensions of `node`'s own scope, itself included: not those within another's body
    (that one's expression finds them), nor within a lambda."""
    if isinstance(node, ast.Lambda):
        return
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        yield node
        yield from _comprehensions(node.generators[0].iter)
        return
    for child in ast.iter_child_nodes(node):
        yield from _comprehensions(child)


def _in_order(node: ast.AST, sure: bool, out: list) -> None:
    """Append the reads under `node` in evaluation order, each with whether it is surely evaluated
    once `node` is; a comprehension's body and a lambda are not gone into (their first list is, but
    as not sure: nothing may be bound there)."""
    if _read(node):
        out.append((node, sure))
        return
    if isinstance(node, SCOPES):
        if not isinstance(node, ast.Lambda):
            _in_order(node.generators[0].iter, False, out)
        return
    if isinstance(node, ast.BoolOp):
        _in_order(node.values[0], sure, out)
        for value in node.values[1:]:
            _in_order(value, False, out)
    elif isinstance(node, ast.IfExp):
        _in_order(node.test, sure, out)
        _in_order(node.body, False, out)
        _in_order(node.orelse, False, out)
    elif isinstance(node, ast.Compare):
        _in_order(node.left, sure, out)
        for i, comparator in enumerate(node.comparators):
            _in_order(comparator, sure and i == 0, out)
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if key is not None:
                _in_order(key, sure, out)
            _in_order(value, sure, out)
    elif isinstance(node, ast.NamedExpr):
        _in_order(node.value, sure, out)
    else:  # a call, an operator, a subscript, an attribute, a literal: every part, in field order
        for child in ast.iter_child_nodes(node):
            _in_order(child, sure, out)


class _Replace(ast.NodeTransformer):
    def __init__(self, bound: dict[int, ast.expr]):
        self.bound = bound

    def visit(self, node):
        new = self.bound.get(id(node))
        if new is not None:
            if isinstance(new, ast.NamedExpr):
                new.value = self.generic_visit(new.value)
            return new
        if isinstance(node, SCOPES) and not isinstance(node, ast.Lambda):
            node.generators[0].iter = self.visit(node.generators[0].iter)
            return node
        if isinstance(node, ast.Lambda):
            return node
        return self.generic_visit(node)


class _KnownItems(ast.NodeTransformer):
    """In `x and y` with `x` a bound read (`(_r0 := ...)` or `_r0`), `_r0[-1] if _r0 else None` in `y` is `_r0[-1]`."""

    def __init__(self, known: frozenset[str] = frozenset()):
        self.known = known

    def visit_Lambda(self, node):
        return node

    def visit_BoolOp(self, node):
        if not isinstance(node.op, ast.And):
            return self.generic_visit(node)
        known = set(self.known)
        values = []
        for value in node.values:
            values.append(_KnownItems(frozenset(known)).visit(value))
            name = value.target.id if isinstance(value, ast.NamedExpr) else value.id if isinstance(value, ast.Name) else None
            if name is not None and name.startswith(PREFIX):
                known.add(name)
        node.values = values
        return node

    def visit_IfExp(self, node):
        node = self.generic_visit(node)
        if isinstance(node.test, ast.Name) and node.test.id in self.known and isinstance(node.orelse, ast.Constant) \
                and node.orelse.value is None and isinstance(node.body, ast.Subscript) \
                and isinstance(node.body.value, ast.Name) and node.body.value.id == node.test.id:
            return node.body
        return node
