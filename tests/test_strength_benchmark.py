"""benchmarks/agents_strength.py --add: runs of one seed each add up to the figures one long run gives."""
from __future__ import annotations

import importlib.util
import json

import pytest

from helpers import ROOT


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("agents_strength", ROOT / "benchmarks" / "agents_strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


AGENTS = ["mcts:iterations=10", "mcts:iterations=100"]


def _ladder(seed: int, wins: list, players: int = 2) -> dict:
    return {"ruleset": "g", "players": players, "games": 2, "rounds": 1, "seconds": 1.0, "seeds": [seed, seed],
            "wins": wins, "ratings": [{"agent": a} for a in AGENTS]}


def _versus(seed: int, won: float) -> dict:
    return {"ruleset": "g", "players": 2, "agent": "mcts", "opponent": "greedy", "games": 2, "finished": 2,
            "won": won, "seconds": 1.0, "seeds": [seed, seed]}


def test_runs_of_a_seed_each_add_up(strength, tmp_path):
    rows = [_versus(0, 2.0), _versus(1, 1.5), _ladder(0, [[0, 0.5], [1.5, 0]]), _ladder(1, [[0, 0], [2, 0]])]
    for i, row in enumerate(rows):
        (tmp_path / f"{i}.json").write_text(json.dumps(row) + "\n")
    versus, rated = strength.add_up(sorted(str(p) for p in tmp_path.glob("*.json")))
    assert (versus["won"], versus["finished"], versus["seeds"]) == (3.5, 4, [0, 1])
    low, high = strength.wilson(3.5, 4).low, strength.wilson(3.5, 4).high
    assert (versus["low"], versus["high"]) == (low, high) and versus["beats_greedy"] == (low > 0.5)
    assert rated["wins"] == [[0.0, 0.5], [3.5, 0.0]]  # a shared first place is half a win each, as it was
    assert rated["ratings"][1]["rating"] > rated["ratings"][0]["rating"]  # the larger budget won 3.5 of 4
    assert rated["rounds"] == 2 and rated["games"] == 4


def test_ladders_of_more_players_are_not_added_up(strength, tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(_ladder(0, [[0, 1], [1, 0]], players=3)) + "\n")
    with pytest.raises(SystemExit):
        strength.add_up([str(tmp_path / "a.json")])
