"""Errors that were internal errors or were printed without a place (issue 22, item 8): each is a
located error with a hint — at the line that did it, or where a file named what could not be
loaded, or at the command-line option that was wrong.

The ruleset is the Tic-Tac-Toe of test_errors.py (its fixtures are used here); a record is the
one `leges simulate --records` writes of it.
"""
from __future__ import annotations

import json

import pytest

from test_errors import BASE, MOVE, RULES, expect, leges, record, ruleset, scenario  # noqa: F401 - fixtures

NO_MAP = {"map: tictactoe\n": "",
          '      square: "[s for s in spaces if count(s) == 0]"': '      square: "[1, 2]"',
          "    end_if: winner != none or all(spaces, s => count(s) > 0)": "    end_if: winner != none",
          "      if any(lines(3), line => all(line, s => count(s) > 0 and top(s).owner == me)):\n        winner = me\n":
              "      winner = me\n"}


def without_map(read: str) -> str:
    """BASE without `map:` and what needs a board; `read` (a rule text) is computed in the action."""
    text = BASE
    for old, new in NO_MAP.items():
        text = text.replace(old, new)
    text = text.replace("variables:\n", "variables:\n  - id: where\n    type: area\n    initial: null\n"
                                         "    source: {book: folk, section: Goal}\n", 1)
    return text.replace(MOVE, f"      let z = {read}")


@pytest.mark.parametrize("read, col", [("area(1).spaces", 23), ("where.spaces", 21), ("count(where.spaces)", 27)])
def test_an_area_read_without_a_map_is_located(ruleset, capsys, read, col):
    ruleset(text=without_map(read))
    line = without_map(read).splitlines().index(f"      let z = {read}") + 1
    expect(leges(capsys, "validate", "game"), f"{RULES}:{line}:{col}", "an area's 'spaces' needs a board",
           hint="`map:`")


def rewrite(path, **fields) -> list[str]:
    data = json.loads(path.read_text())
    data.update(fields)
    path.write_text(json.dumps(data, indent=1))
    return path.read_text().split("\n")


def at_key(lines: list[str], key: str, item: int | None = None) -> str:
    """line:col of a top-level key's value in a record written with indent=1 (or of its `item`th item)."""
    line = next(i for i, text in enumerate(lines, 1) if text.startswith(f' "{key}": '))
    return f"{line + 1 + item}:3" if item is not None else f"{line}:{len(key) + 6}"


@pytest.mark.parametrize("result, words", [("banana", "'result' should be a mapping or null, not \"banana\""),
                                           ({"scores": "banana"}, "scores that are not a list of numbers"),
                                           ({"ranking": [1]}, "a ranking that is not lists of seat names")])
@pytest.mark.parametrize("command", ["replay", "render"])
def test_a_record_whose_result_is_not_a_result_is_located(record, capsys, result, words, command):
    lines = rewrite(record, result=result)
    argv = ["replay", str(record)] if command == "replay" else ["render", "game", "--record", str(record)]
    expect(leges(capsys, *argv), f"{record}:{at_key(lines, 'result')}", words, hint="leges simulate --records")


@pytest.mark.parametrize("path, words", [("nowhere", "the ruleset this record names: nowhere: no ruleset here"),
                                         ("maps", "'maps' is a folder without a ruleset.yaml"),
                                         ("/", "'/' is a folder without a ruleset.yaml")])
def test_a_ruleset_a_record_names_that_is_not_there_is_an_error_of_the_record(record, capsys, path, words):
    lines = rewrite(record, ruleset_path=path)
    expect(leges(capsys, "replay", str(record)), f"{record}:{at_key(lines, 'ruleset_path')}", words,
           hint="is a folder holding ruleset.yaml")


def test_a_ruleset_path_too_long_for_the_system_is_located(record, capsys):
    lines = rewrite(record, ruleset_path="x" * 5000)
    expect(leges(capsys, "replay", str(record)), f"{record}:{at_key(lines, 'ruleset_path')}",
           "cannot be a ruleset: File name too long", hint="a folder holding ruleset.yaml")
    run = leges(capsys, "validate", "y" * 5000)
    assert run.status == 2 and run.err.startswith("y" * 100) and "File name too long" in run.err
    assert len(run.err) < 1500  # the path quoted cut short


@pytest.mark.parametrize("command", ["replay", "render"])
def test_a_variant_a_record_names_that_is_not_there_is_an_error_of_the_record(record, capsys, command):
    lines = rewrite(record, variants=["nosuch"])
    argv = ["replay", str(record)] if command == "replay" else ["render", "game", "--record", str(record)]
    expect(leges(capsys, *argv), f"{record}:{at_key(lines, 'variants')}",
           "a variant this record names: no variant 'nosuch'", hint="no variants")


def test_an_illegal_action_is_located_in_the_record_when_it_is_drawn(record, capsys):
    data = json.loads(record.read_text())
    lines = rewrite(record, actions=[data["actions"][0]] * 2)
    expect(leges(capsys, "render", "game", "--record", str(record)), f"{record}:{at_key(lines, 'actions', 1)}",
           "action 2 of the record", "is not a legal action for x")


@pytest.mark.parametrize("old, new, where, words", [
    ("ruleset: game", "ruleset: nowhere", "s.yaml:3:10", "the ruleset this scenario names: nowhere: no ruleset here"),
    ("players: 2", "players: 2\nvariants: [nosuch]", "s.yaml:5:11", "a variant this scenario names: no variant 'nosuch'"),
])
def test_a_ruleset_or_variant_a_scenario_names_that_is_not_there_is_an_error_of_the_scenario(scenario, capsys, old,
                                                                                               new, where, words):
    expect(leges(capsys, "test", scenario(old, new)), where, words)


def test_yaml_too_deep_for_python_is_located_where_it_goes_too_deep(ruleset, capsys):
    """900 levels: below the YAML reader's own limit, beyond what Python's recursion composes."""
    ruleset(text=BASE + "description: " + "[" * 900 + "]" * 900 + "\n")
    line = len(BASE.splitlines()) + 1
    column = len("description: ") + 100  # at the 100th list: the document's mapping is the first level
    expect(leges(capsys, "validate", "game"), f"{RULES}:{line}:{column}", "nested too deeply",
           hint="a few levels")


@pytest.mark.parametrize("argv, where, words", [
    (["simulate", "game", "-p", "9", "-g", "1"], "--players", "is for 2 to 2 players, not 9"),
    (["check-leaks", "game", "-p", "9", "-g", "1"], "--players", "is for 2 to 2 players, not 9"),
    (["render", "game", "--seat", "z"], "--seat", "no player 'z'"),
    (["play", "game", "--seat", "z"], "--seat", "no player 'z'"),
])
def test_a_command_line_value_that_fits_no_game_is_an_error_of_its_option(ruleset, capsys, argv, where, words):
    ruleset()
    expect(leges(capsys, *argv), where, words)


@pytest.mark.parametrize("field, value, words", [("players", 3, "a game of 3 players, but Tic-Tac-Toe is for 2 to 2"),
                                                 ("version", "0.9", "written with version 0.9"),
                                                 ("ruleset", "chess", "the record is of 'chess', not of 'tictactoe'")])
def test_a_record_drawn_that_does_not_fit_the_ruleset_is_an_error_of_the_record(record, capsys, field, value, words):
    """`leges render --record` checks a record as `leges replay` does (it reported the players at the ruleset)."""
    lines = rewrite(record, **{field: value})
    expect(leges(capsys, "render", "game", "--record", str(record)), f"{record}:{at_key(lines, field)}", words)
