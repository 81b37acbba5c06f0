"""The components on the board, kept by every move (engine/board_index.py), and the comprehensions
that go through them instead of every component of a type (lang/codegen/compile_loops.py, board_items).

The index is derived data: at every step of a game, in a copy that goes its own way, after a JSON
round trip and in a resampled world it must be the one made afresh from the zones. A comprehension
that goes through it must give what the reference build gives (which asks every component) for the
same work, and one whose condition might fail before the board test must not go through it.
"""
from __future__ import annotations

import random
import re

import pytest

import leges
from helpers import expr, ruleset_dir, same_as_the_reference_build
from leges.engine.board_index import board_index
from leges.engine.state import State

GAMES = {"pompeii": 3, "attika": 2}  # (their rules go through the components on the board)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_kept_index_is_the_one_made_afresh_along_random_games(name):
    game = leges.load(str(ruleset_dir(name)))
    rng = random.Random(5)
    st = game.new_initial_state(players=GAMES[name], seed=5)
    steps = 0
    held = 0  # the most components the index held at once
    while not st.terminal and steps < 400:
        assert st.aboard == board_index(st), f"step {steps}"
        held = max(held, sum(len(v) for k, v in st.aboard.items() if isinstance(k, str)))
        if steps % 25 == 0:
            other = st.copy()
            other.apply_option(rng.randrange(len(other.pending)))
            assert other.aboard == board_index(other)
            loaded = State.from_dict(game, st.to_dict())
            assert loaded.aboard == st.aboard
            if st.pending.player >= 0:
                world = st.resample(st.pending.player, random.Random(steps))
                assert world.aboard == board_index(world)
        st.apply_option(rng.randrange(len(st.pending)))
        steps += 1
    assert st.aboard == board_index(st)
    assert held > 1  # (pieces came onto the board: the index was kept, not only left empty)


def test_a_game_whose_rules_never_go_through_it_does_not_keep_it():
    """Tic-Tac-Toe's marks go onto the board at every move: keeping an index nothing reads cost it
    more than a twentieth of an action. Alexander's heuristic alone would read it: not kept for an
    estimate (its moves cost more than its estimates saved). An expression compiled later does not
    use it either."""
    game = leges.load(str(ruleset_dir("tictactoe")))
    assert not game.index_board and leges.load(str(ruleset_dir("pompeii"))).index_board
    assert not leges.load(str(ruleset_dir("alexander"))).index_board
    st = game.new_initial_state(players=2, seed=0)
    st.apply_option(0)
    assert st.aboard == {}
    assert expr(game, st, 'count([m for m in components("mark") if m.space != none])') == 1


def _mid_escape(game, players: int = 3):
    """A Pompeii state in the escape, with tiles on the board and pieces still on it."""
    rng = random.Random(11)
    st = game.new_initial_state(players=players, seed=11)
    while not st.terminal:
        on_board = expr(game, st, 'count([t for t in components("lava") if t.space != none])')
        if st.phase == "escape" and on_board >= 6:
            return st
        st.apply_option(rng.randrange(len(st.pending)))
    raise AssertionError("no escape state reached")


def test_comprehensions_over_components_on_the_board_give_what_the_reference_build_gives():
    game = leges.load(str(ruleset_dir("pompeii")))
    plain = leges.load(str(ruleset_dir("pompeii")), optimise=False)
    st = _mid_escape(game)
    tiles = same_as_the_reference_build(game, plain, st, '[t.space for t in components("lava") if t.space != none]')
    assert len(tiles) >= 6
    mine = same_as_the_reference_build(game, plain, st, '[c for c in components("citizen", red) if c.space != none]')
    assert all(st.where[c] in game.board.spaces for c in mine)
    symbol = st.setup.cstatic[st.aboard["lava"][0]]["symbol"]
    assert same_as_the_reference_build(
        game, plain, st, f'[t.space for t in components("lava") if t.symbol == "{symbol}" and t.space != none]')


def test_only_a_condition_that_cannot_fail_before_the_board_test_goes_through_the_index():
    """`x.space != none` after a comparison of attributes: through the index; after a call (which may
    fail on a component off the board), through every component, as written."""
    from leges.lang.check.scope import Scope
    from leges.model.decl import At, Text
    from leges.text.errors import Collector
    from leges.text.yaml_source import load_yaml_text
    game = leges.load(str(ruleset_dir("pompeii")))
    compiler = game.compiler
    doc = load_yaml_text("x: 1\n", "<test>")

    def source(text: str) -> str:
        """The expression's source, with the names its generated loop functions use."""
        compiler.errors = Collector()
        code = compiler.parse_code(Text(text, At(doc, ("x",))), Scope(me=False))[1]
        compiler.errors.raise_if_errors()
        loops = [compiler.namespace[name].__code__ for name in re.findall(r"\bL\d+_\w+", code)]
        return code + " " + " ".join(" ".join(c.co_names) for c in loops)

    assert "H.board_items(st, 'lava'" in source('[t for t in components("lava") if t.space != none]')
    assert "H.board_items(st, 'lava'" in source('[t for t in components("lava") if t.symbol == "vase" and t.space != none]')
    assert "board_items" not in source('[t for t in components("lava") if count(lava_spaces()) > 1 and t.space != none]')
    assert "board_items" not in source('[t for t in components("lava") if t.space != none or t.symbol == "vase"]')
    assert "board_items" not in source('[t for t in components("lava")]')
    assert "board_items" in source('count(components("lava"), t => t.space != none)')
    assert "board_items" in source('any(components("lava"), t => t.symbol == "vase" and t.space != none)')
    assert "board_items" not in source('all(components("lava"), t => t.space != none)')  # one left out would hold


def test_counts_and_quantifiers_over_components_on_the_board_give_what_the_reference_build_gives():
    game = leges.load(str(ruleset_dir("pompeii")))
    plain = leges.load(str(ruleset_dir("pompeii")), optimise=False)
    st = _mid_escape(game)
    assert same_as_the_reference_build(game, plain, st, 'count(components("lava"), t => t.space != none)') >= 6
    assert same_as_the_reference_build(game, plain, st, 'count(components("citizen", red), c => c.space != none)') >= 0
    symbols = {st.setup.cstatic[t]["symbol"] for t in st.aboard["lava"]}
    for symbol in ("coin", "column", "helmet", "mask", "scroll", "vase"):
        assert same_as_the_reference_build(
            game, plain, st, f'any(components("lava"), t => t.symbol == "{symbol}" and t.space != none)') == (symbol in symbols)
    assert same_as_the_reference_build(game, plain, st, 'all(components("lava"), t => t.space != none)') is False
