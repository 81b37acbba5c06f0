"""The same players on both sides of `leges compare` (issue 39, item 1).

An agent that learns a heuristic (a ruleset that declares none) learns it once, on A's rules, and
plays B with it: learned for each side's rules, the auction's heuristic weighed a lot +549 under A
and -1000 under B, and B - A mixed the rule change with a change of players. The report names each
side's players and what they judge by (`sides` in --json), and says, before any figure, when they
still differ (asked for with --learn-on each, or a ruleset's own heuristic that B's variants change).
"""
from __future__ import annotations

import json
import shutil

import pytest

import leges
from helpers import ROOT
from studies import RICH
from leges.agents import evaluations
from leges.agents.evaluation import Evaluation
from leges.agents.learn import LEARNED, learn_on, learned_source
from leges.cli import main
from leges.lab.compare import why_differ
from leges.lab.runner import GameSpec, Job, play_chunk
from leges.lab.simulate import play_game

AUCTION = ROOT / "tests" / "rulesets" / "auction"  # declares no heuristic
MCTS = "mcts:iterations=25"


WEALTH = """\
heuristics:
  - id: wealth
    description: money kept, and the lots won
    value: money[p] + sum([c.value for c in won(p)])
"""

LOTS = """\
leges_variant: 1
id: lots
title: Lots count double for the agents
kind: house_rule
description: The agents' heuristic weighs the lots twice.
patch:
  - {op: set, section: heuristics, id: wealth, key: value, value: "money[p] + 2 * sum([c.value for c in won(p)])"}
"""


@pytest.fixture
def auction(tmp_path) -> str:
    """The auction test game with a variant B: a rich start."""
    shutil.copytree(AUCTION, tmp_path / "auction")
    (tmp_path / "auction" / "variants").mkdir()
    (tmp_path / "auction" / "variants" / "rich.yaml").write_text(RICH)
    return str(tmp_path / "auction")


def compare(capsys, *argv: str) -> str:
    assert main(["compare", *argv, "-g", "2", "-j", "1", "-q"]) == 0
    return capsys.readouterr().out


def compare_json(capsys, *argv: str) -> dict:
    assert main(["compare", *argv, "-g", "2", "-j", "1", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_evaluation_is_named_for_both_sides(auction, capsys):
    argv = (auction, "--b", "rich", "--agents", f"greedy,{MCTS}", "--agents", "greedy")
    out = compare(capsys, *argv)
    assert "DIFFER" not in out and "NOT THE SAME" not in out
    assert "learned once, on A's rules, and read under B too" in out
    assert out.count("the same under A and B") == 2
    assert out.index("the same under A and B") < out.index("games each") < out.index("metric")
    assert "under rich" not in out  # B's players did not learn on B's rules
    on_a = evaluations(leges.load(auction), ["greedy"])["greedy"]
    assert " ".join(on_a.expression.split()) in out  # the learned formula, named once for both

    report = compare_json(capsys, *argv)
    sides = report["sides"]
    assert sides["same_players"] and sides["warning"] is None and sides["differ"] == []
    assert sides["learn_on"] == "a" and report["same_players"]
    assert sides["a"]["variants"] == [] and sides["b"]["variants"] == ["rich"]
    assert [s["agents"] for s in sides["a"]["agent_sets"]] == [["greedy", MCTS], ["greedy", "greedy"]]
    assert sides["a"]["agent_sets"] == sides["b"]["agent_sets"]
    for side in "ab":
        for agent_set in sides[side]["agent_sets"]:
            greedy = {p["spec"]: p for p in agent_set["players"]}["greedy"]
            assert greedy["heuristic"] == LEARNED and greedy["expression"] == on_a.expression
    assert all(s["same_players"] and s["sides"]["a"] == s["sides"]["b"] for s in report["studies"])


def test_b_is_played_by_the_players_learned_on_a(auction):
    """In a worker that loads the games itself (a Job with learn_on), B's greedy plays with A's
    heuristic; and a game of B loaded by anyone else still learns its own (nothing leaks)."""
    seeds = range(3)
    played = play_chunk(Job(auction, ("rich",), 2, learn_on=()), [GameSpec(s, ("greedy", "greedy")) for s in seeds])
    linked = leges.load(auction, variants=["rich"])
    learn_on(linked, leges.load(auction))
    assert [r.history for r in played] == [play_game(linked, 2, s, ["greedy", "greedy"]).history for s in seeds]
    own = leges.load(auction, variants=["rich"])
    assert learned_source(own) is own
    assert [r.history for r in played] != [play_game(own, 2, s, ["greedy", "greedy"]).history for s in seeds]
    assert "under rich" in str(evaluations(own, ["greedy"])["greedy"])
    assert "under rich" not in str(evaluations(linked, ["greedy"])["greedy"])


def test_workers_play_b_as_one_process_does(auction, capsys):
    argv = ["compare", auction, "--b", "rich", "--agents", "greedy", "-g", "4", "--json"]
    reports = []
    for jobs in ("1", "2"):
        assert main([*argv, "-j", jobs]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    assert reports[0]["results_b"] == reports[1]["results_b"] and reports[0]["results_a"] == reports[1]["results_a"]


def test_the_report_says_before_any_figure_when_each_side_learns_its_own(auction, capsys):
    argv = (auction, "--b", "rich", "--agents", f"greedy,{MCTS}", "--learn-on", "each")
    out = compare(capsys, *argv)
    warning = out.index("THE PLAYERS DIFFER between A and B")
    assert warning < out.index("games each") < out.index("metric")
    assert "greedy, because each side learned its own heuristic, as --learn-on each asks" in out
    assert "under B: heuristic learned (learned from 60 random games under rich)" in out

    sides = compare_json(capsys, *argv)["sides"]
    assert not sides["same_players"] and sides["warning"].startswith("THE PLAYERS DIFFER")
    assert sides["differ"] == [{"agents": 0, "spec": "greedy",
                                "why": "each side learned its own heuristic, as --learn-on each asks"}]
    a, b = ({p["spec"]: p for p in sides[side]["agent_sets"][0]["players"]} for side in "ab")
    assert a["greedy"]["expression"] != b["greedy"]["expression"] and a[MCTS] == b[MCTS]


def test_a_heuristic_that_b_changes_is_told(auction, capsys):
    """The ruleset's own heuristic, changed by B's variant: the players differ whatever --learn-on says."""
    with open(f"{auction}/ruleset.yaml", "a") as handle:
        handle.write(WEALTH)
    with open(f"{auction}/variants/lots.yaml", "w") as handle:
        handle.write(LOTS)
    out = compare(capsys, auction, "--b", "lots", "--agents", "greedy,random")
    assert out.index("THE PLAYERS DIFFER") < out.index("metric")
    assert "greedy, because the ruleset's heuristic wealth is not the same under B's rules" in out
    assert "learned once" not in out  # nobody learned anything
    sides = compare_json(capsys, auction, "--b", "lots", "--agents", "greedy,random")["sides"]
    b = {p["spec"]: p for p in sides["b"]["agent_sets"][0]["players"]}
    assert not sides["same_players"] and b["greedy"]["expression"] == "money[p] + 2 * sum([c.value for c in won(p)])"


def test_a_learned_heuristic_that_does_not_read_under_b_is_learned_again_and_told():
    """A's learned heuristic names what B's rules may lack: then B learns its own, and says so."""
    tictactoe = leges.load(str(ROOT / "rulesets" / "tictactoe"))
    learn_on(tictactoe, leges.load(str(AUCTION)))  # money[p], won(p): nothing tic-tac-toe has
    e = evaluations(tictactoe, ["greedy:heuristic=learned"])["greedy:heuristic=learned"]
    assert learned_source(tictactoe) is tictactoe and "money" not in (e.expression or "")
    a = Evaluation("heuristic learned (learned from 60 random games)", LEARNED, "money[p]")
    b = Evaluation("heuristic learned (learned from 60 random games under rich)", LEARNED, "count(won(p))")
    assert "does not read under B's" in why_differ(a, b, "a")


def test_a_journal_is_resumed_with_the_same_choice(auction, capsys, tmp_path):
    log = str(tmp_path / "study.jsonl")
    assert main(["compare", auction, "--b", "rich", "-g", "1", "-j", "1", "-q", "--log", log]) == 0
    capsys.readouterr()
    assert main(["compare", auction, "--b", "rich", "-g", "1", "-j", "1", "-q", "--resume", log, "--learn-on",
                 "each"]) != 0
    assert "its learn_on is \"a\", this one's \"each\"" in capsys.readouterr().err
