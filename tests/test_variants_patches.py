"""Patches that change one part of a rule: a key inside an item, a labelled statement or expression;
labels compile as if absent; overlapping variants; the order of --variant flags; messages."""
from __future__ import annotations

import re
import shutil

import pytest

import leges
from helpers import ROOT, expr
from leges.cli import main
from leges.lang.syntax.labels import labels
from leges.lang.syntax.parser import parse_expression, parse_program
from leges.text.origin import TextOrigin

ORIGIN = TextOrigin("<test>", 1, 1)
HEAD = """leges_variant: 1
id: {id}
title: {id}
kind: house_rule
provenance: {{status: house_rule, note: a test}}
"""


@pytest.fixture
def sample(tmp_path):
    """The language reference's sample game (its bonus turn has labels @gem_point and @cash_limit)."""
    shutil.copytree(ROOT / "docs" / "examples" / "sample", tmp_path / "sample")
    (tmp_path / "sample" / "variants").mkdir()
    return tmp_path / "sample"


def variant(folder, name: str, body: str) -> None:
    (folder / "variants" / f"{name}.yaml").write_text(HEAD.format(id=name) + body)


def rule(game, section: str, item: str):
    return next(x for x in getattr(game.ruleset, section) if x.id == item)


def error_of(folder, variants) -> str:
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(folder), variants=variants)
    return str(err.value).replace("\\", "/")


# ------------------------------------------------------------------ labels in the language
def test_a_label_changes_nothing_in_the_syntax_tree():
    text = "draw 1 from bag to pouch(me)\n@gem if count(deck) > 0:\n  @inner score[me] += 1\nact cash_in(limit=@cap(3)) optional\n"
    plain = re.sub(r"@\w+\(", "(", re.sub(r"@\w+ ", "", text))
    assert parse_program(text, ORIGIN) == parse_program(plain, ORIGIN)
    assert parse_expression("1 + @x(2 * 3)", ORIGIN) == parse_expression("1 + (2 * 3)", ORIGIN)
    found = {x.name: (x.kind, text[x.inner[0]:x.inner[1]]) for x in labels(text, True, ORIGIN)}
    assert found == {"gem": ("statement", "if count(deck) > 0:\n  @inner score[me] += 1"),
                     "inner": ("statement", "score[me] += 1"), "cap": ("expression", "3")}


def test_labelled_rules_compile_to_the_same_instructions(sample, tmp_path):
    plain = tmp_path / "plain"
    shutil.copytree(sample, plain)
    text = (plain / "ruleset.yaml").read_text()
    (plain / "ruleset.yaml").write_text(text.replace("@gem_point ", "").replace("@cash_limit(3)", "3"))
    a, b = leges.load(str(sample)), leges.load(str(plain))
    code_a, code_b = a.programs.codes["phase:bonus:turn"], b.programs.codes["phase:bonus:turn"]
    assert len(code_a.instructions) == len(code_b.instructions)
    assert [(p.line, p.col) for p in code_a.positions] != [(p.line, p.col) for p in code_b.positions]  # only columns moved
    for seed in range(3):
        sa, sb = a.new_initial_state(players=2, seed=seed), b.new_initial_state(players=2, seed=seed)
        while not sa.is_terminal():
            choice = sa.legal_actions()[seed % len(sa.legal_actions())]
            sa.apply_action(choice)
            sb.apply_action(choice.text)
        assert sb.is_terminal() and sa.scores() == sb.scores() and sa.history == sb.history


def test_a_label_is_a_name_after_at():
    with pytest.raises(leges.LegesError, match="syntax error"):
        parse_program("@ gem pass\n", ORIGIN)
    with pytest.raises(leges.LegesError, match="syntax error"):
        parse_expression("@cap 3", ORIGIN)  # an expression's label takes parentheses


# ------------------------------------------------------------------ patches inside an item
def test_set_a_key_inside_an_item_and_one_entry_of_a_list(sample):
    variant(sample, "corners", """patch:
  - {op: set, section: actions, id: place, key: params.square, value: "[s for s in free_squares() if s.bonus > 0]"}
  - {op: set, section: scoring, key: tiebreak.0, value: "-count(supply(p))"}
""")
    game = leges.load(str(sample), variants=["corners"])
    place = rule(game, "actions", "place")
    params = dict(place.params)
    assert params["card"].text == "hand(me)" and params["card"].at.position().file.endswith("ruleset.yaml")
    assert params["square"].text.startswith("[s for s in free_squares() if s.bonus")
    assert params["square"].at.position().file.endswith("corners.yaml")
    assert game.ruleset.scoring.tiebreak[0].text == "-count(supply(p))"
    st = game.new_initial_state(players=2, seed=0)
    assert {a.text.split("square=")[1] for a in st.legal_actions() if a.text.startswith("place")} <= {"r0c0", "r2c2"}


def test_set_at_a_label_keeps_the_rest_of_the_rule(sample):
    variant(sample, "richer", """patch:
  - {op: set, section: phases, id: bonus, label: cash_limit, value: "@cash_limit + 2"}
  - op: set
    section: phases
    id: bonus
    label: gem_point
    value: |
      log "a gem"
      @gem_point
""")
    game = leges.load(str(sample), variants=["richer"])
    turn = rule(game, "phases", "bonus").turn.text
    assert turn == ('draw 1 from bag to pouch(me)\nlog "a gem"\n@gem_point if top(pouch(me)).colour == me.colour:\n'
                    '  score[me] += 1\nact cash_in(limit=@cash_limit(3 + 2)) optional\n')
    assert rule(game, "phases", "bonus").patched == {"turn": str(sample / "variants" / "richer.yaml")} or \
        rule(game, "phases", "bonus").patched["turn"].endswith("richer.yaml")


def test_remove_at_a_label_and_replace_a_statement(sample):
    variant(sample, "no_gems", "patch:\n  - {op: remove, section: phases, id: bonus, label: gem_point}\n")
    variant(sample, "two_points", """patch:
  - {op: set, section: phases, id: bonus, label: gem_point, value: "score[me] += 2"}
""")
    assert "@gem_point pass\n" in rule(leges.load(str(sample), variants=["no_gems"]), "phases", "bonus").turn.text
    assert "@gem_point score[me] += 2\n" in rule(leges.load(str(sample), variants=["two_points"]), "phases", "bonus").turn.text


def test_errors_in_a_rewritten_rule_point_into_the_variant_and_the_ruleset(sample):
    variant(sample, "typo", """patch:
  - {op: set, section: phases, id: bonus, label: cash_limit, value: "@cash_limit + bonsu"}
""")
    text = error_of(sample, ["typo"])
    assert "variants/typo.yaml:7:84: error: unknown name 'bonsu'" in text
    game_text = (sample / "ruleset.yaml").read_text().splitlines()
    line = next(i for i, x in enumerate(game_text, 1) if "@gem_point" in x)
    variant(sample, "typo2", """patch:
  - {op: set, section: phases, id: bonus, label: cash_limit, value: "@cash_limit + 1"}
  - {op: set, section: triggers, id: score_points, key: effect, value: "score[player] += pointz"}
""")
    (sample / "ruleset.yaml").write_text((sample / "ruleset.yaml").read_text().replace(
        "@gem_point if top(pouch(me)).colour == me.colour:", "@gem_point if top(pouch(me)).color == me.colour:"))
    text = error_of(sample, ["typo2"])
    assert f"ruleset.yaml:{line}:" in text and "'color'" in text  # the part the variant did not touch: in the ruleset
    assert "typo2.yaml:8:90: error: unknown name 'pointz'" in text


@pytest.mark.parametrize("patch, message, hint", [
    ("{op: set, section: phases, id: bonus, key: turns, value: pass}", "phases item 'bonus' has no key 'turns'",
     "did you mean 'turn'?"),
    ("{op: set, section: actions, id: place, key: params.sqare, value: '[]'}", "actions item 'place' has no 'sqare' in params",
     "did you mean 'square'?"),
    ("{op: set, section: scoring, key: tiebreak.3, value: '0'}", "scoring: tiebreak has no entry 3", "entries are 0 to 0"),
    ("{op: set, section: phases, id: bonus, label: gem_pont, value: pass}", "no label '@gem_pont' in phases item 'bonus'",
     "did you mean 'gem_point'?"),
    ("{op: set, section: phases, id: play, label: gem_point, value: pass}", "no label '@gem_point' in phases item 'play'",
     "has no labels"),
    ("{op: remove, section: phases, id: bonus, label: cash_limit}", "labels an expression, which cannot be removed", None),
    ("{op: set, section: limits, key: max_turn, value: 3}", "limits have no key 'max_turn'", "did you mean 'max_turns'"),
])
def test_patch_mistakes_are_located_with_a_hint(sample, patch, message, hint):
    variant(sample, "wrong", f"patch:\n  - {patch}\n")
    text = error_of(sample, ["wrong"])
    assert "variants/wrong.yaml:7:" in text and message in text
    assert hint is None or hint in text


def test_a_rule_text_cut_at_a_comma_of_a_yaml_list_is_reported_at_the_comma(sample):
    variant(sample, "cut", "patch:\n  - {op: set, section: scoring, key: tiebreak, value: [max(1, 2)]}\n")
    text = error_of(sample, ["cut"])
    assert "cut.yaml:7:61: error: syntax error: '(' is never closed: the YAML list or mapping around this rule " \
           "text cut it at this comma" in text
    assert "put the whole rule text in quotes" in text and "is never closed\n" not in text


def test_a_rule_the_variant_brings_without_a_source_cites_the_variant(sample):
    variant(sample, "bonus_gem", """patch:
  - op: add
    section: setup
    value: {id: extra_gem, effect: "draw 1 from bag to pouch(x)"}
""")
    game = leges.load(str(sample), variants=["bonus_gem"])
    assert rule(game, "setup", "extra_gem").source == {"provenance": {"status": "house_rule", "note": "a test"}}


# ------------------------------------------------------------------ several variants
def test_overlapping_variants_are_an_error_unless_related(sample):
    variant(sample, "a", "patch:\n  - {op: set, section: phases, id: bonus, label: cash_limit, value: '@cash_limit + 1'}\n")
    variant(sample, "b", "patch:\n  - {op: set, section: phases, id: bonus, label: cash_limit, value: '@cash_limit * 2'}\n")
    variant(sample, "c", "patch:\n  - {op: set, section: phases, id: bonus, label: gem_point, value: pass}\n")
    variant(sample, "d", "parameters: [{id: hand_size, type: int, default: 4}]\npatch: []\n")
    variant(sample, "e", "parameters: [{id: hand_size, type: int, default: 5}]\npatch: []\n")
    variant(sample, "f", "patch:\n  - {op: set, section: phases, id: bonus, key: turn, value: pass}\n")
    text = error_of(sample, ["b", "a"])
    assert "variants/b.yaml:7:5: error: variants 'a' and 'b' both change phases 'bonus' turn at @cash_limit" in text
    assert "add `overrides: [a]`" in text and "`conflicts: [a]`" in text
    leges.load(str(sample), variants=["a", "c"])  # two labels of one text: no overlap
    assert "both declare the parameter 'hand_size'" in error_of(sample, ["d", "e"])
    assert "both change phases 'bonus' turn" in error_of(sample, ["c", "f"])  # the whole text and a part of it


def test_overrides_orders_the_variants_whatever_the_flags(sample):
    variant(sample, "a", "patch:\n  - {op: set, section: phases, id: bonus, label: cash_limit, value: '@cash_limit + 1'}\n")
    variant(sample, "b", "overrides: [a]\n"
                         "patch:\n  - {op: set, section: phases, id: bonus, label: cash_limit, value: '@cash_limit * 2'}\n")
    one = leges.load(str(sample), variants=["b", "a"])
    two = leges.load(str(sample), variants=["a", "b"])
    assert one.variants == ("b", "a") and two.variants == ("a", "b")  # as requested; applied a, then b
    assert rule(one, "phases", "bonus").turn.text == rule(two, "phases", "bonus").turn.text
    assert "limit=@cash_limit((3 + 1) * 2)" in rule(one, "phases", "bonus").turn.text
    st = one.new_initial_state(players=2, seed=0)
    assert expr(one, st, "true")


def test_relations_must_name_variants_that_exist(sample):
    variant(sample, "three", "requires: [thre_moves]\npatch: []\n")
    variant(sample, "three_moves", "patch: []\n")
    text = error_of(sample, ["three"])
    assert "three.yaml:6:12: error: no variant 'thre_moves' in this ruleset (named in `requires` of 'three')" in text
    assert "did you mean 'three_moves'?" in text and "add --variant" not in text
    variant(sample, "three", "requires: [three_moves]\npatch: []\n")
    assert "add --variant three_moves" in error_of(sample, ["three"])


# ------------------------------------------------------------------ validate
def test_validate_checks_every_variant_and_the_scenarios(sample, capsys):
    variant(sample, "good", "patch: []\n")
    variant(sample, "broken", "patch:\n  - {op: set, section: phases, id: bonus, label: cash_limit, value: '@cash_limit + x2'}\n")
    assert main(["validate", str(sample)]) == 2
    err = capsys.readouterr().err.replace("\\", "/")
    assert "variants/broken.yaml:7:84: error: unknown name 'x2'" in err
    (sample / "variants" / "broken.yaml").unlink()
    (sample / "scenarios").mkdir()
    (sample / "scenarios" / "s.yaml").write_text("""leges_scenario: 1
id: s
ruleset: ..
players: 2
variants: [good]
source: {variant: god}
steps:
  - expect: count(hand(x)) == 3 and scroe[x] == 0
""")
    assert main(["validate", str(sample)]) == 2
    err = capsys.readouterr().err.replace("\\", "/")
    assert "scenarios/s.yaml:6:19: error: the scenario cites variant 'god' but does not switch it on" in err
    (sample / "scenarios" / "s.yaml").write_text((sample / "scenarios" / "s.yaml").read_text().replace("god", "good"))
    assert main(["validate", str(sample)]) == 2
    assert "scenarios/s.yaml:8:37: error: unknown name 'scroe'" in capsys.readouterr().err.replace("\\", "/")
    (sample / "scenarios" / "s.yaml").write_text((sample / "scenarios" / "s.yaml").read_text().replace("scroe", "score"))
    assert main(["validate", str(sample)]) == 0
    assert "checked 1 variant set and 1 scenario" in capsys.readouterr().out
    assert main(["test", str(sample / "scenarios")]) == 0
