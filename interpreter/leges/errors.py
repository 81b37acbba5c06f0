"""Diagnostics: every problem a user can cause is reported as `file:line:col: error: message`.

A ruleset comes from an author (or a stranger, for mods), so nothing they write may end in a
Python traceback. Code that finds a problem raises `LegesError` holding one or more
`Diagnostic`s; the command line prints them and exits with status 2.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable


@dataclass(frozen=True)
class Position:
    """A place in a source file; lines and columns count from 1 as editors show them."""

    file: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    position: Position
    message: str
    hint: str | None = None
    severity: str = "error"

    def format(self) -> str:
        text = f"{self.position}: {self.severity}: {self.message}"
        if self.hint:
            text += "\n    hint: " + self.hint.replace("\n", "\n          ")
        return text

    def to_json(self) -> dict:
        return {
            "file": self.position.file,
            "line": self.position.line,
            "col": self.position.col,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }


class LegesError(Exception):
    """One or more located problems; raised by loading, checking and running rules."""

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic]):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


class RuleError(LegesError):
    """A rule misbehaved while the game ran (bad value, exhausted step budget, ...)."""


@dataclass
class Collector:
    """Gathers every problem of a load so the user sees them all at once, not just the first."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, position: Position, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(position, message, hint))

    def warning(self, position: Position, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(position, message, hint, "warning"))

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise LegesError(sorted(self.diagnostics, key=_order))


def _order(d: Diagnostic) -> tuple:
    return (d.position.file, d.position.line, d.position.col)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known names, for misspelt identifiers (a number or a list where a
    name belongs, as a stranger's file may hold, is compared as its text)."""
    close = difflib.get_close_matches(str(name), sorted({str(c) for c in candidates}), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
