"""The reference build: every bundled game, and each of its variants, played by plain evaluation
(`leges.load(..., optimise=False)`: no memoised function, nothing hoisted or inlined) and by the
optimised build, from the same seeds with the same random choices, gives the same game — the same
legal actions at every decision, the same log, the same final state and result.

Every optimisation of the engine lands only with this green. By default one game per player
count of each game, and one per variant at one player count; LEGES_REFERENCE_GAMES=N plays N of
each, at every player count (the speed issue asks for 1,000 a game).
"""
from __future__ import annotations

import os
import random

import pytest

import leges
from helpers import RULESETS, ruleset_dir

GAMES = int(os.environ.get("LEGES_REFERENCE_GAMES", "1"))
CASES = [(game, variant) for game in ("tictactoe", "pompeii", "alexander", "attika")
         for variant in [None] + sorted(p.stem for p in (RULESETS / game / "variants").glob("*.yaml"))]


def play(game, players: int, seed: int) -> tuple[list, str, list]:
    """What a seeded random game shows at every decision, its final state, and its returns."""
    st = game.new_initial_state(players=players, seed=seed)
    rng = random.Random(seed * 7919 + players)
    shown = []
    while not st.is_terminal():
        actions = [a.text if hasattr(a, "text") else str(a) for a in st.legal_actions()]
        shown.append((st.current_player(), actions, len(st.log)))
        st.apply_action(st.legal_actions()[rng.randrange(len(actions))])
    return shown, st.to_json(), list(st.returns())


@pytest.mark.parametrize("name, variant", CASES, ids=[f"{g}+{v}" if v else g for g, v in CASES])
def test_the_optimised_build_plays_the_reference_builds_games(name, variant):
    variants = [variant] if variant else []
    fast = leges.load(str(ruleset_dir(name)), variants=variants)
    plain = leges.load(str(ruleset_dir(name)), variants=variants, optimise=False)
    assert fast.optimised and not plain.optimised
    assert fast.compiler.memo.keys and not plain.compiler.memo.keys or name == "tictactoe"  # (nothing to memoise there)
    counts = range(fast.min_players, fast.max_players + 1)
    if variant and GAMES == 1:
        counts = [counts[len(variant) % len(counts)]]
    for players in counts:
        for seed in range(GAMES):
            a, b = play(fast, players, seed), play(plain, players, seed)
            for step, (x, y) in enumerate(zip(a[0], b[0])):
                assert x == y, f"{players} players, seed {seed}: the builds part at decision {step}"
            assert a == b, f"{players} players, seed {seed}"
