"""The hand-written Pompeii (benchmarks/reference/pompeii.py) offers what the ruleset offers.

The speed benchmark divides Leges' play-outs per second by the reference's; the ratio means
something only if both play the same game with the same decisions. Here both play in
lock-step (Leges in explicit-chance mode, its chance outcomes fed to the reference) and at
every decision every player's legal action texts and the public state must be equal
(benchmarks/reference/check_pompeii.py). A few games per player count by default, plain and
stressed; set LEGES_REFERENCE_GAMES=1000 for a longer run (or run the script). The
benchmark's other yardsticks, the hand-written Tic-Tac-Toe and OpenSpiel's, are checked at the
end (OpenSpiel's only when installed).
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
        assert max(game.returns()) >= 0


def test_reference_fast_path_plays_the_same_game():
    """legal_count()/apply_index(i) is apply(legal()[i]): the same random draws, the same game."""
    import random

    ref = check.ref
    for players in (2, 3, 4):
        for seed in range(5):
            slow, fast = ref.new_game(players, seed), ref.new_game(players, seed)
            rng_slow, rng_fast = random.Random(seed), random.Random(seed)
            while not slow.terminal:
                texts = slow.legal()
                assert fast.legal_count() == len(texts) and fast.legal() == texts
                slow.apply(rng_slow.choice(texts))
                fast.apply_index(rng_fast.randrange(fast.legal_count()))
            assert fast.terminal and fast.legal_count() == 0
            assert fast.scores() == slow.scores() and fast.volcano == slow.volcano


def test_reference_ends_at_once_when_the_opening_leaves_no_citizen():
    """As the ruleset (scenarios/no_citizen_left_after_opening.yaml): no escape turn, no seventh tile."""
    ref = check.ref
    game = ref.new_game(3, seed=0)
    board = {s: [] for s in ref.SQUARES}
    board["r6c9"] = [0, 1]  # the helmet start square
    game.board = board  # (the reference keeps counts; this puts them from the texts)
    game.bag = [ref.SYMBOL["helmet"]] * 7
    game.erupter = 2
    game.erupt()
    game.run()
    while not game.terminal:
        assert game.phase == "opening"
        game.apply(game.legal()[0])
    assert len(game.bag) == 1 and game.volcano == [1, 1, 0] and game.opening_tiles == 6


def test_reference_tictactoe_offers_the_rulesets_actions(tictactoe):
    """The benchmark's other hand-written game: same decisions, texts and results as the ruleset."""
    import random

    from leges import Action

    spec = importlib.util.spec_from_file_location("reference_tictactoe", ROOT / "benchmarks" / "reference" / "tictactoe.py")
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    decisions = 0
    for seed in range(40):
        rng = random.Random(seed)
        state, game = tictactoe.new_initial_state(players=2, seed=seed), ref.new_game()
        while not state.is_terminal():
            assert game.current_player == state.current_player()
            texts = sorted(a.text for a in state.legal_actions())
            assert sorted(game.legal()) == texts
            text = rng.choice(texts)
            state.apply_action(Action(state.current_player(), text))
            game.apply(text)
            decisions += 1
        assert game.terminal and game.scores() == state.scores()
    assert decisions > 200


def test_openspiel_tictactoe_when_installed():
    """The yardstick the ratio benchmark prefers, when the `bench` extra is installed."""
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("open_spiel.python.games")
    state = pyspiel.load_game("python_tic_tac_toe").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [1.0, -1.0]  # x: squares 0, 2, 4, 6 — the diagonal 2-4-6
