"""The board's searches (Board.distances, groups, within) against plainly written ones.

The board's searches are written for speed (tests in the order that turns most steps down, a group
gone through as it grows, a grid's adjacency taken as its own reverse); option lists are built
from what they give, so they must give the same spaces in the same ORDER (a dict's insertion
order, a group's) as the loops below, on every bundled map and on a one-way graph, whatever the
blocked, allowed and source spaces (sets, lists, tuples, frozensets; names of no space among them).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from leges.board.board import Board, load_board
from leges.text.yaml_source import load_yaml_text

from helpers import ROOT

ONE_WAY = """leges_map: 1
id: one_way
topology: graph
nodes: [a, b, c, d, e, f, g]
edges:
  - {from: a, to: b}
  - {from: b, to: c}
  - {from: c, to: a}
  - {from: c, to: d, two_way: true}
  - {from: e, to: d}
  - {from: e, to: f, two_way: true}
  - {from: f, to: b}
"""

MAPS = sorted(p.stem for p in (ROOT / "maps").glob("*.yaml"))
_boards: dict[str, Board] = {}


def board_of(name: str) -> Board:
    """A bundled map's board (or the one-way graph), built once (boards never change)."""
    if name not in _boards:
        text = ONE_WAY if name == "one_way" else Path(ROOT / "maps" / f"{name}.yaml").read_text()
        _boards[name] = load_board(load_yaml_text(text, f"{name}.yaml"))
    return _boards[name]


# ---------------------------------------------------------------- the plain searches
def plain_distances(b: Board, sources, blocked=(), limit=None, target=None, allowed=None) -> dict:
    dist: dict = {}
    frontier = []
    for s in sources:
        if s not in dist:
            dist[s] = 0
            frontier.append(s)
    if target is not None and target in dist:
        return dist
    d = 0
    while frontier:
        d += 1
        if limit is not None and d > limit:
            break
        reached = []
        for here in frontier:
            for nxt in b.neighbors[here]:
                if nxt not in dist and nxt not in blocked and (allowed is None or nxt in allowed):
                    dist[nxt] = d
                    if nxt == target:
                        return dist
                    reached.append(nxt)
        frontier = reached
    return dist


def plain_groups(b: Board, members) -> list:
    order = {s: i for i, s in enumerate(b.spaces)}
    pool = set(members)
    result = []
    for start in sorted(pool, key=lambda s: order.get(s, 0)):
        if start not in pool:
            continue
        pool.discard(start)
        group, queue = [start], [start]
        while queue:
            here = queue.pop(0)
            for nxt in b.neighbors.get(here, ()):
                if nxt in pool:
                    pool.discard(nxt)
                    group.append(nxt)
                    queue.append(nxt)
        result.append(sorted(group, key=lambda s: order.get(s, 0)))
    return result


def plain_within(b: Board, space, radius: int) -> set:
    return {a for a in b.spaces if plain_distances(b, [a], (), radius, space).get(space) is not None} | {space}


# ---------------------------------------------------------------- what is drawn
SHAPES = [set, list, tuple, frozenset]


@hs.composite
def spaces_of(draw, b: Board, most: int, strangers: bool = True):
    """Some spaces of the board (repeats possible in a list), perhaps a name of no space, in a container."""
    chosen = draw(hs.lists(hs.sampled_from(b.spaces), max_size=most))
    if strangers and draw(hs.booleans()):
        chosen.insert(draw(hs.integers(0, len(chosen))), "no_such_space")
    return draw(hs.sampled_from(SHAPES))(chosen)


@hs.composite
def a_search(draw, name: str):
    b = board_of(name)
    sources = draw(hs.lists(hs.sampled_from(b.spaces), min_size=1, max_size=4))
    blocked = draw(spaces_of(b, len(b.spaces) // 3 if len(b.spaces) < 100 else 400))
    limit = draw(hs.one_of(hs.none(), hs.integers(-1, 12)))
    return b, sources, blocked, limit


SEARCH = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOARDS = MAPS + ["one_way"]


@pytest.mark.parametrize("name", BOARDS)
@SEARCH
@given(data=hs.data())
def test_distances_are_the_plain_search_order_included(name, data):
    b, sources, blocked, limit = data.draw(a_search(name))
    expected = plain_distances(b, sources, blocked, limit)
    found = b.distances(sources, blocked, limit)
    assert list(found.items()) == list(expected.items())


@pytest.mark.parametrize("name", BOARDS)
@SEARCH
@given(data=hs.data())
def test_distances_to_a_target_stop_where_the_plain_search_stops(name, data):
    b, sources, blocked, limit = data.draw(a_search(name))
    target = data.draw(hs.one_of(hs.none(), hs.sampled_from(b.spaces), hs.just("no_such_space")))
    allowed = data.draw(hs.one_of(hs.none(), spaces_of(b, len(b.spaces))))
    expected = plain_distances(b, sources, blocked, limit, target, allowed)
    found = b.distances(sources, blocked, limit, target, allowed)
    assert list(found.items()) == list(expected.items())


@pytest.mark.parametrize("name", BOARDS)
@SEARCH
@given(data=hs.data())
def test_groups_are_the_plain_groups_order_included(name, data):
    b = board_of(name)
    members = data.draw(spaces_of(b, min(len(b.spaces), 60)))
    assert b.groups(members) == plain_groups(b, members)


@pytest.mark.parametrize("name", [n for n in BOARDS if n != "attika"])  # plain_within is a search from every space
@SEARCH
@given(data=hs.data())
def test_within_is_every_space_that_far_before(name, data):
    b = board_of(name)
    space = data.draw(hs.sampled_from(b.spaces))
    radius = data.draw(hs.integers(-1, 8))
    assert b.within(space, radius) == plain_within(b, space, radius)


def test_within_on_the_largest_board_is_the_plain_search_backwards():
    """Attika's table (every step can be taken back: the adjacency is its own reverse)."""
    b = board_of("attika")
    for space in b.spaces[::97]:
        for radius in (0, 1, 3):
            found = b.within(space, radius)
            assert found == set(plain_distances(b, [space], (), radius)), (space, radius)


@pytest.mark.parametrize("name", MAPS)
def test_a_grid_or_hex_board_can_take_every_step_back(name):
    """What lets `within` use a grid's or a hex board's adjacency as its reverse."""
    b = board_of(name)
    if b.topology in ("grid", "grid8", "hex"):
        assert all(a in b.neighbors[n] for a, outs in b.neighbors.items() for n in outs)


def test_a_one_way_board_is_searched_backwards_along_its_edges():
    b = board_of("one_way")
    assert b.within("b", 1) == {"b", "a", "f"} and b.within("d", 1) == {"d", "c", "e"}
    assert b.within("e", 3) == {"e", "f"} and b.within("no_such_space", 2) == {"no_such_space"}


def test_a_source_of_no_space_fails_as_it_did():
    """neighbors[s] of a name of no space: a KeyError once the search looks at its neighbours."""
    b = board_of("tictactoe")
    assert b.distances(["nowhere"], (), 0) == {"nowhere": 0}
    with pytest.raises(KeyError):
        b.distances(["nowhere"])
    with pytest.raises(KeyError):
        b.distances(["nowhere"], target="r0c0")
