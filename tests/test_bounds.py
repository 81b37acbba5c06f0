"""Bounded work for the game as a whole, for option lists and for every built-in (issue 22).

Every action can stay under every limit and a game still run for hours: the limits multiply
(`max_work` × `max_decisions`). So a game has a budget, set by whoever plays it, past which it ends
unfinished; a decision's options are bounded in number before they are built; and a built-in is
charged by what it really does. Each test builds the Tic-Tac-Toe of test_errors.py in a temporary
folder (the `game` fixture of test_safety.py) and breaks one thing the way an attacker would.
"""
from __future__ import annotations

import time

import pytest

import leges as leges_api
from leges.engine.budget import DEFAULT_GAME_SECONDS, DEFAULT_GAME_WORK, GameBudget
from test_errors import MOVE, RULES, TURN, expect, leges
from test_safety import edit, game  # noqa: F401  (the fixture)

# A turn that never ends, whose every decision goes through 90,000 items: far under limits.max_work,
# but the decision cap (100,000 decisions) would come only after 9,000,000,000 items.
BUSY = "      let n = count([a for a in range(300) for b in range(300) if a > b])"


def busy_game(folder, work: str = BUSY):
    edit(folder / "game" / "ruleset.yaml", TURN, "    turn: |\n      act place until pass")
    edit(folder / "game" / "ruleset.yaml", MOVE, work)
    return leges_api.load(str(folder / "game"))


def play_out(st) -> None:
    while not st.is_terminal():
        st.apply_option(0)


# ------------------------------------------------------------------ the game's budget
def test_a_game_past_its_work_budget_ends_unfinished_at_the_same_point_every_time(game):
    g = busy_game(game)
    ends = []
    for _ in range(2):
        st = g.new_initial_state(players=2, seed=0, budget=GameBudget(work=1_000_000))
        play_out(st)
        assert st.unfinished and st.returns() == [0, 0]
        assert st.end_reason == {"kind": "budget", "spent": "work", "limit": 1_000_000}
        assert 1_000_000 < st.spent[0] < 1_000_000 + 100_000  # ended at the action that went past it
        ends.append(list(st.history))
    assert ends[0] == ends[1] and 5 < len(ends[0]) < 20


def test_an_action_past_the_budget_ends_the_game_in_its_midst(game):
    """One action may be long (limits.max_work is per action): the budget is looked at within it too."""
    g = busy_game(game, "      let n = count([a for a in range(3000) for b in range(3000) if a > b])")
    st = g.new_initial_state(players=2, seed=0, budget=GameBudget(work=2_500_000))
    started = time.process_time()
    st.apply_option(0)
    assert time.process_time() - started < 1  # 9,000,000 items would take several seconds
    assert st.is_terminal() and st.end_reason["spent"] == "work" and st.unfinished


def test_a_game_past_its_seconds_ends_unfinished(game):
    g = busy_game(game)
    st = g.new_initial_state(players=2, seed=0, budget=GameBudget(seconds=0.3))
    started = time.monotonic()
    play_out(st)
    assert time.monotonic() - started < 5
    assert st.end_reason == {"kind": "budget", "spent": "seconds", "limit": 0.3} and st.unfinished


def test_a_copy_spends_on_from_what_the_original_had_spent(game):
    g = busy_game(game)
    st = g.new_initial_state(players=2, seed=0, budget=GameBudget(work=1_000_000))
    st.apply_option(0)
    copy = st.copy()
    assert copy.spent == st.spent and copy.budget is st.budget
    copy.apply_option(0)
    assert copy.spent[0] > st.spent[0]  # its own account: the original's is unchanged
    play_out(st)
    play_out(copy)
    assert st.history == copy.history[:len(st.history)] and len(copy.history) == len(st.history)


def test_the_budget_is_a_number_of_items_and_seconds():
    for bad in [dict(work=0), dict(work=1.5), dict(work=True), dict(seconds=0), dict(seconds=-1), dict(seconds="1")]:
        with pytest.raises(ValueError):
            GameBudget(**bad)


def test_simulate_takes_the_budget_and_says_which_bound_stopped_a_game(game, capsys):
    busy_game(game)
    run = leges(capsys, "simulate", "game", "-g", "2", "-j", "1", "--game-work", "1000000")
    assert run.status == 0, run.err
    assert "(unfinished: the game's budget spent (--game-work 1000000))" in run.out
    assert "unfinished (turn, decision or budget limit): 2" in run.out
    expect(leges(capsys, "simulate", "game", "-g", "1", "--game-seconds", "0"), "--game-seconds", "above 0")


def test_simulate_plays_within_the_default_budget_unless_told():
    from leges.cli import parser
    from leges.cli.simulate import budget_of
    parse = parser().parse_args
    assert budget_of(parse(["simulate", "game"])) == GameBudget() == GameBudget(DEFAULT_GAME_WORK, DEFAULT_GAME_SECONDS)
    assert budget_of(parse(["compare", "game", "--game-work", "5000", "--game-seconds", "2"])) == GameBudget(5000, 2.0)


@pytest.mark.parametrize("name, players", [("attika", 4), ("pompeii", 4), ("alexander", 5), ("tictactoe", 2)])
def test_bundled_games_are_far_from_the_default_budget(name, players):
    from helpers import ruleset_dir
    st = leges_api.load(str(ruleset_dir(name))).new_initial_state(players=players, seed=3)
    play_out(st)
    assert not st.unfinished and st.spent[0] < DEFAULT_GAME_WORK / 100 and st.spent[1] < DEFAULT_GAME_SECONDS / 20
