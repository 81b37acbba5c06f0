"""Choices the map relates to spaces (render/board_choice.py): what the page clicks for them.

Connect Four's `drop column=N` names no space; its parameter is named after the cells' `col`
coordinate, so each drop names its column's cells, and every cell knows its column — a full column's
too, so that a click there can ask why. Nothing is related by coincidence: a number that only happens
to be a property's value (0 and 1 are not false and true), or a parameter not named after the
property, stays a button. The browser's side: tests/test_web_board_choice.py.
"""
from __future__ import annotations

import random

import leges
from helpers import ROOT, ruleset_dir
from leges.render.actions import describe_actions
from leges.render.board_choice import _relation, related_names

CONNECT_FOUR = ROOT / "tests" / "rulesets" / "connect_four"


def test_a_column_number_names_its_cells():
    game = leges.load(str(CONNECT_FOUR))
    st = game.new_initial_state(players=2, seed=0)
    infos = describe_actions(st, 0)
    assert [a.text for a in infos] == [f"drop column={c}" for c in range(7)]
    for c, a in enumerate(infos):
        assert a.spaces == [f"r{r}c{c}" for r in range(6)]
        assert a.board["column"] == {f"r{r}c{k}": str(k) for r in range(6) for k in range(7)}
        assert a.to_json()["board"] == a.board


def test_a_full_column_is_no_target_but_its_cells_still_tell_their_column():
    game = leges.load(str(CONNECT_FOUR))
    st = game.new_initial_state(players=2, seed=0)
    for _ in range(6):  # red and yellow in turn: column 3 full, nobody four in a row
        st.apply_action(next(a for a in st.legal_actions() if a.text == "drop column=3"))
    infos = describe_actions(st, st.current_player())
    assert "drop column=3" not in [a.text for a in infos]
    assert not any(s.endswith("c3") for a in infos for s in a.spaces)
    assert infos[0].board["column"]["r2c3"] == "3"  # what the page asks about when r2c3 is clicked


def test_the_bundled_games_relate_nothing_by_coincidence():
    """Their actions name spaces, or take numbers no property is named after (Alexander's `temples`
    share is 0..n, and the map's `temple` is true or false: 0 is not false)."""
    for name, players in (("tictactoe", 2), ("pompeii", 3), ("alexander", 3)):
        game = leges.load(str(ruleset_dir(name)))
        st = game.new_initial_state(players=players, seed=1)
        rng = random.Random(1)
        for _ in range(60):  # decisions looked at: work counted, not time
            if st.is_terminal():
                break
            seat = st.current_player()
            if seat is not None and seat >= 0:
                assert not any(a.board for a in describe_actions(st, seat)), name
            st.apply_action(rng.choice(st.legal_actions()))


def test_how_a_parameter_is_related():
    pompeii = leges.load(str(ruleset_dir("pompeii"))).board
    assert _relation(pompeii, "anything", ["1", "3a"]) == ("area", "building")  # area ids, whatever the name
    assert _relation(pompeii, "column", [0, 3]) == ("prop", "col")
    assert _relation(pompeii, "row", [0, 3]) == ("prop", "row")
    assert _relation(pompeii, "n", [0, 3]) is None  # named after nothing: a coincidence is not a relation
    assert _relation(pompeii, "column", [0, 99]) is None  # a value no space has
    assert related_names("column", "col") and related_names("row", "row") and not related_names("co", "col")
