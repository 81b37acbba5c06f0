"""A simulation that survives (issue 39, item 5): `leges simulate` writes each game to its journal as it
finishes, a stopped run reports what finished (marked partial), and `--resume` gives the report of one
run straight through. A stop is simulated — Ctrl-C raised after k games, a clock that ticks per reading —
so the tests count games, never seconds."""
from __future__ import annotations

import itertools
import json

from helpers import ROOT
from studies import report, stop_after
from leges.cli import main
from leges.cli import simulate as simulate_cli
from leges.lab import session as session_module
from leges.lab import simulation

TICTACTOE = str(ROOT / "rulesets" / "tictactoe")
SIMULATE = ["simulate", TICTACTOE, "-g", "12", "-j", "1"]
AGENTS = ["--agents", "greedy,random", "--rotate-seats"]
RUN_ONLY = ("seconds", "journal", "partial", "stopped", "playouts_per_second")  # what differs between two runs


def same(report):
    """A report without what depends on the run rather than the simulation (its time, its journal)."""
    if isinstance(report, dict):
        return {k: same(v) for k, v in report.items() if k not in RUN_ONLY}
    if isinstance(report, list):
        return [same(v) for v in report]
    return report


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def games_in(path) -> list[dict]:
    return [line for line in lines(path) if "part" in line]


def test_a_simulation_stopped_and_resumed_reports_as_one_run_straight_through(tmp_path, capsys, monkeypatch):
    straight = report(capsys, [*SIMULATE, *AGENTS, "--log", str(tmp_path / "straight.jsonl")])
    assert not straight["partial"] and straight["games"] == straight["planned"] == 12
    assert lines(tmp_path / "straight.jsonl")[-1] == {"finished": True}
    records, journal = tmp_path / "records", tmp_path / "records" / "journal.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 5)
        partial = report(capsys, [*SIMULATE, *AGENTS, "--records", str(records)], status=130)
    assert partial["partial"] and partial["stopped"] == "interrupted (Ctrl-C)" and partial["journal"] == str(journal)
    assert partial["games"] == 5 and partial["results"] == straight["results"][:5]  # the report so far
    assert len(games_in(journal)) == 5 and len(list(records.glob("*.json"))) == 5  # the finished games are on disk
    resumed = report(capsys, [*SIMULATE, *AGENTS, "--records", str(records), "--resume", str(journal)])
    assert same(resumed) == same(straight) and not resumed["partial"]
    assert len(games_in(journal)) == 12 and lines(journal)[-1] == {"finished": True}  # only 7 games were played
    assert len(list(records.glob("*.json"))) == 12


def test_a_stopped_simulation_prints_its_report_so_far_marked_partial(tmp_path, capsys, monkeypatch):
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 3)
        assert main([*SIMULATE, "--log", str(journal)]) == 130
    out = capsys.readouterr().out
    assert out.startswith(f"PARTIAL: interrupted (Ctrl-C) after 3 of 12 games; every finished game is in {journal}: "
                          f"add --resume {journal} to go on\n\n3 games of Tic-Tac-Toe with 2 players (seeds 0..2)")
    assert "seat win rate" in out and "seed 2:" in out and "seed 3:" not in out
    with monkeypatch.context() as m:
        stop_after(m, 2)
        assert main(SIMULATE) == 130  # no journal: the report all the same, and how to keep the games next time
    assert "PARTIAL: interrupted (Ctrl-C) after 2 of 12 games; --log FILE would have kept them" in capsys.readouterr().out
    assert main([*SIMULATE, "--resume", str(journal)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("12 games of Tic-Tac-Toe") and "PARTIAL" not in out


def test_until_interval_resumed_stops_where_a_run_straight_through_does(tmp_path, capsys, monkeypatch):
    argv = ["simulate", TICTACTOE, "-g", "500", "-j", "1", "--until-interval", "0.15"]
    straight = report(capsys, argv)
    assert straight["games"] == 200  # the intervals looked at after 100 games, then 200
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 150)
        assert report(capsys, [*argv, "--log", str(journal)], status=130)["games"] == 150
    resumed = report(capsys, [*argv, "--resume", str(journal)])
    assert same(resumed) == same(straight) and len(games_in(journal)) == 200


def test_a_time_limit_reports_what_finished_and_resume_goes_on(tmp_path, capsys, monkeypatch):
    ticks = itertools.count()
    monkeypatch.setattr(session_module, "CLOCK", lambda: float(next(ticks)))  # a second a reading
    journal = tmp_path / "j.jsonl"
    partial = report(capsys, [*SIMULATE, "--log", str(journal), "--time-limit", "4"])  # exit 0: it stopped as told
    assert partial["partial"] and partial["stopped"] == "the time limit (4 s) reached"
    assert 0 < partial["games"] < partial["planned"] == 12
    assert len(games_in(journal)) == partial["games"]
    resumed = report(capsys, [*SIMULATE, "--resume", str(journal)])
    assert resumed["games"] == 12 and not resumed["partial"]
    assert same(resumed) == same(report(capsys, SIMULATE))


def test_games_played_on_processes_in_chunks_are_the_same_and_each_is_written_down(tmp_path, capsys, monkeypatch):
    straight = report(capsys, ["simulate", TICTACTOE, "-g", "40", "-j", "1"])
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 10)
        assert report(capsys, ["simulate", TICTACTOE, "-g", "40", "-j", "2", "--log", str(journal)],
                      status=130)["games"] == 10
    resumed = report(capsys, ["simulate", TICTACTOE, "-g", "40", "-j", "2", "--resume", str(journal)])
    assert same(resumed) == same(straight)
    assert sorted(line["index"] for line in games_in(journal)) == list(range(40))


def test_progress_lines_off_a_terminal(tmp_path, capsys, monkeypatch):
    argv = ["simulate", TICTACTOE, "-g", "8", "-j", "1"]
    assert main([*argv, "--progress-every", "4"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in err] == ["leges simulate: 4 of 8 games (50%)",
                                                    "leges simulate: 8 of 8 games (100%)"]
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 5)
        assert main([*argv, "--log", str(journal), "-q"]) == 130
    assert capsys.readouterr().err == ""  # --quiet: none
    assert main([*argv, "--resume", str(journal), "--progress-every", "2"]) == 0
    err = capsys.readouterr().err.splitlines()  # the games read from the journal count, and are not reported as played
    assert [line.split(",")[0] for line in err] == ["leges simulate: 7 of 8 games (88%)",
                                                    "leges simulate: 8 of 8 games (100%)"]
    assert main([*argv, "--progress-every", "often"]) == 2
    assert "neither a number of games nor of seconds" in capsys.readouterr().err


def test_a_journal_is_resumed_by_its_own_simulation_only(tmp_path, capsys, monkeypatch):
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 2)
        assert main([*SIMULATE, "--log", str(journal), "-q"]) == 130
    capsys.readouterr()
    assert main([*SIMULATE, "--seed", "5", "--resume", str(journal)]) == 2
    assert f"{journal}:1:1: error: the journal is of another study: its seed is 0, this one's 5" in capsys.readouterr().err
    assert main(["compare", TICTACTOE, "-g", "12", "-j", "1", "--resume", str(journal)]) == 2
    assert "the journal is of another study: its command is \"simulate\"" in capsys.readouterr().err
    assert main([*SIMULATE, "--log", str(journal)]) == 2  # an unfinished simulation is never begun over
    assert "did not finish" in capsys.readouterr().err
    assert main([*SIMULATE, "--resume", str(tmp_path / "none.jsonl")]) == 2
    assert "no journal at" in capsys.readouterr().err
    assert main([*SIMULATE, "--time-limit", "0"]) == 2
    assert "--time-limit must be above 0 seconds" in capsys.readouterr().err


def test_help_tells_the_new_options(capsys):
    try:
        main(["simulate", "--help"])
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    for option in ("--log FILE", "--resume FILE", "--time-limit S", "--progress-every N|Ns"):
        assert option in out
    assert "journal.jsonl" in out and "as it finishes" in out
    assert simulate_cli.BATCH == simulation.BATCH  # what --until-interval's help says is what it does
