"""Memoised functions never give a stale value: what a function reads decides when its cache is kept.

A function that only looks at which spaces hold components of a type keeps its values while such
components move between zones off the board (`T@spaces`); any move touching a space clears them.
"""
from __future__ import annotations

import pytest

import leges
from helpers import ROOT, play_random


@pytest.fixture(scope="module")
def sample():
    return leges.load(str(ROOT / "docs" / "examples" / "sample"))


def _versions(st, ctype):
    return st.tversion.get(ctype, 0), st.tversion.get(f"{ctype}@spaces", 0)


def test_a_move_off_the_board_changes_only_the_type_version(sample):
    st = sample.new_initial_state(players=2, seed=0)
    mark = st.zones["supply.x"][-1]
    before = _versions(st, "mark")
    st.place(mark, "pouch.x", None)
    after = _versions(st, "mark")
    assert after[0] == before[0] + 1 and after[1] == before[1]


def test_a_move_onto_or_off_a_space_changes_the_board_version(sample):
    st = sample.new_initial_state(players=2, seed=0)
    mark = st.zones["supply.x"][-1]
    before = _versions(st, "mark")
    st.place(mark, "r0c0", None)
    onto = _versions(st, "mark")
    st.place(mark, "supply.x", None)
    off = _versions(st, "mark")
    assert onto == (before[0] + 1, before[1] + 1) and off == (onto[0] + 1, onto[1] + 1)


def test_reading_where_a_type_stands_on_the_board_depends_on_the_board_version():
    attika = leges.load(str(ROOT / "rulesets" / "attika"))
    deps = {name.split("_", 1)[1]: d for name, d in attika.compiler.function_deps.items()}
    assert deps["my_spaces"] == {"building@spaces"}  # b.space of the player's buildings
    assert "building@spaces" in deps["free_hex"]  # a typed read of a hex's contents


def _stale_values(game, st) -> list[str]:
    """Every value the state's caches would serve now, compared with the function computed afresh."""
    fresh = game.state_from_json(st.to_json())
    wrong = []
    for fname, (versions, values) in st.tcache.items():
        deps = game.compiler.function_deps[fname]
        if versions != tuple(st.tversion.get(t, 0) for t in sorted(deps)):
            continue  # not served: the next call recomputes
        body = game.compiler.namespace[f"{fname}_body"]
        for (me, *args), value in values.items():
            if body(fresh, me, *args) != value:
                wrong.append(f"{fname}{tuple(args)}")
    return wrong


@pytest.mark.parametrize("ruleset, players, seed", [("attika", 2, 1), ("alexander", 3, 2), ("pompeii", 3, 3)])
def test_cached_values_equal_freshly_computed_ones(ruleset, players, seed):
    """After every action of a random game, each value a function's cache would give equals the
    function computed on a copy of the state without caches."""
    game = leges.load(str(ROOT / "rulesets" / ruleset))
    checked = 0

    def no_stale_value(st):
        nonlocal checked
        assert _stale_values(game, st) == []
        checked += 1
        return checked >= 150

    play_random(game, players, seed=seed, until=no_stale_value)
    assert checked >= 60
