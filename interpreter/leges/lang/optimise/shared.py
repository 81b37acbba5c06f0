"""A value one expression asks for twice, computed once.

`if distances_to_exit()[s] == none then none else distances_to_exit()[s] + 1` called the
function twice for every square, and a heuristic summing `if cost(x) == none then 0 else
8 - cost(x)` over the pieces called `cost` twice a piece. Rules are pure, so within one expression
the same sub-expression has one value: the compiler binds it to a Python local the first time and
reads the local after (compile_operators.py).

Only what is evaluated *first* in an `if`'s condition, or in the left side of `and` / `or`, is
bound — the condition itself, its left operand, that operand's left operand, and so on. It is
always evaluated, and before anything else of the expression, so computing it ahead changes
nothing: a rule that fails still fails there, with the same message. Its other occurrences, in the
branches or the right side, are replaced, except inside a function given to a built-in, a
comprehension or a `let` that binds one of the names it uses (there it may mean something else).
The reference build (`optimise=False`) binds nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace

from ..syntax import ast

NAME = "$shared"  # a local name no ruleset can write: `$` is not in the language's names


def evaluated_first(node: ast.Expr) -> list[ast.Expr]:
    """`node`, the operand evaluated first in it, the one evaluated first in that, and so on."""
    out = [node]
    while True:
        if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
            node = node.left
        elif isinstance(node, (ast.Not, ast.Neg)):
            node = node.operand
        elif isinstance(node, (ast.Attr, ast.Index)):
            node = node.obj
        else:
            return out
        out.append(node)


def worth_sharing(node: ast.Node) -> bool:
    """A call somewhere in it: reading a name, a property or a literal costs less than a local."""
    return any(isinstance(n, ast.Call) for n in node.walk())


def common(first: ast.Expr, later: list[ast.Expr]) -> ast.Expr | None:
    """The largest part of `first` evaluated before the rest of it that a `later` part asks again."""
    for candidate in evaluated_first(first):
        if worth_sharing(candidate):
            names = ast.free_names(candidate)
            if any(_occurs(part, candidate, names) for part in later):
                return candidate
    return None


def _binds(node: ast.Node, names: set[str]) -> bool:
    """Whether `node` binds one of `names` for what is inside it."""
    if isinstance(node, ast.Lambda):
        return node.param in names
    if isinstance(node, ast.Comprehension):
        return any(n in names for clause in node.clauses for n in clause.names)
    if isinstance(node, ast.LetExpr):
        return any(b.name in names for b in node.bindings)
    return False


def _occurs(node: ast.Node, target: ast.Expr, names: set[str]) -> bool:
    if node == target:
        return True
    if _binds(node, names):
        return False
    return any(_occurs(child, target, names) for child in node.children())


def replaced(node: ast.Node, target: ast.Expr, by: ast.Name, copied: Callable[[ast.Node, ast.Node], None]) -> ast.Node:
    """`node` with every occurrence of `target` where it means the same (see `common`) replaced by
    `by`. Unchanged parts are the same objects; `copied(old, new)` is told of every node rebuilt
    (the hoisting of comprehensions knows nodes by identity)."""
    names = ast.free_names(target)

    def walk(n: ast.Node) -> ast.Node:
        if n == target:
            return by
        if _binds(n, names):
            return n
        changes = {}
        for f in fields(n):
            if f.compare:
                value = getattr(n, f.name)
                new = _rebuilt(value, walk)
                if new is not value:
                    changes[f.name] = new
        if not changes:
            return n
        fresh = replace(n, **changes)
        copied(n, fresh)
        return fresh
    return walk(node)


def _rebuilt(value, walk: Callable[[ast.Node], ast.Node]):
    """A field's value with its nodes walked: the same object if none changed."""
    if isinstance(value, ast.Node):
        return walk(value)
    if isinstance(value, (list, tuple)):
        items = [_rebuilt(v, walk) for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        entries = {k: _rebuilt(v, walk) for k, v in value.items()}
        if all(entries[k] is v for k, v in value.items()):
            return value
        return entries
    return value
