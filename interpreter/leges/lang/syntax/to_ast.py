"""Lark's tree → the nodes of `ast.py`, each keeping its line and column."""
from __future__ import annotations

import ast as pyast

from lark import Transformer, v_args

from ...text import numbers
from . import ast


class LiteralError(Exception):
    """A literal the language does not take (a number past its bound), where it is written: raised
    inside Lark's transformer, which wraps it; parser.py reports it at its place."""

    def __init__(self, message: str, hint: str, line: int, col: int):
        super().__init__(message)
        self.message, self.hint, self.line, self.col = message, hint, line, col


def _pos(meta_or_token) -> dict:
    line = getattr(meta_or_token, "line", 0) or 0
    col = getattr(meta_or_token, "column", 0) or 0
    return {"line": line, "col": col}


@v_args(meta=True)
class ToAst(Transformer):
    """Lark tree → `ast` nodes, keeping each node's line and column."""

    # -- expressions
    def int_(self, meta, c):
        # bounded before conversion: int() of a stranger's thousands of digits costs time, then fails
        # with Python's own message; past 2^53 - 1 no rule could compute with the number anyway
        text = str(c[0])
        why = numbers.too_long(text) or numbers.out_of_bounds(int(text))
        if why:
            raise LiteralError(why, numbers.BOUND_HINT, **_pos(c[0]))
        return ast.Literal(int(text), **_pos(meta))

    def string(self, meta, c):
        return ast.Literal(pyast.literal_eval(str(c[0])), **_pos(meta))

    def true(self, meta, c):
        return ast.Literal(True, **_pos(meta))

    def false(self, meta, c):
        return ast.Literal(False, **_pos(meta))

    def none(self, meta, c):
        return ast.Literal(None, **_pos(meta))

    def name(self, meta, c):
        return ast.Name(str(c[0]), **_pos(meta))

    def attr(self, meta, c):
        return ast.Attr(c[0], str(c[1]), **_pos(c[1]))

    def index(self, meta, c):
        return ast.Index(c[0], c[1], **_pos(meta))

    def call(self, meta, c):
        args, kwargs = c[1] if c[1] is not None else ([], {})
        return ast.Call(str(c[0]), args, kwargs, **_pos(meta))

    def args(self, meta, c):
        positional, named = [], {}
        for item in c:
            if isinstance(item, tuple):
                named[item[0]] = item[1]
            else:
                positional.append(item)
        return positional, named

    def kwarg(self, meta, c):
        return (str(c[0]), c[1])

    def kwargs(self, meta, c):
        return dict(c)

    def lambda_(self, meta, c):
        return ast.Lambda(str(c[0]), c[1], **_pos(meta))

    def list_(self, meta, c):
        return ast.ListLit([x for x in c if x is not None], **_pos(meta))

    def comprehension(self, meta, c):
        return ast.Comprehension(c[0], list(c[1:]), **_pos(meta))

    def clause(self, meta, c):
        return ast.Clause(c[0], c[1], c[2], **_pos(meta))

    def names(self, meta, c):
        return [str(x) for x in c]

    def tuple_(self, meta, c):
        return ast.TupleLit(list(c), **_pos(meta))

    def binding(self, meta, c):
        return ast.Binding(str(c[0]), c[1], **_pos(meta))

    def let_expr(self, meta, c):
        return ast.LetExpr(list(c[:-1]), c[-1], **_pos(meta))

    def neg(self, meta, c):
        if isinstance(c[0], ast.Literal) and isinstance(c[0].value, int):
            return ast.Literal(-c[0].value, **_pos(meta))
        return ast.Neg(c[0], **_pos(meta))

    def not_(self, meta, c):
        return ast.Not(c[0], **_pos(meta))

    def binop(self, meta, c):
        return ast.BinOp(str(c[1]), c[0], c[2], **_pos(c[1]))

    def compare(self, meta, c):
        return ast.Compare(str(c[1]), c[0], c[2], **_pos(c[1]))

    def in_(self, meta, c):
        return ast.Compare("in", c[0], c[1], **_pos(meta))

    def not_in(self, meta, c):
        return ast.Compare("notin", c[0], c[1], **_pos(meta))

    def and_(self, meta, c):
        return ast.BoolOp("and", c[0], c[1], **_pos(meta))

    def or_(self, meta, c):
        return ast.BoolOp("or", c[0], c[1], **_pos(meta))

    def ifexpr(self, meta, c):
        return ast.IfExpr(c[0], c[1], c[2], **_pos(meta))

    def expression(self, meta, c):
        return c[0]

    # -- statements
    def program(self, meta, c):
        return ast.Program([s for s in c if s is not None], **_pos(meta))

    def suite(self, meta, c):
        return list(c)

    def let_stmt(self, meta, c):
        return ast.Let(str(c[0]), c[1], **_pos(meta))

    def target_name(self, meta, c):
        return (str(c[0]), None, _pos(meta))

    def target_index(self, meta, c):
        return (str(c[0]), c[1], _pos(meta))

    def assign_stmt(self, meta, c):
        name, index, pos = c[0]
        return ast.Assign(name, index, str(c[1]), c[2], **pos)

    def set_stmt(self, meta, c):
        return ast.SetProp(c[0], str(c[1]), c[2], **_pos(meta))

    def end_of(self, meta, c):
        return str(c[0])

    def at_end(self, meta, c):
        return ast.Position(c[0], None, **_pos(meta))

    def at_depth(self, meta, c):
        return ast.Position(c[1], c[0], **_pos(meta))

    def move_stmt(self, meta, c):
        return ast.Move(c[0], c[1], c[2], **_pos(meta))

    def draw_stmt(self, meta, c):
        return ast.Draw(c[0], c[1], c[2], c[3], **_pos(meta))

    def deal_stmt(self, meta, c):
        return ast.Deal(c[0], c[1], c[2], **_pos(meta))

    def stack_stmt(self, meta, c):
        return ast.Stack(c[0], c[1], c[2], **_pos(meta))

    def shuffle_all(self, meta, c):
        return ast.Shuffle(c[0], None, None, **_pos(meta))

    def shuffle_range(self, meta, c):
        return ast.Shuffle(c[2], c[0], c[1], **_pos(meta))

    def opt_label(self, meta, c):
        return ("label", str(c[0]))

    def opt_by(self, meta, c):
        return ("by", c[0])

    def opt_optional(self, meta, c):
        return ("optional", True)

    def opt_random(self, meta, c):
        return ("random", True)

    def choose_stmt(self, meta, c):
        opts = dict(c[2:])
        return ast.Choose(str(c[0]), c[1], opts.get("label"), opts.get("by"),
                          opts.get("optional", False), opts.get("random", False), **_pos(meta))

    def act_item(self, meta, c):
        return ast.ActItem(str(c[0]), c[1] if len(c) > 1 and c[1] is not None else {}, **_pos(meta))

    def opt_until_pass(self, meta, c):
        return ("until_pass", True)

    def opt_at_least(self, meta, c):
        return ("at_least", c[0])

    def opt_at_most(self, meta, c):
        return ("at_most", c[0])

    def act_stmt(self, meta, c):
        items = [x for x in c if isinstance(x, ast.ActItem)]
        opts = dict(x for x in c if isinstance(x, tuple))
        return ast.Act(items, opts.get("by"), opts.get("optional", False), opts.get("until_pass", False),
                       opts.get("at_least"), opts.get("at_most"), **_pos(meta))

    def drop_stmt(self, meta, c):
        return ast.DropOut(c[0], **_pos(meta))

    def emit_stmt(self, meta, c):
        return ast.Emit(str(c[0]), c[1] or {}, **_pos(meta))

    def goto_stmt(self, meta, c):
        return ast.Goto(str(c[0]), **_pos(meta))

    def end_stmt(self, meta, c):
        return ast.End(str(c[0]), **_pos(meta))

    def call_stmt(self, meta, c):
        args, kwargs = c[1] if c[1] is not None else ([], {})
        return ast.CallStmt(ast.Call(str(c[0]), args, kwargs, **_pos(meta)), **_pos(meta))

    def pass_stmt(self, meta, c):
        return ast.Pass(**_pos(meta))

    def log_stmt(self, meta, c):
        return ast.Log(c[0], **_pos(meta))

    def reveal_stmt(self, meta, c):
        return ast.Reveal(c[0], **_pos(meta))

    def fail_stmt(self, meta, c):
        return ast.Fail(c[0], **_pos(meta))

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        otherwise = None
        for part in c[2:]:
            if isinstance(part, tuple) and part[0] == "elif":
                branches.append((part[1], part[2]))
            elif isinstance(part, tuple) and part[0] == "else":
                otherwise = part[1]
        return ast.If(branches, otherwise, **_pos(meta))

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return ast.For(c[0], c[1], c[2], **_pos(meta))

    def while_stmt(self, meta, c):
        return ast.While(c[0], c[1], **_pos(meta))

    def repeat_stmt(self, meta, c):
        return ast.Repeat(c[0], c[1], **_pos(meta))

    # -- labels: a labelled statement or expression is the same node as the unlabelled one
    def labelled_stmt(self, meta, c):
        return c[1]

    def labelled(self, meta, c):
        return c[1]


TRANSFORMER = ToAst()
