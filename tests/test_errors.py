"""Bad input is reported, never a traceback: `file:line:col: error: message` plus a hint, exit status 2.

Every broken ruleset here is a small valid one (the Tic-Tac-Toe of the tutorial, copied below so
that the line numbers in the assertions stay put) with one thing broken. Each test checks the
exit status, the exact position, the key words of the message, the hint where one is due, and
that no Python traceback reaches the user — for YAML, schema, syntax, name, type and
consistency errors, for rules that fail while a game runs, and for bad records and scenarios.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from leges.cli import main

# A valid ruleset; line numbers in the tests refer to it (line 1 is `leges: 1`).
BASE = """\
leges: 1
id: tictactoe
title: Tic-Tac-Toe
version: "1.0"
rulebooks:
  - id: folk
    file: traditional
    title: The traditional rules, as commonly stated
players:
  min: 2
  max: 2
  seats:
    - {name: x}
    - {name: o}
map: tictactoe

components:
  - id: mark
    source: {book: folk, section: Components, quote: "each player has five marks of their own"}
    per_player: true
    count: 5
    start: supply
    label: text(it.owner)

zones:
  - id: supply
    per_player: true
    visibility: all

variables:
  - id: winner
    type: player
    initial: null
    source: {book: folk, section: Goal, quote: "three in a row wins"}

phases:
  - id: play
    source: {book: folk, section: Play, quote: "x begins; players alternate"}
    first: x
    order: clockwise
    turn: |
      act place
    end_if: winner != none or all(spaces, s => count(s) > 0)
    next: end

actions:
  - id: place
    source: {book: folk, section: Play, quote: "put one of your marks on an empty square"}
    params:
      square: "[s for s in spaces if count(s) == 0]"
    effect: |
      move top(supply(me)) to square
      if any(lines(3), line => all(line, s => count(s) > 0 and top(s).owner == me)):
        winner = me

scoring:
  source: {book: folk, section: Goal, quote: "three in a row wins; a full board without a row is a draw"}
  score: if winner == p then 1 else 0
"""

MAP = """\
leges_map: 1
id: tictactoe
title: Tic-Tac-Toe grid
topology: grid
grid: {rows: 3, cols: 3}
"""

RULES = "game/ruleset.yaml"  # as printed: paths are shown relative to the working folder

# Lines of BASE that the tests break.
MOVE = "      move top(supply(me)) to square"
IF_ROW = "      if any(lines(3), line => all(line, s => count(s) > 0 and top(s).owner == me)):"
END_IF = "    end_if: winner != none or all(spaces, s => count(s) > 0)"
SCORE = "  score: if winner == p then 1 else 0"
SQUARE = '      square: "[s for s in spaces if count(s) == 0]"'
TURN = "    turn: |\n      act place"

EVENTS_AND_PROCEDURES = """\
events:
  - id: placed
    params: {square: space}

procedures:
  - id: announce
    params: [who]
    body: |
      log text(who)

actions:"""  # inserted before `actions:` (line 46): the action's lines move down by 10


# ------------------------------------------------------------------ helpers
@dataclass
class Diag:
    location: str
    severity: str
    message: str
    hint: str | None


@dataclass
class Run:
    status: int
    out: str
    err: str

    @property
    def diagnostics(self) -> list[Diag]:
        return parse_diagnostics(self.err)

    def find(self, location: str) -> Diag:
        found = [d for d in self.diagnostics if d.location == location]
        assert found, f"no diagnostic at {location}; got:\n{self.err}"
        assert len(found) == 1, f"several diagnostics at {location}:\n{self.err}"
        return found[0]


_HEAD = re.compile(r"^(?P<loc>\S.*?): (?P<sev>error|warning): (?P<msg>.*)$")


def parse_diagnostics(text: str) -> list[Diag]:
    """`file:line:col: error: message` lines, each with its `    hint: ...` (and continuation lines)."""
    found: list[Diag] = []
    in_hint = False
    for line in text.splitlines():
        head = _HEAD.match(line)
        if head:
            found.append(Diag(head["loc"], head["sev"], head["msg"], None))
            in_hint = False
        elif line.startswith("    hint: ") and found:
            found[-1].hint = line[len("    hint: "):]
            in_hint = True
        elif line.startswith("          ") and in_hint:
            found[-1].hint += "\n" + line.strip()
        else:
            in_hint = False
    return found


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text and 'File "' not in text, text
        assert "internal error" not in text, text


def leges(capsys, *argv: str) -> Run:
    status = main(list(argv))
    out, err = capsys.readouterr()
    no_traceback(out, err)
    return Run(status, out, err)


def expect(run: Run, location: str, *words: str, hint: str | tuple | None = None) -> Diag:
    """The run failed with status 2 and reports an error at `location` whose message has `words`."""
    assert run.status == 2, f"status {run.status}\n{run.out}\n{run.err}"
    d = run.find(location)
    assert d.severity == "error"
    for word in words:
        assert word in d.message, f"{word!r} not in {d.message!r}"
    for h in ((hint,) if isinstance(hint, str) else hint or ()):
        assert d.hint is not None and h in d.hint, f"hint {h!r} not in {d.hint!r}"
    return d


@pytest.fixture
def ruleset(tmp_path, monkeypatch):
    """Write BASE (changed by `old` → `new`, or `text`) as game/ruleset.yaml; the map in maps/."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "tictactoe.yaml").write_text(MAP, encoding="utf-8")
    (tmp_path / "game").mkdir()

    def write(old: str | None = None, new: str | None = None, *, text: str | None = None,
              files: dict | None = None, newline: str = "\n") -> str:
        body = BASE if text is None else text
        if old is not None:
            assert body.count(old) == 1, f"{old!r} is not in the base exactly once"
            body = body.replace(old, new)
        (tmp_path / "game" / "ruleset.yaml").write_bytes(body.replace("\n", newline).encode("utf-8"))
        for name, content in (files or {}).items():
            (tmp_path / "game" / name).write_text(content, encoding="utf-8")
        return "game"
    return write


@pytest.fixture
def validate(ruleset, capsys):
    def run(*args, **kwargs) -> Run:
        path = ruleset(*args, **kwargs)
        result = leges(capsys, "validate", path)
        if result.status == 2:
            errors = sum(1 for d in result.diagnostics if d.severity == "error")
            assert f"{path}: {errors} error" in result.err
        return result
    return run


# ------------------------------------------------------------------ the base is valid
def test_the_base_ruleset_is_valid(validate, capsys):
    run = validate()
    assert run.status == 0, run.err
    assert "game: ok" in run.out
    assert leges(capsys, "simulate", "game", "-g", "3", "-q").status == 0


def test_the_diagnostic_format_is_parsed_as_written():
    text = "a.yaml:3:7: error: unknown key 'x'\n    hint: did you mean\n          'y'?\nother\n"
    (d,) = parse_diagnostics(text)
    assert (d.location, d.severity, d.message, d.hint) == ("a.yaml:3:7", "error", "unknown key 'x'",
                                                           "did you mean\n'y'?")


# ------------------------------------------------------------------ YAML syntax
def test_yaml_bad_indentation_of_a_key(validate):
    run = validate("  max: 2\n", "   max: 2\n")
    expect(run, f"{RULES}:11:7", "YAML syntax", hint="indent")


def test_yaml_bad_indentation_inside_a_list_item(validate):
    run = validate("    per_player: true\n    visibility", "     per_player: true\n    visibility")
    expect(run, f"{RULES}:27:16", "YAML syntax", hint="indentation")


def test_yaml_unclosed_quote_points_at_the_opening_quote(validate):
    run = validate("title: Tic-Tac-Toe", 'title: "Tic-Tac-Toe')
    expect(run, f"{RULES}:3:8", "YAML syntax", "quoted", "line 4", hint=('closing "', f"{RULES}:4:"))


def test_yaml_quote_never_closed_until_the_end_of_the_file(validate):
    run = validate("title: Tic-Tac-Toe", "title: 'Tic-Tac-Toe")
    expect(run, f"{RULES}:3:8", "YAML syntax", "never closed", hint="end it with '")


def test_yaml_unclosed_flow_mapping(validate):
    run = validate("    - {name: x}\n", "    - {name: x\n")
    expect(run, f"{RULES}:14:7", "YAML syntax", hint=(f"'{{' opened at {RULES}:13:7", "'}'"))


def test_yaml_duplicate_keys_are_all_reported_with_the_first_place(validate):
    run = validate("title: Tic-Tac-Toe\n", "title: Tic-Tac-Toe\ntitle: Again\n")
    expect(run, f"{RULES}:4:1", "duplicate key 'title'", hint="line 3")
    run = validate("title: Tic-Tac-Toe\n", "title: Tic-Tac-Toe\ntitle: Again\nid: again\n")
    expect(run, f"{RULES}:4:1", "duplicate key 'title'", hint="line 3")
    expect(run, f"{RULES}:5:1", "duplicate key 'id'", hint="line 2")


def test_yaml_duplicate_key_in_a_nested_mapping(validate):
    run = validate("  - id: play\n", "  - id: play\n    id: again\n")
    expect(run, f"{RULES}:38:5", "duplicate key 'id'", hint="line 37")


def test_yaml_tab_in_the_indentation(validate):
    run = validate("  min: 2\n", "\tmin: 2\n")
    expect(run, f"{RULES}:10:1", "YAML syntax", "tab", hint="spaces")


def test_yaml_control_character(validate):
    run = validate("title: Tic-Tac-Toe", "title: Tic\x01Tac-Toe")
    expect(run, f"{RULES}:3:11", "not allowed")


def test_yaml_not_utf8(ruleset, capsys, tmp_path):
    ruleset()
    (tmp_path / "game" / "ruleset.yaml").write_bytes(b"leges: 1\ntitle: \xff\xfe\n")
    run = leges(capsys, "validate", "game")
    expect(run, f"{RULES}:2:8", "not UTF-8")  # at the first byte that is not UTF-8


def test_yaml_nested_absurdly_deep(validate):
    run = validate(text="leges: 1\nx: " + "[" * 5000 + "]" * 5000 + "\n")
    (d,) = run.diagnostics  # where the YAML reader gave up: a thousand brackets in
    assert re.fullmatch(rf"{RULES}:2:\d+", d.location) and "nested too deeply" in d.message, run.err


# ------------------------------------------------------------------ schema violations
def test_schema_unknown_key_with_did_you_mean(validate):
    run = validate("    per_player: true\n    count: 5", "    per_playr: true\n    count: 5")
    expect(run, f"{RULES}:20:5", "unknown key 'per_playr'", hint="did you mean 'per_player'?")


def test_schema_unknown_top_level_key(validate):
    run = validate("players:\n", "playerz: 3\nplayers:\n")
    expect(run, f"{RULES}:9:1", "unknown key 'playerz'", hint="did you mean 'players'?")


def test_schema_wrong_type(validate):
    run = validate("  min: 2", "  min: two")
    expect(run, f"{RULES}:10:8", "expected integer", "'two'")


def test_schema_wrong_type_among_alternatives(validate):
    run = validate("    count: 5", "    count: five")
    expect(run, f"{RULES}:21:12", "expected a whole number or a mapping", "'five'", hint="player count")


def test_schema_missing_required_key(validate):
    run = validate('  - id: place\n    source: {book: folk, section: Play, quote: "put one of your marks on an empty square"}\n',
                   "  - id: place\n")
    expect(run, f"{RULES}:47:5", "missing required key 'source'")


def test_schema_missing_key_next_to_its_misspelling(validate):
    run = validate("    source: {book: folk, section: Play, quote: \"put",
                   "    source: {book: folk, sectoin: Play, quote: \"put")
    expect(run, f"{RULES}:48:13", "missing required key 'section'", hint="'sectoin'")
    expect(run, f"{RULES}:48:26", "unknown key 'sectoin'", hint="did you mean 'section'?")


def test_schema_source_needs_one_of_its_forms(validate):
    run = validate("    source: {book: folk, section: Play, quote: \"put", "    source: {quote: \"put")
    expect(run, f"{RULES}:48:13", "needs 'book' and 'section'", "'reading'")


def test_schema_bad_enum_value(validate):
    run = validate("    visibility: all", "    visibility: owners")
    expect(run, f"{RULES}:28:17", "'owners' is not one of", "'owner'", hint="did you mean 'owner'?")


def test_schema_bad_id_pattern(validate):
    run = validate("  - id: supply", "  - id: sup-ply")
    expect(run, f"{RULES}:26:9", "'sup-ply'", "required form", hint="letters, digits and '_'")


def test_schema_bad_number_range(validate):
    run = validate("  min: 2", "  min: 0")
    expect(run, f"{RULES}:10:8", "minimum")


def test_schema_every_violation_of_a_file_at_once(validate):
    text = (BASE.replace("    per_player: true\n    count: 5", "    per_playr: true\n    count: 5")
            .replace("  min: 2", "  min: two").replace("    visibility: all", "    visibility: owners"))
    run = validate(text=text)
    expect(run, f"{RULES}:10:8", "expected integer")
    expect(run, f"{RULES}:20:5", "unknown key 'per_playr'")
    expect(run, f"{RULES}:28:17", "'owners' is not one of")
    assert "game: 3 errors" in run.err


def test_an_empty_file(validate):
    expect(validate(text=""), f"{RULES}:1:1", "empty")


def test_a_file_that_is_not_a_mapping(validate):
    expect(validate(text="- a\n- b\n"), f"{RULES}:1:1", "not a YAML mapping", "found a list")


# ------------------------------------------------------------------ rule-language syntax
def test_syntax_missing_colon_after_if(validate):
    run = validate(IF_ROW, IF_ROW[:-1])
    expect(run, f"{RULES}:53:84", "syntax error", "end of line", "':'", hint="':' at the end of its first line")


def test_syntax_equals_instead_of_double_equals_in_an_expression(validate):
    run = validate("end_if: winner != none", "end_if: winner = none")
    expect(run, f"{RULES}:43:20", "syntax error", "unexpected '='", hint="compare with '=='")


def test_syntax_equals_instead_of_double_equals_in_a_program(validate):
    run = validate(IF_ROW, "      if winner = me:")
    expect(run, f"{RULES}:53:17", "syntax error", "unexpected '='", hint="compare with '=='")


def test_syntax_equals_inside_brackets_still_hints_at_double_equals(validate):
    run = validate("count(s) > 0)\n    next", "count(s) = 0)\n    next")
    expect(run, f"{RULES}:43:57", "unexpected '='", hint="compare with '=='")


def test_syntax_unclosed_bracket_in_a_quoted_single_line_value(validate):
    run = validate(SQUARE, '      square: "[s for s in spaces if count(s) == 0"')
    expect(run, f"{RULES}:50:16", "syntax error", "'[' is never closed", hint="']'")


def test_syntax_unclosed_bracket_in_a_program(validate):
    run = validate(MOVE, "      move top(supply(me) to square")
    expect(run, f"{RULES}:52:27", "syntax error", "unexpected 'to'", "')'",
           hint=f"the '(' at {RULES}:52:15")


def test_syntax_unclosed_bracket_at_the_end_of_a_program(validate):
    run = validate("        winner = me", "        winner = max(1, 2")
    expect(run, f"{RULES}:54:21", "'(' is never closed", hint="')'")


def test_syntax_stray_closing_bracket(validate):
    run = validate(SCORE, SCORE + " )")
    expect(run, f"{RULES}:58:39", "syntax error", "unexpected ')'", hint="no opening '('")


def test_syntax_stray_token_in_a_program(validate):
    run = validate(MOVE, MOVE + " square")
    expect(run, f"{RULES}:52:38", "syntax error", "unexpected 'square'")


def test_syntax_stray_character(validate):
    run = validate(MOVE, MOVE + " $")
    expect(run, f"{RULES}:52:38", "syntax error", "unexpected character '$'")


def test_syntax_unexpected_indent(validate):
    run = validate(MOVE, MOVE + "\n        log 1")
    expect(run, f"{RULES}:53:9", "syntax error", "unexpected indent", hint="line up")


def test_syntax_block_not_indented(validate):
    run = validate("        winner = me", "      winner = me")
    expect(run, f"{RULES}:54:7", "syntax error", hint="indent the lines of the block")


def test_syntax_errors_of_several_rules_are_all_reported(validate):
    text = BASE.replace("end_if: winner != none", "end_if: winner = none").replace(MOVE, MOVE + " square")
    run = validate(text=text)
    expect(run, f"{RULES}:43:20", "unexpected '='")
    expect(run, f"{RULES}:52:38", "unexpected 'square'")
    assert "game: 2 errors" in run.err


def test_syntax_rule_nested_absurdly_deep(validate):
    run = validate(SCORE, "  score: " + "-" * 400 + "1")
    (d,) = run.diagnostics
    assert run.status == 2 and "nested more than" in d.message, run.err
    assert re.fullmatch(rf"{RULES}:58:\d+", d.location) and 10 <= int(d.location.split(":")[-1]) <= 410


# ----------------------------------------------- positions inside every kind of YAML scalar
def test_position_inside_a_literal_block_with_a_header_comment_and_a_blank_line(validate):
    run = validate(TURN, "    turn: |-  # the turn\n\n      act place place")
    expect(run, f"{RULES}:43:17", "unexpected 'place'")


def test_position_in_a_plain_single_line_program(validate):
    run = validate(TURN, "    turn: act place place")
    expect(run, f"{RULES}:41:21", "unexpected 'place'")


def test_position_in_a_double_quoted_single_line_program(validate):
    run = validate(TURN, '    turn: "act place place"')
    expect(run, f"{RULES}:41:22", "unexpected 'place'")


def test_position_in_a_single_quoted_value_with_a_doubled_quote(validate):
    run = validate(TURN, "    turn: 'log ''its'' place'")
    expect(run, f"{RULES}:41:24", "unexpected 'place'")


def test_position_inside_a_folded_block(validate):
    run = validate(END_IF, "    end_if: >\n      winner != none or\n      all(spaces, s => count(s) = 0)")
    expect(run, f"{RULES}:45:33", "unexpected '='", hint="compare with '=='")


def test_position_at_the_end_of_a_multi_line_plain_value(validate):
    run = validate(END_IF, "    end_if: winner != none or\n      all(spaces, s => count(s) > 0) +")
    expect(run, f"{RULES}:44:39", "syntax error", "end of text")


def test_position_of_a_name_on_the_second_line_of_a_plain_value(validate):
    run = validate(END_IF, "    end_if: winner != none or\n        all(spaces, s => count(s) > zero)")
    expect(run, f"{RULES}:44:37", "unknown name 'zero'")


def test_position_inside_a_double_quoted_value_with_escapes(validate):
    run = validate(END_IF, r'    end_if: "winner != none or all(spaces, s => count(s) = \"0\")"')
    expect(run, f"{RULES}:43:58", "unexpected '='")


def test_position_after_escapes_in_a_double_quoted_value(validate):
    run = validate(END_IF, r'    end_if: "text(winner) == \"x\" or sqaure"')
    expect(run, f"{RULES}:43:39", "unknown name 'sqaure'")


def test_position_in_a_file_with_windows_line_ends(validate):
    run = validate(MOVE, "      move top(supply(me)) to squre", newline="\r\n")
    expect(run, f"{RULES}:52:31", "unknown name 'squre'", hint="did you mean 'square'?")
    run = validate(END_IF, "    end_if: >\n      winner != none or\n      all(spaces, s => count(s) = 0)", newline="\r\n")
    expect(run, f"{RULES}:45:33", "unexpected '='")


def test_positions_inside_scalars_match_the_text_in_every_style():
    """Every character of a rule text is located on that very character of the file."""
    from leges.text.yaml_source import load_yaml_text
    text = "count(s) == 'x' and it.b + f(q\"r)"
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    one, two = "count(s) == 'x' and", "it.b + f(q\"r)"
    styles = {
        "plain": f"k:\n  v: {text}\n",
        "single": "k:\n  v: '" + text.replace("'", "''") + "'\n",
        "double": f'k:\n  v: "{escaped}"\n',
        "literal": f"k:\n  v: |\n    {one}\n      {two}\n",
        "folded": f"k:\n  v: >-\n    {one}\n    {two}\n",
        "plain on two lines": f"k:\n  v: {one}\n    {two}\n",
        "double on two lines": 'k:\n  v: "' + one + '\n    ' + two.replace('"', '\\"') + '"\n',
        "literal with header": f"k:\n  v: |+2 # note\n\n    {one}\n    {two}\n",
    }
    for style, yaml_text in styles.items():
        doc = load_yaml_text(yaml_text, "t.yaml")
        value = doc.data["k"]["v"]
        origin = doc.text_origin(("k", "v"))
        file_lines = yaml_text.split("\n")
        for i, line in enumerate(value.split("\n")):
            for j, ch in enumerate(line):
                if ch.isspace():
                    continue
                pos = origin.locate(i + 1, j + 1)
                assert file_lines[pos.line - 1][pos.col - 1] == ch, f"{style}: {ch!r} at {pos}"


# ------------------------------------------------------------------ unknown names
def test_unknown_name_with_did_you_mean(validate):
    run = validate(MOVE, "      move top(supply(me)) to squre")
    expect(run, f"{RULES}:52:31", "unknown name 'squre'", hint="did you mean 'square'?")


def test_unknown_function_with_did_you_mean(validate):
    run = validate(MOVE, "      move tops(supply(me)) to square")
    expect(run, f"{RULES}:52:12", "unknown function 'tops'", hint="'top'")


def test_unknown_zone_in_a_rule_with_did_you_mean(validate):
    run = validate(MOVE, "      move top(suply(me)) to square")
    expect(run, f"{RULES}:52:16", "'suply'", hint="did you mean 'supply'?")


def test_unknown_start_zone_with_did_you_mean(validate):
    run = validate("    start: supply", "    start: suply")
    expect(run, f"{RULES}:22:12", "unknown zone 'suply'", hint="did you mean 'supply'?")


def test_unknown_action_with_did_you_mean(validate):
    run = validate(TURN, "    turn: |\n      act plac")
    expect(run, f"{RULES}:42:11", "unknown action 'plac'", hint="did you mean 'place'?")


def test_unknown_phase_in_goto_with_did_you_mean(validate):
    run = validate(MOVE, MOVE + "\n      goto plya")
    expect(run, f"{RULES}:53:7", "unknown phase 'plya'", hint="did you mean 'play'?")


def test_unknown_event_with_did_you_mean(validate):
    text = BASE.replace("actions:", EVENTS_AND_PROCEDURES).replace(MOVE, MOVE + "\n      emit plaed(square=square)")
    run = validate(text=text)
    expect(run, f"{RULES}:63:7", "unknown event 'plaed'", hint="did you mean 'placed'?")


def test_unknown_event_parameter_with_did_you_mean(validate):
    text = BASE.replace("actions:", EVENTS_AND_PROCEDURES).replace(MOVE, MOVE + "\n      emit placed(squar=square)")
    run = validate(text=text)
    expect(run, f"{RULES}:63:25", "event 'placed' has no parameter 'squar'", hint="did you mean 'square'?")
    expect(run, f"{RULES}:63:7", "needs parameter 'square'")


def test_unknown_procedure_with_did_you_mean(validate):
    text = BASE.replace("actions:", EVENTS_AND_PROCEDURES).replace(MOVE, MOVE + "\n      anounce(me)")
    run = validate(text=text)
    expect(run, f"{RULES}:63:7", "unknown procedure 'anounce'", hint="did you mean 'announce'?")


def test_unknown_variable_in_an_assignment_with_did_you_mean(validate):
    run = validate("        winner = me", "        winer = me")
    expect(run, f"{RULES}:54:9", "'winer'", hint="did you mean 'winner'?")


def test_unknown_type_of_a_variable_with_did_you_mean(validate):
    run = validate("    type: player", "    type: playr")
    expect(run, f"{RULES}:32:11", "unknown type 'playr'", hint="did you mean 'player'?")


def test_unknown_rulebook_with_did_you_mean(validate):
    run = validate("{book: folk, section: Components", "{book: fork, section: Components")
    expect(run, f"{RULES}:19:20", "no rulebook 'fork'", hint="did you mean 'folk'?")


def test_next_naming_a_phase_that_does_not_exist(validate):
    run = validate("    next: end", "    next: ply")
    expect(run, f"{RULES}:44:11", "unknown phase 'ply'", hint="did you mean 'play'?")


# ------------------------------------------------------------------ type errors
def test_type_adding_a_zone_to_a_number(validate):
    run = validate(MOVE, MOVE + "\n      let z = supply(me) + 1")
    expect(run, f"{RULES}:53:26", "'+' needs numbers", "zone", "int")


def test_type_comparing_a_player_with_a_string(validate):
    run = validate(SCORE, '  score: if p == "x" then 1 else 0')
    expect(run, f"{RULES}:58:15", "comparing player with str")


def test_type_unknown_property_of_a_component(validate):
    run = validate(SCORE, "  score: if winner == p then top(supply(p)).colour else 0")
    expect(run, f"{RULES}:58:45", "has no property 'colour'")


def test_type_unknown_property_with_did_you_mean(validate):
    text = BASE.replace("    count: 5", "    count: 5\n    props: {colour: red}").replace(
        SCORE, '  score: if winner == p and top(supply(p)).color == "red" then 1 else 0')
    run = validate(text=text)
    expect(run, f"{RULES}:59:44", "has no property 'color'", hint="did you mean 'colour'?")


def test_type_misspelt_component_type(validate):
    run = validate(SCORE, '  score: if winner == p and top(supply(p)).type == "mrak" then 1 else 0')
    expect(run, f"{RULES}:58:52", "'mrak' is not a known value of 'type'", hint="did you mean 'mark'?")


def test_type_misspelt_property_value(validate):
    text = BASE.replace("    count: 5", "    count: 5\n    props: {colour: red}").replace(
        SCORE, '  score: if winner == p and top(supply(p)).colour == "rde" then 1 else 0')
    run = validate(text=text)
    expect(run, f"{RULES}:59:54", "'rde' is not a known value of 'colour'", hint="did you mean 'red'?")


def test_type_assigning_a_number_to_a_player_variable(validate):
    run = validate("        winner = me", "        winner = 3")
    expect(run, f"{RULES}:54:18", "'winner'", "player", "int")


def test_type_score_must_be_a_number(validate):
    run = validate(SCORE, "  score: winner")
    expect(run, f"{RULES}:58:10", "expected int", "player")


def test_type_per_player_zone_used_without_its_player(validate):
    run = validate(MOVE, "      move top(supply(me)) to supply")
    expect(run, f"{RULES}:52:31", "zone 'supply' is per player", "supply(p)")


def test_me_where_no_player_acts(validate):
    run = validate(END_IF, "    end_if: count(supply(me)) == 0")
    expect(run, f"{RULES}:43:26", "'me' has no meaning here", hint="current")


# ------------------------------------------------------------------ consistency
BONUS_PHASE = """\
  - id: bonus
    source: {book: folk, section: Play, quote: "x begins"}
    turn: |
      act place
    next: end

actions:"""


def test_unreachable_phase(validate):
    run = validate(text=BASE.replace("actions:", BONUS_PHASE))
    expect(run, f"{RULES}:46:9", "phase 'bonus' can never be reached", hint="goto bonus")


def test_a_phase_reached_by_goto_is_not_unreachable(validate):
    run = validate(text=BASE.replace("actions:", BONUS_PHASE).replace("        winner = me",
                                                                      "        winner = me\n        goto bonus"))
    assert run.status == 0, run.err


def test_include_outside_the_ruleset_folder(validate):
    run = validate("map: tictactoe", "map: tictactoe\ninclude: [../other.yaml]")
    expect(run, f"{RULES}:16:11", "include '../other.yaml' is outside the ruleset folder")


def test_include_of_an_absolute_path(validate):
    run = validate("map: tictactoe", "map: tictactoe\ninclude: [/etc/passwd.yaml]")
    expect(run, f"{RULES}:16:11", "'/etc/passwd.yaml'", hint="inside the ruleset folder")


def test_include_that_does_not_exist(validate):
    run = validate("map: tictactoe", "map: tictactoe\ninclude: [more.yaml]")
    expect(run, f"{RULES}:16:11", "included file 'more.yaml' does not exist")


def test_errors_in_an_included_file_are_located_in_it(validate):
    run = validate("map: tictactoe", "map: tictactoe\ninclude: [more.yaml]",
                   files={"more.yaml": "zones:\n  - id: discard\n    kind: pille\n"})
    expect(run, "game/more.yaml:3:11", "'pille' is not one of", hint="did you mean 'pile'?")


def test_yaml_error_in_an_included_file(validate):
    run = validate("map: tictactoe", "map: tictactoe\ninclude: [more.yaml]",
                   files={"more.yaml": "zones:\n  - id: discard\n    kind: \"pile\n"})
    expect(run, "game/more.yaml:3:11", "never closed")


def test_missing_map(validate):
    run = validate("map: tictactoe", "map: tictacto")
    expect(run, f"{RULES}:15:6", "no map named 'tictacto'", hint="maps/tictacto.yaml")


def test_errors_in_the_map_are_located_in_the_map(validate, tmp_path):
    (tmp_path / "maps").mkdir(exist_ok=True)
    run = validate()
    assert run.status == 0
    (tmp_path / "maps" / "tictactoe.yaml").write_text(MAP.replace("topology: grid", "topology: gird"))
    run = validate()
    expect(run, "maps/tictactoe.yaml:4:11", "'gird' is not one of", hint="'grid'")


def test_count_contradicts_the_box_total(validate):
    run = validate("    count: 5", "    count: 5\n    box: {total: 40}")
    d = expect(run, f"{RULES}:22:18", "the box holds 40", "2 players × 5", "= 10")
    assert f"{RULES}:21:12" in d.message  # where the count is


def test_box_total_contradicts_the_count_per_seat(validate):
    run = validate("    count: 5", "    count: 5\n    box: {total: 12, per_seat: [5, 5]}")
    expect(run, f"{RULES}:22:18", "holds 12 in all", "5 + 5 = 10", hint=f"{RULES}:22:32")


def test_box_per_seat_below_the_count(validate):
    run = validate("    count: 5", "    count: 5\n    box: {per_seat: [5, 4]}")
    expect(run, f"{RULES}:22:25", "each needs 5", "has 4 for o", hint=f"{RULES}:21:12")


def test_kinds_of_a_component_contradict_its_count(validate):
    run = validate("    count: 5", "    count: 5\n    instances:\n      - {shape: round, count: 3}\n"
                                   "      - {shape: square, count: 1}")
    expect(run, f"{RULES}:21:12", "count says 5 for 2 players", "add up to 4", hint=f"{RULES}:23:7")


def test_no_count_for_a_number_of_players(validate):
    run = validate("    count: 5", "    count: {3: 5}")
    expect(run, f"{RULES}:21:12", "no count for 2 players")


TWICE = ("zones:\n  - id: supply\n", "zones:\n  - id: supply\n    per_player: true\n  - id: supply\n")


def test_declared_twice(validate):
    run = validate(*TWICE)
    assert run.status == 2
    found = [d for d in run.diagnostics if d.location == f"{RULES}:28:9"]
    assert found and "zone 'supply' is declared twice" in found[0].message, run.err
    assert f"{RULES}:26:5" in found[0].hint


def test_declared_twice_is_reported_once(validate):
    run = validate(*TWICE)
    expect(run, f"{RULES}:28:9", "zone 'supply' is declared twice")


def test_several_errors_in_one_file_are_all_reported(validate):
    run = validate(MOVE, "      move top(supply(me)) to squre\n      goto plya\n      let n = supply(me) + 1\n"
                         "      if me == \"x\":\n        pass")
    expect(run, f"{RULES}:52:31", "unknown name 'squre'", hint="'square'")
    expect(run, f"{RULES}:53:7", "unknown phase 'plya'", hint="'play'")
    expect(run, f"{RULES}:54:26", "'+' needs numbers")
    expect(run, f"{RULES}:55:13", "comparing player with str")
    assert "game: 4 errors" in run.err
    locations = [d.location for d in run.diagnostics]
    assert locations == sorted(locations, key=lambda s: [int(x) for x in s.split(":")[1:]])


# ------------------------------------------------------------------ errors while a game runs
def simulate(ruleset, capsys, *edit, games: str = "2", **kwargs) -> Run:
    path = ruleset(*edit, **kwargs)
    return leges(capsys, "simulate", path, "-g", games, "-q")


def test_run_time_endless_while_loop(ruleset, capsys):
    run = simulate(ruleset, capsys, MOVE, MOVE + "\n      while true:\n        pass")
    expect(run, f"{RULES}:53:7", "while loop ran more than", hint="max_loop")


def test_run_time_step_budget(ruleset, capsys):
    text = BASE.replace("map: tictactoe", "map: tictactoe\nlimits: {max_steps: 1000}").replace(
        MOVE, MOVE + "\n      while true:\n        pass")
    run = simulate(ruleset, capsys, text=text)
    expect(run, f"{RULES}:54:7", "more than 1000 steps", hint="max_steps")


def test_run_time_repeat_bound(ruleset, capsys):
    run = simulate(ruleset, capsys, MOVE, MOVE + "\n      repeat 100000:\n        pass")
    expect(run, f"{RULES}:53:7", "100000", "more than", hint="max_loop")


def test_run_time_none_where_a_component_is_needed(ruleset, capsys):
    run = simulate(ruleset, capsys, MOVE, "      let k = top(square).owner.seat\n" + MOVE)
    expect(run, f"{RULES}:52:7", "rule failed", "none")


def test_run_time_fail_statement(ruleset, capsys):
    run = simulate(ruleset, capsys, MOVE, MOVE + '\n      fail "the rule says no"')
    expect(run, f"{RULES}:53:7", "rule failed", "the rule says no")


def test_run_time_division_by_zero_in_a_parameter(ruleset, capsys):
    run = simulate(ruleset, capsys, SQUARE, '      square: "[s for s in spaces if count(s) / (num_players - 2) == 0]"')
    assert run.status == 2 and "division by zero" in run.err
    assert re.search(r"^game/ruleset\.yaml:\d+:\d+: error: rule failed: division by zero", run.err, re.M), run.err


def test_run_time_error_in_end_if_is_located(ruleset, capsys):
    run = simulate(ruleset, capsys, END_IF, "    end_if: top(supply(x)).owner.seat > 5")
    assert run.status == 2
    assert re.search(r"^game/ruleset\.yaml:(3[7-9]|4[0-4]):\d+: error: .*(none|wrong kind)", run.err, re.M), run.err


def test_run_time_error_in_scoring(ruleset, capsys):
    run = simulate(ruleset, capsys, SCORE, "  score: 1 / (num_players - 2)")
    expect(run, f"{RULES}:58:10", "division by zero")


def test_run_time_error_in_a_component_label(ruleset, capsys):
    run = simulate(ruleset, capsys, "    label: text(it.owner)", "    label: text(1 / (num_players - 2))")
    expect(run, f"{RULES}:23:12", "label of 'mark'")


def test_label_reading_the_state(ruleset, capsys):
    run = simulate(ruleset, capsys, "    label: text(it.owner)", "    label: text(top(r0c0).owner.seat)")
    expect(run, f"{RULES}:23:12", "label of 'mark'", hint="own properties")


def test_run_time_first_player_is_none(ruleset, capsys):
    run = simulate(ruleset, capsys, "    first: x", "    first: winner")
    expect(run, f"{RULES}:39:12", "none")


def test_run_time_division_by_zero_has_a_fitting_hint(ruleset, capsys):
    run = simulate(ruleset, capsys, MOVE, MOVE + "\n      let k = 1 / (num_players - 2)")
    d = expect(run, f"{RULES}:53:7", "division by zero")
    assert d.hint is None or "none" not in d.hint


def test_run_time_error_through_the_installed_command(ruleset, tmp_path):
    ruleset(MOVE, MOVE + "\n      while true:\n        pass")
    proc = subprocess.run([sys.executable, "-m", "leges", "simulate", "game", "-g", "1"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    no_traceback(proc.stdout, proc.stderr)
    assert proc.returncode == 2
    assert f"{RULES}:53:7: error: while loop ran more than" in proc.stderr


def test_validate_through_the_installed_command(ruleset, tmp_path):
    ruleset(MOVE, "      move top(supply(me)) to squre")
    proc = subprocess.run([sys.executable, "-m", "leges", "validate", "game"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    no_traceback(proc.stdout, proc.stderr)
    assert proc.returncode == 2
    assert f"{RULES}:52:31: error: unknown name 'squre'\n    hint: did you mean 'square'?" in proc.stderr


# ------------------------------------------------------------------ not a ruleset, missing files
@pytest.mark.parametrize("command", ["validate", "simulate", "info", "play"])
def test_missing_ruleset(command, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = leges(capsys, command, "nowhere")
    assert run.status == 2
    assert "nowhere" in run.err and "no ruleset here" in run.err


def test_a_map_given_as_a_ruleset(ruleset, capsys):
    ruleset()
    run = leges(capsys, "simulate", "maps/tictactoe.yaml")
    expect(run, "maps/tictactoe.yaml:1:1", "map file, not a ruleset")


def test_a_folder_without_a_ruleset(ruleset, capsys):
    ruleset()
    run = leges(capsys, "validate", "maps")
    assert run.status == 2 and "maps/ruleset.yaml" in run.err and "no ruleset here" in run.err


def test_bad_players_and_games_options(ruleset, capsys):
    ruleset()
    run = leges(capsys, "simulate", "game", "-p", "3")
    assert run.status == 2 and "2 to 2 players, not 3" in run.err
    run = leges(capsys, "simulate", "game", "-g", "0")
    assert run.status == 2 and "--games must be at least 1" in run.err


# ------------------------------------------------------------------ replay
@pytest.fixture
def record(ruleset, capsys, tmp_path):
    """A record of a finished game, as `leges simulate --records` writes it."""
    ruleset()
    assert leges(capsys, "simulate", "game", "-g", "1", "-q", "--records", "records").status == 0
    (path,) = (tmp_path / "records").glob("*.json")
    return path.relative_to(tmp_path)  # the working folder is tmp_path


def test_replay_of_a_good_record(record, capsys):
    assert leges(capsys, "replay", str(record)).status == 0


def test_replay_of_a_record_that_is_not_json(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.json").write_text("{\n  not json\n}\n")
    expect(leges(capsys, "replay", "bad.json"), "bad.json:2:3", "not a JSON record")


def test_replay_of_a_missing_record(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = leges(capsys, "replay", "none.json")
    assert run.status == 2 and "none.json: error: no such record file" in run.err


def test_replay_of_a_folder(record, capsys):
    run = leges(capsys, "replay", "records")
    assert run.status == 2 and "records: error: is a directory" in run.err


def test_replay_of_a_binary_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bin.json").write_bytes(b"\xff\xfe\x00\x01")
    expect(leges(capsys, "replay", "bin.json"), "bin.json:1:1", "not a JSON record", "UTF-8")


def test_replay_of_json_that_is_not_a_record(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("list.json").write_text("[1, 2]\n")
    expect(leges(capsys, "replay", "list.json"), "list.json:1:1", "not a Leges game record")


def test_replay_of_an_illegal_action_points_at_it(record, capsys):
    data = json.loads(record.read_text())
    data["actions"][2] = data["actions"][0]  # the square is taken by then
    record.write_text(json.dumps(data, indent=1))
    lines = record.read_text().split("\n")
    line = [i for i, text in enumerate(lines, 1) if data["actions"][0] in text][1]  # the second occurrence
    col = lines[line - 1].index('"') + 1
    run = leges(capsys, "replay", str(record))
    expect(run, f"{record}:{line}:{col}", "action 3 of the record", "is not a legal action", hint="legal now")


@pytest.mark.parametrize("key, value, words", [
    ("players", "two", "'players' should be a whole number"),
    ("seed", None, "'seed' should be a whole number"),
    ("actions", "place", "'actions' should be a list"),
    ("actions", [1], "action 1 of the record is not a text"),
    ("ruleset_path", 7, "'ruleset_path' should be a string"),
])
def test_replay_of_a_damaged_record(record, capsys, key, value, words):
    data = json.loads(record.read_text())
    data[key] = value
    record.write_text(json.dumps(data, indent=1))
    lines = record.read_text().split("\n")
    line = next(i for i, text in enumerate(lines, 1) if f'"{key}"' in text)
    col = lines[line - 1].index(": ") + 3
    if isinstance(value, list):  # at the item that is not a text
        line, col = line + 1, 3
    run = leges(capsys, "replay", str(record))
    expect(run, f"{record}:{line}:{col}", words)


def test_replay_of_a_record_with_too_many_players(record, capsys):
    data = json.loads(record.read_text())
    data["players"] = 7
    record.write_text(json.dumps(data, indent=1))
    run = leges(capsys, "replay", str(record))
    line = [i for i, t in enumerate(record.read_text().split("\n"), 1) if '"players"' in t][0]
    expect(run, f"{record}:{line}:13", "7 players", "2 to 2")


def test_replay_of_a_record_whose_ruleset_is_gone(record, capsys):
    data = json.loads(record.read_text())
    data["ruleset_path"] = "gone"
    record.write_text(json.dumps(data, indent=1))
    run = leges(capsys, "replay", str(record))
    assert run.status == 2 and "gone" in run.err and "no ruleset here" in run.err


# ------------------------------------------------------------------ scenarios (`leges test`)
SCENARIO = """\
leges_scenario: 1
id: s
ruleset: game
players: 2
source: {book: folk, section: Play}
steps:
  - do: place square=r0c0
    expect: count(r0c0) == 1
"""


@pytest.fixture
def scenario(ruleset, tmp_path):
    ruleset()

    def write(old: str | None = None, new: str | None = None, name: str = "s.yaml") -> str:
        text = SCENARIO if old is None else SCENARIO.replace(old, new)
        (tmp_path / name).write_text(text)
        return name
    return write


def test_a_good_scenario_passes(scenario, capsys):
    run = leges(capsys, "test", scenario())
    assert run.status == 0 and "1 passed, 0 failed" in run.out


def test_scenario_with_a_syntax_error_in_a_check(scenario, capsys):
    run = leges(capsys, "test", scenario("count(r0c0) == 1", "count(r0c0) = 1"))
    expect(run, "s.yaml:8:25", "unexpected '='", hint="compare with '=='")


def test_scenario_with_an_unknown_name_in_a_check(scenario, capsys):
    run = leges(capsys, "test", scenario("count(r0c0) == 1", "cont(r0c0) == 1"))
    expect(run, "s.yaml:8:13", "unknown function 'cont'", hint="'count'")


def test_scenario_with_a_syntax_error_in_its_arrangement(scenario, capsys):
    name = scenario("steps:", "position:\n  arrange: |\n    move top(supply(x)) to r0c0\n"
                              "    move top(supply(x) to r0c1\nsteps:")
    run = leges(capsys, "test", name)
    expect(run, "s.yaml:9:24", "unexpected 'to'", hint="the '(' at s.yaml:9:13")


def test_scenario_with_an_unknown_key(scenario, capsys):
    run = leges(capsys, "test", scenario("steps:", "stpes:"))
    expect(run, "s.yaml:6:1", "unknown key 'stpes'", hint="did you mean 'steps'?")


def test_scenario_file_missing(scenario, capsys):
    scenario()
    run = leges(capsys, "test", "nothing.yaml")
    assert run.status == 2 and "nothing.yaml: error: no such file" in run.err


def test_a_broken_scenario_does_not_stop_the_others(scenario, capsys):
    scenario(name="a.yaml")
    scenario("steps:", "stpes:", name="b.yaml")
    scenario(name="c.yaml")
    run = leges(capsys, "test", "a.yaml", "b.yaml", "c.yaml")
    expect(run, "b.yaml:6:1", "unknown key 'stpes'")
    assert "ok   a.yaml" in run.out and "ok   c.yaml" in run.out
    assert "2 passed, 0 failed, 1 could not be run" in run.out


def test_scenario_with_an_illegal_action_fails_with_its_position(scenario, capsys):
    run = leges(capsys, "test", scenario("place square=r0c0", "place square=r9c9"))
    assert run.status == 1
    assert "s.yaml:7:5: 'place square=r9c9' is not a legal action for x" in run.out


def test_scenario_with_an_unknown_seat(scenario, capsys):
    run = leges(capsys, "test", scenario("steps:", "position:\n  turn: z\nsteps:"))
    expect(run, "s.yaml:7:9", "no player 'z'")


def test_scenario_with_an_unknown_phase(scenario, capsys):
    run = leges(capsys, "test", scenario("steps:", "position:\n  phase: ply\nsteps:"))
    expect(run, "s.yaml:7:10", "no phase 'ply'", hint="did you mean 'play'?")


def test_scenario_with_too_many_players(scenario, capsys):
    run = leges(capsys, "test", scenario("players: 2", "players: 5"))
    expect(run, "s.yaml:4:10", "5")


# ------------------------------------------------------------------ known gaps (other files)
def test_misspelt_turn_order_has_did_you_mean(validate):
    run = validate("    order: clockwise", "    order: clockwize")
    expect(run, f"{RULES}:40:12", "'clockwize'", hint="clockwise")


def test_misspelt_end_in_next_has_did_you_mean(validate):
    run = validate("    next: end", "    next: ned")
    expect(run, f"{RULES}:44:11", "unknown phase 'ned'", hint="did you mean 'end'?")


def test_missing_map_has_did_you_mean(validate):
    run = validate("map: tictactoe", "map: tictacto")
    expect(run, f"{RULES}:15:6", "no map named 'tictacto'", hint="did you mean 'tictactoe'?")


def test_initial_value_of_the_wrong_type(validate):
    run = validate("    initial: null", "    initial: 3")
    expect(run, f"{RULES}:33:14", "winner", "player", "int")


def test_end_if_must_be_a_condition(validate):
    run = validate(END_IF, "    end_if: supply(x)")
    expect(run, f"{RULES}:43:13", "bool")


def test_replay_against_a_ruleset_whose_rule_fails(record, ruleset, capsys):
    ruleset(MOVE, MOVE + "\n      while true:\n        pass")  # the same game, now broken
    run = leges(capsys, "replay", str(record))
    expect(run, f"{RULES}:53:7", "while loop ran more than", hint="max_loop")
    lines = record.read_text().split("\n")
    line = [i for i, text in enumerate(lines, 1) if '"actions"' in text][0] + 1
    expect(run, f"{record}:{line}:3", "action 1 of the record", "while loop")


def test_scenario_whose_ruleset_rule_fails(scenario, ruleset, capsys):
    ruleset(MOVE, MOVE + "\n      while true:\n        pass")
    run = leges(capsys, "test", scenario())
    expect(run, f"{RULES}:53:7", "while loop ran more than")


def test_a_number_where_a_name_belongs_gets_a_hint_not_a_crash():
    """Found by the fuzzing campaign: a variant citing `book: -1000` stopped validate with a TypeError."""
    from leges.text.errors import did_you_mean
    assert did_you_mean(-1000, ["hu", "ru"]) is None
    assert did_you_mean(12, ["12a", 7]) == "did you mean '12a'?"


def test_a_dedent_to_no_open_block_is_located():
    """Found by the fuzzing campaign: lark's DedentError escaped as an internal error."""
    from leges.text.errors import LegesError
    from leges.lang.syntax.parser import parse_program
    from leges.text.origin import TextOrigin
    text = "for c in xs:\n     log text(c)\n    log text(c)\n"
    with pytest.raises(LegesError) as caught:
        parse_program(text, TextOrigin("rules.yaml", 10, 5))
    d = caught.value.diagnostics[0]
    assert "indented to a column no enclosing block starts at" in d.message
    assert (d.position.line, d.position.col) == (12, 5)  # the third line, at its first character
