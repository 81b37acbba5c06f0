"""Tic-Tac-Toe: the rule tests of the tutorial's game (place, the end, the scoring)."""
from __future__ import annotations

import pytest

from helpers import expr, texts


def play(game, squares: list[str]):
    st = game.new_initial_state(players=2, seed=0)
    for square in squares:
        st.apply_action(f"place square={square}")
    return st


def test_place_takes_a_mark_from_the_supply_onto_an_empty_square(tictactoe):
    st = tictactoe.new_initial_state(players=2, seed=0)
    assert len(texts(st)) == 9 and st.current_player() == 0  # x begins
    st.apply_action("place square=r1c1")
    assert expr(tictactoe, st, "count(supply(x)) == 4 and top(r1c1).owner == x and count(supply(o)) == 5")
    assert "place square=r1c1" not in texts(st) and len(texts(st)) == 8 and st.current_player() == 1


@pytest.mark.parametrize("squares, winner", [
    (["r0c0", "r1c0", "r0c1", "r1c1", "r0c2"], 0),  # a row
    (["r0c0", "r0c1", "r1c0", "r1c1", "r2c2", "r2c1"], 1),  # a column, o
    (["r0c2", "r0c0", "r1c1", "r0c1", "r2c0"], 0),  # a diagonal
])
def test_three_in_a_row_wins_at_once(tictactoe, squares, winner):
    st = play(tictactoe, squares[:-1])
    assert not st.is_terminal()  # two in a row do not win
    st.apply_action(f"place square={squares[-1]}")
    assert st.is_terminal() and not st.unfinished
    assert st.scores() == [1 if p == winner else 0 for p in range(2)]


def test_a_full_board_without_a_row_is_a_draw(tictactoe):
    """The ninth mark goes on the last empty square by itself (a decision with one option is taken at once)."""
    st = play(tictactoe, ["r0c0", "r0c1", "r0c2", "r1c1", "r1c0", "r1c2", "r2c1", "r2c0"])
    assert st.is_terminal() and not st.unfinished
    assert expr(tictactoe, st, "winner == none and all(spaces, s => count(s) == 1)")
    assert st.scores() == [0, 0] and st.returns() == [0.0, 0.0]


def test_the_last_mark_filling_the_board_may_win(tictactoe):
    st = play(tictactoe, ["r0c0", "r0c1", "r0c2", "r1c0", "r1c2", "r1c1", "r2c1", "r2c0"])
    assert st.is_terminal() and expr(tictactoe, st, "winner == x and count(r2c2) == 1") and st.scores() == [1, 0]
