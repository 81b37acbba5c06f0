"""What a rule that failed while running says to its author: the Python exception its compiled code
raised, told in the rule language's words, with a hint."""
from __future__ import annotations

from ..lang.codegen.runtime import RuleMisuse


def failure_hint(exc: Exception) -> str | None:
    """What to look at when a rule failed with this Python exception."""
    if isinstance(exc, RuleMisuse):
        return exc.hint
    if isinstance(exc, MemoryError):
        return "a value grew too large for memory (lists or strings built in a loop?)"
    if isinstance(exc, ZeroDivisionError):
        return "a divisor was zero"
    if isinstance(exc, KeyError) and exc.args and exc.args[0] is None:
        return ("a query that finds nothing gives none (`first`, `last`, `top` of an empty zone, a `player` "
                "variable not set yet): test `x != none` before using x, or make sure something is found")
    return "a value was none, missing, or of the wrong kind here"


def describe_failure(exc: Exception) -> str:
    """A rule's failure with this Python exception, in the author's words."""
    if isinstance(exc, RuleMisuse):
        return str(exc)
    if isinstance(exc, MemoryError):
        return "out of memory"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, (TypeError, AttributeError)):
        return "a value was none or of the wrong kind"
    if isinstance(exc, KeyError):
        key = exc.args[0] if exc.args else None
        if key is None:
            return "no value (none) here: a space, zone or name was needed"
        return f"nothing named {_in_words(key)} here"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, ValueError):
        return "a component was not where the rule expected it"
    return type(exc).__name__


def _in_words(value: object) -> str:
    """A value as the rule language writes it (`none`, `true`, 'name', 3), never Python's repr."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (int, float)):
        return str(value)
    return "a value of the wrong kind"
