"""A line of rule text read out in plain words, for people who check a translation and do not read code.

`leges diff --for-translators` shows each change in words: the item's own description when it has
one, and every changed line rendered here — counts, comparisons, conditions over a collection and
assignments as words, names with their underscores as spaces. Only the language's own operators and
built-ins are named (nothing of any game): the ruleset's names are read as they are written.
"""
from __future__ import annotations

import re

COMPARISONS = ((" >= ", " is at least "), (" <= ", " is at most "), (" == ", " is "), (" != ", " is not "),
               (" > ", " is more than "), (" < ", " is less than "), (" += ", " grows by "),
               (" -= ", " shrinks by "), (" = ", " becomes "))
WORDS = {"me": "the player deciding", "none": "nothing", "true": "yes", "false": "no", "current": "the player to move"}


def _close(text: str, start: int) -> int:
    """The index of the parenthesis closing the one opened just before `start` (len(text) if none)."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _split_top(text: str) -> list[str]:
    """A call's arguments: the text split at its top-level commas."""
    parts, depth, last = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[last:i])
            last = i + 1
    return [p.strip() for p in [*parts, text[last:]]]


def _call(name: str, args: list[str]) -> str | None:
    """The built-ins over collections in words; None: read the call as it is."""
    lam = re.match(r"^(\w+) => (.*)$", args[1]) if len(args) == 2 else None
    if name == "count" and len(args) == 1:
        return f"the number of {words(args[0])}"
    if name == "count" and lam:
        return f"the number of {words(args[0])} for which {words(lam.group(2))}"
    if name == "all" and lam:
        return f"every {lam.group(1)} in {words(args[0])} has {words(lam.group(2))}"
    if name == "any" and lam:
        return f"some {lam.group(1)} in {words(args[0])} has {words(lam.group(2))}"
    if name in ("min", "max", "sum", "first", "last") and len(args) == 1:
        return f"the {dict(min='least', max='most', sum='total').get(name, name)} of {words(args[0])}"
    return None


def words(text: str) -> str:
    """A rule-language line in plain words (best effort: what it cannot read stays as written)."""
    out, i = [], 0
    for m in re.finditer(r"\b(\w+)\(", text):
        if m.start() < i:
            continue
        end = _close(text, m.end())
        inner = text[m.end():end]
        said = _call(m.group(1), _split_top(inner)) if inner.strip() else None
        out.append(_names(text[i:m.start()]))
        if said is not None:
            out.append(said)
        elif not inner.strip():
            out.append(_names(m.group(1)))  # a function without arguments: its name
        else:
            out.append(f"{_names(m.group(1))} of {words(inner)}")
        i = end + 1
    out.append(_names(text[i:]))
    return " ".join("".join(out).split())


def _names(text: str) -> str:
    for code, said in COMPARISONS:
        text = text.replace(code, said)
    text = re.sub(r"\b\w+\b", lambda m: WORDS.get(m.group(0), m.group(0).replace("_", " ")), text)
    return text
