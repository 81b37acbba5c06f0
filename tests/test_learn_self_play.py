"""Self-play learning (agents/self_play.py, `leges learn --rounds`): on the auction test game
(tests/rulesets/auction: lots numbered 1–8 by their `value`, a bid pledged in the per-player
variable `bid` and paid from `money` only when everybody has bid), the heuristic learned from
the games of its own greedy players sees a lot's number and does not value a pledged coin above a
kept one; and a round is kept only when its players beat the ones before it."""
from __future__ import annotations

import leges
from helpers import ROOT
from leges.agents.features import candidates, numeric_properties
from leges.agents.learn import Learned
from leges.agents.self_play import self_play
from leges.cli import main

AUCTION = ROOT / "tests" / "rulesets" / "auction"
LOT_NUMBERS = 'sum([c.value for c in won(p) if c.type == "lot"])'


def weights(learned: Learned) -> dict[str, int]:
    return dict(zip(learned.features, learned.weights))


def test_the_declarations_suggest_the_sum_of_a_numeric_property_per_zone():
    game = leges.load(str(AUCTION))
    assert numeric_properties(game.ruleset.components) == {"lot": ["value"]}
    found = candidates(game)
    assert LOT_NUMBERS in found and "money[p]" in found and "bid[p]" in found


def test_self_play_weighs_a_lot_s_number_and_a_coin_kept_at_least_as_a_coin_bid():
    game = leges.load(str(AUCTION))
    played = self_play(game, [2], games=30, seed=1, rounds=1, match_games=20, self_play_games=30)
    assert played.games_played == 30 + 30 + 20  # counted in games: random, self-play, the match
    assert played.rounds[1].kept == (played.rounds[1].share > 0.5)  # kept only if it beat round 0's players
    first = played.rounds[1].learned  # what the greedy players' own games teach
    assert first.source.startswith("self-play")
    w = weights(first)
    assert w[LOT_NUMBERS] > 0  # the best lot weighs more than the worst
    assert w.get("money[p]", 0) >= w.get("bid[p]", 0)  # a coin kept at least as much as a coin bid
    assert first.accuracy > first.chance
    assert played.learned is (first if played.rounds[1].kept else played.rounds[0].learned)


def upside_down(learned_from_random_games: bool):
    """A fitter that turns the heuristic it fits upside down (money and lots worth nothing, bidding
    all) for the round learned from random games, or for every later one."""
    from leges.agents.learn import fit

    def fitter(features, positions, games, source):
        learned = fit(features, positions, games, source)
        if (source == "random games") != learned_from_random_games:
            return learned
        return Learned(learned.features, [-w for w in learned.weights], learned.games, learned.positions,
                       learned.accuracy, learned.chance, learned.strength, source)
    return fitter


def test_a_round_that_plays_better_is_kept():
    """Round 0's heuristic upside down makes players that lose to round 1's, fitted on their own
    games as it is: round 1 is kept."""
    game = leges.load(str(AUCTION))
    played = self_play(game, [2], games=20, seed=0, rounds=1, match_games=10, self_play_games=10,
                       fitter=upside_down(learned_from_random_games=True))
    assert [r.kept for r in played.rounds] == [True, True] and played.rounds[1].share > 0.5
    assert played.learned is played.rounds[1].learned


def test_a_round_that_plays_worse_is_not_kept():
    """A fit upside down after round 0 makes players that lose the match: the round is dropped and
    learning stops, with round 0's heuristic."""
    game = leges.load(str(AUCTION))
    played = self_play(game, [2], games=20, seed=0, rounds=3, match_games=10, self_play_games=10,
                       fitter=upside_down(learned_from_random_games=False))
    assert [r.kept for r in played.rounds] == [True, False]  # stopped at the first round not better
    assert played.rounds[1].share < 0.5
    assert played.learned is played.rounds[0].learned
    assert played.games_played == 20 + 10 + 10


def test_leges_learn_plays_rounds_and_writes_a_readable_heuristic(tmp_path, capsys):
    out = tmp_path / "learned.yaml"
    assert main(["learn", str(AUCTION), "-p", "2", "-g", "30", "-s", "1", "--rounds", "1", "--self-play-games",
                 "30", "--match-games", "20", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "round 1: greedy on the new heuristic against the one before scored" in err
    text = out.read_text()
    assert "heuristics:" in text and LOT_NUMBERS in text and "money[p]" in text
    assert all(len(line) <= 110 for line in text.splitlines())
