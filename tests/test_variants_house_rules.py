"""The bundled house rules (docs/modding.md): each at most ten lines, copying no rule, with a scenario
that passes with it and fails without it; `leges diff` shows the rule text changed and the ruleset's
statistics; `leges doc --variant` cites the house rule on every rule it changes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import leges
from helpers import ROOT
from leges.cli import main
from leges.authoring.diff import structural
from leges.authoring.docgen import render
from leges.model.sections import BY_NAME
from leges.authoring.scenario import run_file

HOUSE_RULES = [("pompeii", "three_moves"), ("pompeii", "spare_the_weakest"), ("alexander", "quick_campaigns"),
               ("attika", "extra_amphorae")]
MODDING = ROOT / "docs" / "modding.md"


def variant_file(game: str, name: str) -> Path:
    return ROOT / "rulesets" / game / "variants" / f"{name}.yaml"


@pytest.mark.parametrize("game, name", HOUSE_RULES)
def test_a_house_rule_is_short_cites_its_provenance_and_copies_no_program(game, name):
    text = variant_file(game, name).read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 10
    data = yaml.safe_load(text)
    assert data["kind"] == "house_rule" and data["provenance"]["status"] == "house_rule"
    for op in data["patch"]:
        assert op["op"] != "replace", "a replaced item is a copy"
        if op["op"] == "set" and "label" not in op:
            key = op["key"].split(".")[0]
            assert key not in BY_NAME[op["section"]].programs, f"{op['key']}: a whole program is a copy"
    assert f"```yaml\n{text}```" in MODDING.read_text(encoding="utf-8"), "docs/modding.md shows the file as it is"


@pytest.mark.parametrize("game, name", HOUSE_RULES)
def test_a_house_rule_has_a_scenario_that_fails_without_it(game, name, tmp_path):
    path = ROOT / "rulesets" / game / "scenarios" / f"{name}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["variants"] == [name] and data["source"]["variant"] == name
    assert run_file(str(path)).passed
    data.update(variants=[], ruleset=str(ROOT / "rulesets" / game))
    data["source"] = {"book": "hu", "section": "x", "note": "the same scenario without the house rule"}
    without = tmp_path / f"{name}.yaml"
    without.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert not run_file(str(without)).passed


@pytest.mark.parametrize("game, name, section, item, shown", [
    ("pompeii", "three_moves", "constants", "escape_moves", "+ 3"),
    ("pompeii", "spare_the_weakest", "actions", "sacrifice", "p not in minima(players"),
    ("alexander", "quick_campaigns", "procedures", "settle_attempts",
     'cost = if kind == "temple" then max([0, max(map(without(bidders, best), p => count(box_of(p, kind)))) + contest_surcharge - 1])'),
    ("attika", "extra_amphorae", "setup", "amphorae_at_start",
     "deal start_amphorae from amphora_supply to [amphorae(p) for p in players]"),
])
def test_diff_shows_the_rule_text_that_changed(game, name, section, item, shown):
    path = str(ROOT / "rulesets" / game)
    diffs = structural(leges.load(path).ruleset, leges.load(path, variants=[name]).ruleset)
    found = next(x for x in diffs if (x.section, x.id) == (section, item))
    lines = [line for change in found.changes for line in
             (change.lines() if found.kind == "changed" else (change.b or "").splitlines())]
    assert any(shown in line for line in lines), lines
    if section == "constants":
        assert "phases escape (turn)" in found.named_by  # the rule the number changes
    if found.kind == "changed":
        assert found.cited_a == found.cited_b or "house_rule" in found.cited_b


def test_diff_reports_the_rulesets_statistics_and_never_none(capsys):
    path = str(ROOT / "rulesets" / "alexander")
    assert main(["diff", path, "--variant-b", "quick_campaigns", "-p", "3", "--seeds", "1", "--seed", "3", "-g", "2"]) == 0
    out = capsys.readouterr().out
    assert "The ruleset's statistics (statistics:)" in out and "stat.temples_built (all seats)" in out
    assert "A has not ended; B ended with scores" in out and "None" not in out
    assert "- 6\n        + 4" in out  # last_campaign, the parameter in place of the constant
    assert "B cites: house_rule: a shorter game" in out
    assert main(["diff", path, "--variant-b", "quick_campaigns", "-p", "3", "--seeds", "1", "-g", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    settle = next(r for r in result["rules"] if r["id"] == "settle_attempts")
    assert settle["changes"][0]["field"] == "body" and "contest_surcharge - 1" in settle["changes"][0]["b"]
    assert set(result["statistics"]["b"]["statistics_total"]) == {"temples_built", "cities_built"}


def test_doc_with_a_house_rule_cites_it_on_every_rule_it_changes():
    game = leges.load(str(ROOT / "rulesets" / "alexander"), variants=["quick_campaigns=5"])
    text = render(game)
    assert "## Variants in force" in text and "parameter `last_campaign` = 5 (default 4)" in text
    assert "parameter `rounds_per_campaign` = 2" in text
    assert "| `last_campaign` | `5` | parameter of variant `quick_campaigns` (house rule): house_rule:" in text
    settle = text.split("#### Procedure `settle_attempts`")[1].split("####")[0]
    assert "*Variant* `quick_campaigns` (house rule) changes `body`: house_rule: a shorter game" in settle
    assert "*Source before the change:* hu § 5.5.4" in settle and "@contest_price(" in settle
    unchanged = text.split("#### Procedure `award_sole`")[1].split("####")[0]
    assert "Variant" not in unchanged and "*Source:* hu § 6.1" in unchanged


def test_doc_marks_the_rules_that_run_with_a_number_a_variant_set():
    """The escape phase is not patched by three_moves, but it moves escape_moves citizens: its
    quote says two, so the page says which number is in force, and only where it is named."""
    text = render(leges.load(str(ROOT / "rulesets" / "pompeii"), variants=["three_moves"]))
    escape = text.split("#### Phase `escape`")[1].split("####")[0]
    assert "*Numbers set by variants:* `escape_moves` = 3 (variant `three_moves`)" in escape
    assert text.count("*Numbers set by variants:*") == 1  # no other rule names escape_moves
    assert "Numbers set by variants" not in render(leges.load(str(ROOT / "rulesets" / "pompeii")))


def test_the_house_rules_in_a_ruleset_are_listed_with_their_parameters(capsys):
    assert main(["variants", str(ROOT / "rulesets" / "pompeii")]) == 0
    out = capsys.readouterr().out
    assert "three_moves (house_rule)" in out and "parameter escape_moves: int, default 3 (1..6)" in out
    assert "provenance: house_rule" in out
