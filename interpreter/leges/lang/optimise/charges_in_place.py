"""The work budget charged in place for the lists a statement goes through first, not by a call.

Every list a comprehension goes through is charged to the action's work budget by `H.each(st, xs)`
(runtime.py): a Python call per comprehension, 4–8 % of the bundled games' bytecodes. Generated
`for` statements already charge in place (codegen/loops.py `for_charged`); this pass does the same
for the comprehensions of an expression statement: where `H.each(st, X)` is what the statement
evaluates first — nothing before it but names, constants and functions made — it becomes

    _each0 = X
    _game.work -= len(_each0)
    if _game.work < 0:
        _game.meter.refill()

before the statement, which reads `_each0` instead: what `each` does, in the same order, without the
call. "Evaluated first" follows Python's order: a call's function, then its arguments left to
right; an operator's left side; a comprehension's first list (evaluated in the enclosing scope); a
condition's test — down to the first part that is not a name or a constant. A list charged inside a
comprehension's body, or in a branch that may not run, is left to `each`.

A pure tree-to-tree function over the generated source's Python tree: the statements it adds carry
the line of the statement they came from, so where a rule failed reads the same; the reference
build (`optimise=False`) does not run it; tests/test_charges_in_place.py checks values and charges.
"""
from __future__ import annotations

import ast

GAME = "_game"


def charge_in_place(module: ast.Module) -> ast.Module:
    """`module` with each top-level function's first-evaluated `H.each` charged in place (changed in place)."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and not _rebinds_st(node):
            _Function(node).run()
    return ast.fix_missing_locations(module)


def _rebinds_st(fn: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.Name) and n.id in ("st", GAME) and not isinstance(n.ctx, ast.Load) for n in ast.walk(fn)) \
        or any(isinstance(n, ast.Name) and n.id.startswith("_each") for n in ast.walk(fn))


def _is_each(node: ast.AST) -> bool:
    """`H.each(st, X)`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "each" \
        and isinstance(node.func.value, ast.Name) and node.func.value.id == "H" and len(node.args) == 2 \
        and not node.keywords and isinstance(node.args[0], ast.Name) and node.args[0].id == "st"


def _trivial(node: ast.AST) -> bool:
    """Evaluating it changes nothing and cannot fail: a name, a constant, a function made, an attribute
    of a module-level name (`H.unique`), a constant's item (`K[3]`)."""
    if isinstance(node, (ast.Name, ast.Constant, ast.Lambda)):
        return True
    if isinstance(node, ast.Attribute):
        return isinstance(node.value, ast.Name) and node.value.id == "H"
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id == "K" and isinstance(node.slice, ast.Constant)
    return False


def _first(node: ast.AST) -> ast.AST | None:
    """The part of `node` Python evaluates before anything else of it that is not trivial, or None."""
    if isinstance(node, ast.Call):
        parts = [node.func, *node.args, *(k.value for k in node.keywords)]
    elif isinstance(node, ast.BinOp):
        parts = [node.left, node.right]
    elif isinstance(node, ast.BoolOp):
        parts = node.values[:1]
    elif isinstance(node, ast.Compare):
        parts = [node.left, node.comparators[0]]
    elif isinstance(node, ast.IfExp):
        parts = [node.test]
    elif isinstance(node, (ast.Subscript, ast.Attribute)):
        parts = [node.value] + ([node.slice] if isinstance(node, ast.Subscript) else [])
    elif isinstance(node, ast.UnaryOp):
        parts = [node.operand]
    elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        parts = [node.generators[0].iter]
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        parts = list(node.elts)
    else:
        return None
    for part in parts:
        if isinstance(part, ast.Starred):
            return None
        if not _trivial(part):
            return part
    return None


class _Function:
    def __init__(self, fn: ast.FunctionDef):
        self.fn = fn
        self.count = 0

    def run(self) -> None:
        self.fn.body = self.block(self.fn.body)
        if self.count:
            bind = ast.Assign([ast.Name(GAME, ast.Store())], ast.Attribute(ast.Name("st", ast.Load()), "game", ast.Load()))
            self.fn.body.insert(0, ast.copy_location(bind, self.fn.body[0]))

    def block(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for statement in statements:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(statement, field, self.block(inner))
            if isinstance(statement, ast.Try):
                for handler in statement.handlers:
                    handler.body = self.block(handler.body)
            out += self.statement(statement)
        return out

    def statement(self, statement: ast.stmt) -> list[ast.stmt]:
        """The statement, preceded by the charges of what it evaluates first."""
        holder: ast.stmt = statement
        if isinstance(statement, (ast.Return, ast.Expr)) and statement.value is not None:
            field = "value"
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            field = "value"
        elif isinstance(statement, ast.If):
            field = "test"
        else:
            return [statement]
        chain: list[tuple[ast.AST, str | ast.AST, ast.Call]] = []  # (holder, field or child, the each call), outermost first
        parent: ast.AST = holder
        key: str | ast.AST = field
        node: ast.AST | None = getattr(holder, field)
        while node is not None:
            if _is_each(node):
                assert isinstance(node, ast.Call)
                chain.append((parent, key, node))
                parent, key, node = node, "arg1", node.args[1]
                continue
            nxt = _first(node)
            if nxt is None:
                break
            parent, key = node, nxt  # the child itself: found again by identity when replaced
            node = nxt
        before: list[ast.stmt] = []
        for parent, key, call in reversed(chain):  # the innermost is evaluated first
            name = f"_each{self.count}"
            self.count += 1
            before += self.charge(name, call.args[1], statement)
            self.replace(parent, key, call, ast.copy_location(ast.Name(name, ast.Load()), call))
        return before + [statement]

    @staticmethod
    def replace(parent: ast.AST, key: str | ast.AST, old: ast.AST, new: ast.expr) -> None:
        if key == "arg1":
            parent.args[1] = new  # type: ignore[attr-defined]
            return
        if isinstance(key, str):
            setattr(parent, key, new)
            return
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
                    if isinstance(item, ast.keyword) and item.value is old:
                        item.value = new
                        return
                    if isinstance(item, ast.comprehension) and item.iter is old:
                        item.iter = new
                        return
        raise AssertionError("the charged list's place was not found")

    @staticmethod
    def charge(name: str, items: ast.expr, at: ast.stmt) -> list[ast.stmt]:
        """`name = items` and the charge of its length, written at the line of `at`."""
        source = f"{name} = None\n{GAME}.work -= len({name})\nif {GAME}.work < 0:\n    {GAME}.meter.refill()\n"
        lines = ast.parse(source).body
        for line in lines:
            for node in ast.walk(line):
                if hasattr(node, "lineno"):
                    ast.copy_location(node, at)
        lines[0].value = items  # type: ignore[attr-defined]
        return lines
