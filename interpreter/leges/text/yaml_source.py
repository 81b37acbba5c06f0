"""YAML files with positions: every value keeps the line and column it came from.

PyYAML's `compose` gives a node tree with marks; we build plain Python data from it (safe tags
only) and keep a map from each value's path to its node, so that schema errors, rule-language
errors and semantic errors can all point at the exact place in the file.

The C parser (libyaml, PyYAML's `CSafeLoader`) is used where it is installed: it composes
with the same marks (character indices, lines, columns) and is some fifteen times faster than
the pure-Python one, which matters for a stranger's megabyte. A large text's events are
counted before anything is composed, so a file of a million tiny values is refused at once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from . import files
from . import numbers
from .errors import Diagnostic, LegesError, Position
from .offsets import line_col
from .origin import TextOrigin, breaks

MAX_FILE_BYTES = files.MAX_YAML_BYTES  # characters of one YAML text
MAX_NODES = 20_000  # values of one document, aliases expanded
_COUNT_FROM = 32_000  # texts shorter than this cannot hold 2 * MAX_NODES events: not counted first
_DEEP = 100  # levels of lists and mappings: where a document Python cannot compose is reported

Path_ = tuple  # a path into a document: keys and list indices


@dataclass
class YamlDoc:
    """One loaded YAML file: its data and where each part of it came from."""

    file: str
    data: Any
    nodes: dict[Path_, yaml.Node] = field(default_factory=dict)
    key_nodes: dict[Path_, yaml.Node] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    text: str | None = field(default=None, repr=False)  # the file's text, to locate inside scalars

    def position(self, path: Path_, key: bool = False) -> Position:
        """The position of the value at `path` (or of its key), else of its nearest ancestor."""
        path = tuple(path)
        if key and path in self.key_nodes:
            mark = self.key_nodes[path].start_mark
            return Position(self.file, mark.line + 1, mark.column + 1)
        while True:
            node = self.nodes.get(path)
            if node is not None:
                mark = node.start_mark
                return Position(self.file, mark.line + 1, mark.column + 1)
            if not path:
                return Position(self.file, 1, 1)
            path = path[:-1]

    def data_at(self, path: Path_):
        """The value at `path` (None if there is none)."""
        value = self.data
        for key in path:
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                return None
        return value

    def text_origin(self, path: Path_) -> TextOrigin:
        node = self.nodes.get(tuple(path))
        if node is None:
            pos = self.position(path)
            return TextOrigin(self.file, pos.line, pos.col)
        mark = node.start_mark
        style = getattr(node, "style", None)
        value = node.value if isinstance(node, yaml.ScalarNode) else None
        exact = self.text is not None and isinstance(value, str) and mark.index is not None
        if style in ("|", ">"):
            # The text starts on the line after the indicator, at the block's indentation.
            first = mark.line + 1
            indent = 0
            for raw in self.lines[first:]:
                if raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                    break
            origin = TextOrigin(self.file, first + 1, indent + 1, block=True, indent=indent)
            if exact:
                assert self.text is not None  # exact: the file's text is known
                # skip the header line (`|`, chomping and indentation indicators, a comment)
                start = mark.index
                while start < node.end_mark.index and not breaks(self.text, start):
                    start += 1
                if start < len(self.text) and self.text[start] == "\r" and self.text[start + 1:start + 2] == "\n":
                    start += 1
                origin.value, origin.source = value, self.text
                origin.start, origin.end = start + 1, node.end_mark.index
                origin.line, origin.col = first + 1, 1
            return origin
        quote = 1 if style in ("'", '"') else 0
        origin = TextOrigin(self.file, mark.line + 1, mark.column + 1 + quote)
        if exact:
            origin.value, origin.source = value, self.text
            origin.start, origin.end = mark.index + quote, node.end_mark.index - quote
        return origin


class _Loader(yaml.SafeLoader):
    """SafeLoader that builds plain data only; no custom tags, no Python objects."""


_Fast = getattr(yaml, "CSafeLoader", None) or _Loader  # libyaml when PyYAML was built with it
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]{0,14})\Z")  # within MAX_INT whatever the digits: no check needed
_PLAIN_HINT = ("Leges reads plain YAML only: text, numbers, true/false, null, lists and mappings, "
               "written without tags; remove the tag (quote the value to make it text)")


def _fail(file: str, mark, message: str, hint: str | None = None) -> LegesError:
    if mark is None:
        pos = Position(file, 1, 1)
    else:
        pos = Position(file, mark.line + 1, mark.column + 1)
    return LegesError(Diagnostic(pos, message, hint))


def _mark_position(file: str, mark) -> Position:
    return Position(file, mark.line + 1, mark.column + 1)


def _index_position(file: str, text: str, index: int) -> Position:
    return Position(file, *line_col(text, index))


def _unclosed_quote(text: str, mark) -> tuple | None:
    """A quoted string of block context that runs over lines before a syntax error: (start, end) marks.

    Multi-line quoted strings are valid YAML, so an unclosed quote is usually noticed only
    lines later, where the parser stumbles; the string that swallowed the lines is the culprit.
    """
    last = None
    try:
        for token in yaml.scan(text, Loader=_Fast):
            if token.start_mark.index >= mark.index:
                break
            if isinstance(token, yaml.ScalarToken):
                last = token
    except yaml.YAMLError:
        pass
    if last is not None and last.style in ("'", '"') and last.end_mark.line > last.start_mark.line:
        return last.start_mark, last.end_mark
    return None


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, file: str) -> Diagnostic:
    """A readable, located diagnostic for a YAML syntax error."""
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    mark = exc.problem_mark or exc.context_mark
    if mark is None:
        return Diagnostic(Position(file, 1, 1), f"YAML syntax: {problem or context or 'invalid YAML'}")
    generic = "check indentation, colons and quotes near this place"
    at = text[mark.index] if mark.index is not None and 0 <= mark.index < len(text) else ""
    if "maximum nesting depth" in problem:
        return _nested_too_deeply(_mark_position(file, mark))
    if "undefined alias" in problem:
        name = re.match(r"\*([^\s,\[\]{}]*)", text[mark.index:mark.index + 200]) if at == "*" else None
        return Diagnostic(_mark_position(file, mark), f"YAML: the alias '*{name.group(1) if name else ''}' names no anchor",
                          "an alias (*name) repeats a value marked earlier with an anchor (&name)")
    if "cannot start any token" in problem and at == "\t":
        problem = "found character '\\t' that cannot start any token"
    if "quoted scalar" in context and exc.context_mark is not None:
        quote = text[exc.context_mark.index] if exc.context_mark.index < len(text) else "'"
        return Diagnostic(_mark_position(file, exc.context_mark),
                          f"YAML syntax: the string quoted here with {quote} is never closed",
                          f"end it with {quote} (the file ends at line {mark.line + 1} without one)"
                          if "end of stream" in problem else f"{problem} at {_mark_position(file, mark)}")
    if "'\t'" in problem or "\\t" in problem:
        return Diagnostic(_mark_position(file, mark), "YAML syntax: a tab character here; YAML indents with spaces",
                          "replace the tab by spaces")
    if context.startswith("while parsing a flow") and exc.context_mark is not None:
        opener = text[exc.context_mark.index] if exc.context_mark.index < len(text) else "["
        closer = {"[": "]", "{": "}"}.get(opener, "]")
        where = _mark_position(file, exc.context_mark)
        if "stream end" in problem:
            return Diagnostic(where, f"YAML syntax: '{opener}' is never closed",
                              f"close it with '{closer}' (the file ends at line {mark.line + 1} without one)")
        return Diagnostic(_mark_position(file, mark), f"YAML syntax: {problem}",
                          f"inside the '{opener}' opened at {where}; is a '{closer}' or ',' missing?")
    culprit = _unclosed_quote(text, mark)
    if culprit is not None:
        start, end = culprit
        quote = text[start.index]
        return Diagnostic(_mark_position(file, start),
                          f"YAML syntax: the string quoted here with {quote} runs on to line {end.line + 1}",
                          f"is its closing {quote} missing? (the YAML reader stopped at "
                          f"{_mark_position(file, mark)}: {problem or context})")
    message = f"YAML syntax: {problem} ({context})" if problem and context else f"YAML syntax: {problem or context}"
    hint = generic
    if "mapping values are not allowed" in problem:
        hint = ("a ': ' inside a plain value, or a line indented deeper than the key above it; "
                "quote the value or fix the indentation")
    elif "could not find expected ':'" in problem:
        hint = "a key needs ':' after it; or a line is indented differently from its neighbours"
    elif "expected <block end>" in problem:
        hint = "this line is not indented like the lines before it"
    return Diagnostic(_mark_position(file, mark), message, hint)


def _explicit_tag(text: str, index: int) -> str | None:
    """The tag written before the node that starts at `index` (after its anchor, if any), else None.

    A composed node no longer tells whether its tag was written or resolved from its form
    (`!!str 12` and `"12"` give the same node), and any written tag is refused (`!!binary`,
    `!!python/...`, `!foo`, even `!!str`: a mod's text means what it looks like), so the text at
    the node's start mark is read: PyYAML and libyaml both start a node at its anchor or tag."""
    i = index
    if text.startswith("&", i):
        while i < len(text) and not text[i].isspace() and text[i] not in ",[]{}":
            i += 1
        while i < len(text):  # the separation before a tag: spaces, line breaks, comments
            if text[i] in " \t\r\n":
                i += 1
            elif text[i] == "#":
                while i < len(text) and text[i] not in "\r\n":
                    i += 1
            else:
                break
    if not text.startswith("!", i):
        return None
    end = i
    if text.startswith("!<", i):  # a verbatim tag, commas and all
        close = text.find(">", i, i + 200)
        return text[i:close + 1] if close > 0 else text[i:i + 60]
    while end < len(text) and end - i < 60 and not text[end].isspace() and text[end] not in ",[]{}":
        end += 1
    return text[i:end]


def _check_tag(node: yaml.Node, doc: YamlDoc, problems: list[Diagnostic], seen: set) -> bool:
    """Whether a node is written with an explicit tag; a located problem for it (once per place:
    aliases repeat a node). A tagged node is not built further: its tag is the one problem told."""
    index = node.start_mark.index
    if doc.text is None or index is None:
        return False
    if isinstance(node, yaml.MappingNode) and node.value and node.value[0][0].start_mark.index == index:
        return False  # a block mapping starts where its first key does: a tag there is the key's
    if index in seen:
        return True
    tag = _explicit_tag(doc.text, index)
    if tag is None:
        return False
    seen.add(index)
    problems.append(Diagnostic(_mark_position(doc.file, node.start_mark), f"YAML tag '{tag}' is not allowed", _PLAIN_HINT))
    return True


def _scalar_number(node: yaml.ScalarNode, doc: YamlDoc, loader, problems: list[Diagnostic]):
    """An int or float scalar, bounded before and after conversion (never Python's own message)."""
    where = _mark_position(doc.file, node.start_mark)
    if node.tag == _INT:
        why = numbers.too_long(node.value)
    else:
        why = None if len(node.value) <= numbers.MAX_FLOAT_CHARS else \
            f"a number written with {len(node.value):,} characters: at most {numbers.MAX_FLOAT_CHARS}"
    if why is None:
        try:
            value = loader.construct_object(node, deep=True)
        except (ValueError, OverflowError):
            why = "YAML value: this number cannot be read"
        else:
            why = numbers.out_of_bounds(value)
            if why is None:
                return value
    problems.append(Diagnostic(where, f"YAML value: {why}", numbers.BOUND_HINT))
    return None


def _char(c) -> str:
    if isinstance(c, int):
        c = chr(c)
    return f"U+{ord(c):04X} {c!r}" if isinstance(c, str) and len(c) == 1 else repr(c)


def _count_events(text: str, file: str) -> None:
    """Refuse a text with more than MAX_NODES values before composing it (composing costs far more).

    Keys are events too, and every key has a value: more than twice MAX_NODES events mean more
    than MAX_NODES values (the exact count, aliases expanded, is kept while the data is built).
    """
    count = 0
    for event in yaml.parse(text, Loader=_Fast):
        if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent, yaml.AliasEvent)):
            count += 1
            if count > 2 * MAX_NODES:
                raise _fail(file, event.start_mark, f"the document has more than {MAX_NODES:,} values",
                            "split it into several files, or write it more compactly")


def _too_deep(text: str, file: str) -> Diagnostic:
    """Where a document too deeply nested for Python to compose goes deeper than any ruleset needs
    (found again event by event, which takes no recursion; only once reading has failed)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Fast):
            depth += isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent))
            depth -= isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent))
            if depth > _DEEP:
                return _nested_too_deeply(_mark_position(file, event.start_mark))
    except yaml.YAMLError:
        pass
    return _nested_too_deeply(Position(file, 1, 1))


def _nested_too_deeply(at: Position) -> Diagnostic:
    return Diagnostic(at, "YAML: the document is nested too deeply",
                      "a ruleset, map or scenario needs only a few levels of lists and mappings")


def load_yaml_text(text: str, file: str) -> YamlDoc:
    """Parse YAML text into data plus positions; YAML errors become located diagnostics.

    A syntax error stops the reading (the rest of the file cannot be trusted); problems of
    well-formed YAML (duplicate keys, tags) are all collected and reported together.
    """
    if len(text) > MAX_FILE_BYTES:
        raise LegesError(Diagnostic(Position(file, 1, 1), f"the file is larger than {MAX_FILE_BYTES:,} characters",
                                    "split it (a ruleset may `include` several files)"))
    loader = None
    try:
        if len(text) >= _COUNT_FROM:
            _count_events(text, file)
        loader = _Fast(text)
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise LegesError(_syntax_error(exc, text, file)) from None
    except yaml.reader.ReaderError as exc:
        raise LegesError(Diagnostic(_index_position(file, text, exc.position),
                                    f"YAML: character {_char(exc.character)} is not allowed in a YAML file",
                                    "remove it (control characters may only be written as escapes in quotes)")) from None
    except yaml.YAMLError as exc:
        raise _fail(file, None, f"YAML syntax: {str(exc).splitlines()[0][:200]}") from None
    except RecursionError:
        raise LegesError(_too_deep(text, file)) from None
    finally:
        if loader is not None:
            loader.dispose()
    doc = YamlDoc(file=file, data=None, lines=text.splitlines(), text=text)
    if node is None:
        return doc
    counter = [0]
    problems: list[Diagnostic] = []
    try:
        doc.data = _build(node, (), doc, loader, counter, problems, set())
    except RecursionError:
        raise LegesError(_too_deep(text, file)) from None
    if problems:
        raise LegesError(sorted(problems, key=lambda d: (d.position.line, d.position.col)))
    return doc


def _build(node: yaml.Node, path: Path_, doc: YamlDoc, loader: _Loader, counter: list[int],
           problems: list[Diagnostic], tagged: set) -> Any:
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise _fail(doc.file, node.start_mark, f"the document has more than {MAX_NODES:,} values",
                    "anchors and aliases may have multiplied the document; write it out plainly")
    doc.nodes[path] = node
    if _check_tag(node, doc, problems, tagged):
        return None
    if isinstance(node, yaml.MappingNode):
        result: dict = {}
        for key_node, value_node in node.value:
            if _check_tag(key_node, doc, problems, tagged):
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                problems.append(Diagnostic(_mark_position(doc.file, key_node.start_mark),
                                           "mapping keys must be plain scalars"))
                continue
            if key_node.tag == "tag:yaml.org,2002:merge":
                problems.append(Diagnostic(_mark_position(doc.file, key_node.start_mark),
                                           "YAML merge keys ('<<') are not supported",
                                           "write the keys out, or use the ruleset's own reuse features"))
                continue
            # Keys are kept as written: YAML 1.1 would read `on:` as true and `2:` as a number,
            # but a key is a name (JSON semantics), so its text is what counts.
            key = str(key_node.value)
            if key in result:
                first = doc.key_nodes[path + (key,)].start_mark
                problems.append(Diagnostic(
                    _mark_position(doc.file, key_node.start_mark), f"duplicate key '{key}'",
                    f"'{key}' is already set at line {first.line + 1}; each key may appear once in a mapping "
                    "(the later one would silently win)"))
                continue
            doc.key_nodes[path + (key,)] = key_node
            result[key] = _build(value_node, path + (key,), doc, loader, counter, problems, tagged)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), doc, loader, counter, problems, tagged) for i, item in enumerate(node.value)]
    if node.tag == _STR:  # most values are text: no constructor needed
        return node.value
    if node.tag == _INT and _DECIMAL.match(node.value):  # and most numbers are plain decimals
        return int(node.value)
    if node.tag in (_INT, _FLOAT):
        return _scalar_number(node, doc, loader, problems)
    try:
        value = loader.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as exc:
        problems.append(Diagnostic(_mark_position(doc.file, node.start_mark), f"YAML value: {exc.problem}",
                                   "only plain YAML (strings, numbers, booleans, lists, mappings) is allowed"))
        return None
    except (ValueError, OverflowError):  # a value its constructor cannot read (numbers are bounded above)
        problems.append(Diagnostic(_mark_position(doc.file, node.start_mark), "YAML value: this value cannot be read",
                                   _PLAIN_HINT))
        return None
    if not isinstance(value, (str, int, float, bool, type(None))):
        # dates and the like: keep the original text so the schema can judge it
        value = node.value
    return value


def load_yaml_file(path: str, display: str | None = None, roots=None, budget: "files.Budget | None" = None) -> YamlDoc:
    """A YAML file read through the file gate: a regular file, inside `roots` when given, size-capped."""
    display = display or files.display(path)
    text = files.read_text(path, files.MAX_YAML_BYTES, display, roots)
    if budget is not None:
        budget.take(len(text), display)
    doc = load_yaml_text(text, display)
    if budget is not None:
        budget.take_values(len(doc.nodes), display)
    return doc
