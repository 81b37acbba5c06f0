"""`leges simulate`'s summary comes first (issue 38, authors: README's first command printed 200
per-game lines before it): a line a game follows the summary, for a few games only unless `--each`."""
from __future__ import annotations

from helpers import ROOT
from leges.cli import main

TICTACTOE = str(ROOT / "rulesets" / "tictactoe")


def test_many_games_print_the_summary_only(capsys):
    assert main(["simulate", TICTACTOE, "-g", "30", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("30 games of Tic-Tac-Toe") and "seed 0:" not in out and "--each" in out


def test_a_few_games_are_listed_after_the_summary(capsys):
    assert main(["simulate", TICTACTOE, "-g", "3", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 games of Tic-Tac-Toe") and out.index("seat win rate") < out.index("seed 0:")


def test_each_lists_every_game(capsys):
    assert main(["simulate", TICTACTOE, "-g", "30", "-j", "1", "--each"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("30 games") and "seed 29:" in out
