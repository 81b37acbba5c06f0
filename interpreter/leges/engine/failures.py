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
        return f"nothing named {exc.args[0]!r} here"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, ValueError):
        return "a component was not where the rule expected it"
    return type(exc).__name__
