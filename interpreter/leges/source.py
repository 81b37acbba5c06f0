"""YAML files with positions: every value keeps the line and column it came from.

PyYAML's `compose` gives a node tree with marks; we build plain Python data from it (safe tags
only) and keep a map from each value's path to its node, so that schema errors, rule-language
errors and semantic errors can all point at the exact place in the file.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from .errors import Diagnostic, LegesError, Position

MAX_FILE_BYTES = 2_000_000
MAX_NODES = 200_000

Path_ = tuple  # a path into a document: keys and list indices


@dataclass
class TextOrigin:
    """Where a string scalar's text sits in its file, to map positions inside the text back."""

    file: str
    line: int  # 1-based line of the first character of the text
    col: int  # 1-based column of the first character of the text
    block: bool = False  # literal/folded block: every line starts at the block's indent
    indent: int = 0  # block indent (0-based column)

    def locate(self, line: int, col: int) -> Position:
        """Position in the file of (line, col) counted from 1 inside the text."""
        if self.block:
            return Position(self.file, self.line + line - 1, self.indent + col)
        if line == 1:
            return Position(self.file, self.line, self.col + col - 1)
        return Position(self.file, self.line + line - 1, col)


@dataclass
class YamlDoc:
    """One loaded YAML file: its data and where each part of it came from."""

    file: str
    data: Any
    nodes: dict[Path_, yaml.Node] = field(default_factory=dict)
    key_nodes: dict[Path_, yaml.Node] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

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
        if style in ("|", ">"):
            # The text starts on the line after the indicator, at the block's indentation.
            first = mark.line + 1
            indent = 0
            for raw in self.lines[first:]:
                if raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                    break
            return TextOrigin(self.file, first + 1, indent + 1, block=True, indent=indent)
        quote = 1 if style in ("'", '"') else 0
        return TextOrigin(self.file, mark.line + 1, mark.column + 1 + quote)


class _Loader(yaml.SafeLoader):
    """SafeLoader that builds plain data only; no custom tags, no Python objects."""


def _fail(file: str, mark, message: str, hint: str | None = None) -> LegesError:
    if mark is None:
        pos = Position(file, 1, 1)
    else:
        pos = Position(file, mark.line + 1, mark.column + 1)
    return LegesError(Diagnostic(pos, message, hint))


def load_yaml_text(text: str, file: str) -> YamlDoc:
    """Parse YAML text into data plus positions; YAML errors become located diagnostics."""
    if len(text) > MAX_FILE_BYTES:
        raise LegesError(Diagnostic(Position(file, 1, 1), f"file is larger than {MAX_FILE_BYTES} bytes"))
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = (exc.problem or exc.context or "invalid YAML").strip()
        if exc.context and exc.problem:
            message = f"{exc.problem} ({exc.context})"
        raise _fail(file, mark, f"YAML syntax: {message}",
                    "check indentation, colons and quotes near this place") from None
    except yaml.YAMLError as exc:
        raise _fail(file, None, f"YAML syntax: {exc}") from None
    finally:
        loader.dispose()
    doc = YamlDoc(file=file, data=None, lines=text.splitlines())
    if node is None:
        return doc
    counter = [0]
    doc.data = _build(node, (), doc, loader, counter)
    return doc


def _build(node: yaml.Node, path: Path_, doc: YamlDoc, loader: _Loader, counter: list[int]) -> Any:
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise _fail(doc.file, node.start_mark, f"document has more than {MAX_NODES} values",
                    "anchors and aliases may have multiplied the document; write it out plainly")
    doc.nodes[path] = node
    if isinstance(node, yaml.MappingNode):
        result: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise _fail(doc.file, key_node.start_mark, "mapping keys must be plain scalars")
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _fail(doc.file, key_node.start_mark, "YAML merge keys ('<<') are not supported",
                            "write the keys out, or use the ruleset's own reuse features")
            # Keys are kept as written: YAML 1.1 would read `on:` as true and `2:` as a number,
            # but a key is a name (JSON semantics), so its text is what counts.
            key = str(key_node.value)
            if key in result:
                raise _fail(doc.file, key_node.start_mark, f"duplicate key '{key}'",
                            "each key may appear once in a mapping; the later one would silently win")
            doc.key_nodes[path + (key,)] = key_node
            result[key] = _build(value_node, path + (key,), doc, loader, counter)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), doc, loader, counter) for i, item in enumerate(node.value)]
    try:
        value = loader.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as exc:
        raise _fail(doc.file, node.start_mark, f"YAML value: {exc.problem}",
                    "only plain YAML (strings, numbers, booleans, lists, mappings) is allowed") from None
    if not isinstance(value, (str, int, float, bool, type(None))):
        # dates and the like: keep the original text so the schema can judge it
        value = node.value
    return value


def load_yaml_file(path: str, display: str | None = None) -> YamlDoc:
    display = display or path
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise LegesError(Diagnostic(Position(display, 1, 1), f"file is larger than {MAX_FILE_BYTES} bytes"))
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        raise LegesError(Diagnostic(Position(display), "no such file")) from None
    except IsADirectoryError:
        raise LegesError(Diagnostic(Position(display), "is a directory, expected a YAML file")) from None
    except UnicodeDecodeError as exc:
        raise LegesError(Diagnostic(Position(display, 1, 1), f"not UTF-8 text: {exc.reason}")) from None
    except OSError as exc:
        raise LegesError(Diagnostic(Position(display), f"cannot read file: {exc.strerror}")) from None
    return load_yaml_text(text, display)
