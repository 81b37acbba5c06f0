"""How long a number written in a file or a request may be, for every reader of text (YAML, JSON, the
rule language, variant requests).

Python turns a digit string of any length into an int (past 4,300 digits it refuses with its own
message, and before that a stranger's megabyte of digits costs quadratic time), so a reader checks
the length of a number's text before converting it and reports a number too long at its place.

Two bounds, each the largest number Leges itself writes in such a text:

- a ruleset, a scenario, a rule-language literal or a variant parameter holds numbers the rules
  compute with: within ±MAX_INT, 2^53 - 1 (16 digits), the bound of every number at run time
  (lang/codegen/runtime.MAX_INT, the largest integer JSON readers such as JavaScript keep exactly);
- a saved state or a record (JSON) also holds the random generator's state, a 64-bit integer
  (engine/rng.py): at most 20 digits; the values inside are then checked against their own bounds
  (engine/state_consistency.py).
"""
from __future__ import annotations

import math
import re

MAX_INT = 2 ** 53 - 1  # = lang/codegen/runtime.MAX_INT (text/ is below lang/: tests/test_strict_input.py keeps them equal)
RULE_DIGITS = len(str(MAX_INT))  # 16
JSON_DIGITS = len(str(2 ** 64))  # 20: a 64-bit generator state
MAX_FLOAT_CHARS = 32  # a float's text: 17 significant digits, a sign, a point and an exponent fit with room

ASCII_INT = re.compile(r"[-+]?[0-9]+\Z")  # Python's int() also takes '٣' and other Unicode digits: not these


def digit_count(text: str) -> int:
    """The digits of a number's text (a sign, underscores, a base prefix do not count as digits)."""
    body = text.strip().lstrip("+-").replace("_", "")
    if body[:2].lower() in ("0x", "0o", "0b"):
        body = body[2:]
    return len(body)


def too_long(text: str, digits: int = RULE_DIGITS) -> str | None:
    """Why an integer's text is refused before conversion (None: it may be converted)."""
    count = digit_count(text)
    if count > digits:
        return f"a number of {count:,} digits: numbers have at most {digits}"
    return None


def out_of_bounds(value: int | float) -> str | None:
    """Why a converted number is refused (None: it is within the bound of the rules' numbers)."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number"
    if abs(value) > MAX_INT:
        return f"{value:.17g} is past the bound of a number, ±{MAX_INT} (2^53 - 1)" if isinstance(value, float) \
            else f"{value} is past the bound of a number, ±{MAX_INT} (2^53 - 1)"
    return None


BOUND_HINT = f"a number in rules is at most {MAX_INT} (2^53 - 1) either way; to write text, quote it"
