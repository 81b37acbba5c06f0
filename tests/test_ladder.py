"""`leges ladder`: every seating of the agents, pairwise results, Bradley–Terry ratings with intervals."""
from __future__ import annotations

import json
import math

import pytest
from helpers import ruleset_dir
from leges.cli import main
from leges.lab.ladder import bradley_terry, budget_orders, pairwise, rate, tables
from leges.lab.simulate import PlayResult


def result(ranking, agents, unfinished=False):
    return PlayResult(seed=0, ranking=ranking, scores=[], returns=[], length=1, unfinished=unfinished, agents=agents)


def test_every_seating_holds_two_agents_or_more_and_each_rotation():
    assert tables(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    three = tables(["a", "b", "c"], 3)
    assert len(three) == 7 * 3 and ("a", "a", "a") not in three and ("c", "a", "b") in three
    assert all(sum(t.count(x) for x in "abc") == 3 for t in three)
    assert len(tables(["a", "b", "c"], 4)) == 12 * 4


def test_rankings_are_read_as_pairwise_results():
    seats = ["x", "y", "z"]
    games = [result([["x"], ["y"], ["z"]], ["a", "b", "c"]),  # a > b > c
             result([["y", "z"], ["x"]], ["a", "b", "c"]),    # b = c > a
             result([["z"], ["x", "y"]], ["a", "a", "b"]),    # b > a (a's better place counts, once)
             result([["x"], ["y"], ["z"]], ["c", "b", "a"], unfinished=True)]  # counts for no one
    wins = pairwise(games, ["a", "b", "c"], seats)
    assert wins == [[0, 1, 1], [2, 0, 1.5], [1, 0.5, 0]]


def test_bradley_terry_fits_the_share_of_wins():
    ratings = bradley_terry([[0, 3], [1, 0]], prior=0.0)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert sum(ratings) == pytest.approx(0, abs=1e-9)
    unbeaten = bradley_terry([[0, 5], [0, 0]])  # the prior keeps it finite
    assert unbeaten[0] == pytest.approx(200 * math.log10(5.5 / 0.5), abs=1e-6)  # as if 5.5 wins to 0.5


def test_one_agent_at_several_budgets_is_checked_for_rising_strength():
    assert budget_orders(["random", "mcts:iterations=200", "mcts:iterations=50", "greedy"]) == [("iterations", [2, 1])]
    assert budget_orders(["mcts:iterations=50", "mcts:iterations=50:c=2"]) == []  # c is no budget
    assert budget_orders(["mcts:iterations=50:depth=3", "mcts:iterations=90:depth=4"]) == []  # two things differ


def test_a_strong_agent_rates_above_a_weak_one(capsys):
    assert main(["ladder", str(ruleset_dir("tictactoe")), "--agents", "random,greedy", "--rounds", "20", "-j", "1",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    by = {r["agent"]: r for r in out["ratings"]}
    assert out["games"] == 40 and by["greedy"]["low"] > by["random"]["high"]
    assert out["above"][1][0] > 0.95 and by["greedy"]["score"] > 0.7


def test_the_ladder_says_whether_more_search_is_stronger(capsys):
    assert main(["ladder", str(ruleset_dir("tictactoe")), "--agents", "mcts:iterations=2,mcts:iterations=200",
                 "--rounds", "15", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "differ in iterations: the rating rises with it" in out


def test_ratings_resample_deterministically():
    seats = ["x", "y"]
    games = [result([["x"], ["y"]], ["a", "b"]), result([["y"], ["x"]], ["b", "a"]), result([["x"], ["y"]], ["b", "a"])]
    one, two = rate(games, ["a", "b"], seats, seed=3), rate(games, ["a", "b"], seats, seed=3)
    assert one == two and one.ratings[0].value > one.ratings[1].value and one.ratings[0].low < one.ratings[0].value
