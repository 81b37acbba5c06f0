"""Mods and requests are read strictly (issue 35, item 6), each refusal a located error with a hint:

- YAML: only its core types, written plainly; any explicit tag (`!!str`, `!!binary`, `!!python/...`,
  `!foo`, `!`) is refused where it is written;
- numbers bounded in digits before Python converts them (never Python's own "int string conversion"
  message), in YAML values, rule-language literals and JSON (saved states, records);
- variant requests (`--variant`, the page's, a record's): ASCII names, a parameter given once,
  numbers in the digits 0-9;
- `leges doc` carries no raw HTML of a ruleset into its Markdown.
"""
from __future__ import annotations

import json
import re

import pytest

import leges
from leges.text.errors import LegesError
from leges.text.json_source import parse_json
from leges.text.yaml_source import load_yaml_text
from helpers import ROOT
from test_errors import RULES, expect, leges as run_leges
from test_safety import edit, game  # noqa: F401  (a fixture)

POMPEII = str(ROOT / "rulesets" / "pompeii")


def refusal(call, *args) -> list:
    with pytest.raises(LegesError) as caught:
        call(*args)
    return caught.value.diagnostics


def one(call, *args):
    found = refusal(call, *args)
    assert len(found) == 1, [d.format() for d in found]
    assert found[0].hint, found[0].format()
    return found[0]


# ------------------------------------------------------------------ YAML tags
@pytest.mark.parametrize("value, tag", [
    ("!!str 12", "!!str"), ("!!str plain", "!!str"), ("!!binary aGk=", "!!binary"), ("!!int 3", "!!int"),
    ("!!python/object/apply:os.system ['true']", "!!python/object/apply:os.system"), ("!foo bar", "!foo"),
    ("! bare", "!"), ("!<tag:yaml.org,2002:str> x", "!<tag:yaml.org,2002:str>"), ("!!map {a: 1}", "!!map"),
    ("!!set {a}", "!!set"), ("!!omap [{a: 1}]", "!!omap"), ("&anchor !!str x", "!!str"), ("[1, !!float 2]", "!!float"),
])
def test_every_explicit_yaml_tag_is_refused_where_it_is_written(value, tag):
    d = one(load_yaml_text, f"a: 1\nb: {value}\n", "f.yaml")
    column = 4 + (value.index(tag) if value.startswith("[") else 0)
    assert (d.position.line, d.position.col) == (2, column), d.format()
    assert d.message == f"YAML tag '{tag}' is not allowed" and "without tags" in d.hint


def test_a_tagged_key_and_a_tag_after_an_anchor_on_another_line_are_refused():
    found = refusal(load_yaml_text, "!!str key: 1\nb: &x\n  !!binary aGk=\nc: *x\n", "f.yaml")
    assert [(d.position.line, d.position.col) for d in found] == [(1, 1), (2, 4)]  # the alias is not told again


def test_plain_yaml_and_what_looks_like_a_tag_inside_text_are_read():
    doc = load_yaml_text('a: "!!str"\nb: x != y\nc: \'!foo\'\nd: |\n  !!binary\ne: 1.5\nf: -7\n', "f.yaml")
    assert doc.data == {"a": "!!str", "b": "x != y", "c": "!foo", "d": "!!binary\n", "e": 1.5, "f": -7}


def test_validate_refuses_a_tag_in_a_ruleset(game, capsys):  # noqa: F811
    edit(game / "game" / "ruleset.yaml", "title: Tic-Tac-Toe", "title: !!binary VGljLVRhYy1Ub2U=")
    expect(run_leges(capsys, "validate", "game"), f"{RULES}:3:8", "YAML tag '!!binary'", hint="without tags")


# ------------------------------------------------------------------ numbers in YAML
@pytest.mark.parametrize("value, words", [
    ("9" * 4001, "4,001 digits"), ("9" * 5001, "5,001 digits"), ("12345678901234567", "17 digits"),
    ("9007199254740992", "past the bound"), ("-9007199254740992", "past the bound"), ("0x" + "f" * 20, "20 digits"),
    (".inf", "not a finite number"), ("-.inf", "not a finite number"), (".nan", "not a finite number"),
    ("1." + "5" * 40, "characters"), ("1.0e+400", "not a finite number"), ("1.0e+20", "past the bound"),
])
def test_a_number_too_long_or_past_its_bound_is_located_in_yaml(value, words):
    d = one(load_yaml_text, f"a: 1\nb: [2, {value}]\n", "f.yaml")
    assert (d.position.line, d.position.col) == (2, 8) and words in d.message, d.format()
    assert "int string conversion" not in d.message


def test_the_largest_numbers_are_read():
    doc = load_yaml_text("a: 9007199254740991\nb: -9007199254740991\nc: 0.1\nd: 1_000\n", "f.yaml")
    assert doc.data == {"a": 2 ** 53 - 1, "b": -(2 ** 53 - 1), "c": 0.1, "d": 1000}


def test_validate_locates_a_number_of_thousands_of_digits(game, capsys):  # noqa: F811
    for digits in (4001, 5001):
        edit(game / "game" / "ruleset.yaml", "    count: 5" if digits == 4001 else "    count: " + "9" * 4001,
             "    count: " + "9" * digits)
        d = expect(run_leges(capsys, "validate", "game"), f"{RULES}:21:12", f"{digits:,} digits", "at most 16")
        assert d.hint and "2^53" in d.hint


# ------------------------------------------------------------------ numbers in the rule language
@pytest.mark.parametrize("literal, words", [("9" * 5001, "5,001 digits"), ("9" * 4001, "4,001 digits"),
                                            ("99999999999999999", "17 digits"), ("9007199254740992", "past the bound")])
def test_a_literal_too_long_is_located_in_a_rule(game, capsys, literal, words):  # noqa: F811
    edit(game / "game" / "ruleset.yaml", "      move top(supply(me)) to square",
         f"      let big = 1 + {literal}\n      move top(supply(me)) to square")
    d = expect(run_leges(capsys, "validate", "game"), f"{RULES}:52:21", words)
    assert "int string conversion" not in d.message and d.hint


def test_a_literal_on_a_later_line_of_an_expression_is_located_there(game, capsys):  # noqa: F811
    edit(game / "game" / "ruleset.yaml", "    end_if: winner != none or all(spaces, s => count(s) > 0)",
         "    end_if: >-\n      winner != none or\n      count(spaces) > 99999999999999999999")
    expect(run_leges(capsys, "validate", "game"), f"{RULES}:45:23", "20 digits")


def test_the_bounds_of_text_and_of_the_runtime_agree():
    from leges.lang.codegen.runtime import MAX_INT
    from leges.text import numbers
    assert numbers.MAX_INT == MAX_INT and numbers.RULE_DIGITS == len(str(MAX_INT))


# ------------------------------------------------------------------ numbers in JSON
@pytest.mark.parametrize("number, words", [("9" * 5001, "5,001 digits"), ("9" * 4001, "4,001 digits"),
                                           ("123456789012345678901", "21 digits"), ("NaN", "NaN is not a JSON number"),
                                           ("-Infinity", "-Infinity is not a JSON number"),
                                           ("1e400", "not a finite number"), ("0." + "1" * 40, "characters")])
def test_a_number_too_long_is_located_in_json(number, words):
    text = '{\n  "seed": 1,\n  "vars": {"x": "' + "9" * 30 + '", "y": [1, ' + number + "]}\n}"
    d = one(parse_json, text, "s.json", "saved state")
    assert (d.position.line, d.position.col) == (3, 60) and words in d.message, d.format()


def test_a_generator_state_of_64_bits_is_still_read():
    assert parse_json('{"rng": 18446744073709551615, "x": 0.25}', "s.json", "saved state") == \
        {"rng": 2 ** 64 - 1, "x": 0.25}


def test_a_saved_state_with_a_huge_number_is_a_located_error():
    game = leges.load(str(ROOT / "rulesets" / "tictactoe"))
    text = game.new_initial_state(seed=3).to_json().replace('"turn_count":0', '"turn_count":' + "7" * 5001)
    d = one(game.state_from_json, text, "s.json")
    assert d.position.file == "s.json" and d.position.col > 1 and "5,001 digits" in d.message


def test_a_record_with_a_huge_seed_is_a_located_error(tmp_path):
    from leges.lab.records import read_record
    path = tmp_path / "r.json"
    path.write_text('{"leges_record": 1,\n "ruleset": "tictactoe", "players": 2,\n "seed": ' + "1" * 5001
                    + ',\n "actions": []}')
    d = one(read_record, str(path))
    assert (d.position.line, d.position.col) == (3, 10) and "5,001 digits" in d.message


# ------------------------------------------------------------------ variant requests
@pytest.mark.parametrize("requests, place, words", [
    (["mayfair\n"], (1, 8), "U+000A"), (["may\nfair"], (1, 4), "U+000A"), (["three_moves=٣"], (1, 13), "U+0663"),
    (["mayfaır"], (1, 6), "U+0131"), (["mayfair", "three_moves=\x1b[2J"], (2, 13), "U+001B"),
    (["three_moves=3", "three_moves=4"], (2, 1), "the first parameter of variant 'three_moves' is given twice"),
    (["three_moves=3", "three_moves.escape_moves=4"], (2, 1), "parameter 'escape_moves' of variant 'three_moves' is given twice"),
    (["three_moves.escape_moves=3", "three_moves=3"], (2, 1), "parameter 'escape_moves'"),
    (["three_moves=" + "9" * 5001], (1, 1), "characters: at most"), (["three_moves=" + "9" * 40], (1, 13), "40 digits"),
    (["three_moves=３"], (1, 13), "U+FF13"), (["three_moves=3.0"], (1, 13), "takes int values"),
    (["3moves"], (1, 1), "is not NAME"), (["mayfair "], (1, 8), "is not NAME"), (["may-fair"], (1, 4), "is not NAME"),
    (["three_moves.escape_moves"], (1, 25), "needs '=VALUE'"), (["nope"], (1, 1), "no variant 'nope'"),
])
def test_a_variant_request_is_read_strictly(requests, place, words):
    d = one(leges.load, POMPEII, requests) if "no variant" not in words else refusal(leges.load, POMPEII, requests)[0]
    assert (d.position.file, d.position.line, d.position.col) == ("--variant", *place), d.format()
    assert words in d.message, d.format()
    assert "\n" not in d.message and "\x1b" not in d.message


def test_good_requests_still_work():
    assert leges.load(POMPEII, ["three_moves=4", "mayfair", "mayfair"]).variants == ("three_moves", "mayfair")
    assert leges.load(POMPEII, ["three_moves.escape_moves=+5"]).variants == ("three_moves",)


def test_the_page_refuses_what_the_command_line_refuses():
    pytest.importorskip("starlette")
    from leges.web.request_fields import variant_requests as _variant_requests
    assert _variant_requests(["mayfair", "mayfair", "three_moves=2"], []) == ["mayfair", "three_moves=2"]
    for bad, words in [(["mayfair\nx"], "U+000A"), (["three_moves=٣"], "U+0663"),
                       (["three_moves=2", "three_moves=3"], "given twice")]:
        d = one(_variant_requests, bad, [])
        assert d.position.file == "variants" and d.position.line == len(bad) and words in d.message


def test_a_record_with_an_odd_variant_request_is_refused_where_it_is_written(tmp_path):
    from leges.lab.records import read_record
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"leges_record": 1, "ruleset": "pompeii", "players": 2, "seed": 1, "actions": [],
                                "variants": ["mayfair", "three_moves\n"]}, indent=1))
    d = one(read_record, str(path))
    assert d.position.line == 9 and "U+000A" in d.message and "variants" in d.message


# ------------------------------------------------------------------ leges doc
HOSTILE = '<img src=x onerror="alert(1)"> [click](javascript:alert(2)) ![t](http://t.example/p.png) & |cell| `<b>kept</b>`'


def test_leges_doc_carries_no_raw_html_of_a_ruleset(game, capsys, tmp_path):  # noqa: F811
    text = (game / "game" / "ruleset.yaml").read_text()
    text = text.replace("title: Tic-Tac-Toe\n", f"title: {json.dumps(HOSTILE + ' <script>x</script>')}\n"
                        f"description: {json.dumps(HOSTILE + chr(10) + '```' + chr(10) + '<i>after</i>')}\n", 1)
    text = text.replace('quote: "each player has five marks of their own"', f"quote: {json.dumps(HOSTILE)}")
    text = text.replace("    file: traditional\n    title: The traditional rules, as commonly stated",
                        f"    file: traditional\n    title: {json.dumps(HOSTILE)}")
    text = text.replace("  - id: place\n", f"  - id: place\n    description: {json.dumps(HOSTILE)}\n")
    (game / "game" / "ruleset.yaml").write_text(text)
    out = tmp_path / "doc.md"
    assert run_leges(capsys, "doc", "game", "-o", str(out)).status == 0
    doc = out.read_text()
    prose = "".join(part for i, part in enumerate(doc.split("`")) if i % 2 == 0)  # outside code spans
    for raw in ("<img", "<script", "<i>", "![t]("):
        assert raw not in prose, raw
    assert not re.search(r"(?<!\\)\]\(javascript", prose)  # no link: its brackets are escaped
    assert "&lt;img src=x" in doc and "\\[click\\]" in doc and "Tic-Tac-Toe" not in doc.split("\n")[0]
    assert doc.startswith("# &lt;img src=x onerror=\"alert(1)\"&gt;") and "\n```\n<i>" not in doc
    assert "`<b>kept</b>`" in doc  # an author's code span is shown as written: Markdown prints it, never renders it
    for line in doc.splitlines():
        if line.startswith("| `mark`"):
            assert line.count(" | ") == 4 and "\\|cell\\|" in line  # the cell's '|' does not split the table


def test_a_rule_text_with_backticks_does_not_close_its_code_block(game, capsys, tmp_path):  # noqa: F811
    edit(game / "game" / "ruleset.yaml", "      move top(supply(me)) to square",
         "      # ``` <script>x</script>\n      move top(supply(me)) to square")
    out = tmp_path / "doc.md"
    assert run_leges(capsys, "doc", "game", "-o", str(out)).status == 0
    lines = out.read_text().splitlines()
    at = lines.index("# ``` <script>x</script>")
    assert lines[at - 1] == "````" and "````" in lines[at + 1:]


# ------------------------------------------------------------------ names end where the text ends
def test_a_name_with_a_final_line_break_is_not_a_name(game, capsys):  # noqa: F811
    """A schema's `^...$` ends the text (JSON Schema's reading), not before a final line break (Python's)."""
    edit(game / "game" / "ruleset.yaml", "  - id: supply\n", '  - id: "supply\\n"\n')
    expect(run_leges(capsys, "validate", "game"), f"{RULES}:26:9", "does not have the required form",
           hint="names start with a letter")


def test_a_variant_file_whose_id_ends_in_a_line_break_is_refused(tmp_path):
    import shutil
    shutil.copytree(ROOT / "rulesets" / "pompeii", tmp_path / "pompeii")
    path = tmp_path / "pompeii" / "variants" / "mayfair.yaml"
    path.write_text(path.read_text().replace("\nid: mayfair\n", '\nid: "mayfair\\n"\n'))
    found = refusal(leges.load, str(tmp_path / "pompeii"), ["mayfair"])
    assert any(d.position.file.endswith("mayfair.yaml") and "required form" in d.message for d in found)


# ------------------------------------------------------------------ the page's requests
def test_a_request_body_with_a_huge_number_is_refused_at_its_place():
    import asyncio
    from leges.web.guard import read_json

    class Body:
        def __init__(self, raw: bytes):
            self.raw = raw

        async def stream(self):
            yield self.raw

    for raw, words in [(b'{"players": 2,\n "seed": ' + b"9" * 5001 + b"}", "5,001 digits"),
                       (b'{"players": 2,\n "seed": NaN}', "NaN")]:
        d = one(lambda: asyncio.run(read_json(Body(raw), 1 << 20)))
        assert (d.position.file, d.position.line, d.position.col) == ("request", 2, 10) and words in d.message


def test_agent_specs_and_the_pages_numbers_take_ascii_digits_only():
    from leges.agents import make
    from leges.text.errors import LegesError
    from leges.web.request_fields import whole_number as _int
    for spec in ("mcts:iterations=٣", "mcts:iterations=３", "mcts:iterations=3:iterations=4"):
        with pytest.raises(LegesError) as refused:
            make(spec)
        assert refused.value.diagnostics[0].hint
    assert make("mcts:iterations=3").iterations == 3
    for text in ("٣", "３", "1_000", " ", "0x10"):
        with pytest.raises(LegesError):
            _int(text, 0, "players")
    assert _int("12", 0, "players") == 12 and _int(" 7", 0, "players") == 7 and _int(None, 3, "players") == 3
