"""The API for programs driving Leges (issue 12, part 5): forced moves, explicit chance everywhere,
integer action ids, why a game ended, the pending decision as data, saved states recomputed."""
from __future__ import annotations

import json
import random

import pytest

import leges
from leges import CHANCE, IllegalAction, LegesError
from helpers import ROOT


@pytest.fixture(scope="module")
def ttt():
    return leges.load(str(ROOT / "rulesets" / "tictactoe"))


@pytest.fixture(scope="module")
def pompeii():
    return leges.load(str(ROOT / "rulesets" / "pompeii"))


def play(st, seed: int = 0, upto: int | None = None):
    rng = random.Random(seed)
    while not st.is_terminal() and (upto is None or len(st.history) < upto):
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            st.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return st


# ------------------------------------------------------------------ forced moves
def test_a_single_option_is_taken_at_once_unless_forced_moves(ttt):
    moves = ["place square=r0c0", "place square=r0c1", "place square=r0c2", "place square=r1c1",
             "place square=r1c0", "place square=r1c2", "place square=r2c1", "place square=r2c0"]
    quick = ttt.new_initial_state(players=2)
    forced = ttt.new_initial_state(players=2, forced_moves=True)
    for text in moves:
        quick.apply_action(text)
        forced.apply_action(text)
    assert quick.is_terminal() and len(quick.history) == 8  # the last square was taken at once
    assert quick.forced == 1 and forced.forced == 0  # counted: the forced_moves metric
    assert ttt.state_from_json(quick.to_json()).forced == 1 and quick.clone().forced == 1
    assert forced.legal_actions() == [leges.Action(0, "place square=r2c2")]
    assert forced.decision()["options"] == ["place square=r2c2"]
    forced.apply_action("place square=r2c2")
    assert forced.is_terminal() and len(forced.history) == 9 and forced.zones == quick.zones


def test_forced_moves_survive_copies_saves_and_replays(pompeii):
    st = pompeii.new_initial_state(players=3, seed=4, forced_moves=True)
    singles = 0
    rng = random.Random(4)
    while not st.is_terminal():
        actions = st.legal_actions()
        singles += len(actions) == 1
        st.apply_action(rng.choice(actions))
        if len(st.history) == 60:
            saved = pompeii.state_from_json(st.to_json())
            assert saved.forced_moves and saved.copy().forced_moves
            assert saved.legal_actions() == st.legal_actions()
    assert singles > 0
    replayed = pompeii.new_initial_state(players=3, seed=4, forced_moves=True)
    for entry in st.history:
        replayed.apply_action(entry)
    assert replayed.is_terminal() and replayed.zones == st.zones
    assert json.loads(st.to_json())["forced_moves"] is True


# ------------------------------------------------------------------ explicit chance
@pytest.mark.parametrize("name, players", [("pompeii", 3), ("attika", 2), ("alexander", 3)])
def test_explicit_chance_decides_every_random_event(name, players):
    game = leges.load(str(ROOT / "rulesets" / name))
    st = game.new_initial_state(players=players, seed=3, explicit_chance=True)
    generator = st.rng
    chance = 0
    rng = random.Random(3)
    while not st.is_terminal():
        if st.is_chance_node():
            chance += 1
            outcomes = st.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert all(a.player == CHANCE and 0 < p <= 1 for a, p in outcomes)
            assert st.decision()["probabilities"] == [p for _, p in outcomes]
            st.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    assert chance > 0
    assert st.rng == generator  # nothing was drawn by the state's own generator


# ------------------------------------------------------------------ integer action ids
def test_action_ids_are_the_sorted_legal_texts(pompeii):
    st = play(pompeii.new_initial_state(players=3, seed=2), upto=30)
    player = st.current_player()
    texts = sorted(a.text for a in st.legal_actions(player))
    assert [st.action_to_string(player, i) for i in range(len(texts))] == texts
    assert [st.string_to_action(player, t) for t in texts] == list(range(len(texts)))
    with pytest.raises(IllegalAction, match="no action id 999"):
        st.action_to_string(player, 999)
    with pytest.raises(IllegalAction, match="not a legal action"):
        st.string_to_action(player, "fly away")
    other = (player + 1) % 3
    assert st._id_texts(other) == sorted(a.text for a in st.legal_actions(other))


def test_chance_outcomes_have_ids_too(pompeii):
    st = pompeii.new_initial_state(players=2, seed=1, explicit_chance=True)
    assert st.is_chance_node()
    for action, _ in st.chance_outcomes():
        assert st.action_to_string(CHANCE, st.string_to_action(CHANCE, action.text)) == action.text


# ------------------------------------------------------------------ why the game ended
def test_end_reasons(ttt, pompeii):
    st = ttt.new_initial_state(players=2)
    assert st.end_reason is None
    for text in ["place square=r0c0", "place square=r1c0", "place square=r0c1", "place square=r1c1",
                 "place square=r0c2"]:
        st.apply_action(text)
    assert st.end_reason == {"kind": "end_if", "phase": "play"}
    assert ttt.state_from_json(st.to_json()).end_reason == st.end_reason
    assert play(pompeii.new_initial_state(players=3, seed=1)).end_reason == {"kind": "end_if", "phase": "escape"}
    attika = leges.load(str(ROOT / "rulesets" / "attika"))
    ended = play(attika.new_initial_state(players=2, seed=5, explicit_chance=True), seed=1)
    assert ended.end_reason["kind"] in ("end_game", "end_if", "last_phase")
    if ended.end_reason["kind"] == "end_game":
        assert ended.end_reason["rule"].split(":")[0] in ("procedure", "action", "trigger", "phase")
    alexander = leges.load(str(ROOT / "rulesets" / "alexander"))
    assert play(alexander.new_initial_state(players=3, seed=1)).end_reason["kind"] == "last_phase"


def test_the_turn_limit_is_an_end_reason():
    game = leges.load(str(ROOT / "rulesets" / "tictactoe"))
    game.max_turns = 3
    st = play(game.new_initial_state(players=2))
    assert st.unfinished and st.end_reason == {"kind": "max_turns", "turns": 3}


def test_end_reason_of_an_unknown_phase_is_refused(ttt):
    st = play(ttt.new_initial_state(players=2))
    data = json.loads(st.to_json())
    data["end_reason"] = {"kind": "end_if", "phase": "nowhere"}
    with pytest.raises(LegesError, match="no phase 'nowhere'"):
        ttt.state_from_json(json.dumps(data))
    data["end_reason"] = {"kind": "tired"}
    with pytest.raises(LegesError, match="tired"):
        ttt.state_from_json(json.dumps(data))


def test_states_saved_before_these_keys_still_load(ttt):
    data = json.loads(ttt.new_initial_state(players=2).to_json())
    del data["forced_moves"], data["end_reason"]
    st = ttt.state_from_json(json.dumps(data))
    assert not st.forced_moves and st.end_reason is None


# ------------------------------------------------------------------ the decision as data
def test_the_decision_as_data(pompeii):
    st = play(pompeii.new_initial_state(players=3, seed=1), upto=10)
    d = st.decision()
    assert d["kind"] == "act" and d["player"] == st.current_player() and d["seat"] == st.player_name(d["player"])
    assert d["options"] == [a.text for a in st.legal_actions()] and set(d["actions"]) <= set(pompeii.actions)
    assert d["rule"].startswith("phase:")
    json.dumps(d)
    # a `choose` with a name and a label: play until one comes (the relatives' placement, or the piles)
    rng = random.Random(0)
    seen = None
    for seed in range(6):
        st = pompeii.new_initial_state(players=3, seed=seed)
        while not st.is_terminal() and seen is None:
            d = st.decision()
            if d["kind"] == "choose":
                seen = d
            st.apply_action(rng.choice(st.legal_actions()))
        if seen:
            break
    assert seen is not None and seen["name"] and seen["label"]
    assert all(o == "pass" or o.startswith(f"{seen['label']} {seen['name']}=") for o in seen["options"])
    assert play(st).decision() is None


# ------------------------------------------------------------------ saved states: the options are the rules'
def test_an_edited_state_with_empty_options_takes_the_rules_own(ttt):
    st = ttt.new_initial_state(players=2)
    st.apply_action("place square=r0c0")
    data = json.loads(st.to_json())
    # move x's mark from r0c0 to r2c2 by hand, and let the options be recomputed
    data["zones"]["r2c2"], data["zones"]["r0c0"] = data["zones"]["r0c0"], []
    stale = data["pending"]["options"]
    assert "place square=r0c0" not in [o[0] for o in stale]
    with pytest.raises(LegesError, match="is not one the rules give here") as info:
        ttt.state_from_json(json.dumps(data), edited=True)
    assert '"options": []' in str(info.value)
    data["pending"]["options"] = []
    with pytest.raises(LegesError, match="replaying the history from seed 0 gives"):
        ttt.state_from_json(json.dumps(data))  # its history does not lead there
    loaded = ttt.state_from_json(json.dumps(data), edited=True)
    texts = [a.text for a in loaded.legal_actions()]
    assert "place square=r0c0" in texts and "place square=r2c2" not in texts and len(texts) == 8


def test_loaded_options_are_recomputed_not_read(ttt):
    st = ttt.new_initial_state(players=2)
    data = json.loads(st.to_json())
    data["pending"]["options"][0][2] = {"square": "r9c9"}  # a forged parameter behind a true text
    loaded = ttt.state_from_json(json.dumps(data))
    assert loaded.pending.options == st.pending.options
