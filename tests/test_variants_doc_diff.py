"""`leges variants`, `leges doc` and `leges diff`."""
from __future__ import annotations

import json

import pytest

import leges
from helpers import ROOT
from leges.cli import main
from leges.authoring.docgen import render

GAMES = ["pompeii", "attika", "alexander", "tictactoe"]


def test_variants_lists_every_variant_with_its_parameters(capsys):
    assert main(["variants", str(ROOT / "rulesets" / "pompeii")]) == 0
    out = capsys.readouterr().out
    assert "mayfair (edition)" in out and "dual_vent (edition)" in out and "provenance: reference" in out
    assert main(["variants", str(ROOT / "rulesets" / "alexander")]) == 0
    out = capsys.readouterr().out
    assert "short_game (official)" in out and "parameter last_campaign: int, default 4" in out


@pytest.mark.parametrize("game", GAMES)
def test_rendered_rulebooks_in_docs_are_current(game):
    """docs/rulebooks/*.md are `leges doc rulesets/<game>`; regenerate them with that command."""
    text = render(leges.load(str(ROOT / "rulesets" / game)))
    assert (ROOT / "docs" / "rulebooks" / f"{game}.md").read_text() == text, \
        f"run: leges doc rulesets/{game} -o docs/rulebooks/{game}.md"


def test_doc_cites_every_rule(capsys):
    assert main(["doc", str(ROOT / "rulesets" / "pompeii")]) == 0
    out = capsys.readouterr().out
    rs = leges.load(str(ROOT / "rulesets" / "pompeii")).ruleset
    for item in [*rs.setup, *rs.phases, *rs.actions, *rs.triggers]:
        assert f"`{item.id}`" in out
    assert "(no citation)" not in out.split("## Set-up")[1]


def test_diff_of_a_ruleset_with_itself_finds_nothing(capsys):
    path = str(ROOT / "rulesets" / "tictactoe")
    assert main(["diff", path, path, "--seeds", "5"]) == 0
    out = capsys.readouterr().out
    assert "The rules are the same" in out and "no difference in 5 games" in out


def test_diff_finds_a_variants_changes_in_rules_and_in_play(capsys):
    path = str(ROOT / "rulesets" / "pompeii")
    assert main(["diff", path, "--variant-b", "mayfair", "-p", "3", "--seeds", "3", "--games", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    changed = {(r["section"], r["id"]) for r in result["rules"]}
    assert ("setup", "draw_pile") in changed and ("functions", "blocked_spaces") in changed
    assert ("components", "citizen") in changed and ("zones", "deck") not in changed
    citizen = next(r for r in result["rules"] if r["id"] == "citizen")
    assert "mayfair.yaml" in citizen["source_b"]
    first = result["divergences"][0]
    assert first["step"] == 0 and "take_pile k=6" in first["only_a"]
    assert set(result["statistics"]["a"]) >= {"mean_length", "seat_win_rate", "mean_scores", "unfinished", "metrics"}


def test_diff_ignores_layout_and_citations(tmp_path):
    import shutil
    from leges.authoring.diff import structural
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "a")
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "b")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    b = tmp_path / "b" / "ruleset.yaml"
    b.write_text(b.read_text()
                 .replace('quote: "put one of your marks on an empty square"', 'quote: "a mark on a free square"')
                 .replace("      move top(supply(me)) to square\n", "      move   top( supply(me) )  to square  # put\n"))
    assert structural(leges.load(str(tmp_path / "a")).ruleset, leges.load(str(tmp_path / "b")).ruleset) == []
    b.write_text(b.read_text().replace("count(s) == 0]", "count(s) == 0 and s != r1c1]"))
    diffs = structural(leges.load(str(tmp_path / "a")).ruleset, leges.load(str(tmp_path / "b")).ruleset)
    assert [(x.section, x.id, x.fields) for x in diffs] == [("actions", "place", ["params"])]
