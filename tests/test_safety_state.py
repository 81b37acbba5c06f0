"""`Game.state_from_json` trusts nothing: each tampered state is a located error, never a crash,
and a forged pending option never becomes legal."""
from __future__ import annotations

import json

import pytest

import leges
from helpers import ROOT, play_random
from leges.text.errors import LegesError


@pytest.fixture(scope="module")
def ttt():
    return leges.load(str(ROOT / "rulesets" / "tictactoe"))


@pytest.fixture
def saved(ttt):
    """A Tic-Tac-Toe state after three moves (x on r0c0 first), as JSON data to tamper with."""
    st = ttt.new_initial_state(players=2, seed=0)
    for text in ("place square=r0c0", "place square=r1c1", "place square=r2c2"):
        st.apply_action(text)
    return json.loads(json.dumps(st.to_dict(), indent=1))


def load(game, data, text: str | None = None):
    text = text if text is not None else json.dumps(data, indent=1)
    return game.state_from_json(text, "s.json")


def problem(game, data, *words: str, text: str | None = None) -> str:
    """The load fails; the first diagnostic has `words` and a line and column in s.json."""
    text = text if text is not None else json.dumps(data, indent=1)
    with pytest.raises(LegesError) as info:
        load(game, data, text)
    messages = [d.format() for d in info.value.diagnostics]
    found = [m for m in messages if all(w in m for w in words)]
    assert found, "\n".join(messages)
    d = info.value.diagnostics[messages.index(found[0])]
    assert d.position.file == "s.json" and d.position.line >= 1 and d.position.col >= 1, found[0]
    return found[0]


def line_of(data, needle: str) -> int:
    lines = json.dumps(data, indent=1).split("\n")
    return next(i for i, t in enumerate(lines, 1) if needle in t)


def test_a_saved_state_round_trips(ttt, saved):
    assert load(ttt, saved).to_dict() == saved


def test_every_bundled_game_round_trips_mid_game_and_at_the_end():
    for name, n in [("pompeii", 3), ("attika", 2), ("alexander", 3)]:
        game = leges.load(str(ROOT / "rulesets" / name))
        for until in (lambda s: len(s.history) >= 25, None):
            st = play_random(game, n, 1, until=until)
            assert game.state_from_json(st.to_json()).to_json() == st.to_json()


def test_a_duplicated_component(ttt, saved):
    saved["zones"]["r2c0"] = [saved["zones"]["r0c0"][0]]
    message = problem(ttt, saved, "is in two places")
    assert f"s.json:{line_of(saved, chr(34) + 'r2c0' + chr(34)) + 1}:" in message


def test_a_negative_or_unknown_component(ttt, saved):
    saved["zones"]["r2c0"] = [-1]
    problem(ttt, saved, "minimum")
    saved["zones"]["r2c0"] = [99]
    problem(ttt, saved, "no component 99")


def test_a_component_nowhere(ttt, saved):
    saved["zones"]["r0c0"] = []
    problem(ttt, saved, "components are nowhere")


def test_an_unknown_zone(ttt, saved):
    saved["zones"]["attic"] = []
    problem(ttt, saved, "no zone 'attic'")


def test_a_player_out_of_range(ttt, saved):
    saved["turn_player"] = 99
    problem(ttt, saved, "99 is more than the maximum 15")
    saved["turn_player"] = 7
    problem(ttt, saved, "player 7 in a game of 2")


def test_a_variable_of_the_wrong_type(ttt, saved):
    saved["vars"]["winner"] = "banana"
    message = problem(ttt, saved, "'winner' is declared player", "banana")
    assert f"s.json:{line_of(saved, 'banana')}:" in message


def test_a_forged_pending_option_never_becomes_legal(ttt, saved):
    taken = saved["pending"]["options"][0][:]
    taken[0] = "place square=r0c0"  # already holds x's mark
    taken[2] = {"square": "r0c0"}
    saved["pending"]["options"].append(taken)
    problem(ttt, saved, "is not one the rules give here")


def test_a_forged_option_parameter_is_replaced_by_the_rules_own(ttt, saved):
    option = saved["pending"]["options"][0]
    option[2] = {"square": "r0c0"}  # the text names an empty square, the parameter a taken one
    st = load(ttt, saved)
    st.apply_action(option[0])
    assert st.zones[option[0].split("=")[1]] and len(st.zones["r0c0"]) == 1


def test_a_state_of_another_game(ttt, saved):
    pompeii = leges.load(str(ROOT / "rulesets" / "pompeii"))
    message = problem(pompeii, saved, "this state is of 'tictactoe', not of 'pompeii'")
    assert f"s.json:{line_of(saved, chr(34) + 'ruleset' + chr(34))}:" in message


def test_another_version_or_other_variants(ttt, saved):
    saved["version"] = "0.1"
    problem(ttt, saved, "version 0.1")
    saved["version"] = ttt.version
    saved["variants"] = ["mayfair"]
    problem(ttt, saved, "variants [mayfair]")


@pytest.mark.parametrize("key", ["zones", "pending", "frames", "history", "rng", "players"])
def test_a_missing_key_is_located_not_a_key_error(ttt, saved, key):
    del saved[key]
    problem(ttt, saved, f"missing required key '{key}'")


def test_an_unknown_rule_or_instruction(ttt, saved):
    saved["frames"][-1][0] = "action:nothing"
    problem(ttt, saved, "no rule 'action:nothing'")
    saved["frames"][-1][0] = "phase:play:turn"
    saved["frames"][-1][1] = 999
    problem(ttt, saved, "instructions, not 1000")


def test_a_pending_decision_where_the_rules_ask_none(ttt, saved):
    saved["pending"] = None
    problem(ttt, saved, "neither over nor waiting")


def test_a_finished_game_with_a_decision(ttt, saved):
    saved["terminal"] = True
    problem(ttt, saved, "over exactly when its flow is 'over'")


@pytest.mark.parametrize("text, words", [
    ("", "not a JSON saved state"),
    ("[1, 2]", "a saved state is a JSON object"),
    ("[" * 100_000, "nested too deeply"),
    ('{"players": ' + "9" * 5000 + "}", "not a JSON saved state"),
    ("null", "a saved state is a JSON object"),
])
def test_text_that_is_no_state(ttt, text, words):
    problem(ttt, None, words, text=text)


def test_invariants_are_run():
    pompeii = leges.load(str(ROOT / "rulesets" / "pompeii"))
    st = play_random(pompeii, 3, 2, until=lambda s: len(s.history) >= 30)
    data = st.to_dict()
    citizen = data["zones"]["supply.red"].pop()
    data["zones"]["discard"].append(citizen)  # a citizen among the cards: each component is still once
    problem(pompeii, data, "invariant 'citizens_accounted_for' does not hold")
