"""JSON texts (records, saved states) with positions: a problem is reported where it is written.

Python's `json` gives no positions, so a path into the data (keys and list indices) is found in
the text only when a problem must be reported, by walking the text with json's own scanner.
A `JsonDoc` offers the same `data` and `position(path)` as a YAML document, so the schema
checker (`model/schemas.py`) reports violations of a JSON file at file:line:col too.

Numbers are bounded in digits before Python converts them (text/numbers.py): a number too long,
a float past its bound and JSON's non-standard NaN and Infinity (which Python's reader takes) are
kept as `_Refused` markers while the text is read, then the first one is reported where it is written.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]  # in json.decoder (the C scanner or py_scanstring); typeshed leaves it out
from typing import Any

from . import numbers
from .errors import Diagnostic, LegesError, Position
from .offsets import line_col

_SPACE = " \t\r\n"


class _Refused:
    """A number the reader would not convert, kept in the data until it is reported (why: the reason)."""

    def __init__(self, why: str):
        self.why = why


def _int(text: str) -> "int | _Refused":
    why = numbers.too_long(text, numbers.JSON_DIGITS)
    return _Refused(why) if why else int(text)


def _float(text: str) -> "float | _Refused":
    if len(text) > numbers.MAX_FLOAT_CHARS:
        return _Refused(f"a number written with {len(text):,} characters: at most {numbers.MAX_FLOAT_CHARS}")
    value = float(text)
    return _Refused(f"{text} is not a finite number") if value != value or value in (float("inf"), float("-inf")) \
        else value


def _constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)


def _first_refused(data: Any) -> tuple[tuple, _Refused] | None:
    """The path of the first refused number in the text's order (objects keep their keys' order), iteratively:
    the data may be nested as deep as the reader allows."""
    stack: list[tuple[tuple, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _Refused):
            return path, value
        if isinstance(value, dict):
            stack.extend((path + (k,), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in reversed(list(enumerate(value))))
    return None


def parse_json(text: str, file: str, what: str) -> Any:
    """JSON text, with its syntax errors located and never a traceback (deep nesting, huge numbers)."""
    refused: list[_Refused] = []  # this reading's refusals (the decoder is the reading's own: threads may read at once)

    def keep(value):
        if isinstance(value, _Refused):
            refused.append(value)
        return value
    decoder = json.JSONDecoder(parse_int=lambda t: keep(_int(t)), parse_float=lambda t: keep(_float(t)),
                               parse_constant=lambda t: keep(_constant(t)))
    try:
        data = decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise LegesError(Diagnostic(Position(file, exc.lineno, exc.colno), f"not a JSON {what}: {exc.msg}")) from None
    except RecursionError:
        raise LegesError(Diagnostic(Position(file, 1, 1), f"not a JSON {what}: it is nested too deeply")) from None
    except ValueError as exc:  # none expected (numbers are bounded before conversion): still never a traceback
        raise LegesError(Diagnostic(Position(file, 1, 1), f"not a JSON {what}: {str(exc).split(':')[0][:120]}")) from None
    if refused:
        found = _first_refused(data)
        if found is not None:  # (None: a later duplicate key replaced it)
            path, first = found
            raise LegesError(Diagnostic(position(text, file, path), f"not a JSON {what}: {first.why}",
                                        f"numbers here have at most {numbers.JSON_DIGITS} digits and are finite"))
    return data


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def offset_of(text: str, path: tuple | list, key: bool = False) -> int:
    """Index in `text` of the value at `path` (or of its key), else of its nearest ancestor that is there."""
    decoder = _DECODER  # refuses no number: a long one earlier in the text is skipped like any value
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
