"""`mcts`: heuristic-scored leaves by default, MAST play-outs without a heuristic, secret decisions
searched without knowledge of the others' sealed choices, reproducibility."""
from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest

import leges
from leges import LegesError
from leges.agents import MCTSAgent, View, make
from leges.agents import mcts as mcts_module
from leges.agents.playout import Mast

# Matching pennies behind screens: both choose in secret (x first, then o), then each shows a hand
# in the open (which changes nothing); x wins when the choices match, o when they differ.
PENNIES = """\
leges: 1
id: pennies
title: Secret pennies
version: "1"
rulebooks: [{id: t, file: none, title: the test}]
players:
  min: 2
  max: 2
  seats: [{name: x}, {name: o}]
variables:
  - {id: pick, per_player: true, initial: 0, visibility: owner, source: {book: t, section: s}}
  - {id: hand, per_player: true, initial: 0, source: {book: t, section: s}}
phases:
  - id: choosing
    source: {book: t, section: s}
    order: players
    turn: |
      act pick
    next: playing
  - id: playing
    source: {book: t, section: s}
    order: players
    turn: |
      act show
    next: end
actions:
  - id: pick
    source: {book: t, section: s}
    secret: true
    params:
      side: range(2)
    effect: |
      pick[me] = side
  - id: show
    source: {book: t, section: s}
    params:
      n: range(2)
    effect: |
      hand[me] = n
scoring:
  source: {book: t, section: s}
  score: if (pick[first(players)] == pick[last(players)]) == (p == first(players)) then 1 else 0
"""


@pytest.fixture(scope="module")
def pennies():
    folder = Path(tempfile.mkdtemp())
    (folder / "ruleset.yaml").write_text(PENNIES)
    return leges.load(str(folder))


def searched(game, spec: str, st, seed: int = 0):
    agent = make(spec)
    agent.start(game, st.current_player(), random.Random(seed))
    return agent, agent.search(View(st, st.current_player()))


def test_a_secret_choice_does_not_steer_the_others_choices(pennies):
    """o's secret pick is looked up beside x's, not below it: o cannot answer what it cannot see.
    Were it below, o would learn to pick the other side and x's every pick would look lost."""
    st = pennies.new_initial_state(players=2, seed=0)
    _, root = searched(pennies, "mcts:iterations=400:heuristic=none", st)
    keys = set(root.children)
    assert {(0, "pick side=0"), (0, "pick side=1"), (1, "pick side=0"), (1, "pick side=1")} <= keys
    for side in (0, 1):
        mine = root.children[(0, f"pick side={side}")]
        assert not any(who == 1 and text.startswith("pick") for who, text in mine.children)
        assert 0.3 < mine.value[0] / mine.visits < 0.7  # a fair coin, not a loss
    # once the choices are revealed, the search goes on below x's own pick
    assert any(text.startswith("show") for _, text in root.children[(0, "pick side=0")].children)


def test_the_heuristic_scores_the_leaf_by_default_and_no_play_out_is_played(tictactoe, monkeypatch):
    def no_play_out(*args):
        raise AssertionError("a play-out was played")
    monkeypatch.setattr(mcts_module, "random_move", no_play_out)
    monkeypatch.setattr(Mast, "step", no_play_out)
    scored = []
    original = mcts_module.estimated
    monkeypatch.setattr(mcts_module, "estimated", lambda values: scored.append(values) or original(values))
    st = tictactoe.new_initial_state(players=2, seed=0)
    searched(tictactoe, "mcts:iterations=50", st)
    assert len(scored) == 50


def test_the_search_follows_the_heuristic(tictactoe, monkeypatch):
    """A heuristic that likes only a corner for x makes the search take the corner, not the centre."""
    cls = type(tictactoe.new_initial_state(players=2, seed=0))
    monkeypatch.setattr(cls, "heuristic", lambda self, name=None:
                        [1.0, 0.0] if "x: place square=r2c2" in self.history else [0.0, 1.0])
    st = tictactoe.new_initial_state(players=2, seed=0)
    agent = make("mcts:iterations=200")
    agent.start(tictactoe, 0, random.Random(0))
    view = View(st, 0)
    assert view.legal_actions()[agent.choose(view)].text == "place square=r2c2"


def test_without_a_heuristic_play_outs_go_to_the_end_by_mast(tictactoe, monkeypatch):
    steps = []
    original = Mast.step
    monkeypatch.setattr(Mast, "step", lambda self, st, rng, played: steps.append(1) or original(self, st, rng, played))
    agent, _ = searched(tictactoe, "mcts:iterations=20:heuristic=none", tictactoe.new_initial_state(players=2, seed=0))
    assert steps and agent.mast.table  # the statistics were gathered


def test_mast_keeps_each_moves_average_and_plays_the_best_rated(tictactoe):
    mast = Mast(epsilon=0.0)
    mast.update([(0, "a"), (1, "b")], [1.0, 0.0])
    mast.update([(0, "a")], [0.0, 1.0])
    assert mast.value(0, "a") == 0.5 and mast.value(1, "b") == 0.0 and mast.value(0, "b") == 0.5
    mast.update([(0, "place square=r1c2")], [1.0, 0.0])
    for seed in range(5):
        st = tictactoe.new_initial_state(players=2, seed=0)
        played = []
        mast.step(st, random.Random(seed), played)
        assert played == [(0, "place square=r1c2")] and st.history == ["x: place square=r1c2"]


@pytest.mark.parametrize("spec", ["mcts", "mcts:iterations=300:heuristic=none", "mcts:iterations=300:rollout=random:heuristic=none"])
def test_mcts_takes_a_win_in_one(tictactoe, spec):
    st = tictactoe.new_initial_state(players=2, seed=0)
    for s in ("r0c0", "r1c0", "r0c1", "r1c1"):
        st.apply_action(f"place square={s}")
    agent = make(spec)
    agent.start(tictactoe, 0, random.Random(1))
    view = View(st, 0)
    assert view.legal_actions()[agent.choose(view)].text == "place square=r0c2"


@pytest.mark.parametrize("spec", ["mcts:iterations=100", "mcts:iterations=100:heuristic=none"])
def test_the_same_seed_searches_the_same_tree(pennies, spec):
    st = pennies.new_initial_state(players=2, seed=3)

    def tree(node):
        return node.visits, node.value, {k: tree(c) for k, c in node.children.items()}
    assert tree(searched(pennies, spec, st, 7)[1]) == tree(searched(pennies, spec, st, 7)[1])
    assert tree(searched(pennies, spec, st, 7)[1]) != tree(searched(pennies, spec, st, 8)[1])


def test_settings_that_contradict_each_other_are_refused(tictactoe):
    for spec, message in (("mcts:rollout=greedy", "no roll-out 'greedy'"),
                          ("mcts:depth=2:heuristic=none", "heuristic=none")):
        with pytest.raises(LegesError, match=message):
            make(spec).start(tictactoe, 0, random.Random(0))
    assert isinstance(make("mcts:depth=3"), MCTSAgent)


@pytest.mark.parametrize("normalise", [1, 0])
def test_rewards_that_differ_little_are_stretched_before_ucb_compares_them(tictactoe, monkeypatch, normalise):
    """A heuristic that prefers one move by a hair: stretched, the search spends most of its
    iterations on that move; as they are, UCB1's exploration spreads them almost evenly."""
    cls = type(tictactoe.new_initial_state(players=2, seed=0))
    monkeypatch.setattr(cls, "heuristic", lambda self, name=None:
                        [1.0, 0.0] if "x: place square=r2c2" in self.history else [0.9, 0.0])
    _, root = searched(tictactoe, f"mcts:iterations=300:normalise={normalise}", tictactoe.new_initial_state(players=2, seed=0))
    best = root.children[(0, "place square=r2c2")].visits
    others = max(c.visits for k, c in root.children.items() if k != (0, "place square=r2c2"))
    assert (best > 3 * others) == bool(normalise)


def test_the_search_stops_once_the_choice_cannot_change(tictactoe):
    st = tictactoe.new_initial_state(players=2, seed=0)
    for s in ("r0c0", "r1c0", "r0c1", "r1c1"):
        st.apply_action(f"place square={s}")
    _, root = searched(tictactoe, "mcts:iterations=2000", st)
    assert root.visits < 2000 and max(root.children.items(), key=lambda kc: kc[1].visits)[0] == (0, "place square=r0c2")
    leader, runner_up = mcts_module.Node(2), mcts_module.Node(2)
    leader.visits, runner_up.visits = 70, 20
    root = mcts_module.Node(2)
    root.children = {(0, "a"): leader, (0, "b"): runner_up, (1, "c"): mcts_module.Node(2)}
    root.children[(1, "c")].visits = 500  # another player's move is no rival
    assert mcts_module.settled(root, 0, 49) and not mcts_module.settled(root, 0, 50)
