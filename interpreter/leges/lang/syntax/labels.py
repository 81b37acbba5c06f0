"""The labels of a rule text (`@name statement`, `@name(expression)`): where each stands and what it
labels, found in the text (they are not part of the syntax tree) for variants to rewrite."""
from __future__ import annotations

from dataclasses import dataclass

from lark.exceptions import UnexpectedInput

from ...text.offsets import line_col
from ...text.origin import TextOrigin
from .grammar import lark_parser, without_comments
from .parser import check_size
from .syntax_errors import syntax_error


@dataclass(frozen=True)
class Label:
    """Where a label (`@name`) and what it labels sit in a rule text (offsets into the text)."""

    name: str  # without the '@'
    kind: str  # "statement" or "expression"
    start: int  # the '@'
    end: int  # just past what it labels (a statement: its last token; an expression: its ')')
    inner: tuple  # (start, end) of the statement after the label, or of the expression inside the parentheses
    line: int  # of the '@', from 1
    col: int


_COMPOUND = {"suite", "if_stmt", "elif_clause", "else_clause", "for_stmt", "while_stmt", "repeat_stmt",
             "labelled_stmt"}


def _last_end(tree) -> int:
    """Offset just past the last character of a statement (a block's trailing blank lines and comments excluded)."""
    from lark import Token, Tree
    end = 0
    for child in tree.children:
        if isinstance(child, Token):
            end = max(end, child.end_pos or 0)
        elif isinstance(child, Tree):
            if child.data in _COMPOUND:
                end = max(end, _last_end(child))
            elif getattr(child.meta, "end_pos", None) is not None:
                end = max(end, child.meta.end_pos)
    if end == 0 and getattr(tree.meta, "end_pos", None) is not None:
        end = tree.meta.end_pos
    return end


def labels(text: str, program: bool, origin: TextOrigin) -> list[Label]:
    """Every label of a rule text, in order; a syntax error is reported like any other.

    Labels are not part of the syntax tree (a labelled statement compiles exactly like the same
    statement without its label): variants find them here, in the text, and rewrite the text."""
    from lark import Tree
    check_size(text, origin)
    if program:
        source = text if text.endswith("\n") else text + "\n"
        try:
            tree = lark_parser().parse(source, start="program")
        except UnexpectedInput as exc:
            raise syntax_error(exc, source, origin, "program") from None
    else:
        source = without_comments(text.rstrip()).replace("\r", " ").replace("\n", " ")
        try:
            tree = lark_parser().parse(source, start="expression")
        except UnexpectedInput as exc:
            raise syntax_error(exc, source, origin, "expression", text.rstrip()) from None
    found = []
    for node in tree.iter_subtrees_topdown():
        if node.data not in ("labelled_stmt", "labelled"):
            continue
        token, body = node.children[0], node.children[1]
        start = token.start_pos
        line, col = line_col(text, start)
        if node.data == "labelled_stmt":
            inner_start = body.meta.start_pos if isinstance(body, Tree) else body.start_pos
            end = _last_end(body) if isinstance(body, Tree) else body.end_pos
            found.append(Label(str(token)[1:], "statement", start, end, (inner_start, end), line, col))
        else:
            end = node.meta.end_pos
            opening = source.index("(", token.end_pos)
            found.append(Label(str(token)[1:], "expression", start, end, (opening + 1, end - 1), line, col))
    return found
