"""A new game of a ruleset whose set-up draws nothing at random is a copy of the state at its first
decision (engine/game.py `_started`), not its set-up run again: it must be the very state the set-up
gives for that seed, and a game whose set-up draws must still run it."""
from __future__ import annotations

import random
import textwrap

import pytest

import leges
from leges.engine.budget import GameBudget

GAME = """\
    leges: 1
    id: t
    title: t
    rulebooks: [{id: r, file: r}]
    players: {min: 2, max: 3}
    variables:
      - {id: rolled, type: list of int, initial: []}
      - {id: turns, initial: 0}
    setup:
      - id: start
        source: {book: r, section: s}
        effect: |
          turns = 1
          {draw}
    actions:
      - id: roll
        source: {book: r, section: s}
        params:
          bet: '[1, 2, 3]'
        effect: |
          choose d from [1, 2, 3, 4, 5, 6] at random
          rolled = rolled + [d * bet]
          turns += 1
    phases:
      - id: p
        source: {book: r, section: s}
        first: players[0]
        order: clockwise
        turn: act roll
        end_if: turns > 6
    """


def loaded(tmp_path, draw: str = "", optimise: bool = True):
    folder = tmp_path / ("t" + str(optimise) + str(bool(draw)))
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(textwrap.dedent(GAME).replace("{draw}", draw))
    return leges.load(str(folder), optimise=optimise)


def played(game, seed: int, players: int = 2) -> list[str]:
    st = game.new_initial_state(players=players, seed=seed)
    rng = random.Random(seed)
    while not st.terminal:
        st.apply_option(rng.randrange(len(st.pending)))
    return [st.to_json(), *st.history]


def test_a_game_begun_from_its_first_decision_is_the_one_its_set_up_gives(tmp_path):
    game, reference = loaded(tmp_path), loaded(tmp_path, optimise=False)
    for seed in range(6):
        for players in (2, 3):
            assert played(game, seed, players) == played(reference, seed, players)
    assert game._started_states[(2, False)] is not None  # (and so it was the copy that played)
    assert reference._started_states.get((2, False)) is None


def test_each_seed_draws_its_own_game_after_the_start(tmp_path):
    game = loaded(tmp_path)
    assert len({str(played(game, seed)) for seed in range(8)}) > 1


def test_the_copy_is_no_longer_made_once_the_set_up_draws(tmp_path):
    game = loaded(tmp_path, draw="choose d from [1, 2, 3] at random\n      rolled = [d]")
    firsts = {game.new_initial_state(players=2, seed=seed).vars["rolled"][0] for seed in range(12)}
    assert len(firsts) > 1  # the set-up's draw differs by seed
    assert game._started_states[(2, False)] is None


def test_a_copy_is_its_own_and_leaves_the_next_game_as_it_was(tmp_path):
    game = loaded(tmp_path)
    first = game.new_initial_state(players=2, seed=1)
    before = game.new_initial_state(players=2, seed=1).to_json()
    while not first.terminal:
        first.apply_option(0)
    assert game.new_initial_state(players=2, seed=1).to_json() == before


@pytest.mark.parametrize("budget", [GameBudget(work=1), GameBudget(seconds=1e-9)])
def test_a_budget_the_set_up_would_spend_still_cuts_it_short(tmp_path, budget):
    game = loaded(tmp_path)
    game.new_initial_state(players=2, seed=0)
    assert game.new_initial_state(players=2, seed=0, budget=budget).unfinished


def test_asked_moves_and_explicit_chance_are_set_up_as_asked(tmp_path):
    game = loaded(tmp_path)
    reference = loaded(tmp_path, optimise=False)
    for kwargs in ({"forced_moves": True}, {"explicit_chance": True}):
        assert game.new_initial_state(players=2, seed=3, **kwargs).to_json() == \
            reference.new_initial_state(players=2, seed=3, **kwargs).to_json()
