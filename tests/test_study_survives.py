"""Studies that survive (issue 39, item 5): `compare` and `ladder` write each game as it finishes, a
stopped study reports what finished (marked partial), and `--resume` gives the report of one run
straight through. A stop is simulated — Ctrl-C raised after k games, a clock that ticks per reading —
so the tests count games, never seconds."""
from __future__ import annotations

import itertools
import json

from helpers import ROOT
from studies import report, stop_after
from leges.cli import main
from leges.lab import session as session_module

TICTACTOE = str(ROOT / "rulesets" / "tictactoe")
COMPARE = ["compare", TICTACTOE, "-g", "4", "--agents", "greedy,random", "--rotate-seats", "-j", "1"]
LADDER = ["ladder", TICTACTOE, "--agents", "random,greedy", "--rounds", "3", "-j", "1"]
RUN_ONLY = ("seconds", "journal", "partial", "stopped")  # what differs between two runs of one study


def same(report: dict):
    """A report without what depends on the run rather than the study (its seconds, its journal)."""
    if isinstance(report, dict):
        return {k: same(v) for k, v in report.items() if k not in RUN_ONLY}
    if isinstance(report, list):
        return [same(v) for v in report]
    return report


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_compare_stopped_and_resumed_reports_as_one_run_straight_through(tmp_path, capsys, monkeypatch):
    straight = report(capsys, [*COMPARE, "--log", str(tmp_path / "straight.jsonl")])
    assert not straight["partial"] and lines(tmp_path / "straight.jsonl")[-1] == {"finished": True}
    records, journal = tmp_path / "records", tmp_path / "records" / "journal.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 5)
        partial = report(capsys, [*COMPARE, "--records", str(records)], status=130)
    assert partial["partial"] and partial["stopped"] == "interrupted (Ctrl-C)" and partial["journal"] == str(journal)
    assert partial["games"] == 2  # A's and B's games alternate: 5 games finished are 2 whole pairs
    games = [line for line in lines(journal) if "part" in line]
    assert len(games) == 5 and len(list(records.glob("*/*.json"))) == 5  # the finished games are on disk
    resumed = report(capsys, [*COMPARE, "--records", str(records), "--resume", str(journal)])
    assert same(resumed) == same(straight) and not resumed["partial"]
    assert len([line for line in lines(journal) if "part" in line]) == 8  # only the 3 missing games were played
    assert len(list(records.glob("*/*.json"))) == 8


def test_a_ladder_stopped_and_resumed_reports_as_one_run_straight_through(tmp_path, capsys, monkeypatch):
    straight = report(capsys, LADDER)
    journal = tmp_path / "ladder.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 3)
        assert main([*LADDER, "--log", str(journal)]) == 130
    out = capsys.readouterr().out
    assert out.startswith("PARTIAL: interrupted (Ctrl-C) after 3 of 6 games;") and "--resume" in out
    assert "rating" in out  # the report so far
    assert len(lines(journal)) == 4  # the study's first line, and each finished game
    resumed = report(capsys, [*LADDER, "--resume", str(journal)])
    assert same(resumed) == same(straight)


def test_a_time_limit_reports_what_finished_and_resume_goes_on(tmp_path, capsys, monkeypatch):
    ticks = itertools.count()
    monkeypatch.setattr(session_module, "CLOCK", lambda: float(next(ticks)))  # a second a reading
    journal = tmp_path / "j.jsonl"
    partial = report(capsys, [*LADDER, "--log", str(journal), "--time-limit", "4"])
    assert partial["partial"] and partial["stopped"] == "the time limit (4 s) reached"
    assert 0 < partial["games"] < partial["planned"] == 6
    assert len(lines(journal)) == 1 + partial["games"]
    resumed = report(capsys, [*LADDER, "--resume", str(journal)])
    assert resumed["games"] == 6 and not resumed["partial"]


def test_a_torn_last_line_is_dropped_and_the_study_goes_on(tmp_path, capsys, monkeypatch):
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 2)
        assert main([*LADDER, "--log", str(journal), "-q"]) == 130
    capsys.readouterr()
    with journal.open("a") as handle:
        handle.write('{"part": "ladder", "index": 2, "res')  # killed while writing
    resumed = report(capsys, [*LADDER, "--resume", str(journal)])
    assert same(resumed) == same(report(capsys, LADDER))
    assert all(line.endswith("}") for line in journal.read_text().splitlines())


def test_a_journal_is_resumed_by_its_own_study_only(tmp_path, capsys, monkeypatch):
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 2)
        assert main([*LADDER, "--log", str(journal), "-q"]) == 130
    capsys.readouterr()
    assert main([*LADDER, "--seed", "5", "--resume", str(journal)]) == 2
    err = capsys.readouterr().err
    assert f"{journal}:1:1: error: the journal is of another study: its seed is 0, this one's 5" in err
    assert main([*LADDER, "--log", str(journal)]) == 2  # an unfinished study is never begun over
    assert "did not finish" in capsys.readouterr().err
    assert main([*LADDER, "--resume", str(tmp_path / "none.jsonl")]) == 2
    assert "no journal at" in capsys.readouterr().err


def test_progress_lines_off_a_terminal(capsys):
    assert main([*LADDER, "--progress-every", "4"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in err] == ["leges ladder: 4 of 6 games (67%)",
                                                    "leges ladder: 6 of 6 games (100%)"]
    assert main([*LADDER, "-q"]) == 0 and capsys.readouterr().err == ""
    assert main([*LADDER, "--progress-every", "often"]) == 2
    assert "neither a number of games nor of seconds" in capsys.readouterr().err


def test_a_damaged_journal_is_told_at_its_line(tmp_path, capsys, monkeypatch):
    journal = tmp_path / "j.jsonl"
    with monkeypatch.context() as m:
        stop_after(m, 2)
        assert main([*LADDER, "--log", str(journal), "-q"]) == 130
    capsys.readouterr()
    text = journal.read_text().splitlines()
    line = json.loads(text[2])
    line["result"]["length"] = "long"
    text[2] = json.dumps(line)
    journal.write_text("\n".join(text) + "\n")
    assert main([*LADDER, "--resume", str(journal)]) == 2
    assert f"{journal}:3:1: error: this line of the journal has a game's 'length' of the wrong kind: \"long\"" \
        in capsys.readouterr().err
    text[2] = "[]"
    journal.write_text("\n".join(text) + "\n")
    assert main([*LADDER, "--resume", str(journal)]) == 2
    assert f"{journal}:3:1: error:" in capsys.readouterr().err
