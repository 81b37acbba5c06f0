"""`leges mutate`'s operators on the syntax tree (leges/authoring/operators.py), each on a small ruleset:
the mutant each is to make, a rule without any other mutant given one, and a surviving mutant reported."""
from __future__ import annotations

import shutil

import pytest

from helpers import ROOT
from leges.authoring.mutants import find_mutants
from leges.authoring.mutate import run

AUCTION = ROOT / "tests" / "rulesets" / "auction"

# a function of the auction whose texts the operators have something to change in: keyword arguments, a
# property with a sibling of the same type, a bound that is a name, a comprehension's filter, an if-expression
EXTRA = """
functions:
  - id: heaviest
    source: {book: t, section: s}
    params: [p]
    body: first(sort([c for c in won(p) if c.value > 2], by=c => c.weight, descending=true))
  - id: rich
    source: {book: t, section: s}
    params: [p]
    body: money[p] >= limit and count(won(p)) < limit
  - id: worth
    source: {book: t, section: s}
    params: [p]
    body: if rich(p) then money[p] * 2 else money[p] - 1
  - id: lots
    source: {book: t, section: s}
    params: [p]
    body: won(p)
constants:
  - {id: limit, value: 4, source: {book: t, section: s}}
statistics:  # the functions used, so that they are checked (and their names' types known)
  - {id: heavy, per_player: true, description: the heaviest lot, value: heaviest(p) != none}
  - {id: worth, per_player: true, description: worth, value: worth(p)}
  - {id: lots, per_player: true, description: lots, value: count(lots(p))}
"""


@pytest.fixture(scope="module")
def auction(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mod") / "auction"
    shutil.copytree(AUCTION, folder)
    text = (folder / "ruleset.yaml").read_text()
    text = text.replace("    count: 8\n", "    count: 16\n").replace("      value: {from: 1, to: 8}",
                                                                    "      value: {from: 1, to: 8}\n      weight: [1, 2]")
    (folder / "ruleset.yaml").write_text(text + EXTRA)
    missing: list = []
    mutants = find_mutants(str(folder), missing=missing)
    return folder, mutants, missing


def made(mutants, rule: str, operator: str) -> set:
    return {(m.before, m.after) for m in mutants if m.rule == rule and m.operator == operator}


def test_conjunct_dropped(auction):
    _, mutants, _ = auction
    both = "money[p] >= limit and count(won(p)) < limit"
    assert made(mutants, "function:rich", "conjunct") == {(both, "money[p] >= limit"), (both, "count(won(p)) < limit")}


def test_argument_for_another_name_of_its_type_in_scope(auction):
    _, mutants, _ = auction
    offer = made(mutants, "action:offer", "argument")
    assert ("me", "current") in offer  # money[me]: the other player in scope there
    assert ("winner", "best") not in offer  # a player is never replaced by a number
    scoring = made(mutants, "scoring:scoring", "argument")
    assert ("p", "current") in scoring and all(after != "limit" for before, after in scoring if before == "p")


def test_keyword_argument_dropped_and_property_for_its_sibling(auction):
    folder, mutants, _ = auction
    heaviest = [m for m in mutants if m.rule == "function:heaviest" and m.operator == "argument"]
    afters = {m.text for m in heaviest}
    assert "first(sort([c for c in won(p) if c.value > 2], descending=true))" in afters  # by= dropped
    assert "first(sort([c for c in won(p) if c.value > 2], by=c => c.weight))" in afters  # descending= dropped
    assert ("weight", "value") in {(m.before, m.after) for m in heaviest}
    assert ("value", "weight") in {(m.before, m.after) for m in heaviest}


def test_builtin_for_its_sibling(auction):
    _, mutants, _ = auction
    assert ("max", "min") in made(mutants, "action:offer", "function")
    assert ("first", "last") in made(mutants, "action:offer", "function")
    assert ("sum", "count") in made(mutants, "scoring:scoring", "function")
    # count() of lots is no sum: the checker would let sum() add up the components' ids
    assert ("count", "sum") not in made(mutants, "function:rich", "function")


def test_boundaries(auction):
    _, mutants, _ = auction
    rich = made(mutants, "function:rich", "boundary")
    assert {("limit", "limit + 1"), ("limit", "limit - 1")} <= rich  # a bound that is a name, shifted
    offer = made(mutants, "action:offer", "boundary")
    assert {("==", ">="), ("==", "<=")} <= offer  # bid[p] == best widened
    assert ("best", "best + 1") in offer
    ended = made(mutants, "phase:bidding", "boundary")  # count(block) == 0: never below 0, so no `<= 0`
    assert ("==", ">=") in ended and ("==", "<=") not in ended


def test_arithmetic_filter_and_branch(auction):
    _, mutants, _ = auction
    assert {("*", "/"), ("-", "+")} <= made(mutants, "function:worth", "arithmetic")
    assert ("+", "-") in made(mutants, "scoring:scoring", "arithmetic")
    assert ("money[p] + sum([c.value for c in won(p)])", "money[p]") in made(mutants, "scoring:scoring", "arithmetic")
    assert made(mutants, "function:heaviest", "filter") == {("if c.value > 2", "")}
    assert made(mutants, "function:worth", "branch") == {
        ("if rich(p) then money[p] * 2 else money[p] - 1", "(money[p] * 2)"),
        ("if rich(p) then money[p] * 2 else money[p] - 1", "(money[p] - 1)")}


def test_every_rule_gets_a_mutant_the_last_resort_included(auction):
    from leges.model.loader import load_declarations
    from leges.authoring.rule_coverage import rule_texts
    folder, mutants, missing = auction
    assert made(mutants, "function:lots", "value") == {("won(p)", "block")}  # nothing else to change in `won(p)`
    assert not [m for m in mutants if m.operator == "value" and m.rule != "function:lots"]  # only as the last resort
    rs, _, _ = load_declarations(str(folder))
    rules = {f"{kind}:{decl.id}" for kind, decl, texts in rule_texts(rs) if texts}
    assert rules <= {m.rule for m in mutants} and missing == []


def test_mutants_that_say_the_same_are_one(auction):
    from leges.authoring.mutants import _meaning
    _, mutants, _ = auction
    for rule in {m.rule for m in mutants}:
        said = [(m.key, _meaning(m.text, m.key in ("effect", "body") and not rule.startswith("function")))
                for m in mutants if m.rule == rule and isinstance(m.text, str)]
        assert len(said) == len(set(said)), rule


@pytest.mark.parametrize("game", ["pompeii", "attika", "alexander", "tictactoe"])
def test_every_rule_of_a_bundled_game_has_a_mutant(game):
    """Attika's discount and settlements, Pompeii's points had none before the operators of the syntax tree."""
    from leges.model.loader import load_declarations
    from leges.authoring.rule_coverage import rule_texts
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / game))
    missing: list = []
    mutated = {m.rule for m in find_mutants(str(ROOT / "rulesets" / game), missing=missing)}
    rules = {f"{kind}:{decl.id}" for kind, decl, texts in rule_texts(rs) if texts}
    assert rules <= mutated and missing == []


def test_a_surviving_new_mutant_is_reported(auction, capsys):
    """With the scenarios alone (the auction has none) a new operator's mutant survives, and is reported by
    its operator, with the score per operator."""
    from leges.cli import main
    folder, _, _ = auction
    report = run(str(folder), tests=[], rule="rich", operator="conjunct")
    assert report["run"] == report["survived"] == 2 and report["score"] == 0.0
    assert report["by_operator"]["conjunct"]["survived"] == 2 and report["by_operator"]["new"]["score"] == 0.0
    assert main(["mutate", str(folder), "--no-tests", "--rule", "rich", "--operator", "conjunct"]) == 0
    out = capsys.readouterr().out
    assert "survivors (2)" in out and "function:rich body  conjunct: 'money[p] >= limit and count(won(p)) < limit'" in out
    assert "conjunct" in out.split("by operator")[1]


def test_lock_step_tests_run_against_the_survivors_with_the_score_without_and_with(auction, tmp_path, capsys, monkeypatch):
    """`--lock-step FILE`: run after the others, against the survivors alone; both scores reported."""
    from leges.cli import main
    folder, _, _ = auction
    check = tmp_path / "lock" / "tests" / "test_lock.py"
    check.parent.mkdir(parents=True)
    check.write_text("import os, pathlib\n"
                     "def test_rich_as_written():\n"
                     "    text = (pathlib.Path(os.environ['LEGES_RULESETS']) / 'auction' / 'ruleset.yaml').read_text()\n"
                     "    assert 'money[p] >= limit and count(won(p)) < limit' in text\n")
    report = run(str(folder), tests=[], rule="rich", operator="conjunct", lock_step=[str(check)])
    assert report["score_without_lock_step"] == 0.0 and report["score"] == 100.0
    assert report["lock_step"]["run"] == 2 and report["lock_step"]["killed"] == 2
    assert all(r.by.startswith("lock-step: ") for r in report["results"])
    # the command: what it asks of `run` and how it words the report (the same run, not a second one:
    # each mutant's pytest is seconds, and `run` is what the lines above checked)
    import leges.authoring.mutate as mutate
    asked: list = []
    monkeypatch.setattr(mutate, "run", lambda ruleset, **kw: asked.append((ruleset, kw)) or report)
    assert main(["mutate", str(folder), "--no-tests", "--rule", "rich", "--operator", "conjunct",
                 "--lock-step", str(check)]) == 0
    (ruleset, kw), = asked
    assert ruleset == str(folder) and kw["tests"] == [] and kw["lock_step"] == [str(check)]
    assert kw["rule"] == "rich" and kw["operator"] == "conjunct"
    assert "score 0.0 % without it, 100.0 % with it" in capsys.readouterr().out


def test_the_default_lock_step_is_leges_own_for_its_ruleset_alone():
    from pathlib import Path
    from leges.authoring.mutate import lock_step_tests
    found = lock_step_tests(Path(ROOT / "rulesets" / "pompeii"), "pompeii")
    assert found and all("test_reference_pompeii.py::" in t for t in found)
    assert not any("tictactoe" in t for t in found)  # the copy of a mutant holds Pompeii alone
    assert lock_step_tests(Path(ROOT / "rulesets" / "attika"), "attika") == []
