"""Parsing rule-language text into the syntax tree of `ast.py`: the limits on a text, the disk cache of
trees, and the two entry points (a program, an expression).

The grammar and the Lark parser are in `grammar.py`, the tree's translation in `to_ast.py`, Lark's
exceptions made readable in `syntax_errors.py`; labels are found in `labels.py`.
"""
from __future__ import annotations

from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import DedentError

from ...text import cache
from ...text.errors import Diagnostic, LegesError
from ...text.offsets import line_col
from ...text.origin import TextOrigin
from . import ast
from .grammar import fingerprint, lark_parser, without_comments
from .syntax_errors import bad_dedent, syntax_error
from .to_ast import TRANSFORMER, LiteralError

MAX_TEXT = 100_000
MAX_DEPTH = 200  # levels of the parse tree; deeper rules would exhaust Python's stack later on


def check_depth(tree, layout: str, origin: TextOrigin) -> None:
    """Reject absurdly nested rules with a located error (the later stages recurse over the tree)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            offset = getattr(getattr(node, "meta", None), "start_pos", 0) or 0
            line, col = line_col(layout, min(offset, len(layout)))
            raise LegesError(Diagnostic(origin.locate(line, col),
                                        f"rule nested more than {MAX_DEPTH} levels deep",
                                        "split it up with `let`, functions or procedures"))
        for child in getattr(node, "children", ()):
            if hasattr(child, "children"):
                stack.append((child, depth + 1))


def check_size(text: str, origin: TextOrigin) -> None:
    if len(text) > MAX_TEXT:
        raise LegesError(Diagnostic(origin.locate(1, 1), f"rule text longer than {MAX_TEXT} characters"))


def _cached_tree(start: str, text: str, parse):
    """The syntax tree of `text`, from the disk cache when an identical text was parsed before
    (cache.py); a text with an error is never cached (the error is reported afresh)."""
    return cache.cached("tree", f"{fingerprint()}\0{start}\0{text}", parse)


def parse_program(text: str, origin: TextOrigin) -> ast.Program:
    check_size(text, origin)
    return _cached_tree("program", text, lambda: _parse_program(text, origin))


def _parse_program(text: str, origin: TextOrigin) -> ast.Program:
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = lark_parser().parse(source, start="program")
        check_depth(tree, source, origin)
        return TRANSFORMER.transform(tree)
    except UnexpectedInput as exc:
        raise syntax_error(exc, source, origin, "program") from None
    except VisitError as exc:  # a literal the transformer could not read
        raise _literal_error(exc, origin) from None
    except DedentError:
        line, col = bad_dedent(source)
        raise LegesError(Diagnostic(origin.locate(line, col), "syntax error: this line is indented to a column no "
                                    "enclosing block starts at", "indent it as the block it belongs to")) from None


def _literal_error(exc: VisitError, origin: TextOrigin, original: str | None = None) -> LegesError:
    """A literal the transformer refused, at its place (an expression was parsed as one line: its
    column is found again in the `original` lines)."""
    bad = exc.orig_exc
    if not isinstance(bad, LiteralError):
        return LegesError(Diagnostic(origin.locate(1, 1), f"syntax error: {bad}"))
    line, col = bad.line, bad.col
    if original is not None and "\n" in original:
        line, col = line_col(original, max(0, col - 1))
    return LegesError(Diagnostic(origin.locate(line, col), f"syntax error: {bad.message}", bad.hint))


def parse_expression(text: str, origin: TextOrigin) -> ast.Expr:
    """Parse one expression; it may span lines (the newlines count as spaces)."""
    check_size(text, origin)
    return _cached_tree("expression", text, lambda: _parse_expression(text, origin))


def _parse_expression(text: str, origin: TextOrigin) -> ast.Expr:
    original = text.rstrip()
    flat = without_comments(original).replace("\r", " ").replace("\n", " ")
    try:
        tree = lark_parser().parse(flat, start="expression")
        check_depth(tree, original, origin)
        node = TRANSFORMER.transform(tree)
    except UnexpectedInput as exc:
        raise syntax_error(exc, flat, origin, "expression", original) from None
    except VisitError as exc:
        raise _literal_error(exc, origin, original) from None
    if "\n" in original:
        for n in node.walk():  # the parser saw one line: map columns back to lines
            n.line, n.col = line_col(original, max(0, n.col - 1))
    return node
