"""Diagnostics: every problem a user can cause is reported as `file:line:col: error: message`.

A ruleset comes from an author (or a stranger, for mods), so nothing they write may end in a
Python traceback. Code that finds a problem raises `LegesError` holding one or more
`Diagnostic`s; the command line prints them and exits with status 2.

A message quotes what a file wrote (a name, a record's action): a diagnostic is formatted with
its place and message each one harmless line of bounded length, and each line of its hint too
(terminal.shown), so no file can make a diagnostic print a line of its own.
"""
from __future__ import annotations

import difflib
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from .terminal import shown

MESSAGE = 1000  # characters of a message, or of one line of a hint, as printed


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
        text = f"{shown(self.position, MESSAGE)}: {self.severity}: {shown(self.message, MESSAGE)}"
        if self.hint:
            text += "\n    hint: " + "\n          ".join(shown(line, MESSAGE) for line in self.hint.split("\n"))
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


@contextmanager
def named_at(places: dict[str, tuple[Position, str]]) -> Iterator[None]:
    """Problems of a file that another file named are reported where it is named.

    A record's `ruleset_path` or a scenario's `ruleset:` that leads nowhere, or a variant they
    name that the ruleset lacks, is reported by loading at a path without a line (`nowhere`,
    `--variant`) that the user never typed. Within this block, such a diagnostic whose file is a
    key of `places` (or lies in that folder) is placed at the position given, its message
    prefixed by what names it there (`the ruleset this record names`). Diagnostics with a line
    stay where they are: they are in the named file itself."""
    try:
        yield
    except LegesError as exc:
        moved = [_moved(d, places) for d in exc.diagnostics]
        if all(m is d for m, d in zip(moved, exc.diagnostics)):
            raise
        raise LegesError(moved) from None


def _moved(d: Diagnostic, places: dict[str, tuple[Position, str]]) -> Diagnostic:
    if d.position.line and not d.position.file.startswith("--"):  # `--variant:2:5`: the second request, not a file's line
        return d
    for named, (at, what) in places.items():
        if d.position.file == named or d.position.file.startswith(named.rstrip("/") + "/"):
            told = d.message if d.position.file.startswith("--") else f"{d.position.file}: {d.message}"
            return Diagnostic(at, f"{what}: {told}", d.hint, d.severity)
    return d
