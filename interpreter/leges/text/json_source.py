"""JSON texts (records, saved states) with positions: a problem is reported where it is written.

Python's `json` gives no positions, so a path into the data (keys and list indices) is found in
the text only when a problem must be reported, by walking the text with json's own scanner.
A `JsonDoc` offers the same `data` and `position(path)` as a YAML document, so the schema
checker (`model/schemas.py`) reports violations of a JSON file at file:line:col too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]  # in json.decoder (the C scanner or py_scanstring); typeshed leaves it out
from typing import Any

from .errors import Diagnostic, LegesError, Position
from .offsets import line_col

_SPACE = " \t\r\n"


def parse_json(text: str, file: str, what: str) -> Any:
    """JSON text, with its syntax errors located and never a traceback (deep nesting, huge numbers)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LegesError(Diagnostic(Position(file, exc.lineno, exc.colno), f"not a JSON {what}: {exc.msg}")) from None
    except RecursionError:
        raise LegesError(Diagnostic(Position(file, 1, 1), f"not a JSON {what}: it is nested too deeply")) from None
    except ValueError as exc:  # an integer of thousands of digits
        raise LegesError(Diagnostic(Position(file, 1, 1), f"not a JSON {what}: {str(exc).split(':')[0][:120]}")) from None


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def offset_of(text: str, path: tuple | list, key: bool = False) -> int:
    """Index in `text` of the value at `path` (or of its key), else of its nearest ancestor that is there."""
    decoder = json.JSONDecoder()
    i = _skip(text, 0)
    for depth, step in enumerate(path):
        if i >= len(text):
            return i
        if text[i] == "{" and isinstance(step, str):
            j = _skip(text, i + 1)
            while j < len(text) and text[j] == '"':
                name, after = scanstring(text, j + 1)
                colon = _skip(text, after)
                value = _skip(text, colon + 1)
                if name == step:
                    if key and depth == len(path) - 1:
                        return j
                    i = value
                    break
                _, end = decoder.raw_decode(text, value)
                j = _skip(text, end)
                j = _skip(text, j + 1) if j < len(text) and text[j] == "," else j
            else:
                return i
        elif text[i] == "[" and isinstance(step, int):
            j = _skip(text, i + 1)
            for _ in range(step):
                if j >= len(text) or text[j] == "]":
                    return i
                _, end = decoder.raw_decode(text, j)
                j = _skip(text, end)
                j = _skip(text, j + 1) if j < len(text) and text[j] == "," else j
            if j >= len(text) or text[j] == "]":
                return i
            i = j
        else:
            return i
    return i


def position(text: str, file: str, path: tuple | list, key: bool = False) -> Position:
    """Where the value at `path` is written in the JSON `text` (its nearest ancestor if it is not there)."""
    try:
        index = offset_of(text, tuple(path), key)
    except (ValueError, RecursionError, IndexError):
        index = 0
    return Position(file, *line_col(text, index))


@dataclass
class JsonDoc:
    """A parsed JSON text that can say where each of its values is written."""

    file: str
    text: str
    data: Any

    @classmethod
    def parse(cls, text: str, file: str, what: str) -> "JsonDoc":
        return cls(file, text, parse_json(text, file, what))

    def position(self, path, key: bool = False) -> Position:
        return position(self.text, self.file, path, key)
