"""Variants as patches: add, replace, remove and set by id; typed parameters; requires and conflicts;
errors located in the patch file."""
from __future__ import annotations

import shutil

import pytest

import leges
from helpers import ROOT, expr

BASE = """leges_variant: 1
id: {id}
title: {id}
kind: house_rule
"""


@pytest.fixture
def ruleset(tmp_path):
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "ttt")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    (tmp_path / "ttt" / "variants").mkdir()
    return tmp_path / "ttt"


def variant(ruleset, name: str, body: str) -> None:
    (ruleset / "variants" / f"{name}.yaml").write_text(BASE.format(id=name) + body)


def play(game, moves):
    st = game.new_initial_state(players=2, seed=0)
    for m in moves:
        st.apply_action(f"place square={m}")
    return st


def test_set_changes_one_key_and_parameters_are_typed_constants(ruleset):
    variant(ruleset, "misere", """parameters:
  - {id: prize, type: int, default: 1, min: 0, max: 5}
patch:
  - {op: set, section: scoring, key: score, value: "if winner == p then 0 else prize"}
""")
    plain = leges.load(str(ruleset))
    patched = leges.load(str(ruleset), variants=["misere=4"])
    moves = ["r0c0", "r1c0", "r0c1", "r1c1", "r0c2"]
    assert play(plain, moves).scores() == [1, 0]
    assert play(patched, moves).scores() == [0, 4]
    assert patched.variants == ("misere",)
    assert play(leges.load(str(ruleset), variants=["misere"]), moves).scores() == [0, 1]  # the default
    with pytest.raises(leges.LegesError, match="between 0 and 5"):
        leges.load(str(ruleset), variants=["misere=9"])
    with pytest.raises(leges.LegesError, match="takes int values"):
        leges.load(str(ruleset), variants=["misere.prize=lots"])
    with pytest.raises(leges.LegesError, match="no parameter 'bonus'"):
        leges.load(str(ruleset), variants=["misere.bonus=1"])


def test_add_replace_remove(ruleset):
    variant(ruleset, "center_first", """patch:
  - op: add
    section: variables
    value: {id: moves, initial: 0}
  - op: replace
    section: actions
    id: place
    value:
      id: place
      source: {book: folk, section: Play}
      params:
        square: '[s for s in spaces if count(s) == 0 and (moves > 0 or s == r1c1)]'
      effect: |
        move top(supply(me)) to square
        moves += 1
  - op: remove
    section: phases
    id: play
  - op: add
    section: phases
    value:
      id: play
      source: {book: folk, section: Play}
      first: o
      turn: |
        act place
      end_if: moves == 9
      next: end
""")
    game = leges.load(str(ruleset), variants=["center_first"])
    st = game.new_initial_state(players=2, seed=0)
    # o starts, and the centre is its only legal square: the move is made at once
    assert expr(game, st, "moves == 1 and top(r1c1).owner == o")
    assert st.player_name(st.current_player()) == "x" and len(st.legal_actions()) == 8


def test_requires_and_conflicts(ruleset):
    variant(ruleset, "a", "conflicts: [b]\npatch: []\n")
    variant(ruleset, "b", "patch: []\n")
    variant(ruleset, "c", "requires: [b]\npatch: []\n")
    leges.load(str(ruleset), variants=["b", "c"])
    with pytest.raises(leges.LegesError, match="conflicts with 'b'"):
        leges.load(str(ruleset), variants=["a", "b"])
    with pytest.raises(leges.LegesError, match="requires variant 'b'"):
        leges.load(str(ruleset), variants=["c"])


def test_errors_point_into_the_patch(ruleset):
    variant(ruleset, "broken", """patch:
  - {op: remove, section: actions, id: plaice}
  - op: set
    section: actions
    id: place
    key: effect
    value: |
      move top(supply(me)) to square
      winner = mee
  - {op: add, section: zones, value: {id: pool, kind: heap}}
""")
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(ruleset), variants=["broken"])
    text = str(err.value)
    assert "variants/broken.yaml:6:40: error: no actions item 'plaice' to remove" in text.replace("\\", "/")
    assert "did you mean 'place'" in text
    assert "broken.yaml:14:55: error: 'heap' is not one of" in text


def test_unknown_variant_gets_a_hint(ruleset):
    variant(ruleset, "misere", "patch: []\n")
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(ruleset), variants=["misre"])
    assert "did you mean 'misere'" in str(err.value)


def test_set_text_error_is_located_in_the_variant(ruleset):
    variant(ruleset, "typo", """patch:
  - op: set
    section: actions
    id: place
    key: effect
    value: |
      move top(supply(me)) to square
      winner = mee
""")
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(ruleset), variants=["typo"])
    d = err.value.diagnostics[0]
    assert d.position.file.endswith("typo.yaml") and (d.position.line, d.position.col) == (12, 16)
    assert "unknown name 'mee'" in d.message and "did you mean 'me'" in d.hint


def test_a_variants_source_is_checked_as_a_rules_source(ruleset):
    """A variant's own citation has a rule's form: a rulebook's id is a name, not a list (found by
    fuzzing: it used to reach the citation check unvalidated and fail there)."""
    variant(ruleset, "cited", "source:\n  book:\n  - hu\n  section: Somewhere\npatch: []\n")
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(ruleset), variants=["cited"])
    d = err.value.diagnostics[0]
    assert d.position.file.endswith("cited.yaml") and d.position.line == 7 and "expected string" in d.message
