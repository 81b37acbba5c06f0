"""Messages an author meets, in the rule language's words and located (issue 38, authors).

Each was met by a newcomer writing Connect Four (tests/rulesets/connect_four) from the docs:

- a rule that used a query's `none` as a space said Python's "nothing named None here", and
  `leges simulate` did not say in which game: now "no value (none) here", with the game's seed and the
  command that plays that game alone;
- `require: true` said "expected string, found bool True": now that `require` is rule text, how to
  write it, and that it may be left out, located at the value;
- a "function is never used" warning stood beside the syntax error that caused it (the call was in the
  rule that did not parse): such warnings wait until every rule compiles.
"""
from __future__ import annotations

import re
import shutil

import pytest

import leges
from helpers import ROOT
from leges.cli import main
from leges.text.errors import LegesError

CONNECT_FOUR = ROOT / "tests" / "rulesets" / "connect_four"
REQUIRE = "    require: count(spaces, s => s.col == column and count(s) == 0) > 0\n"
WIN = "      if any(lines(4),"
NEVER_WON = "      if false and any(lines(4),"  # nobody wins: the game goes on until a column is full


@pytest.fixture
def ruleset(tmp_path):
    """A copy of Connect Four to break; `write(old, new)` changes its ruleset.yaml and gives the folder."""
    folder = tmp_path / "connect_four"
    shutil.copytree(CONNECT_FOUR, folder)
    main_file = folder / "ruleset.yaml"

    def write(old: str, new: str, append: str = ""):
        text = main_file.read_text()
        assert old in text
        main_file.write_text(text.replace(old, new) + append)
        return folder
    return write


def _line_of(path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_none_used_as_a_space_is_said_in_the_languages_words_with_the_seed(ruleset, capsys):
    """Without its `require`, a drop into a full column moves a disc to `last(...)` of nothing: none."""
    ruleset(WIN, NEVER_WON)
    folder = ruleset(REQUIRE, "")
    assert main(["simulate", str(folder), "--players", "2", "--games", "1", "--seed", "5"]) == 2
    err = capsys.readouterr().err
    effect = _line_of(folder / "ruleset.yaml", "move top(supply(me))")
    assert f"ruleset.yaml:{effect}:" in err
    assert "no value (none) here" in err and "None" not in err and "nothing named" not in err
    assert "seed 5" in err and "--seed 5 --games 1" in err
    assert "test `x != none`" in err


def test_the_seed_told_plays_the_failing_game_again(ruleset, capsys):
    """The command the message gives fails the same way: the game is played again, not another one."""
    ruleset(WIN, NEVER_WON)
    folder = ruleset(REQUIRE, "")
    assert main(["simulate", str(folder), "-p", "2", "-g", "3", "--seed", "11"]) == 2
    first = capsys.readouterr().err
    told = re.search(r"`leges simulate (\S+) --players 2 --seed (\d+) --games 1`", first)
    assert told and told.group(1) == str(folder) and 11 <= int(told.group(2)) <= 13, first
    assert main(["simulate", told.group(1), "--players", "2", "--seed", told.group(2), "--games", "1"]) == 2
    assert capsys.readouterr().err == first


def test_a_yaml_boolean_for_rule_text_says_how_to_write_it(ruleset):
    folder = ruleset(REQUIRE, "    require: true\n")
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    d = err.value.diagnostics[0]
    line = _line_of(folder / "ruleset.yaml", "require: true")
    assert (d.position.line, d.position.col) == (line, len("    require: ") + 1)  # at the value
    assert d.message == '`require` is rule text: write it as `require: "true"` or leave it out'
    assert "bool" not in d.message and "True" not in d.message and "quote it" in d.hint


def test_a_yaml_number_for_a_required_rule_is_not_told_to_be_left_out(ruleset):
    """`score` must be there: it is told how to be written, not that it may go."""
    folder = ruleset("  score: if winner == p then 1 else 0", "  score: 1")
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    d = err.value.diagnostics[0]
    assert d.message == '`score` is rule text: write it as `score: "1"`'
    assert d.position.line == _line_of(folder / "ruleset.yaml", "  score: 1")


def test_an_empty_rule_text_says_so(ruleset):
    folder = ruleset(REQUIRE, "    require:\n")
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    assert err.value.diagnostics[0].message == "`require` is empty: write its rule text, or leave the key out"


HAS_ROOM = """
functions:
  - id: has_room
    params: [c]
    body: count(spaces, s => s.col == c and count(s) == 0)
"""


def test_no_never_used_warning_beside_the_syntax_error_that_caused_it(ruleset):
    folder = ruleset(REQUIRE, "    require: has_room(column)) > 0\n", HAS_ROOM)
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    messages = [d.message for d in err.value.diagnostics]
    assert any("syntax error" in m for m in messages)
    assert not any("never used" in m for m in messages), messages


def test_the_never_used_warning_still_comes_when_every_rule_compiles(ruleset, capsys):
    folder = ruleset(REQUIRE, "    require: 3 > 0\n", HAS_ROOM)
    assert main(["validate", str(folder)]) == 0
    err = "".join(capsys.readouterr())
    assert f"ruleset.yaml:{_line_of(folder / 'ruleset.yaml', '- id: has_room')}:" in err
    assert "function 'has_room' is never used" in err
