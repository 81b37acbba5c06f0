"""Bundled games go by name (`leges simulate pompeii`, `leges.load("tictactoe")`) from any folder."""
from __future__ import annotations

import pytest

import leges
from helpers import ROOT
from leges.text import files
from leges.cli import main


def test_the_bundled_folders():
    assert files.bundled("rulesets").resolve() == (ROOT / "rulesets").resolve()
    assert (files.bundled("maps") / "tictactoe.yaml").is_file()
    assert (files.bundled("schemas") / "ruleset.schema.json").is_file()
    assert {"tictactoe", "pompeii"} <= set(files.bundled_names())


def test_a_bundled_game_by_name_from_another_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert leges.load("tictactoe").id == "tictactoe"
    assert main(["simulate", "tictactoe", "-g", "2"]) == 0
    assert main(["validate", "tictactoe"]) == 0
    assert "tictactoe: ok" in capsys.readouterr().out


def test_a_folder_of_that_name_comes_first(tmp_path, monkeypatch):
    import shutil
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "tictactoe")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    text = (tmp_path / "tictactoe" / "ruleset.yaml").read_text()
    (tmp_path / "tictactoe" / "ruleset.yaml").write_text(text.replace("title: ", "title: Local ", 1))
    monkeypatch.chdir(tmp_path)
    assert leges.load("tictactoe").title.startswith("Local ")


@pytest.mark.parametrize("name", ["nosuch", "../rulesets/tictactoe/x", "tic tac"])
def test_other_names_are_not_bundled_games(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert files.bundled_ruleset(name) is None
    with pytest.raises(leges.LegesError, match="no ruleset here") as info:
        leges.load(name)
    assert "bundled games go by name: " in str(info.value)
