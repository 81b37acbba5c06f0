"""Boards: straight lines follow the board's declared adjacency."""
from __future__ import annotations

import pytest

from leges.board.board import load_board
from leges.text.yaml_source import load_yaml_text


def board(topology: str, rows: int = 3, cols: int = 3):
    return load_board(load_yaml_text(f"leges_map: 1\nid: b\ntopology: {topology}\ngrid: {{rows: {rows}, cols: {cols}}}\n",
                                      "<map>"))


def test_lines_on_a_grid_run_across_and_down_only():
    lines = board("grid").lines(3)
    assert len(lines) == 6 and ["r0c0", "r1c1", "r2c2"] not in lines and ["r0c2", "r1c1", "r2c0"] not in lines
    assert ["r0c0", "r0c1", "r0c2"] in lines and ["r0c1", "r1c1", "r2c1"] in lines


def test_lines_on_a_grid8_take_the_diagonals_too():
    lines = board("grid8").lines(3)
    assert len(lines) == 8 and ["r0c0", "r1c1", "r2c2"] in lines and ["r0c2", "r1c1", "r2c0"] in lines
    assert len(board("grid8").lines(2)) == 20


@pytest.mark.parametrize("topology", ["grid", "grid8", "hex"])
def test_every_step_of_a_line_is_to_a_neighbour(topology):
    b = board(topology, 4, 5)
    for line in b.lines(3):
        assert all(y in b.neighbors.get(x, ()) for x, y in zip(line, line[1:])), line


def test_tictactoe_counts_a_diagonal_row(tictactoe):
    st = tictactoe.new_initial_state(players=2, seed=0)
    for square in ["r0c0", "r0c1", "r1c1", "r0c2", "r2c2"]:
        st.apply_action(f"place square={square}")
    assert st.is_terminal() and st.scores() == [1, 0]


def test_the_spaces_within_a_radius_are_found_breadth_first():
    """Each space enters the search once: a radius of 24 on Attika's table looks up the neighbours
    of each space at most once (it once let a hex in as often as paths lead to it: minutes and a
    gigabyte). Counted, not timed: the look-ups of the reversed adjacency are the search's work."""
    import leges
    from helpers import ruleset_dir
    board = leges.load(str(ruleset_dir("attika"))).board
    some = next(iter(board.spaces))
    board.within(some, 0)  # the reversed adjacency, worked out once
    looked = []

    class Counting(dict):
        def get(self, key, default=None):
            looked.append(key)
            return super().get(key, default)
    plain = board.__dict__["_reverse"]
    board.__dict__["_reverse"] = Counting(plain)
    board.__dict__.pop("_within", None)  # nothing remembered from another test
    try:
        near = board.within(some, 24)
    finally:
        board.__dict__["_reverse"] = plain
    assert some in near and len(near) <= len(board.spaces)
    assert len(looked) == len(set(looked)) and len(looked) <= len(near)  # each space expanded once at most
    one = board.within(some, 1)
    assert one == {some} | {a for a in board.spaces if some in board.neighbors.get(a, ())}


@pytest.mark.parametrize("topology", ["grid", "grid8", "hex"])
def test_distances_without_allowed_or_target_are_those_of_the_general_search(topology):
    """The usual search (Board._flood) finds what the search with every space allowed finds."""
    import random
    b = board(topology, 7, 9)
    rng = random.Random(topology)
    for _ in range(200):
        sources = rng.sample(b.spaces, rng.randrange(1, 4))
        blocked = set(rng.sample(b.spaces, rng.randrange(0, 25)))
        limit = rng.choice([None, 0, 1, 2, 5])
        assert b.distances(sources, blocked, limit) == b.distances(sources, blocked, limit, allowed=set(b.spaces))
