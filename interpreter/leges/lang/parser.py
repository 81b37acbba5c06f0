"""Parsing rule-language text into the syntax tree of `ast.py`.

The grammar lives in `grammar.lark` (LALR, positions kept, its tables cached); this module turns Lark's
tree into our nodes and Lark's exceptions into located, readable diagnostics.
"""
from __future__ import annotations

import ast as pyast
import io
import re
from dataclasses import dataclass
from functools import lru_cache

import lark
from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from ..text import cache
from ..text.errors import Diagnostic, LegesError
from ..text.yaml_source import TextOrigin
from . import ast

MAX_TEXT = 100_000
MAX_DEPTH = 200  # levels of the parse tree; deeper rules would exhaust Python's stack later on



def grammar_text() -> str:
    """The rule language's grammar, read as package data (it ships in the wheel beside this module)."""
    from importlib.resources import files
    return files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


class RuleIndenter(Indenter):
    """The rule language's indentation: blocks by indent, none inside brackets (also used by leges mutate)."""
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, its tables kept in Leges' signed cache (cache.py). Not Lark's own `cache=True`: that
    unpickles a file of a predictable name in the shared temporary folder, which anyone could plant."""
    def build() -> Lark:
        return Lark(grammar_text(), parser="lalr", postlex=RuleIndenter(), start=["program", "expression"],
                    propagate_positions=True, maybe_placeholders=True)
    return cache.cached("parser", f"{lark.__version__}\0{_fingerprint()}", build, _save, _restore)


def _save(parser: Lark) -> bytes:
    buffer = io.BytesIO()
    parser.save(buffer)
    return buffer.getvalue()


def _restore(data: bytes) -> Lark:
    return Lark.load(io.BytesIO(data))


def _pos(meta_or_token) -> dict:
    line = getattr(meta_or_token, "line", 0) or 0
    col = getattr(meta_or_token, "column", 0) or 0
    return {"line": line, "col": col}


@v_args(meta=True)
class _ToAst(Transformer):
    """Lark tree → `ast` nodes, keeping each node's line and column."""

    # -- expressions
    def int_(self, meta, c):
        return ast.Literal(int(c[0]), **_pos(meta))

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


_TRANSFORMER = _ToAst()

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


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _syntax_error(exc: UnexpectedInput, text: str, origin: TextOrigin, start: str,
                  layout: str | None = None) -> LegesError:
    """A located diagnostic for a syntax error; `layout` is the text with its line breaks (expressions
    are parsed with line breaks turned into spaces, at the same offsets)."""
    layout = text if layout is None else layout
    expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    offset = getattr(exc, "pos_in_stream", None)
    if offset is None or offset < 0:
        offset = len(text)
    token = getattr(exc, "token", None)
    at_end = isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and (token.type == "$END" or token.type == "_DEDENT" and not str(token)))
    hint = None
    if at_end:
        offset = len(layout.rstrip("\n"))
        message = f"syntax error: unexpected end of text{_expected(exc)}" if not isinstance(exc, UnexpectedEOF) \
            else f"syntax error: the text ends too early{_expected(exc)}"
    elif isinstance(exc, UnexpectedToken):
        if token.type == "_NL":
            found = "end of line"
        elif token.type == "_INDENT":
            found = "indent"
            end = getattr(token, "end_pos", None)
            if end is not None and end <= len(layout):
                offset = end  # the first character of the indented line
        else:
            found = f"'{token}'"
        message = f"syntax error: unexpected {found}{_expected(exc)}"
    elif isinstance(exc, UnexpectedCharacters):
        message = f"syntax error: unexpected character {text[exc.pos_in_stream]!r}{_expected(exc)}"
    else:
        message = f"syntax error: {exc}"
    open_, _ = _brackets(layout, offset)
    _, stray = _brackets(layout, offset + 1)
    before = layout[:offset].rstrip()
    first_word = re.match(r"\s*([A-Za-z_]*)", layout[_line_start(layout, offset):offset]).group(1)
    if token is not None and str(token) == "=" and "COMP_OP" in expected:
        hint = "compare with '==' ('=' assigns)"
    elif "IN" in expected and re.search(r"(^|[^A-Za-z0-9_])let\s+[A-Za-z_]\w*\s*=", layout[:offset] if start == "expression"
                                        else re.sub(r"^\s*let\b", "", layout[_line_start(layout, offset):offset])):
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
        line, col = _line_col(layout, open_[-1])
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
            hint = exc.match_examples(lambda t: _lark().parse(t, start="program"), _EXAMPLES,
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
    line, col = _line_col(layout, offset)
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
            line = source.count("\n", 0, at) + 1
            col = at - (source.rfind("\n", 0, at) + 1) + 1
            from ..text.errors import Position
            return Position(origin.file, line, col), ends
    return None


def _check_depth(tree, layout: str, origin: TextOrigin) -> None:
    """Reject absurdly nested rules with a located error (the later stages recurse over the tree)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            offset = getattr(getattr(node, "meta", None), "start_pos", 0) or 0
            line, col = _line_col(layout, min(offset, len(layout)))
            raise LegesError(Diagnostic(origin.locate(line, col),
                                        f"rule nested more than {MAX_DEPTH} levels deep",
                                        "split it up with `let`, functions or procedures"))
        for child in getattr(node, "children", ()):
            if hasattr(child, "children"):
                stack.append((child, depth + 1))


def _check_size(text: str, origin: TextOrigin) -> None:
    if len(text) > MAX_TEXT:
        raise LegesError(Diagnostic(origin.locate(1, 1), f"rule text longer than {MAX_TEXT} characters"))


@lru_cache(maxsize=1)
def _fingerprint() -> str:
    return cache.parser_fingerprint()


def _cached_tree(start: str, text: str, parse):
    """The syntax tree of `text`, from the disk cache when an identical text was parsed before
    (cache.py); a text with an error is never cached (the error is reported afresh)."""
    return cache.cached("tree", f"{_fingerprint()}\0{start}\0{text}", parse)


def parse_program(text: str, origin: TextOrigin) -> ast.Program:
    _check_size(text, origin)
    return _cached_tree("program", text, lambda: _parse_program(text, origin))


def _parse_program(text: str, origin: TextOrigin) -> ast.Program:
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark().parse(source, start="program")
        _check_depth(tree, source, origin)
        return _TRANSFORMER.transform(tree)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source, origin, "program") from None
    except VisitError as exc:  # a literal the transformer could not read
        raise LegesError(Diagnostic(origin.locate(1, 1), f"syntax error: {exc.orig_exc}")) from None
    except DedentError:
        line, col = _bad_dedent(source)
        raise LegesError(Diagnostic(origin.locate(line, col), "syntax error: this line is indented to a column no "
                                    "enclosing block starts at", "indent it as the block it belongs to")) from None


def _bad_dedent(source: str) -> tuple[int, int]:
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


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def without_comments(text: str) -> str:
    """Blank out `# ...` comments (outside strings), keeping every other character where it was."""
    out, quote, i = [], None, 0
    while i < len(text):
        ch = text[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif ch == "#":
            while i < len(text) and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def parse_expression(text: str, origin: TextOrigin) -> ast.Expr:
    """Parse one expression; it may span lines (the newlines count as spaces)."""
    _check_size(text, origin)
    return _cached_tree("expression", text, lambda: _parse_expression(text, origin))


def _parse_expression(text: str, origin: TextOrigin) -> ast.Expr:
    original = text.rstrip()
    flat = without_comments(original).replace("\r", " ").replace("\n", " ")
    try:
        tree = _lark().parse(flat, start="expression")
        _check_depth(tree, original, origin)
        node = _TRANSFORMER.transform(tree)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, flat, origin, "expression", original) from None
    except VisitError as exc:
        raise LegesError(Diagnostic(origin.locate(1, 1), f"syntax error: {exc.orig_exc}")) from None
    if "\n" in original:
        for n in node.walk():  # the parser saw one line: map columns back to lines
            n.line, n.col = _line_col(original, max(0, n.col - 1))
    return node


# ---------------------------------------------------------------------------- labels
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
    _check_size(text, origin)
    if program:
        source = text if text.endswith("\n") else text + "\n"
        try:
            tree = _lark().parse(source, start="program")
        except UnexpectedInput as exc:
            raise _syntax_error(exc, source, origin, "program") from None
    else:
        source = without_comments(text.rstrip()).replace("\r", " ").replace("\n", " ")
        try:
            tree = _lark().parse(source, start="expression")
        except UnexpectedInput as exc:
            raise _syntax_error(exc, source, origin, "expression", text.rstrip()) from None
    found = []
    for node in tree.iter_subtrees_topdown():
        if node.data not in ("labelled_stmt", "labelled"):
            continue
        token, body = node.children[0], node.children[1]
        start = token.start_pos
        line, col = _line_col(text, start)
        if node.data == "labelled_stmt":
            inner_start = body.meta.start_pos if isinstance(body, Tree) else body.start_pos
            end = _last_end(body) if isinstance(body, Tree) else body.end_pos
            found.append(Label(str(token)[1:], "statement", start, end, (inner_start, end), line, col))
        else:
            end = node.meta.end_pos
            opening = source.index("(", token.end_pos)
            found.append(Label(str(token)[1:], "expression", start, end, (opening + 1, end - 1), line, col))
    return found
