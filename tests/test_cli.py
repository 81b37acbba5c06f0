"""The `leges` command: simulate (text and JSON), records and replay, scenarios, help."""
from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT
from leges.cli import main

POMPEII = str(ROOT / "rulesets" / "pompeii")
TICTACTOE = str(ROOT / "rulesets" / "tictactoe")


def test_simulate_json_has_the_promised_shape_and_is_deterministic(capsys):
    assert main(["simulate", TICTACTOE, "--games", "20", "--seed", "5", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert set(first) >= {"ruleset", "players", "seed", "games", "results", "mean_length", "seat_win_rate",
                          "playouts_per_second", "metrics"}
    assert first["ruleset"] == "tictactoe" and first["games"] == 20 and len(first["results"]) == 20
    assert set(first["results"][0]) >= {"seed", "ranking", "scores", "length"}
    assert [r["seed"] for r in first["results"]] == list(range(5, 25))
    assert abs(sum(first["seat_win_rate"].values()) - 1) < 1e-9
    assert main(["simulate", TICTACTOE, "--games", "20", "--seed", "5", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["results"] == first["results"]


def test_simulate_text_reports_games_lengths_and_win_rates(capsys):
    assert main(["simulate", POMPEII, "-p", "3", "-g", "2", "--check"]) == 0
    out = capsys.readouterr().out
    assert out.count("seed ") == 2 and "mean length" in out and "seat win rate: red" in out
    assert "play-outs per second" in out and "invariants held" in out


def test_records_replay_to_the_same_result(tmp_path, capsys):
    assert main(["simulate", POMPEII, "-p", "4", "-g", "2", "--seed", "3", "--records", str(tmp_path), "-q"]) == 0
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    capsys.readouterr()
    assert main(["replay", str(records[0])]) == 0
    out = capsys.readouterr().out
    assert "every action was legal" in out and "result:" in out


def test_test_command_runs_scenarios(capsys):
    """The command over a folder (Tic-Tac-Toe's: each scenario of every bundled game is run one by one in
    tests/test_scenarios.py); a failing scenario fails the command: tests/test_errors.py."""
    folder = ROOT / "rulesets" / "tictactoe" / "scenarios"
    assert main(["test", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"{len(list(folder.glob('*.yaml')))} passed, 0 failed" in out


def test_validate_reports_ok(capsys):
    assert main(["validate", POMPEII, TICTACTOE, str(ROOT / "maps" / "pompeii.yaml")]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok") == 3


def test_module_entry_point_and_help():
    run = subprocess.run([sys.executable, "-m", "leges", "--help"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    for command in ("validate", "simulate", "play", "replay", "test", "info"):
        assert command in run.stdout


def test_play_at_the_terminal(monkeypatch, capsys):
    answers = iter(["9", "nonsense", "1", "1", "1", "1", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", TICTACTOE, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "you are X" in out and "game over" in out and "not one of the" in out
