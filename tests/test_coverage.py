"""`leges coverage`: passages of a rulebook cited by rules, marked as flavour, or not covered."""
from __future__ import annotations

import shutil

from helpers import ROOT
from leges.cli import main

BOOK = """Folk rules of tic-tac-toe

Components
Each player has five marks of their own. The marks are small.

Play
X begins; players alternate. Put one of your marks on an empty square.

Goal
Three in a row wins; a full board without a row is a draw.

Thanks to everybody who played it before us.
"""


def _setup(tmp_path, flavour: str = ""):
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "ttt")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    (tmp_path / "traditional").write_text(BOOK)
    path = tmp_path / "ttt" / "ruleset.yaml"
    path.write_text(path.read_text().replace("    title: The traditional rules, as commonly stated",
                                             "    title: The traditional rules, as commonly stated" + flavour))
    return str(tmp_path / "ttt"), str(tmp_path / "traditional")


def test_coverage_reports_what_is_cited_and_what_is_not(tmp_path, capsys):
    ruleset, book = _setup(tmp_path)
    assert main(["coverage", ruleset, "--rulebook", book]) == 1
    out = capsys.readouterr().out
    assert "[missing] The marks are small." in out
    assert "[missing] Thanks to everybody who played it before us." in out
    assert "Put one of your marks" not in out.split("[missing]", 1)[1].split("\n")[0]


def test_flavour_marks_complete_the_coverage(tmp_path, capsys):
    ruleset, book = _setup(tmp_path, """
    flavour:
      - {quote: "The marks are small", reason: contents}
      - {quote: "Thanks to everybody", reason: credits}
      - {section: Folk rules of tic-tac-toe, reason: story}""")
    assert main(["coverage", ruleset, "--rulebook", book, "--json"]) == 0
    import json
    result = json.loads(capsys.readouterr().out)
    assert result["missing"] == [] and result["covered"] >= 4 and result["marked"] >= 2


def test_sentences_are_cut_before_what_may_begin_one_in_any_script():
    """By Unicode category: a capital of any script, a digit, an opening bracket or quote, a dash."""
    from leges.authoring.rulebook_coverage import sentences
    assert sentences("Első mondat. Második: „idézet” jön. 3 kártya; — vége? Ωμέγα! Ło. (Zárójel) x. y") == [
        "Első mondat.", "Második:", "„idézet” jön.", "3 kártya;", "— vége?", "Ωμέγα!", "Ło.", "(Zárójel) x. y"]
    assert sentences('Он сказал: "Да". Ёж. a. b') == ["Он сказал:", '"Да".', "Ёж. a. b"]
