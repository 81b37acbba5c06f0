"""The bundled games' `limits.max_game_length`: OpenSpiel sizes its buffers by it, so it must be a true
upper bound on a history (every decision, single-option ones too, and every chance node, as the
adapter records them) and not a figure that is only "large enough" (issue 38: 100,000 for every game).

Each ruleset derives its figure in a comment above `limits`. Here: the adapter reports it; play never
goes past it — uniform random play, and a lengthening player that keeps a game going as long as it
can (random play ends Alexander's campaigns early and rarely gives up an Attika turn); and it is not
absurdly loose — within ten times the longest game seen. Games are counted in decisions, never timed;
the quick test plays a few, the `slow` one (LEGES_SLOW=1) 25 seeds at every player count.
"""
from __future__ import annotations

import functools
import random
from typing import Callable

import pytest

from leges.adapters import load_game

pyspiel = pytest.importorskip("pyspiel")
import leges.adapters.openspiel  # noqa: E402,F401  (registers the leges_<game> names)

STATED = {"pompeii": 387, "attika": 3197, "alexander": 5440, "tictactoe": 9}

Policy = Callable[[random.Random, list[str]], str]


def uniform(rng: random.Random, options: list[str]) -> str:
    return rng.choice(options)


def lengthening(rng: random.Random, options: list[str]) -> str:
    """Keeps a game going: never passes while something else may be done, takes every cube as an
    army in Alexander's share-out and moves armies one at a time; gives up Attika turns (a pass
    first, so that 600 turns run)."""
    if options[0].startswith(("reveal", "build ", "use_amphora", "amphora_card")) or "pass" in options and \
            any(o.startswith(("reveal", "build ")) for o in options):
        return "pass"  # Attika: the turn given up
    moving = [o for o in options if o != "pass"] or options

    def score(option: str) -> tuple:
        if option.startswith("share "):
            return (-int(option.split("armies=")[1].split()[0]), 0)
        if option.startswith(("march ", "enter ")):
            armies = option.split("armies=")[1].split(" from_temples")[0]
            return (armies.count(",") + (int(armies) if armies.isdigit() else 1), 0)
        return (0, 0)
    best = min(score(o) for o in moving)
    return rng.choice([o for o in moving if score(o) == best])


@functools.cache
def loaded(game_id: str):
    """The bundled game, loaded once for the module (every game played starts a new state of it)."""
    return load_game(game_id)


def play(game_id: str, players: int, seed: int, policy: Policy) -> int:
    """One game to its end as the adapter plays it (explicit chance, single-option decisions asked):
    the length of its history."""
    game = loaded(game_id)
    st = game.new_initial_state(players=players, seed=seed, explicit_chance=True, forced_moves=True)
    rng = random.Random(seed)
    while not st.is_terminal():
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            st.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            st.apply_action(policy(rng, [a.text for a in st.legal_actions()]))
    return len(st.history)


def player_counts(game_id: str) -> range:
    game = loaded(game_id)
    return range(game.min_players, game.max_players + 1)


@pytest.mark.parametrize("game_id", sorted(STATED))
def test_the_adapter_reports_the_stated_bound(game_id: str) -> None:
    for players in player_counts(game_id):
        game = pyspiel.load_game(f"leges_{game_id}", {"players": players})
        assert game.max_game_length() == STATED[game_id]


def test_a_variant_that_does_not_restate_the_bound_falls_back_on_the_decision_limit() -> None:
    """Three escape moves make Pompeii longer than its bound: without a restated bound the adapter
    reports the decision limit, never a figure the variant's games may exceed."""
    game = pyspiel.load_game("leges_pompeii", {"variants": "three_moves"})
    assert game.max_game_length() == load_game("pompeii", ("three_moves",)).max_decisions


def check(game_id: str, seeds: int, lengthened: list[int]) -> None:
    """Uniform play from `seeds` seeds at every player count and a lengthening player at the counts
    `lengthened`: none longer than the bound, and the bound within ten times the longest."""
    bound = STATED[game_id]
    longest = 0
    for players in player_counts(game_id):
        for seed in range(seeds):
            length = play(game_id, players, seed, uniform)
            assert length <= bound, f"{game_id} with {players} players, seed {seed}: {length} > {bound}"
            longest = max(longest, length)
    for players in lengthened:
        length = play(game_id, players, 1000 + players, lengthening)
        assert length <= bound, f"{game_id} with {players} players, lengthening: {length} > {bound}"
        longest = max(longest, length)
    assert bound <= 10 * longest, f"{game_id}: bound {bound} is more than ten times the longest game seen ({longest})"


@pytest.mark.parametrize("game_id", ["pompeii", "attika", "alexander", "tictactoe"])
def test_play_stays_within_the_bound_and_the_bound_is_not_absurdly_loose(game_id: str) -> None:
    """A few seconds in all: one seed a player count, the lengthening player with the most players
    (the longest games); the breadth is the slow test below."""
    check(game_id, 1 if game_id != "tictactoe" else 20, [max(player_counts(game_id))])


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["pompeii", "attika", "alexander"])
def test_many_games_stay_within_the_bound(game_id: str) -> None:
    check(game_id, 25, list(player_counts(game_id)))
