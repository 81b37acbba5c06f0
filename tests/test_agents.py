"""Agents: specs, the built-in players, user agents, and that none reads what its player cannot see."""
from __future__ import annotations

import json
import random

import pytest

import leges
from helpers import ROOT
from leges import LegesError
from leges.agents import GreedyAgent, MCTSAgent, View, make, parse, seat_specs
from leges.cli import main
from leges.lab.simulate import play_game

TICTACTOE = str(ROOT / "rulesets" / "tictactoe")


def test_specs_set_typed_parameters_and_refuse_unknown_ones():
    agent = make("mcts:iterations=5:c=2:depth=3")
    assert isinstance(agent, MCTSAgent) and (agent.iterations, agent.c, agent.depth) == (5, 2.0, 3)
    assert seat_specs("greedy", 3) == ["greedy"] * 3
    assert seat_specs("mcts:iterations=9,random", 2) == ["mcts:iterations=9", "random"]
    with pytest.raises(LegesError, match="no parameter 'iteration'.*"):
        make("mcts:iteration=5")
    with pytest.raises(LegesError, match="no agent 'mtcs'"):
        parse("mtcs")
    with pytest.raises(LegesError, match="3 agents for 2 players"):
        seat_specs("random,random,random", 2)


def position(game, *squares):
    st = game.new_initial_state(players=2, seed=0)
    for s in squares:
        st.apply_action(f"place square={s}")
    return st


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=300", "mcts:iterations=300:depth=1"])
def test_agents_take_the_winning_square(tictactoe, spec):
    st = position(tictactoe, "r0c0", "r1c0", "r0c1", "r1c1")  # x to move: r0c2 wins
    agent = make(spec)
    agent.start(tictactoe, 0, random.Random(1))
    view = View(st, 0)
    choice = agent.choose(view)
    assert view.legal_actions()[choice].text == "place square=r0c2"


def test_mcts_blocks_a_threat(tictactoe):
    st = position(tictactoe, "r0c0", "r1c1", "r2c2", "r0c2")  # x to move: o threatens r2c0
    agent = make("mcts:iterations=1000")
    agent.start(tictactoe, 0, random.Random(0))
    view = View(st, 0)
    assert view.legal_actions()[agent.choose(view)].text == "place square=r2c0"


def test_mcts_does_not_lose_to_random_in_either_seat(tictactoe):
    for seed in range(2):
        for seats in (["mcts:iterations=300", "random"], ["random", "mcts:iterations=300"]):
            r = play_game(tictactoe, 2, seed, seats)
            mcts = seats.index("mcts:iterations=300")
            assert r.returns[mcts] >= 0, (seed, seats, r.history)


def test_games_with_agents_are_reproducible(tictactoe):
    a = play_game(tictactoe, 2, 4, ["greedy", "mcts:iterations=50"])
    b = play_game(tictactoe, 2, 4, ["greedy", "mcts:iterations=50"])
    assert a == b and a.agents == ["greedy", "mcts:iterations=50"]


def test_greedy_follows_only_a_heuristic_the_ruleset_has():
    with pytest.raises(LegesError, match="no heuristic named 'nope'"):
        play_game(leges.load(str(ROOT / "rulesets" / "tictactoe")), 2, 0, ["greedy:heuristic=nope", "random"])
    # (a ruleset with none gets one learned: tests/test_learn.py)


USER_AGENT = '''
from leges.agents import Agent

class Last(Agent):
    """Always the last legal action."""
    name = "last"
    params = {"offset": (int, 0, "how far from the end")}

    def choose(self, view):
        return len(view.legal_actions()) - 1 - self.offset
'''


def test_a_user_agent_from_a_file_plays_and_is_named(tmp_path, capsys):
    path = tmp_path / "last.py"
    path.write_text(USER_AGENT)
    assert main(["simulate", TICTACTOE, "-g", "4", "--agents", f"{path}:Last:offset=1,random", "--json", "-j", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["agents"] == [f"{path}:Last:offset=1", "random"]
    assert all(r["agents"] == out["agents"] for r in out["results"])
    assert "agent_win_rate.random" in out["metrics"]


def test_the_documented_example_agent_plays(capsys):
    spec = f"{ROOT / 'docs' / 'examples' / 'agents' / 'cautious.py'}:Cautious"
    assert main(["simulate", TICTACTOE, "-g", "2", "--agents", f"{spec},random", "-q", "-j", "1"]) == 0
    assert "agent win rate" in capsys.readouterr().out


# ---------------------------------------------------------------- hidden information
class Poison(list):
    """A hidden zone's contents: how many there are may be read, nothing else."""

    def _no(self, *args):
        raise AssertionError("an agent read what its player cannot see")

    __iter__ = __getitem__ = __contains__ = __reversed__ = index = count = copy = _no


class Secret:
    def _no(self, *args):
        raise AssertionError("an agent read what its player cannot see")

    __eq__ = __hash__ = __int__ = __float__ = __index__ = __bool__ = __lt__ = __add__ = __radd__ = __repr__ = _no


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=60", "mcts:iterations=30:depth=2", "random"])
def test_hidden_information_agents_only_read_resampled_states(spec, monkeypatch):
    """The agent's view wraps a state whose hidden parts raise when read; resample draws from the real one."""
    from test_resample import TINY
    import tempfile
    from pathlib import Path
    folder = Path(tempfile.mkdtemp())
    (folder / "ruleset.yaml").write_text(TINY + "heuristics:\n  - id: bid\n    value: bid[p]\n")
    game = leges.load(str(folder))
    real = game.new_initial_state(players=2, seed=5)
    real.apply_action("bid amount=1")  # x, sealed for o
    assert real.current_player() == 1
    poisoned = real.copy()
    for key in ("hand.x", "deck"):
        poisoned.zones[key] = Poison(poisoned.zones[key])
    poisoned.where = Poison(poisoned.where)
    poisoned.vars["bid"] = [Secret(), poisoned.vars["bid"][1]]
    poisoned.history = ["x: (sealed)"]
    handed = []

    def resample(self, rng):
        det = real.resample(self.player, rng)
        handed.append(det)
        return det
    monkeypatch.setattr(View, "resample", resample)
    agent = make(spec)
    agent.start(game, 1, random.Random(0))
    view = View(poisoned, 1)
    assert view.observation()["zones"]["hand.x"] == {"count": 1}
    choice = agent.choose(view)
    assert 0 <= (choice if isinstance(choice, int) else view.legal_actions().index(choice)) < 3
    assert spec == "random" or handed


def test_view_resample_hides_the_future_of_a_perfect_information_game(tictactoe):
    st = tictactoe.new_initial_state(players=2, seed=0)
    view = View(st, 0)
    det = view.resample(random.Random(0))
    assert det.rng != st.rng and det.observation(0) == st.observation(0)


def test_greedy_beats_random_in_tictactoe(tictactoe):
    wins = sum(play_game(tictactoe, 2, seed, ["greedy", "random"]).returns[0] > 0 for seed in range(30))
    assert wins >= 24


def test_greedy_class_is_exported_and_its_width_bounds_the_look_ahead(tictactoe):
    assert GreedyAgent.name == "greedy"
    agent = make("greedy:width=2")
    agent.start(tictactoe, 0, random.Random(3))
    st = tictactoe.new_initial_state(players=2, seed=0)
    looked = []
    original = agent._values
    agent._values = lambda view, wanted, now: looked.append(len(wanted)) or original(view, wanted, now)
    assert 0 <= agent.choose(View(st, 0)) < 9 and looked == [2]
