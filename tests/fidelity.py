"""Misreadings of a bundled ruleset built from the real one, to prove that a scenario tells them apart.

A fidelity test names a rulebook passage that is easy to misread, a scenario that follows the
rulebook, and the misreading written into the rules as text replacements. `misread` copies the
ruleset (and the maps beside it) into a temporary folder and makes the replacements there; the
scenario, copied along with the ruleset (`ruleset: ..`), then runs against the misreading and
must fail, at the check that tells the two readings apart.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import leges
from leges.authoring.scenario import Outcome, run_file

from helpers import maps_dir, ruleset_dir


def misread(tmp_path: Path, game: str, edits: list[tuple[str, str, str]]) -> Path:
    """A copy of the bundled ruleset `game`, laid out as in the project (`tmp_path`/rulesets/`game`, the
    maps in `tmp_path`/maps), with each (file, before, after) of `edits` made. `before` must occur
    exactly once in its file: a ruleset rewritten since is told, not silently left as it was."""
    folder = tmp_path / "rulesets" / game
    shutil.copytree(ruleset_dir(game), folder)
    shutil.copytree(maps_dir(), tmp_path / "maps")
    for file, before, after in edits:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert text.count(before) == 1, f"{game}/{file}: {before!r} occurs {text.count(before)} times, not once"
        path.write_text(text.replace(before, after), encoding="utf-8")
    leges.load(str(folder))  # the misreading is a valid ruleset: it fails the scenario by its play
    return folder


def scenario(folder: Path, name: str) -> Outcome:
    """Run the scenario `name` of the ruleset in `folder`."""
    return run_file(str(folder / "scenarios" / f"{name}.yaml"))


def failure(outcome: Outcome) -> str:
    assert not outcome.passed, f"{outcome.file} passed on the misreading"
    return "\n".join(outcome.failures)
