"""Rule-execution coverage: every rule of a bundled game runs somewhere in the test suite.

tests/conftest.py instruments every game built from a bundled ruleset (leges/authoring/rule_coverage.py);
the check below runs after every other test (conftest moves it last) and is judged only when
the whole suite ran — in one process here, under pytest-xdist by the controller on what every
worker ran (conftest.py). A rule that never ran has no test that could fail when it is wrong.
"""
from __future__ import annotations

import pytest

import leges
from conftest import judge_rule_coverage, whole_suite
from helpers import ROOT
from leges.authoring.rule_coverage import Recorder, expected_rules, rule_names


def test_recorder_notes_actions_functions_phases_setup_readings_and_scoring():
    recorder = Recorder()
    game = recorder.instrument(leges.load(str(ROOT / "rulesets" / "tictactoe")))
    st = game.new_initial_state(players=2, seed=0)
    while not st.is_terminal():
        st.apply_option(0)
    st.scores()
    ran = {name for name in recorder.ran if name.startswith("tictactoe:")}
    expected = expected_rules(str(ROOT / "rulesets" / "tictactoe"))
    assert ran == expected, sorted(expected ^ ran)
    assert {"tictactoe:phase:play", "tictactoe:scoring:scoring"} <= ran


def test_a_rule_that_never_runs_is_missing():
    recorder = Recorder()
    game = recorder.instrument(leges.load(str(ROOT / "rulesets" / "pompeii")))
    game.new_initial_state(players=3, seed=0)  # set-up: the dealer, piles; the first choice is pending
    missing = recorder.missing(expected_rules(str(ROOT / "rulesets" / "pompeii")))
    assert "pompeii:setup:dealer" not in missing and "pompeii:setup:seven_piles" not in missing
    assert "pompeii:reading:dealer_seat" not in missing  # cited by the dealer rule, which ran
    assert {"pompeii:action:sacrifice", "pompeii:phase:escape", "pompeii:function:exit_cost",
            "pompeii:reading:escape_moves_mandatory"} <= set(missing)


def test_rules_a_variant_changes_are_told_apart():
    from leges.model.loader import load_declarations
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / "pompeii"), ["russian"])
    names = rule_names(rs)
    assert names[("phase", "escape")] == "pompeii+russian:phase:escape"  # its turn is the variant's
    assert names[("action", "sacrifice")] == "pompeii:action:sacrifice"
    assert names[("reading", "ru_only_jokers")] == "pompeii+russian:reading:ru_only_jokers"
    assert "pompeii+russian:action:move_citizen" in expected_rules(str(ROOT / "rulesets" / "pompeii"))


def test_every_rule_of_the_bundled_games_ran(request):
    """Judged after the whole suite: each action, trigger, function, procedure, phase, set-up rule, scoring and
    cited reading of every bundled game (and of its variants) ran in some test."""
    if hasattr(request.config, "workeroutput"):
        pytest.skip("a worker of pytest-xdist ran some of the tests: the controller judges them all at the session's end")
    if not whole_suite(request.session):
        pytest.skip("rule coverage is judged on a run of the whole suite")
    missing = judge_rule_coverage(request.config)
    assert not missing, "rules that no test ran:\n  " + "\n  ".join(missing)
