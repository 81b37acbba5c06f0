"""`state.explain(action)`: why an action is not legal — the condition, its values, the rule's citation."""
from __future__ import annotations

import random

import pytest

import leges
from helpers import ROOT

SAMPLE = ROOT / "docs" / "examples" / "sample"


@pytest.fixture(scope="module")
def sample():
    return leges.load(str(SAMPLE))


@pytest.fixture(scope="module")
def pompeii():
    return leges.load(str(ROOT / "rulesets" / "pompeii"))


def hand(st, seat: str) -> list[str]:
    return [st.setup.clabel[c] for c in st.zones[f"hand.{seat}"]]


def test_a_legal_action_is_legal(sample):
    st = sample.new_initial_state(players=2)
    text = st.legal_actions()[0].text
    e = st.explain(text)
    assert e.legal and e.reason == "legal" and str(e) == f"legal: {text}"


def test_a_value_outside_a_parameters_options(sample):
    st = sample.new_initial_state(players=2)
    card = hand(st, "x")[0]
    e = st.explain(f"place card={card} square=r1c1")  # r1c1 holds a stone: not a free square
    assert not e.legal and e.reason == "domain" and e.rule == "action:place"
    assert "square=r1c1 is not among the options of 'square'" in e.message
    assert "free_squares()" in e.message and "The squares nothing stands on." in e.message  # the function's own words
    assert e.source == {"book": "docs", "section": "Actions"} and str(e).endswith("— docs § Actions")
    e = st.explain("place card=purple9 square=r0c0")
    assert e.reason == "domain" and "card=purple9" in e.message and ("me", "x") in e.values


def test_a_false_require_shows_its_values(sample):
    st = sample.new_initial_state(players=2)
    e = st.explain("o: concede")  # anytime: o may, when far behind
    assert e.reason == "require" and e.player == 1
    assert e.condition == "score[me] + 10 < max(map(players, p => score[p]))"
    values = dict(e.values)
    assert values["score[me] + 10"] == "10" and values["me"] == "o"
    assert "score[me] + 10 = 10" in str(e)


def test_whose_decision_and_what_is_offered(sample):
    st = sample.new_initial_state(players=2)
    card = hand(st, "o")[0]
    e = st.explain(f"o: place card={card} square=r0c0")
    assert e.reason == "not_your_decision" and "it is not o's decision: x chooses an action: place, swap" in e.message
    e = st.explain(f"cash_in card={hand(st, 'x')[0]}")
    assert e.reason == "not_offered" and "'cash_in' is not asked for now" in e.message
    assert e.rule == "phase:play:turn" and "docs § Phases" in str(e)
    e = st.explain("fly away")
    assert e.reason == "no_such_action" and "no action 'fly'" in e.message
    e = st.explain("plase card=x")
    assert "did you mean 'place'" in e.message
    e = st.explain("place")
    assert e.reason == "malformed" and "`place card=... square=...`" in e.message


def test_a_choice_outside_its_options(pompeii):
    st = pompeii.new_initial_state(players=3, seed=1)
    assert st.decision()["kind"] == "choose"
    e = st.explain("take_pile k=9")
    assert e.reason == "domain" and "k=9 is not among the options of 'take_pile'" in e.message
    assert e.rule.startswith("setup:") and e.source and "§" in str(e)


def test_the_words_come_from_the_ruleset(pompeii):
    """A move onto a square out of reach: the function's description and the action's rulebook quote."""
    st = pompeii.new_initial_state(players=3, seed=1)
    rng = random.Random(0)
    while "move_citizen" not in (st.decision() or {}).get("actions", ()):
        st.apply_action(rng.choice(st.legal_actions()))
    legal = [a.text for a in st.legal_actions() if a.text.startswith("move_citizen")]
    start = legal[0].split()[1]
    reachable = {t.split("to=")[1] for t in legal if t.split()[1] == start}
    far = next(s for s in sorted(st.setup.spaces) if s not in reachable and s.startswith("r"))
    e = st.explain(f"move_citizen {start} to={far}")
    decl = pompeii.actions["move_citizen"].decl
    function = pompeii.compiler.symbols.functions["steps_from"]
    assert e.reason == "domain" and f"to={far}" in e.message
    assert " ".join(function.description.split()) in e.message
    assert e.source == decl.source and f"{decl.source['book']} § {decl.source['section']}" in str(e)
    assert "«" in str(e) and str(e).startswith("not legal: ")


def test_explaining_changes_nothing(sample):
    st = sample.new_initial_state(players=2)
    before = st.to_json()
    for text in ["o: concede", "place card=zz square=r0c0", "swap card=zz slot=9", "fly"]:
        st.explain(text)
    assert st.to_json() == before


def test_after_the_end(sample):
    st = sample.new_initial_state(players=2)
    rng = random.Random(1)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.explain("place card=red1 square=r0c0").reason == "game_over"


def test_leges_play_says_why_an_action_typed_is_not_legal(monkeypatch, capsys):
    from leges.cli import main
    answers = iter(["place square=r9c9", "1", "1", "1", "1", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", str(ROOT / "rulesets" / "tictactoe"), "--seed", "1", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    game = leges.load(str(ROOT / "rulesets" / "tictactoe"))
    source = game.actions["place"].decl.source
    assert "not legal: square=r9c9 is not among the options of 'square'" in out
    assert f"{source['book']} § {source['section']}" in out


def test_a_refusal_names_the_decisions_the_engine_took_by_itself():
    """'X is not asked for now' when the cause is that a decision with one option was taken at once."""
    game = leges.load(str(ROOT / "rulesets" / "pompeii"))
    st = game.new_initial_state(players=2, seed=0)
    rng = random.Random(0)
    while not st.at_once:
        st.apply_action(rng.choice(st.legal_actions()))
    other = st.player_name((st.current_player() + 1) % st.n)
    why = str(st.explain(f"{other}: pass"))
    assert "the engine took" in why and st.at_once[0] in why
    again = game.state_from_json(st.to_json())
    assert again.at_once == st.at_once  # saved with the state
    st.apply_action(st.legal_actions()[0])
    assert st.at_once is not again.at_once and (not st.at_once or st.at_once != again.at_once)  # forgotten
