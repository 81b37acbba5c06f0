"""`out_of_game`: the zone every ruleset has without declaring it (engine/build.py, Builder._zones)."""
from __future__ import annotations

import shutil

import pytest

import leges
from helpers import ROOT
from leges.cli import main

SCENARIO = """leges_scenario: 1
id: mark_out
title: A mark put out of the game is in no supply
ruleset: ..
players: 2
source: {book: folk, section: Components, quote: "each player has five marks of their own"}
position:
  phase: play
  turn: x
  arrange: |
    move top(supply(x)) to out_of_game
steps:
  - expect:
      - count(supply(x)) == 4 and count(out_of_game) == 1 and top(out_of_game).owner == x
    to_move: x
"""


@pytest.fixture()
def tictactoe(tmp_path):
    folder = tmp_path / "rulesets" / "tictactoe"
    shutil.copytree(ROOT / "rulesets" / "tictactoe", folder, ignore=shutil.ignore_patterns("scenarios"))
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "mark_out.yaml").write_text(SCENARIO)
    return folder


def test_a_scenario_puts_pieces_out_of_the_game_undeclared(tictactoe, capsys):
    assert main(["test", str(tictactoe / "scenarios")]) == 0
    assert "1 passed" in capsys.readouterr().out
    (tictactoe / "scenarios" / "mark_out.yaml").write_text(SCENARIO.replace("== 1 and", "== 2 and"))
    assert main(["test", str(tictactoe / "scenarios")]) != 0  # the check is a real one


def test_it_is_no_approximation_nor_a_declared_zone(tictactoe, capsys):
    assert main(["info", str(tictactoe)]) == 0
    out = capsys.readouterr().out
    assert "approximated values: none" in out and "1 zones" in out
    game = leges.load(str(tictactoe))
    assert [z.id for z in game.ruleset.zones] == ["supply"]
    st = game.new_initial_state(players=2, seed=0)
    assert st.zones["out_of_game"] == [] and game.setup_for(2).zone_visibility["out_of_game"] == "all"


def test_rules_may_use_it_and_a_ruleset_may_name_its_own(tictactoe):
    text = (tictactoe / "ruleset.yaml").read_text()
    (tictactoe / "ruleset.yaml").write_text(text.replace("      move top(supply(me)) to square\n",
                                                         "      move top(supply(me)) to square\n"
                                                         "      move top(supply(me)) to out_of_game\n"))
    game = leges.load(str(tictactoe))
    st = game.new_initial_state(players=2, seed=0)
    st.apply_action("place square=r0c0")
    assert len(st.zones["out_of_game"]) == 1 and len(st.zones["supply.x"]) == 3
    own = text.replace("zones:\n", "zones:\n  - {id: out_of_game, visibility: hidden}\n")  # the ruleset's own
    (tictactoe / "ruleset.yaml").write_text(own)
    game = leges.load(str(tictactoe))
    assert game.setup_for(2).zone_visibility["out_of_game"] == "hidden"
    named = text.replace("variables:\n", "variables:\n  - {id: out_of_game, initial: 0, source: {book: folk, "
                                          "section: Goal}}\n")  # a variable of that name: no zone then
    (tictactoe / "ruleset.yaml").write_text(named)
    game = leges.load(str(tictactoe))
    assert "out_of_game" not in game.setup_for(2).zone_visibility
