"""The leak check (`leges check-leaks`): no bundled game shows a player what it may not see, the
check does find the leaks a ruleset can have (a logged secret, a logged hidden card, a variable
naming one, options that depend on one, a variable set-up computes from one, a logged hidden card
beside a face-up draw), over the whole length of a game, and does not cry wolf when a card seen
for a moment is named afterwards."""
from __future__ import annotations

import itertools
import random
import shutil

import pytest

import leges
from helpers import ROOT
from leges.authoring import leaks
from leges.engine import knowledge
from leges.cli import main
from leges.engine.resample import Pins, resample
from leges.authoring.leaks import SETUP, check_leaks

SAMPLE = ROOT / "docs" / "examples" / "sample"
OPEN_DRAW = ROOT / "tests" / "rulesets" / "open_draw"


@pytest.mark.parametrize("name, players, decisions", [
    ("tictactoe", 2, 20), ("pompeii", 3, 40), ("attika", 2, 25), ("alexander", 3, 40)])
def test_no_bundled_game_leaks(name, players, decisions):
    game = leges.load(str(ROOT / "rulesets" / name))
    report = check_leaks(game, players, games=1, seed=3, max_decisions=decisions)
    assert report.ok, "\n".join(leak.format() for leak in report.leaks)
    assert report.comparisons >= report.decisions * players and report.forward > 0


def test_the_sample_game_does_not_leak():
    report = check_leaks(leges.load(str(SAMPLE)), 3, games=2, max_decisions=60)
    assert report.ok, "\n".join(leak.format() for leak in report.leaks)


def test_a_card_drawn_face_up_and_taken_into_a_hidden_hand_is_no_leak(capsys):
    """The log and a variable name a card every seat saw on the table before it went into a hand."""
    assert main(["check-leaks", str(OPEN_DRAW), "-p", "3", "--games", "30", "--samples", "4"]) == 0, capsys.readouterr().out
    assert "no leak" in capsys.readouterr().out


def test_long_games_are_checked_over_their_whole_length(monkeypatch):
    checked = []
    original = leaks.check_step
    monkeypatch.setattr(leaks, "check_step", lambda step, *args: checked.append(step) or original(step, *args))
    report = check_leaks(leges.load(str(SAMPLE)), 2, games=1, max_decisions=4)
    numbers = sorted({step.number for step in checked if step.action is not None})
    assert checked[0].action is None  # the set-up first
    assert report.played > 10 and report.decisions == 4 and numbers[0] == 0 and numbers[-1] == report.played - 1
    gaps = [b - a for a, b in itertools.pairwise(numbers)]
    assert max(gaps) - min(gaps) <= 1


def test_what_a_step_shows_each_seat_is_traced(sample):
    """Into its view (its own hand, the market), out of it, and `reveal`: not what goes where it cannot see."""
    game = leges.load(sample("      shuffle deck\n", "      shuffle deck\n      reveal first(deck)\n"))
    before = game.new_initial_state(players=2, seed=0, run=False)
    after, events = knowledge.run(before, None)
    x, o = (knowledge.seen(after, events, p) for p in range(2))
    hand_x, hand_o = set(after.zones["hand.x"]), set(after.zones["hand.o"])
    market = {c for i in range(3) for c in after.zones[f"market.{i}"]}
    revealed = after.zones["deck"][0]
    assert hand_x <= x and hand_o <= o and market <= x & o and revealed in x & o
    assert not hand_o & x and not hand_x & o and not set(after.zones["deck"][1:]) & (x | o)


def test_a_world_keeps_what_the_seat_has_seen():
    """The worlds compared keep the components a seat has seen: `fixed` in place, `known` as what they are."""
    st = leges.load(str(SAMPLE)).new_initial_state(players=2, seed=1)
    deck, labels = st.zones["deck"], st.setup.clabel
    fixed, known = deck[-1], deck[0]
    pins = Pins(fixed=frozenset({fixed}), known=frozenset({known}), rng=True)
    worlds = [resample(st, 1, random.Random(i), pins) for i in range(30)]
    assert all(w.zones["deck"][-1] == fixed and w.setup.clabel[fixed] == labels[fixed] for w in worlds)
    assert all(w.setup.clabel[known] == labels[known] for w in worlds)
    assert len({w.zones["deck"].index(known) for w in worlds}) > 1 and all(w.rng == st.rng for w in worlds)
    unpinned = [resample(st, 1, random.Random(i)) for i in range(30)]
    assert len({w.setup.clabel[fixed] for w in unpinned}) > 1 and len({w.setup.clabel[known] for w in unpinned}) > 1


def test_the_command(capsys):
    assert main(["check-leaks", str(ROOT / "rulesets" / "tictactoe"), "-g", "1"]) == 0
    assert "Tic-Tac-Toe, 2 players: 1 games" in capsys.readouterr().out


@pytest.fixture
def sample(tmp_path):
    """A copy of the sample game to make leaky."""
    shutil.copytree(SAMPLE, tmp_path / "sample")

    def edit(old: str, new: str) -> str:
        path = tmp_path / "sample" / "ruleset.yaml"
        text = path.read_text()
        assert text.count(old) == 1, old
        path.write_text(text.replace(old, new))
        return str(tmp_path / "sample")
    return edit


def leaks_of(path: str, players: int = 2, decisions: int = 40, seed: int = 0) -> list:
    """The leaks the check finds in one random game (seed `seed`): each leak below shows in that game
    (the check's games are seeded, so always), and a second game only doubled the test's time."""
    report = check_leaks(leges.load(path), players, games=1, seed=seed, max_decisions=decisions)
    assert not report.ok, "the leak was not found"
    return report.leaks


def test_a_logged_hidden_card_is_found(sample):
    path = sample("        draw 1 from deck to hand(p)\n", "        draw 1 from deck to hand(p)\n"
                                                            "        log text(top(hand(p)))\n")
    leak = leaks_of(path)[0]
    assert leak.part == "log" and leak.after is not None


def test_a_variable_naming_a_hidden_card_is_found(sample):
    path = sample("        draw 1 from deck to hand(p)\n", "        draw 1 from deck to hand(p)\n"
                                                            "        last_played = top(hand(p))\n")
    assert any(leak.part in ("observation", "screen") and "last_played" in leak.real for leak in leaks_of(path))


def test_a_variable_set_up_computes_from_a_hidden_card_is_found(sample):
    path = sample("        draw 1 from deck to market(i)\n", "        draw 1 from deck to market(i)\n"
                                                           "      round = top(deck).number\n")
    leak = leaks_of(path)[0]
    assert leak.after == SETUP and leak.step == 0 and "round" in leak.real


def test_a_logged_hidden_card_beside_a_face_up_draw_is_found(sample):
    """The step also draws a card face up, which every seat may see: that is no reason not to compare."""
    path = sample("      move top(supply(me)) to square\n", "      draw 1 from deck to market(0)\n"
                                                           "      log text(first(deck))\n"
                                                           "      move top(supply(me)) to square\n")
    leak = leaks_of(path)[0]
    assert leak.part == "log" and leak.after.startswith("place ")


def test_options_that_depend_on_a_hidden_card_are_found(sample):
    path = sample("    require: count(market(slot)) > 0\n",
                  "    require: count(market(slot)) > 0 and top(deck).number > 3\n")
    assert any(leak.part in ("observation", "screen") and "swap" in leak.real + leak.other for leak in leaks_of(path))


def test_a_logged_secret_choice_is_found(tmp_path):
    shutil.copytree(ROOT / "rulesets" / "alexander", tmp_path / "rulesets" / "alexander")
    (tmp_path / "maps").mkdir()
    shutil.copy(ROOT / "maps" / "alexander.yaml", tmp_path / "maps")
    rounds = tmp_path / "rulesets" / "alexander" / "rounds.yaml"
    old = "      shares[me] = [order, armies, temples, 15 - order - armies - temples]\n"
    assert rounds.read_text().count(old) == 1
    rounds.write_text(rounds.read_text().replace(old, old + "      log text(order)\n"))
    leak = leaks_of(str(tmp_path / "rulesets" / "alexander"), players=3, decisions=30, seed=1)[0]  # seed 0: at none of the decisions checked
    assert leak.part in ("observation", "screen", "log")


def test_the_command_fails_on_a_leak(sample, capsys):
    path = sample("        draw 1 from deck to hand(p)\n", "        draw 1 from deck to hand(p)\n"
                                                        "        log text(top(hand(p)))\n")
    assert main(["check-leaks", path, "-p", "2", "-g", "2", "--decisions", "30"]) == 1
    captured = capsys.readouterr()
    assert "LEAK" in captured.out and "log shows what" in captured.out and "replay with --seed" in captured.err


# ------------------------------------------------------------------ the information-flow report
def explained(path, capsys, *more: str) -> str:
    assert main(["check-leaks", str(path), "--explain", *more]) == 0
    return capsys.readouterr().out


def test_the_report_lists_what_the_check_trusts_and_what_it_compares(capsys):
    out = explained(SAMPLE, capsys)
    assert "Every seat (x, o, z) is shown" in out
    assert ("sample/ruleset.yaml:235:7  trigger show_sixes: reveal item\n"
            "      trusted: reveals the component drawn to every seat\n") in out
    assert ("procedure refill: draw 1 from deck to hand(p)\n"
            "      trusted: puts components from deck (hidden) where the owner of hand(p) sees them\n") in out
    assert "action place: card: hand(me)\n      trusted: its public text names the card chosen from hand(me)" in out
    assert "last_played = item\n      checked: sets the public variable last_played from the component moved\n" in out
    assert "zone deck (hidden from every seat)" in out and "variable secret (each seat sees its own)" in out
    assert "count(deck)" not in out  # how many a zone holds is public
    assert "place card" not in out and "move top(supply(me)) to square" not in out  # nothing hidden in them


def test_the_report_names_a_variable_computed_from_a_hidden_card(sample, capsys):
    path = sample("        draw 1 from deck to market(i)\n", "        draw 1 from deck to market(i)\n"
                                                           "      round = top(deck).number\n")
    out = explained(path, capsys)
    assert "setup deal: round = top(deck).number\n      checked: sets the public variable round from deck (hidden)" in out


def test_the_report_is_per_seat(sample, capsys):
    path = sample("      shuffle deck\n", "      shuffle deck\n      draw 1 from deck to hand(x)\n")
    out = explained(path, capsys, "-p", "2")
    assert "\nx is shown, by 11 rule statements:" in out and "\no is shown, by 10 rule statements:" in out
    assert out.count("draw 1 from deck to hand(x)") == 1


def test_the_report_of_a_game_without_secrets(capsys):
    assert "Nothing is hidden" in explained(ROOT / "rulesets" / "tictactoe", capsys)
