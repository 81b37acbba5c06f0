"""`ask_alone: true`: an action asked even as a decision's only option, never taken at once.

A lone option is taken at once (design.md, *Running*), and everybody sees which: when it stands
alone because another action's legality read hidden cards (a building the hand cannot pay), taking
it at once tells the other seats so. tests/rulesets/ask_alone: buying the revealed card needs a
card of its colour in the hidden hand; `keep` is asked even alone."""
from __future__ import annotations

import shutil

from helpers import ROOT, texts

import leges
from leges.authoring.leaks import check_leaks

ASK_ALONE = ROOT / "tests" / "rulesets" / "ask_alone"


def without_the_key(tmp_path):
    folder = tmp_path / "taken_at_once"
    shutil.copytree(ASK_ALONE, folder)
    path = folder / "ruleset.yaml"
    text = path.read_text()
    assert "    ask_alone: true\n" in text
    path.write_text(text.replace("    ask_alone: true\n", ""))
    return leges.load(str(folder))


def lone_keeps(game, seeds=range(6)) -> tuple[int, int]:
    """(decisions whose only option was keep, asked; keeps the engine took by itself) along random games."""
    import random
    asked = taken = 0
    for seed in seeds:
        st = game.new_initial_state(players=2, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            options = texts(st)
            asked += options == ["keep"]
            st.apply_action(options[rng.randrange(len(options))])
        taken += st.forced  # the only decision is `act buy, keep`
    return asked, taken


def test_a_lone_option_of_an_ask_alone_action_is_asked(tmp_path):
    asked, taken = lone_keeps(leges.load(str(ASK_ALONE)))
    assert asked > 0 and taken == 0
    asked, taken = lone_keeps(without_the_key(tmp_path))
    assert asked == 0 and taken > 0


def test_ask_alone_closes_the_forced_move_leak_check_leaks_finds(tmp_path):
    report = check_leaks(without_the_key(tmp_path), 2, games=4, max_decisions=None, explanations=None)
    assert [leak.part for leak in report.leaks][:1] == ["forced move"] and "ask_alone: true" in report.leaks[0].format()
    report = check_leaks(leges.load(str(ASK_ALONE)), 2, games=4, max_decisions=None, explanations=None)
    assert report.ok, "\n".join(leak.format() for leak in report.leaks)


def test_attika_asks_to_keep_a_building_the_hand_cannot_pay():
    """`leges check-leaks rulesets/attika -p 2` found it (seed 0, decision 6: athens kept a building at
    once, so corinth learned athens' hand could not pay); asked alone now, the check finds nothing
    (2, 3 and 4 players: the closing note's runs). Here: along random games, keeping is asked alone."""
    import random
    game = leges.load(str(ROOT / "rulesets" / "attika"))
    assert game.ask_alone == {"keep_revealed"}
    alone = 0
    for seed in range(2):
        st = game.new_initial_state(players=2, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and len(st.history) < 150:
            options = texts(st)
            alone += options == ["keep_revealed"]
            st.apply_action(options[rng.randrange(len(options))])
            assert not any(line.endswith(": keep_revealed") for line in st.at_once)
    assert alone > 0
