"""Consistency checks of declarations: evaluated by `leges validate` on the game as set out."""
from __future__ import annotations

import shutil

import pytest

import leges
from helpers import ROOT


def _with_checks(tmp_path, checks: str):
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "ttt")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    path = tmp_path / "ttt" / "ruleset.yaml"
    path.write_text(path.read_text() + "\nchecks:\n" + checks)
    return str(tmp_path / "ttt")


def test_a_passing_check_is_silent(tmp_path):
    leges.load(_with_checks(tmp_path, """  - id: marks_fill_the_board
    description: the two players' marks can fill the nine squares
    check: count(components("mark")) >= count(spaces)
"""))


def test_a_failing_check_names_both_places(tmp_path):
    with pytest.raises(leges.LegesError) as err:
        leges.load(_with_checks(tmp_path, """  - id: too_few
    description: each player's marks alone fill the board
    compares: ["ruleset.yaml: mark count", "maps/tictactoe.yaml: grid"]
    check: count(components("mark", x)) >= count(spaces)
"""))
    d = err.value.diagnostics[0]
    assert d.position.file.endswith("ruleset.yaml") and d.position.line > 60
    assert "consistency check 'too_few' fails: each player's marks alone fill the board" in d.message
    assert d.hint == "compare ruleset.yaml: mark count; maps/tictactoe.yaml: grid"
