"""Text from files reaches the terminal harmless: control characters are shown, never obeyed.

A game's title, a component's label, a log line, an action's text in a record — any of them
may hold an escape sequence (ESC [ ... ) that a terminal would execute: clear the screen, set
the window's title, write the clipboard (OSC 52), or a newline that starts a line looking like
Leges' own, or a bidirectional override that shows text reversed. Two defences, both always on
(on a terminal or not, in colour or not):

- `shown(value)` is how a value from a file is put into a line: every control and format
  character escaped, one line, at most a bounded length. The command line puts every value
  from a ruleset, record, scenario or saved state into its lines this way (titles, labels, log
  lines, a record's fields, what a diagnostic quotes: errors.Diagnostic.format).
- The command line prints through `SafeStream`, which escapes control characters in whatever
  is written (Leges' own line breaks and tabs aside). Leges' own colour codes pass only a stream
  made for them (`coloured`), and only as plain colour (SGR) sequences: a text painted is
  `shown` first, so a file's text can never bring one.

Escapes are written `\\u001b`-style: valid inside JSON strings too, so `--json` output stays parseable.
"""
from __future__ import annotations

import re
from typing import Any, TextIO

# Every character Unicode classes as a control (C0, DEL, C1: U+009B is a one-character CSI),
# a format character (the bidirectional embeddings, overrides, isolates and marks of "Trojan
# source", zero-width characters, tags), a surrogate (which no UTF-8 terminal can be sent) or a
# line or paragraph separator. tests/test_terminal.py checks the ranges against `unicodedata`.
_OTHERS = ("\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
           "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb"
           "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
           "\U000e0001\U000e0020-\U000e007f")
_UNSAFE = re.compile(f"[\x00-\x1f{_OTHERS}]")
_UNSAFE_IN_OUTPUT = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")  # line feed and tab are Leges' own
_SGR = re.compile(r"(\x1b\[[0-9;]*m)")  # a colour or weight, nothing else

LIMIT = 200  # characters of one value in a line: a title, a label, a log line, a record's field
WIDE = 2000  # characters of a line quoting rules: why an action is not legal, a scoring's texts
ELLIPSIS = "…"


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # as JSON writes it: a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def shown(value: Any, limit: int = LIMIT) -> str:
    """`value` (a text, or anything `str` takes) as one harmless line of at most `limit` characters:
    controls, format characters and line breaks as visible escapes, the rest cut off with an
    ellipsis. Only the first `limit` characters are looked at, so a value of megabytes costs nothing."""
    text = value if isinstance(value, str) else str(value)
    pieces, used = [], 0
    for char in text[: limit + 1]:
        piece = _UNSAFE.sub(_escape, char)
        pieces.append(piece)
        used += len(piece)
        if used > limit:
            break
    if used <= limit:
        return "".join(pieces)
    while used > limit - len(ELLIPSIS):  # whole escapes only: never half of one
        used -= len(pieces.pop())
    return "".join(pieces) + ELLIPSIS


def clean(text: str) -> str:
    """`text` with every unsafe character but line feed and tab written as a visible escape: for
    whole outputs of many lines (a report, JSON), where the values in them have been `shown`."""
    return _UNSAFE_IN_OUTPUT.sub(_escape, text)


class SafeStream:
    """A text stream that cleans what is written to it, then passes it on.

    A carriage return at the very start of one write is kept: the progress bar redraws its own
    line that way, and the bar's text is Leges' own. With `colour`, SGR sequences (colours, bold)
    pass too: only `coloured` makes such a stream, for the screen `leges play` paints.
    """

    def __init__(self, stream: TextIO, colour: bool = False):
        self._stream = stream
        self._colour = colour

    def write(self, text: str) -> int:
        start = "\r" if text.startswith("\r") else ""
        body = text[len(start):]
        if self._colour:
            body = "".join(part if i % 2 else clean(part) for i, part in enumerate(_SGR.split(body)))
        else:
            body = clean(body)
        self._stream.write(start + body)
        return len(text)

    def __getattr__(self, name: str):  # flush, isatty, encoding, fileno ...: those of the stream
        return getattr(self._stream, name)


def coloured(stream: TextIO) -> SafeStream:
    """`stream` (the command line's standard output) letting Leges' colour codes through, and
    still no other control character."""
    return SafeStream(getattr(stream, "_stream", stream), colour=True)
