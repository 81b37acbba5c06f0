"""Offsets in a text and (line, column) places, both ways: lines and columns count from 1, as
editors and `errors.Position` show them. The one place this arithmetic is written."""
from __future__ import annotations


def line_start(text: str, offset: int) -> int:
    """Offset of the first character of the line holding `offset`."""
    return text.rfind("\n", 0, offset) + 1


def line_col(text: str, offset: int) -> tuple[int, int]:
    """(line, column) of the character at `offset`, both from 1."""
    return text.count("\n", 0, offset) + 1, offset - line_start(text, offset) + 1


def offset_at(text: str, line: int, col: int) -> int:
    """Offset in `text` of (line, col), both counted from 1; clamped to the text."""
    start = 0
    for _ in range(max(0, line - 1)):
        nl = text.find("\n", start)
        if nl < 0:
            return len(text)
        start = nl + 1
    nl = text.find("\n", start)
    stop = len(text) if nl < 0 else nl
    return start + min(max(0, col - 1), stop - start)
