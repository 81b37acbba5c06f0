"""Where a string scalar's text sits in its YAML file: positions inside a rule text mapped back to
the file, character by character, through what YAML did to the text on the way in."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Position
from .offsets import offset_at


@dataclass
class TextOrigin:
    """Where a string scalar's text sits in its file, to map positions inside the text back.

    YAML changes a scalar's text on the way in: a block (`|`, `>`) loses its indentation, `>`
    and multi-line plain or quoted scalars fold line breaks into spaces, quoted scalars lose
    their quotes and escapes. When the source is known, every character of the value is
    matched to the character of the file it came from, so a position inside the text (a
    syntax error, an unknown name) is reported where the author sees it.
    """

    file: str
    line: int  # 1-based line of the first character of the text
    col: int  # 1-based column of the first character of the text
    block: bool = False  # literal/folded block: every line starts at the block's indent
    indent: int = 0  # block indent (0-based column)
    value: str | None = field(default=None, repr=False)  # the scalar's text as loaded
    source: str | None = field(default=None, repr=False)  # the whole file
    start: int = 0  # index in `source` where the scalar's content begins
    end: int = 0  # index in `source` just past the scalar
    _places: list | None = field(default=None, repr=False, compare=False)

    def locate(self, line: int, col: int) -> Position:
        """Position in the file of (line, col) counted from 1 inside the text."""
        if self.value is not None and self.source is not None:
            places = self._places
            if places is None:
                places = self._places = _align(self.value, self.source, self.start, self.end, self.line, self.col)
            offset = offset_at(self.value, line, col)
            at_line, at_col = places[min(offset, len(places) - 1)]
            return Position(self.file, at_line, at_col)
        if self.block:
            return Position(self.file, self.line + line - 1, self.indent + col)
        if line == 1:
            return Position(self.file, self.line, self.col + col - 1)
        return Position(self.file, self.line + line - 1, col)


def breaks(source: str, i: int) -> bool:
    ch = source[i]
    return ch == "\n" or ch in "\x85\u2028\u2029" or (ch == "\r" and source[i + 1:i + 2] != "\n")


def _align(value: str, source: str, start: int, end: int, line: int, col: int) -> list[tuple[int, int]]:
    """For each character of `value` (and one past its end), its (line, col) in `source`.

    `source[start:end]` is the raw text the value was read from, beginning at (line, col).
    The value is that text with indentation, line breaks, quotes and escapes changed, so
    each character of the value is matched with the next equal character of the source;
    a space or line break of the value (folding) matches the next blank of the source.
    """
    places: list[tuple[int, int]] = []
    i = start
    end = min(end, len(source))

    def advance() -> None:
        nonlocal i, line, col
        if breaks(source, i):
            line, col = line + 1, 1
        else:
            col += 1
        i += 1

    for ch in value:
        if ch in " \t\n":
            if i < end and source[i] in " \t\r\n\x85\u2028\u2029":
                places.append((line, col))
                advance()
            else:  # an escape such as \n: keep the place, consume nothing
                places.append((line, col))
            continue
        j = source.find(ch, i, end)
        if j < 0:  # not in the source as such (an escape): keep the place
            places.append((line, col))
            continue
        while i < j:
            advance()
        places.append((line, col))
        advance()
    if places:
        last_line, last_col = places[-1]
        places.append((last_line, last_col + 1))
    else:
        places.append((line, col))
    return places
