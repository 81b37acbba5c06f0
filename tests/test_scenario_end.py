"""A scenario checks how the game ended: `ranking`, `scores`, `returns`, `end` (issue 38, authors).

Each key passes on the right ruleset and fails, at its key, on a wrong one; a malformed value is told
at its key before anything is played (by `leges validate` too); a game whose draw rule was forgotten
fails its draw scenario's `end: rules` and `leges simulate` names its unfinished games. A step that
asks for an option the engine took itself is told so. Tests count work (games, steps), never time.
"""
from __future__ import annotations

import json
import shutil

import pytest

from helpers import ROOT
from leges.authoring.scenario import check_file, run_file
from leges.text.errors import LegesError

TICTACTOE = ROOT / "rulesets" / "tictactoe"
NO_DRAW = ROOT / "tests" / "rulesets" / "no_draw"

ROW = """leges_scenario: 1
id: row
ruleset: {ruleset}
players: 2
source: {{book: folk, section: Goal}}
steps:
  - do: place square=r0c0
  - do: place square=r1c0
  - do: place square=r0c1
  - do: place square=r1c1
  - do: place square=r0c2
"""  # x wins on the top row; the last step's checks go on line 12 and after

DRAW = """leges_scenario: 1
id: draw
ruleset: {ruleset}
players: 2
source: {{book: folk, section: Goal}}
steps:
  - do: place square=r0c0
  - do: place square=r1c1
  - do: place square=r2c2
  - do: place square=r0c2
  - do: place square=r2c0
  - do: place square=r1c0
  - do: place square=r1c2
"""  # one more mark by o (r2c1) leaves r0c1 alone: x's last mark is placed at once, the board is full


def scenario(tmp_path, head: str, checks: str, ruleset=TICTACTOE) -> str:
    path = tmp_path / "s.yaml"
    path.write_text(head.format(ruleset=ruleset) + checks)
    return str(path)


def failures(path: str) -> list[str]:
    return run_file(path).failures


# ------------------------------------------------------------------ the bundled scenarios use them
def test_the_tictactoe_scenarios_check_the_end_and_pass():
    found = sorted((TICTACTOE / "scenarios").glob("*.yaml"))
    texts = [p.read_text() for p in found]
    for key in ("ranking:", "scores:", "returns:", "end:"):
        assert any(key in t for t in texts), key
    for path in found:
        outcome = run_file(str(path))
        assert outcome.passed, outcome.failures


# ------------------------------------------------------------------ each key: right and wrong
@pytest.mark.parametrize("checks", [
    "    ranking: [[x], [o]]\n", "    ranking: [x, o]\n", "    ranking: [[x]]\n",
    "    scores: {x: 1, o: 0}\n", "    scores: {o: 0}\n",
    "    returns: {x: 1, o: -1}\n", "    returns: [1, -1]\n", "    returns: [1.0004, -0.9996]\n",
    "    end: rules\n", "    end: end_if\n", "    end: {reason: end_if, phase: play}\n", "    end: {reason: rules}\n",
])
def test_each_key_passes_on_the_right_result(tmp_path, checks):
    assert failures(scenario(tmp_path, ROW, checks)) == []


@pytest.mark.parametrize("checks, message", [
    ("    ranking: [[o], [x]]\n", "12:14: expected the ranking o > x, got x > o\n       scores: x 1, o 0"),
    ("    ranking: [[x, o]]\n", "12:14: expected the ranking x = o, got x > o"),
    ("    scores: {x: 2, o: 0}\n", "12:13: expected scores x 2, o 0; got x 1, o 0"),
    ("    returns: {x: -1, o: 1}\n", "12:14: expected returns x -1, o 1; got x 1, o -1"),
    ("    returns: [0.5, -0.5]\n", "12:14: expected returns x 0.5, o -0.5; got x 1, o -1"),
    ("    end: unfinished\n", "12:10: expected the game to end unfinished (a turn or decision limit, or its budget) "
                            "(end: unfinished), but it ended by the rules: phase 'play' ended (`end_if`)"),
    ("    end: last_phase\n", "12:10: expected the game to end as its last phase ended (end: last_phase)"),
    ("    end: {reason: end_game, rule: x}\n", "12:10: expected the game to end by a rule's `end game`, rule 'x'"),
])
def test_each_key_fails_at_its_place_saying_expected_and_got(tmp_path, checks, message):
    found = failures(scenario(tmp_path, ROW, checks))
    assert len(found) == 1 and found[0].startswith(str(tmp_path / "s.yaml") + ":" + message.split("\n")[0]), found
    assert message in found[0]


def test_a_wrong_scoring_rule_fails_the_bundled_scenarios(tmp_path):
    """A copy of Tic-Tac-Toe whose win scores 2: the scores check of its scenarios fails, the ranking's not."""
    folder = tmp_path / "tictactoe"
    shutil.copytree(TICTACTOE, folder)
    rules = folder / "ruleset.yaml"
    rules.write_text(rules.read_text().replace("score: if winner == p then 1 else 0", "score: if winner == p then 2 else 0"))
    outcome = run_file(str(folder / "scenarios" / "three_in_a_row.yaml"))
    assert len(outcome.failures) == 1 and "three_in_a_row.yaml:20:13: expected scores x 1, o 0; got x 2, o 0" \
        in outcome.failures[0]
    rules.write_text(rules.read_text().replace("then 2 else 0", "then 0 else 1"))  # the loser wins
    found = run_file(str(folder / "scenarios" / "diagonal_for_o.yaml")).failures
    assert "diagonal_for_o.yaml:17:14: expected the ranking o > x, got x > o" in found[0]


def test_the_scenarios_alone_kill_every_scoring_mutant():
    """The wall itself: every mutant of a game's scoring survived `leges mutate`, for no scenario could say
    who won. Tic-Tac-Toe's scenarios alone (no Python test) now kill each one by their ranking, scores
    and returns (`leges mutate rulesets/tictactoe --no-tests --rule scoring`)."""
    from leges.authoring.mutate import run
    report = run(str(TICTACTOE), tests=[], rule="scoring")
    assert report["tests"] == [] and report["run"] >= 10
    assert report["survived"] == 0 and report["killed"] == report["run"], \
        [r.mutant.where for r in report["results"] if r.status != "killed"]


def test_checks_of_a_game_that_goes_on(tmp_path):
    head = ROW.rsplit("  - do: place square=r0c2\n", 1)[0]
    found = failures(scenario(tmp_path, head, "  - end: rules\n    returns: [0, 0]\n    ranking: [[x, o]]\n    scores: {x: 0}\n"))
    assert len(found) == 2
    assert ":11:10: expected the game to be over (end: rules), but it goes on\n       to move: x, legal: place" in found[0]
    assert ":12:14: returns are the result of a game that is over, but the game goes on" in found[1]


# ------------------------------------------------------------------ malformed values, located before play
@pytest.mark.parametrize("checks, where, message, hint", [
    ("    ranking: [[x], [y]]\n", (12, 21), "no player 'y' in this game", "players: x, o"),
    ("    ranking: [x, x]\n", (12, 18), "'x' is ranked twice", "a seat has one place"),
    ("    scores: {X: 1}\n", (12, 14), "no player 'X' in this game", "players: x, o"),
    ("    returns: [1, -1, 0]\n", (12, 14), "3 returns for 2 players", "one a seat, in seat order (x, o)"),
    ("    end: finished\n", (12, 10), "'finished' is not one of 'rules', 'unfinished', 'end_if'", ""),
    ("    end: {reason: rules, phase: plya}\n", (12, 33), "no phase 'plya' in this game", "did you mean 'play'"),
])
def test_a_malformed_value_is_told_at_its_key(tmp_path, checks, where, message, hint):
    path = scenario(tmp_path, ROW, checks)
    for run in (check_file, run_file):
        with pytest.raises(LegesError) as info:
            run(path)
        d = info.value.diagnostics[0]
        assert (d.position.line, d.position.col) == where and message in d.message and hint in (d.hint or ""), d.format()


@pytest.mark.parametrize("checks", ["    scores: {x: one}\n", "    ranking: x\n", "    returns: {x: true}\n",
                                    "    end: 3\n"])
def test_a_value_of_the_wrong_kind_is_refused_by_the_schema(tmp_path, checks):
    path = scenario(tmp_path, ROW, checks)
    with pytest.raises(LegesError) as info:
        check_file(path)
    assert info.value.diagnostics[0].position.line == 12


# ------------------------------------------------------------------ the forgotten draw rule
def test_a_forgotten_draw_rule_fails_the_draw_scenario():
    found = failures(str(NO_DRAW / "scenarios" / "full_board_draw.yaml"))
    assert len(found) == 1
    assert "full_board_draw.yaml:20:10: expected the game to end by its rules (end: rules), but it ended unfinished: " \
           "the turn limit of 40 turns was reached (limits.max_turns)" in found[0]
    assert "a draw rule?" in found[0]


def test_a_ranking_of_an_unfinished_game_is_no_result(tmp_path):
    """Without `end`, a draw's ranking and returns (all 0) would pass in a game the turn limit stopped."""
    last = "  - do: place square=r2c1\n"
    found = failures(scenario(tmp_path, DRAW, last + "    ranking: [[x, o]]\n    returns: [0, 0]\n", NO_DRAW))
    assert len(found) == 2 and all("an unfinished game has no result" in f for f in found)
    assert "expected the ranking x = o, got x = o" in found[0] and "turn limit of 40 turns" in found[0]
    assert failures(scenario(tmp_path, DRAW, last + "    ranking: [[x, o]]\n    end: unfinished\n", NO_DRAW)) == []
    assert failures(scenario(tmp_path, DRAW, last + "    ranking: [[x, o]]\n    end: rules\n")) == []  # the right rules


def test_simulate_names_the_unfinished_games(capsys):
    from leges.cli import main
    assert main(["simulate", str(NO_DRAW), "--games", "2", "--jobs", "1", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("  UNFINISHED: 1 of 2 games (50.0 %) hit the turn limit of 40 (limits.max_turns) — seed 1; "
                      "the rules may never end them (a missing draw rule?)")
    assert main(["simulate", str(NO_DRAW), "--games", "2", "--jobs", "1", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)["unfinished"]
    assert report["games"] == 1 and report["by"][0]["kind"] == "max_turns" and report["by"][0]["seeds"] == [1]
    # (after simulate's last progress line, off a terminal: "leges simulate: 2 of 2 games (100%), ...")
    assert captured.err.splitlines()[-1].startswith("UNFINISHED: 1 of 2 games")


def test_simulate_says_nothing_when_every_game_ends(capsys):
    from leges.cli import main
    assert main(["simulate", str(TICTACTOE), "--games", "3", "--jobs", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["unfinished"] == {"games": 0, "share": 0.0, "by": [], "warnings": []}
    assert "UNFINISHED" not in captured.err


# ------------------------------------------------------------------ an option the engine took itself
def test_the_last_mark_placed_at_once_is_told_so(tmp_path):
    played = "  - do: place square=r2c1\n"
    found = failures(scenario(tmp_path, DRAW, played + "  - do: place square=r0c1\n"))
    assert found == [f"{tmp_path / 's.yaml'}:15:5: 'place square=r0c1' cannot be played: the game is over: the only "
                     "option was taken at once ('x: place square=r0c1'), and the game ended"]
    found = failures(scenario(tmp_path, DRAW, played + "    legal_exactly: [place square=r0c1]\n"))
    assert len(found) == 1 and "the game is over: the only option was taken at once" in found[0]
    assert "legal actions differ" not in found[0]
    found = failures(scenario(tmp_path, DRAW, played + "    legal: [place square=r0c1]\n"))
    assert "should be legal: the game is over: the only option was taken at once" in found[0]


FORCED = """leges: 1
id: forced
title: Forced
version: "1"
rulebooks: [{id: t, file: none, title: the test}]
players: {min: 2, max: 2, seats: [{name: a}, {name: b}]}
components:
  - {id: chip, source: {book: t, section: s}, count: 4, start: pile}
zones:
  - {id: pile}
  - {id: kept, per_player: true}
phases:
  - id: play
    source: {book: t, section: s}
    order: clockwise
    turn: |
      act knock
      act take
    end_if: count(pile) == 0
    next: end
actions:
  - id: knock
    source: {book: t, section: s}
    effect: pass
  - id: take
    source: {book: t, section: s}
    params: {n: "[1, 2]"}
    effect: move take(pile, n) to kept(me)
scoring:
  source: {book: t, section: s}
  score: count(kept(p))
"""


def test_a_lone_option_taken_in_a_game_that_goes_on(tmp_path):
    (tmp_path / "forced").mkdir()
    (tmp_path / "forced" / "ruleset.yaml").write_text(FORCED)
    path = tmp_path / "s.yaml"
    path.write_text(f"leges_scenario: 1\nid: s\nruleset: {tmp_path / 'forced'}\nplayers: 2\nsource: {{book: t, section: s}}\n"
                    "steps:\n  - do: knock\n")
    found = failures(str(path))
    assert len(found) == 1 and found[0].startswith(f"{path}:7:5: 'knock' cannot be played: the engine took the lone "
                                                   "option itself ('a: knock')"), found
    path.write_text(path.read_text().replace("  - do: knock\n", "  - legal_exactly: [knock]\n"))
    found = failures(str(path))
    assert "the engine took the lone option itself ('a: knock')" in found[0] and "legal now: ['take n=1', 'take n=2']" \
        in found[0]


SAMPLE_END = """leges_scenario: 1
id: last_draws
ruleset: {ruleset}
players: 2
source: {{book: docs, section: Scenarios}}
position:
  phase: bonus
  turn: x
  arrange: |
    score[x] = 4
    score[o] = 5
    move [g for g in bag if g.colour == "blue"] to box
    move top(supply(o)) to r0c0
steps:
"""  # the example of docs/language.md, A scenario's end: a tie on 5 points broken by the marks in the supply


def test_a_ranking_decided_by_a_tiebreak_shows_the_keys(tmp_path):
    sample = ROOT / "docs" / "examples" / "sample"
    assert failures(scenario(tmp_path, SAMPLE_END, "  - ranking: [[x], [o]]\n    end: last_phase\n", sample)) == []
    found = failures(scenario(tmp_path, SAMPLE_END, "  - ranking: [o, x]\n", sample))
    assert found[0].endswith(":15:14: expected the ranking o > x, got x > o\n"
                             "       scores, then tiebreaks: x (5, 5), o (5, 4)"), found


def test_the_player_whose_lone_option_was_taken_is_not_to_move(tmp_path):
    found = failures(scenario(tmp_path, DRAW, "  - do: place square=r2c1\n    to_move: x\n"))
    assert len(found) == 1 and ":14:5: expected x to decide, but the game is over: the only option was taken at once " \
        "('x: place square=r0c1')" in found[0], found
    assert found[0].endswith("the game is over: ended by the rules: phase 'play' ended (`end_if`) and no phase follows")
