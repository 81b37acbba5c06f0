"""A study's journal: every finished game appended as one line of JSON, as it finishes.

Why: a study of agents runs for minutes or hours, and one stopped — by Ctrl-C, a time limit, a
killed terminal — used to leave nothing. Its games are fixed by their seeds and agents, so the
journal keeps each game's result the moment it is known, and `--resume FILE` plays only the games
it lacks and reports exactly what one run straight through would have.

The file is JSON lines, appended and flushed per game: a kill leaves every finished game whole and
at most a torn last line, which is dropped (and cut off before anything more is appended). Its
first line says which study it is — the ruleset (and a digest of its text), the variants, the
players, the seeds, the agents — and a resume that is not the same study is refused there: mixing
two studies' games would give an answer of neither. A last line `{"finished": true}` marks a study
played to its end; a journal without one is an unfinished study, never overwritten.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, fields
from typing import TextIO

from ..text import files
from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .simulate import PlayResult

FORMAT = 1
MAX_JOURNAL_BYTES = 512_000_000  # some 50,000 games of a long game, with their actions
_FIELDS = {f.name for f in fields(PlayResult)}
_LATER = {"behaviour"}  # fields a journal written before them lacks (the result keeps its default)


def rules_digest(game) -> str:
    """A digest of the ruleset's text: a journal of other rules is not resumed."""
    digest = hashlib.sha256()
    for d in game.ruleset.docs:
        digest.update((d.text or "").encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def result_json(r: PlayResult) -> dict:
    return asdict(r)


_TYPES: dict[str, tuple[type, ...]] = {
    "seed": (int,), "ranking": (list,), "scores": (list,), "returns": (list,), "length": (int,), "unfinished": (bool,),
    "history": (list,), "agents": (list,), "turns": (int,), "options": (int,), "forced": (int, type(None)),
    "leaders": (list,), "statistics": (dict,), "series": (dict,), "ending": (dict, type(None)), "behaviour": (dict,)}


def result_from_json(data: object, where: Position) -> PlayResult:
    """A game's result as the journal wrote it (leaders as the tuples the metrics read), its fields
    checked: a damaged journal is told at its line, not by the figures it would upset."""
    if not isinstance(data, dict) or not _FIELDS - _LATER <= set(data) <= _FIELDS:
        raise LegesError(Diagnostic(where, "this line of the journal is not a game's result", WRITTEN_BY))
    for key, types in _TYPES.items():
        if key not in data:
            continue
        if not isinstance(data[key], types) or (bool not in types and isinstance(data[key], bool)):
            raise LegesError(Diagnostic(where, f"this line of the journal has a game's '{key}' of the wrong kind: "
                                        f"{shown(json.dumps(data[key]), 60)}", WRITTEN_BY))
    if not all(isinstance(x, list) and len(x) == 2 for x in data["leaders"]):
        raise LegesError(Diagnostic(where, "this line of the journal has a game's 'leaders' of the wrong kind",
                                    WRITTEN_BY))
    try:
        result = PlayResult(**data)
        result.leaders = [tuple(x) for x in result.leaders]
    except TypeError:
        raise LegesError(Diagnostic(where, "this line of the journal is not a game's result", WRITTEN_BY)) from None
    return result


WRITTEN_BY = ("a journal is written by `leges simulate`, `leges compare` or `leges ladder` with --log FILE "
              "(or --records DIR)")


class Journal:
    """The games of one study finished so far, by part (`key`, e.g. A's games of the first set of
    agents) and index in the study's plan; `add` appends one as soon as it is finished."""

    def __init__(self, path: str, header: dict):
        self.path = path
        self.header = header
        self.done: dict[str, dict[int, PlayResult]] = {}
        self.finished = False
        self._handle: TextIO | None = None

    @classmethod
    def open(cls, path: str, header: dict, resume: bool, flag: str) -> Journal:
        """The journal at `path` for the study `header`: resumed (its games read, the study checked
        to be the same), or begun. An unfinished study's journal is never begun over."""
        journal = cls(path, header)
        exists = os.path.exists(path)
        if resume and not exists:
            raise LegesError(Diagnostic(Position(flag), f"no journal at {shown(path, 200)}",
                                        "--resume FILE continues the study whose journal FILE is (written by --log FILE)"))
        if exists:
            journal._read()
            if not resume and not journal.finished:
                raise LegesError(Diagnostic(Position(path, 1, 1), "this journal holds a study that did not finish",
                                            f"continue it with --resume {shown(path, 200)}, or give --log another file"))
            if not resume:  # a finished study's journal: this run is a new one
                journal.done, journal.finished = {}, False
                os.remove(path)
        if not os.path.exists(path):
            journal._append({"leges_journal": FORMAT, **header})
        return journal

    def _read(self) -> None:
        text = files.read_text(self.path, MAX_JOURNAL_BYTES, self.path, what="journal")
        lines = text.split("\n")
        whole = len(lines) - 1  # the last piece has no line break after it: empty, or torn by a kill
        if lines[-1].strip():
            self._cut(len("\n".join(lines[:whole]).encode()) + (1 if whole else 0))
        if whole == 0:
            raise LegesError(Diagnostic(Position(self.path, 1, 1), "not a Leges journal", WRITTEN_BY))
        for number, line in enumerate(lines[:whole], 1):
            where = Position(self.path, number, 1)
            try:
                item = json.loads(line)
            except ValueError:
                raise LegesError(Diagnostic(where, "this line of the journal is not JSON", WRITTEN_BY)) from None
            if number == 1:
                self._check_header(item, where)
            elif isinstance(item, dict) and item.get("finished") is True:
                self.finished = True
            elif isinstance(item, dict) and isinstance(item.get("part"), str) and isinstance(item.get("index"), int):
                self.done.setdefault(item["part"], {})[item["index"]] = result_from_json(item.get("result"), where)
            else:
                raise LegesError(Diagnostic(where, "this line of the journal is not a game's result", WRITTEN_BY))

    def _check_header(self, item, where: Position) -> None:
        if not isinstance(item, dict) or item.get("leges_journal") != FORMAT:
            raise LegesError(Diagnostic(where, "not a Leges journal", WRITTEN_BY))
        for key, ours in self.header.items():
            theirs = item.get(key)
            if theirs != ours:
                raise LegesError(Diagnostic(where, f"the journal is of another study: its {key} is "
                                            f"{shown(json.dumps(theirs), 120)}, this one's {shown(json.dumps(ours), 120)}",
                                            "resume with the options the study began with (the journal's first line "
                                            "says them), or begin a new journal with --log FILE"))

    def _cut(self, size: int) -> None:
        """Drop a torn last line (a kill while it was written), so that what follows starts a line."""
        with open(self.path, "r+b") as handle:
            handle.truncate(size)

    def _append(self, item: dict) -> None:
        if self._handle is None:
            self._handle = open(self.path, "a", encoding="utf-8")
        self._handle.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._handle.flush()

    def results(self, part: str) -> dict[int, PlayResult]:
        return self.done.get(part, {})

    def add(self, part: str, index: int, spec, result: PlayResult) -> None:
        """One finished game, on disk before anything else happens."""
        self.done.setdefault(part, {})[index] = result
        self._append({"part": part, "index": index, "seed": spec.seed, "agents": list(spec.agents),
                      "result": result_json(result)})

    def finish(self) -> None:
        """The study was played to its end."""
        if not self.finished:
            self.finished = True
            self._append({"finished": True})

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
