"""`leges eval`: expressions tried against a fresh game, a saved state or a scenario's start; the prompt."""
from __future__ import annotations

import random

import pytest

import leges
from helpers import ROOT
from leges.cli import main

SAMPLE = str(ROOT / "docs" / "examples" / "sample")
TICTACTOE = str(ROOT / "rulesets" / "tictactoe")


def run(argv, capsys) -> tuple[int, str, str]:
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_value(capsys):
    assert run(["eval", SAMPLE, "count(hand(x)) + 1"], capsys)[:2] == (0, "4\n")
    status, out, _ = run(["eval", SAMPLE, "hand(me)"], capsys)
    game = leges.load(SAMPLE)
    st = game.new_initial_state(players=2)
    labels = ",".join(st.setup.clabel[c] for c in st.zones["hand.x"])
    assert status == 0 and out == f"hand.x [{labels}]\n"


def test_the_expression_may_follow_the_options(capsys):
    assert run(["eval", SAMPLE, "--seed", "1", "count(hand(x)) + 1"], capsys)[:2] == (0, "4\n")
    assert run(["eval", SAMPLE, "--seed", "1", "1", "count(deck)"], capsys)[:2] == (0, "1 = 1\ncount(deck) = 9\n")


def test_an_unknown_option_is_told_with_the_commands_own_usage(capsys):
    with pytest.raises(SystemExit):
        main(["eval", SAMPLE, "--bogus", "1"])
    assert capsys.readouterr().err.startswith("usage: leges eval")


def test_a_false_condition_shows_its_parts(capsys):
    status, out, _ = run(["eval", SAMPLE, "count(hand(x)) > 5 and count(deck) == 9"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "false" and "  count(hand(x)) = 3" in lines and "  count(hand(x)) > 5 = false" in lines


def test_errors_are_located_never_a_traceback(capsys):
    status, _, err = run(["eval", SAMPLE, "count(hnd(x))"], capsys)
    assert status == 2 and "<expression>:1:7: error: unknown function 'hnd'" in err and "did you mean 'hand'" in err
    status, _, err = run(["eval", SAMPLE, "count(hand(x)"], capsys)
    assert status == 2 and err.startswith("<expression>:1:") and "Traceback" not in err
    status, _, err = run(["eval", SAMPLE, "1 / (count(deck) - 9)"], capsys)
    assert status == 2 and "could not be evaluated: division by zero" in err


def test_against_a_saved_state(tmp_path, capsys):
    game = leges.load(TICTACTOE)
    st = game.new_initial_state(players=2)
    st.apply_action("place square=r1c1")
    path = tmp_path / "s.json"
    path.write_text(st.to_json())
    assert run(["eval", TICTACTOE, "count(r1c1) == 1 and me == o", "--state", str(path)], capsys)[:2] == (0, "true\n")
    path.write_text(st.to_json().replace('"turn_count"', '"turn_count_"'))
    status, _, err = run(["eval", TICTACTOE, "true", "--state", str(path)], capsys)
    assert status == 2 and "s.json:" in err


def test_against_a_scenarios_start(capsys):
    pompeii = str(ROOT / "rulesets" / "pompeii")
    scenario = sorted((ROOT / "rulesets" / "pompeii" / "scenarios").glob("*.yaml"))[0]
    status, out, err = run(["eval", pompeii, "phase", "--scenario", str(scenario)], capsys)
    assert status == 0 and out.strip() in leges.load(pompeii).phases, err
    status, _, err = run(["eval", pompeii, "1", "--scenario", str(scenario), "--state", "x.json"], capsys)
    assert status == 2 and "not both" in err


def test_the_prompt(monkeypatch, capsys):
    game = leges.load(SAMPLE)
    first = game.new_initial_state(players=2).legal_actions()[0].text
    answers = iter(["count(deck)", "", ":legal", f":do {first}", "me", ":why place card=zz square=r0c0",
                    "foo(", ":nonsense", ":help", ":state", ":quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    status, out, err = run(["eval", SAMPLE], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Sample game of the language reference, 2 players: phase play, x to decide")
    assert "9" in lines and f"    1. {first}" in lines and "o" in lines
    assert any(line.startswith("  not legal: card=zz is not among the options of 'card'") for line in lines)
    assert "<input 6>:1:" in err and "unknown command :nonsense" in out and ":why ACTION" in out


def test_the_prompt_ends_with_the_input(monkeypatch, capsys):
    def no_more(prompt=""):
        raise EOFError
    monkeypatch.setattr("builtins.input", no_more)
    assert run(["eval", TICTACTOE], capsys)[0] == 0


def test_a_finished_game_says_why_it_ended(monkeypatch, capsys):
    from leges.cli.eval import describe
    game = leges.load(TICTACTOE)
    st = game.new_initial_state(players=2)
    rng = random.Random(0)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert describe(st).startswith("the game is over (")
