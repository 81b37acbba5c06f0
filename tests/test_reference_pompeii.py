"""The hand-written Pompeii (benchmarks/reference/pompeii.py) offers what the ruleset offers.

The speed benchmark divides Leges' play-outs per second by the reference's; the ratio means
something only if both play the same game with the same decisions. Here both play in
lock-step (Leges in explicit-chance mode, its chance outcomes fed to the reference) and at
every decision every player's legal action texts and the public state must be equal
(benchmarks/reference/check_pompeii.py). A few games per player count by default, plain and
stressed; set LEGES_REFERENCE_GAMES=1000 for a longer run (or run the script).
"""
from __future__ import annotations

import importlib.util
import os

import pytest

from helpers import ROOT


def _checker():
    path = ROOT / "benchmarks" / "reference" / "check_pompeii.py"
    spec = importlib.util.spec_from_file_location("check_pompeii", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _checker()
GAMES = int(os.environ.get("LEGES_REFERENCE_GAMES", "4"))  # per player count and style


@pytest.mark.parametrize("stress", [False, True], ids=["random", "stress"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_offers_the_rulesets_actions(pompeii, players, stress):
    decisions = 0
    for seed in range(GAMES):
        decisions += check.compare_game(pompeii, players, seed, stress)
    assert decisions > 50 * GAMES


def test_replayed_chance_must_be_used_up(pompeii):
    """The lock-step itself notices a reference that draws differently (here: no lava draws)."""
    class Broken(check.ref.Game):
        def start_lava_turn(self, p):
            self.turn = p
            self.tile = self.bag.pop()
            self.ask("lava", p)

    original = check.ref.Game
    check.ref.Game = Broken
    try:
        with pytest.raises(check.Mismatch):
            check.compare_game(pompeii, 3, 0)
    finally:
        check.ref.Game = original


def test_reference_plays_alone_to_the_end():
    """Its own random play-outs end, with every citizen saved or in the volcano."""
    ref = check.ref
    for players in (2, 3, 4):
        game = ref.random_playout(players, seed=players)
        assert game.terminal and game.legal() == []
        assert not any(game.board.values())
        placed = sum(game.saved) + sum(game.volcano)
        assert 0 < placed <= ref.CITIZENS[players] * players
        assert sorted(game.returns(), reverse=True)[0] >= 0
