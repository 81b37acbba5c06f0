"""The state's fields are declared once (engine/state_data.py): the schema of saved states, copies and
loading follow that table, and a field left out of any of them is found here."""
from __future__ import annotations

import json
import random

import pytest

import leges
from helpers import ROOT, ruleset_dir
from leges.engine import state_data as SD

GAMES = ("tictactoe", "pompeii", "attika", "alexander")


def mid_game(name: str, steps: int = 25):
    game = leges.load(str(ruleset_dir(name)))
    st = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_the_state_schema_describes_exactly_the_saved_keys():
    schema = json.loads((ROOT / "schemas" / "state.schema.json").read_text())
    assert set(schema["properties"]) == set(SD.saved_keys())
    assert set(schema["required"]) == set(SD.required_keys())


@pytest.mark.parametrize("name", GAMES)
def test_a_new_copied_and_loaded_state_sets_every_field(name):
    st = mid_game(name)
    loaded = st.game.state_from_json(st.to_json())
    for state in (st, st.copy(), loaded):
        missing = [f.name for f in SD.STATE_FIELDS if not hasattr(state, f.name)]
        assert not missing, missing
    assert loaded.to_json() == st.to_json() == st.copy().to_json()


@pytest.mark.parametrize("name", GAMES)
def test_a_copy_shares_only_what_is_never_changed_in_place(name):
    st = mid_game(name)
    twin = st.copy()
    for f in SD.STATE_FIELDS:
        mine, its = getattr(st, f.name), getattr(twin, f.name)
        if f.metadata["copy"] == SD.SHARED or not isinstance(mine, (list, dict, set)):
            continue
        assert mine is not its, f"{f.name} is shared by a copy"
        if f.metadata["copy"] in (SD.LISTS_BY_KEY, SD.DICTS_BY_KEY):
            shared = [k for k in mine if mine[k] is its[k]]
            assert not shared, f"{f.name}: {shared[:3]} shared by a copy"


def test_a_state_saved_before_a_key_existed_loads_with_its_default():
    st = mid_game("tictactoe", 2)
    data = json.loads(st.to_json())
    for key in set(SD.saved_keys()) - set(SD.required_keys()):
        data.pop(key)
    loaded = st.game.state_from_json(json.dumps(data))
    assert loaded.forced == 0 and loaded.at_once == [] and loaded.dropped == [] and loaded.ending is None


def test_the_generated_copy_assigns_every_field_once():
    text = SD.copy_source()
    for f in SD.STATE_FIELDS:
        assert text.count(f"    s.{f.name} = ") == 1, f.name
