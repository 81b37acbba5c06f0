"""Text from files reaches the terminal harmless: control characters are shown, never obeyed.

A game's title, a seat's name, a component's label, an action's text in a record — any of them
may hold an escape sequence (ESC [ ... ) that a terminal would execute: clear the screen, move
the cursor to overwrite earlier lines, set the window's title, or worse. The command line sends
everything it prints through `SafeStream`, which writes such characters as `\\u001b`-style escapes
(valid inside JSON strings too, so `--json` output stays parseable).
"""
from __future__ import annotations

import re
from typing import TextIO

# C0 controls but tab and line feed, DEL, C1 controls (U+009B is a one-character CSI), and the
# bidirectional overrides that reorder what is shown (the "Trojan source" characters).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """`text` with every unsafe character written as a visible \\uXXXX escape."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class SafeStream:
    """A text stream that cleans what is written to it, then passes it on.

    A carriage return at the very start of one write is kept: the progress bar redraws its own
    line that way, and the bar's text is Leges' own.
    """

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        if text.startswith("\r"):
            self._stream.write("\r" + clean(text[1:]))
        else:
            self._stream.write(clean(text))
        return len(text)

    def __getattr__(self, name: str):  # flush, isatty, encoding, fileno ...: those of the stream
        return getattr(self._stream, name)
