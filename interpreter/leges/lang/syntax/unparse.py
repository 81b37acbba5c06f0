"""Rule text written back from its syntax tree: one layout, no comments, no labels, only the parentheses needed.

Two rules that say the same thing in different words or layout come out the same, so `leges diff`
shows what changed in a rule as lines of this normalised text. Parsing the text written gives the
same syntax tree again (tests/test_unparse.py checks it for every rule of the bundled games).
"""
from __future__ import annotations

import json

from . import ast

INDENT = "  "

# binding strength of each kind of expression (higher binds tighter), as in lang/syntax/grammar.lark
IF, OR, AND, NOT, COMPARE, ADD, MUL, NEG, POSTFIX, ATOM = range(10)
_BINARY = {"+": ADD, "-": ADD, "*": MUL, "/": MUL, "%": MUL}
_COMPARE = {"in": "in", "notin": "not in"}


def program(tree: ast.Program) -> str:
    """A program's statements, one a line, blocks indented by two spaces."""
    lines: list[str] = []
    _body(tree.body, 0, lines)
    return "\n".join(lines)


def expression(node: ast.Expr) -> str:
    return _expr(node, IF)


def _strength(node) -> int:
    if isinstance(node, (ast.IfExpr, ast.LetExpr)):
        return IF
    if isinstance(node, ast.BoolOp):
        return OR if node.op == "or" else AND
    if isinstance(node, ast.Not):
        return NOT
    if isinstance(node, ast.Compare):
        return COMPARE
    if isinstance(node, ast.BinOp):
        return _BINARY.get(node.op, ADD)
    if isinstance(node, ast.Neg) or (isinstance(node, ast.Literal) and isinstance(node.value, int)
                                     and not isinstance(node.value, bool) and node.value < 0):
        return NEG
    if isinstance(node, (ast.Attr, ast.Index, ast.Call)):
        return POSTFIX
    return ATOM


def _expr(node, needed: int) -> str:
    text = _bare(node)
    return f"({text})" if _strength(node) < needed else text


def _literal(value) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _args(args: list, kwargs: dict) -> str:
    parts = [_arg(a) for a in args] + [f"{k}={_arg(v)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def _arg(node) -> str:
    if isinstance(node, ast.Lambda):
        return f"{node.param} => {_expr(node.body, IF)}"
    return _expr(node, IF)


def _bare(node) -> str:
    """An expression's text without its outer parentheses: one branch a kind of node."""
    if isinstance(node, ast.Literal):
        return _literal(node.value)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attr):
        return f"{_expr(node.obj, POSTFIX)}.{node.name}"
    if isinstance(node, ast.Index):
        return f"{_expr(node.obj, POSTFIX)}[{_expr(node.index, IF)}]"
    if isinstance(node, ast.Call):
        return f"{node.func}({_args(node.args, node.kwargs)})"
    if isinstance(node, ast.Lambda):
        return _arg(node)
    if isinstance(node, ast.ListLit):
        return "[" + ", ".join(_expr(x, IF) for x in node.items) + "]"
    if isinstance(node, ast.Comprehension):
        text = f"[{_expr(node.element, IF)}"
        for clause in node.clauses:
            text += f" for {', '.join(clause.names)} in {_expr(clause.iterable, OR)}"
            if clause.condition is not None:
                text += f" if {_expr(clause.condition, IF)}"
        return text + "]"
    if isinstance(node, ast.TupleLit):
        return "(" + ", ".join(_expr(x, IF) for x in node.items) + ")"
    if isinstance(node, ast.LetExpr):
        bindings = ", ".join(f"{b.name} = {_let_value(b.value)}" for b in node.bindings)
        return f"let {bindings} in {_expr(node.body, IF)}"
    if isinstance(node, ast.Neg):
        return f"-{_expr(node.operand, NEG)}"
    if isinstance(node, ast.Not):
        return f"not {_expr(node.operand, NOT)}"
    if isinstance(node, ast.BinOp):
        level = _BINARY.get(node.op, ADD)
        return f"{_expr(node.left, level)} {node.op} {_expr(node.right, level + 1)}"
    if isinstance(node, ast.Compare):
        return f"{_expr(node.left, ADD)} {_COMPARE.get(node.op, node.op)} {_expr(node.right, ADD)}"
    if isinstance(node, ast.BoolOp):
        level = OR if node.op == "or" else AND
        return f"{_expr(node.left, level)} {node.op} {_expr(node.right, level + 1)}"
    if isinstance(node, ast.IfExpr):
        return f"if {_expr(node.condition, OR)} then {_expr(node.then, IF)} else {_expr(node.otherwise, IF)}"
    return f"<{type(node).__name__}>"


def _bare_in(node) -> bool:
    """Whether a membership test stands outside brackets in this expression (a let's value ends at `in`)."""
    if isinstance(node, ast.Compare):
        return node.op in ("in", "notin")
    if isinstance(node, ast.BoolOp):
        return _bare_in(node.left) or _bare_in(node.right)
    if isinstance(node, ast.Not):
        return _bare_in(node.operand)
    return False


def _let_value(node) -> str:
    text = _expr(node, OR)
    return f"({text})" if _bare_in(node) else text


def _position(where) -> str:
    if where is None:
        return ""
    if where.depth is None:
        return f" at {where.end}"
    return f" at depth {_expr(where.depth, IF)} from {where.end}"


def _statement(node) -> str:
    """A statement's text: one branch a kind of statement."""
    e = expression
    if isinstance(node, ast.Let):
        return f"let {node.name} = {e(node.value)}"
    if isinstance(node, ast.Assign):
        target = node.name if node.index is None else f"{node.name}[{e(node.index)}]"
        return f"{target} {node.op} {e(node.value)}"
    if isinstance(node, ast.SetProp):
        return f"set {_expr(node.obj, POSTFIX)}.{node.name} = {e(node.value)}"
    if isinstance(node, ast.Move):
        return f"move {e(node.what)} to {e(node.to)}{_position(node.where)}"
    if isinstance(node, ast.Draw):
        return f"draw {e(node.count)} from {e(node.source)} to {e(node.to)}{_position(node.where)}"
    if isinstance(node, ast.Deal):
        return f"deal {e(node.count)} from {e(node.source)} to {e(node.to)}"
    if isinstance(node, ast.Stack):
        return f"stack {e(node.source)} onto {e(node.to)}{_position(node.where)}"
    if isinstance(node, ast.Shuffle):
        if node.end is None or node.count is None:  # the parser gives `count` with `end`
            return f"shuffle {e(node.zone)}"
        return f"shuffle {node.end} {e(node.count)} of {e(node.zone)}"
    if isinstance(node, ast.Choose):
        text = f"choose {node.name} from {e(node.domain)}"
        if node.label is not None:
            text += f" as {node.label}"
        if node.by is not None:
            text += f" by {e(node.by)}"
        if node.optional:
            text += " optional"
        if node.random:
            text += " at random"
        return text
    if isinstance(node, ast.Act):
        items = ", ".join(i.action + (f"({_args([], i.kwargs)})" if i.kwargs else "") for i in node.items)
        return (f"act {items}" + (f" by {e(node.by)}" if node.by is not None else "") + (" optional" if node.optional else "")
                + (" until pass" if node.until_pass else "")
                + (f" at least {e(node.at_least)}" if node.at_least is not None else "")
                + (f" at most {e(node.at_most)}" if node.at_most is not None else ""))
    if isinstance(node, ast.DropOut):
        return "drop out" + (f" {e(node.player)}" if node.player is not None else "")
    if isinstance(node, ast.Emit):
        return f"emit {node.event}({_args([], node.kwargs)})"
    if isinstance(node, ast.Goto):
        return f"goto {node.phase}"
    if isinstance(node, ast.End):
        return f"end {node.what}"
    if isinstance(node, ast.CallStmt):
        return _bare(node.call)
    if isinstance(node, ast.Pass):
        return "pass"
    if isinstance(node, ast.Log):
        return f"log {e(node.value)}"
    if isinstance(node, ast.Reveal):
        return f"reveal {e(node.value)}"
    if isinstance(node, ast.Fail):
        return f"fail {e(node.value)}"
    return f"<{type(node).__name__}>"


def _body(statements: list, depth: int, lines: list[str]) -> None:
    pad = INDENT * depth
    for node in statements:
        if isinstance(node, ast.If):
            for k, (condition, body) in enumerate(node.branches):
                lines.append(f"{pad}{'if' if k == 0 else 'elif'} {expression(condition)}:")
                _body(body, depth + 1, lines)
            if node.otherwise is not None:
                lines.append(f"{pad}else:")
                _body(node.otherwise, depth + 1, lines)
        elif isinstance(node, ast.For):
            lines.append(f"{pad}for {', '.join(node.names)} in {expression(node.iterable)}:")
            _body(node.body, depth + 1, lines)
        elif isinstance(node, ast.While):
            lines.append(f"{pad}while {expression(node.condition)}:")
            _body(node.body, depth + 1, lines)
        elif isinstance(node, ast.Repeat):
            lines.append(f"{pad}repeat {expression(node.count)}:")
            _body(node.body, depth + 1, lines)
        else:
            lines.append(pad + _statement(node))
