"""Lark's syntax errors made into located, readable diagnostics: what was expected, brackets left
open or closed too often, the usual mistakes and their hints, a text cut at a YAML comma."""
from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ...text.errors import Diagnostic, LegesError, Position
from ...text.offsets import line_col, line_start
from ...text.origin import TextOrigin
from .grammar import lark_parser, without_comments


_READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of the indented block", "$END": "end of text",
    "COLON": "':'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','",
    "DOT": "'.'", "EQUAL": "'='", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'", "ASSIGN_OP": "'=', '+=' or '-='", "MINUS": "'-'",
}

# Typical mistakes, recognised by Lark's `match_examples`, each with the hint it deserves.
_EXAMPLES = {
    "a block needs ':' at the end of its first line": [
        "if x\n    pass\n", "for x in y\n    pass\n", "while x\n    pass\n", "repeat 3\n    pass\n",
    ],
    "compare with '==' ('=' assigns)": ["if x = 1:\n    pass\n"],
    "a statement begins with a keyword (let, move, draw, if, ...), an assignment or a procedure call": [
        "x\n", "1 + 2\n", "x.y\n",
    ],
    "the indented lines of a block must line up": ["if x:\n    pass\n      pass\n"],
    "an opening bracket is not closed": ["let x = (1 + 2\n", "let x = [1, 2\n"],
}


def _expected(exc: UnexpectedInput) -> str:
    names = sorted({_READABLE.get(t, f"'{t.lower()}'" if t.isupper() else t)
                    for t in getattr(exc, "expected", set()) or getattr(exc, "allowed", set())})
    if not names:
        return ""
    names.sort(key=lambda n: (n.startswith("'"), n))  # words before punctuation
    if len(names) > 8:
        names = names[:8] + ["..."]
    return "; expected " + ", ".join(names)


_OPENERS = {"(": ")", "[": "]"}
_CLOSERS = {")": "(", "]": "["}
_BLOCK_WORDS = ("if", "elif", "else", "for", "while", "repeat")


def _brackets(text: str, stop: int) -> tuple[list[int], int | None]:
    """Offsets of the brackets still open at `stop`, and of a closing bracket with no opener."""
    stack: list[int] = []
    stray = None
    i = 0
    while i < min(stop, len(text)):
        ch = text[i]
        if ch in "\"'":
            end = i + 1
            while end < len(text) and text[end] != ch and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            i = end + 1
            continue
        if ch == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        if ch in _OPENERS:
            stack.append(i)
        elif ch in _CLOSERS:
            if stack and text[stack[-1]] == _CLOSERS[ch]:
                stack.pop()
            elif stray is None:
                stray = i
        i += 1
    return stack, stray


def syntax_error(exc: UnexpectedInput, text: str, origin: TextOrigin, start: str,
                  layout: str | None = None) -> LegesError:
    """A located diagnostic for a syntax error; `layout` is the text with its line breaks (expressions
    are parsed with line breaks turned into spaces, at the same offsets). One branch a kind of
    mistake, each with its hint, tried from the most particular to the most general."""
    layout = text if layout is None else layout
    expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    offset = getattr(exc, "pos_in_stream", None)
    if offset is None or offset < 0:
        offset = len(text)
    token = getattr(exc, "token", None)
    at_end = isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and (exc.token.type == "$END" or exc.token.type == "_DEDENT" and not str(exc.token)))
    hint = None
    if at_end:
        offset = len(layout.rstrip("\n"))
        message = f"syntax error: unexpected end of text{_expected(exc)}" if not isinstance(exc, UnexpectedEOF) \
            else f"syntax error: the text ends too early{_expected(exc)}"
    elif isinstance(exc, UnexpectedToken):
        if exc.token.type == "_NL":
            found = "end of line"
        elif exc.token.type == "_INDENT":
            found = "indent"
            end = getattr(token, "end_pos", None)
            if end is not None and end <= len(layout):
                offset = end  # the first character of the indented line
        else:
            found = f"'{token}'"
        message = f"syntax error: unexpected {found}{_expected(exc)}"
    elif isinstance(exc, UnexpectedCharacters):
        assert exc.pos_in_stream is not None  # lark places every character it cannot read
        message = f"syntax error: unexpected character {text[exc.pos_in_stream]!r}{_expected(exc)}"
    else:
        message = f"syntax error: {exc}"
    open_, _ = _brackets(layout, offset)
    _, stray = _brackets(layout, offset + 1)
    before = layout[:offset].rstrip()
    words = re.match(r"\s*([A-Za-z_]*)", layout[line_start(layout, offset):offset])
    assert words is not None  # the pattern matches any text (the empty word at least)
    first_word = words.group(1)
    if token is not None and str(token) == "=" and "COMP_OP" in expected:
        hint = "compare with '==' ('=' assigns)"
    elif "IN" in expected and re.search(r"(^|[^A-Za-z0-9_])let\s+[A-Za-z_]\w*\s*=", layout[:offset] if start == "expression"
                                        else re.sub(r"^\s*let\b", "", layout[line_start(layout, offset):offset])):
        if token is not None and str(token) == "not":
            hint = "the values of a `let` end at `in`: write a membership test in parentheses, as in " \
                   "let gone = (c not in hand(me)) in ..."
        else:
            hint = "a `let` inside an expression ends with `in` and the expression that uses its names, as in " \
                   "let n = count(deck) in n + 1"
    elif at_end and open_:
        offset = open_[-1]
        opener = layout[offset]
        message = f"syntax error: '{opener}' is never closed"
        hint = f"close it with '{_OPENERS[opener]}'"
    elif open_ and (expected & {"RPAR", "RSQB"}):
        opener = layout[open_[-1]]
        line, col = line_col(layout, open_[-1])
        hint = f"an opening bracket is not closed: the '{opener}' at {origin.locate(line, col)}"
    elif token is not None and token.type in ("RPAR", "RSQB") and stray == offset:
        hint = f"there is no opening '{_CLOSERS[str(token)]}' for this '{token}'"
    elif token is not None and token.type == "_NL" and "COLON" in expected \
            and first_word in _BLOCK_WORDS:
        hint = "a block needs ':' at the end of its first line"
    elif token is not None and token.type == "_INDENT":
        hint = "this line is indented more than the one before it; the indented lines of a block must line up"
    elif before.endswith(":") and start == "program" and token is not None and token.type != "_INDENT":
        hint = "indent the lines of the block under the line that ends with ':'"
    if hint is None:
        try:
            hint = exc.match_examples(lambda t: lark_parser().parse(t, start="program"), _EXAMPLES,
                                      use_accepts=True)
        except Exception:  # match_examples is best effort: no hint is better than a crash
            hint = None
        if start == "expression" and hint and "statement" in hint:
            hint = None
    if hint is None:
        context = exc.get_context(text, 30).rstrip()
        hint = "here:\n" + context if context else None
    cut = _cut_by_flow_comma(origin)
    if cut is not None:  # `[f(a, b)]` in YAML is two texts, `f(a` and `b)`: say so, at the comma
        where, after = cut
        return LegesError(Diagnostic(where, f"{message}: the YAML list or mapping around this rule text cut it at "
                                            f"this comma ({'it ends' if after else 'it begins'} here)",
                                     "in a YAML list or mapping written with [ ] or { }, a comma ends an unquoted "
                                     "value: put the whole rule text in quotes, or write the list one item a line"))
    line, col = line_col(layout, offset)
    return LegesError(Diagnostic(origin.locate(line, col), message, hint))


def _cut_by_flow_comma(origin: TextOrigin):
    """(position of the comma, whether the text ends at it) when a text is an unquoted YAML value inside
    `[...]` or `{...}` next to a comma: the comma may have been meant as part of the rule."""
    source, value = getattr(origin, "source", None), getattr(origin, "value", None)
    if not source or value is None or origin.block or not 0 < origin.start <= origin.end <= len(source):
        return None
    if source[origin.start - 1] in "'\"":
        return None
    after = origin.end
    while after < len(source) and source[after] in " \t":
        after += 1
    before = origin.start - 1
    while before >= 0 and source[before] in " \t":
        before -= 1
    for at, ends in ((after, True), (before, False)):
        if 0 <= at < len(source) and source[at] == ",":
            return Position(origin.file, *line_col(source, at)), ends
    return None


def bad_dedent(source: str) -> tuple[int, int]:
    """Where a line goes back to an indentation that no open block has (line, column), as the
    indenter sees lines: blank lines, comments and lines inside brackets do not count."""
    levels = [0]
    depth = 0
    for number, line in enumerate(without_comments(source).split("\n"), 1):
        stripped = line.strip()
        if stripped and depth == 0:
            indent = len(line) - len(line.lstrip(" \t"))
            if indent > levels[-1]:
                levels.append(indent)
            else:
                while indent < levels[-1]:
                    levels.pop()
                if indent != levels[-1]:
                    return number, indent + 1
        depth = max(0, depth + sum(line.count(c) for c in "([") - sum(line.count(c) for c in ")]"))
    return 1, 1
