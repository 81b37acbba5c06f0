"""Moves and events in words (issue 23, item 3): `say:` on actions and events, `asks:` on the rules that
ask a choice, `name:` on components and zones (engine/words.py). A phrase renders from the action's text
form, which never changes; a language not given falls back to English; a placeholder that names no
parameter is a located error with a did-you-mean hint; the terminal, `leges doc`, `leges replay` and the
page's JSON carry the words; the bundled games have them in their rulebooks' languages."""
from __future__ import annotations

import json
import re
import textwrap

import leges
import pytest
from helpers import play_random, ruleset_dir
from leges.cli import main
from leges.engine.words import parse_template, pick, worded, worded_entry
from leges.render.actions import describe_actions
from leges.render.view import words_view
from leges.text.errors import LegesError


@pytest.fixture(scope="module")
def games():
    return {name: leges.load(str(ruleset_dir(name))) for name in ("tictactoe", "pompeii", "attika", "alexander")}


def answers(monkeypatch, *lines):
    feed = iter(lines)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(feed))


GAME = """\
leges: 1
id: words
title: Words
version: "1"
rulebooks: [{id: r, file: r.txt, title: R}]
players: {min: 2, max: 2, seats: [{name: a}, {name: b}]}
components:
  - {id: stone, count: 4, start: heap, source: {book: r, section: S}, name: {en: stone, hu: kő}}
zones:
  - {id: heap, source: {book: r, section: S}, name: {en: the heap, hu: a kupac}}
  - {id: pot, per_player: true, source: {book: r, section: S}}
phases:
  - id: play
    source: {book: r, section: S}
    turn: |
      act take
    end_if: count(heap) == 0
    next: end
actions:
  - id: take
    source: {book: r, section: S}
    say: SAY
    params:
      n: "[1, 2]"
      where: "[heap]"
    require: n <= count(heap)
    effect: |
      move take(heap, n) to pot(me)
"""


def write(tmp_path, say: str, extra: str = ""):
    folder = tmp_path / "words"
    folder.mkdir(exist_ok=True)
    (folder / "ruleset.yaml").write_text(GAME.replace("SAY", say) + extra, encoding="utf-8")
    return folder


def load_error(folder) -> str:
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    return str(err.value)


def test_a_template_renders_and_a_missing_language_falls_back(tmp_path):
    game = leges.load(str(write(tmp_path, '{en: "Take {n} from {where}", hu: "{n} elvétele innen: {where}"}')))
    st = game.new_initial_state(players=2, seed=0)
    texts = [a.text for a in st.legal_actions()]
    assert texts == ["take n=1 where=heap", "take n=2 where=heap"]  # the text forms do not change
    assert worded(game, texts[0], "en") == "Take 1 from the heap"  # a zone's id by its display name
    assert worded(game, texts[1], "hu") == "2 elvétele innen: a kupac"
    assert worded(game, texts[1], "ru") == "Take 2 from the heap"  # no Russian: English
    assert worded(game, texts[1], "hu-HU") == "2 elvétele innen: a kupac"  # a regional tag: its language
    assert worded_entry(game, "a: take n=2 where=heap", "hu") == "a: 2 elvétele innen: a kupac"
    assert worded(game, "pass", "hu") == "Passz"  # the engine's own word
    assert worded(game, "nothing n=1", "en") is None  # no phrase: the front end shows the text form
    assert game.words.name("heap", "de") == "the heap" and game.words.name("stone", "hu") == "kő"
    assert game.words.languages == ["en", "hu"]


def test_the_first_language_given_when_there_is_no_english(tmp_path):
    game = leges.load(str(write(tmp_path, '{hu: "{n} elvétele"}')))
    assert worded(game, "take n=1 where=heap", "en") == "1 elvétele"
    assert pick({"hu": "a", "ru": "b"}, "de") == "a" and pick(None, "en") is None


def test_braces_and_templates():
    template, fault = parse_template("a {{literal}} and {x}")
    assert fault is None and template.fill({"x": "1"}, str) == "a {literal} and 1"
    assert parse_template("a { x")[1][2] == "a lone brace"
    assert "a placeholder is a name" in parse_template("{x.y}")[1][2]


def test_a_placeholder_that_is_no_parameter_is_a_located_error(tmp_path):
    text = load_error(write(tmp_path, '{en: "Take {n} from {were}"}'))
    assert re.search(r"ruleset\.yaml:\d+:\d+: error: '\{were\}' in the en phrase of action 'take' is not one of its parameters", text)
    assert "did you mean 'where'" in text
    line = int(re.search(r"ruleset\.yaml:(\d+):(\d+)", text).group(1))
    col = int(re.search(r"ruleset\.yaml:(\d+):(\d+)", text).group(2))
    source = (tmp_path / "words" / "ruleset.yaml").read_text().splitlines()[line - 1]
    assert source[col - 1:].startswith("{were}")  # the column is the placeholder's own
    assert "its parameters: n, where" in load_error(write(tmp_path, '{en: "Take {m}"}'))  # nothing close: the list


def test_a_lone_brace_and_a_label_asked_by_no_choose_are_located_errors(tmp_path):
    assert "a lone brace" in load_error(write(tmp_path, '{en: "Take {n"}'))
    asks = textwrap.dedent("""\
    setup:
      - id: pick
        source: {book: r, section: S}
        asks:
          pick_one: {en: "Pick {k}"}
          pick_on: {en: "Pick {k}"}
        effect: |
          choose k from [1, 2] as pick_one by a
    """)
    text = load_error(write(tmp_path, '{en: "Take {n}"}', asks))
    assert "'pick_on': no `choose ... as pick_on` in setup 'pick'" in text and "did you mean 'pick_one'" in text
    bad = asks.replace('pick_on: {en: "Pick {k}"}', '').replace('pick_one: {en: "Pick {k}"}', 'pick_one: {en: "Pick {j}"}')
    text = load_error(write(tmp_path, '{en: "Take {n}"}', bad))
    assert "'{j}' in the en phrase of choice 'pick_one' is not one of its parameters" in text and "its parameters: k" in text


def test_a_choice_in_words(tmp_path):
    asks = textwrap.dedent("""\
    setup:
      - id: pick
        source: {book: r, section: S}
        asks:
          pick_one: {en: "Pick {k}", hu: "{k} választása"}
        effect: |
          choose k from [1, 2] as pick_one by a
    """)
    game = leges.load(str(write(tmp_path, '{en: "Take {n}"}', asks)))
    st = game.new_initial_state(players=2, seed=0)
    assert [a.text for a in st.legal_actions()] == ["pick_one k=1", "pick_one k=2"]
    assert [worded(game, a.text, "hu") for a in st.legal_actions()] == ["1 választása", "2 választása"]
    info = describe_actions(st, 0)[0].to_json()
    assert info["words"] == {"en": "Pick 1", "hu": "1 választása"} and info["text"] == "pick_one k=1"


def test_the_schema_checks_the_construct(tmp_path):
    text = load_error(write(tmp_path, '{english: "Take {n}"}'))
    assert "english" in text
    text = load_error(write(tmp_path, '"Take {n}"'))
    assert re.search(r"ruleset\.yaml:22:\d+: error: expected object", text)  # at the phrase


def test_the_bundled_games_speak_their_rulebooks_languages(games):
    want = {"pompeii": ["en", "hu", "ru"], "attika": ["en", "hu"], "alexander": ["en", "hu"], "tictactoe": ["en"]}
    for name, languages in want.items():
        game = games[name]
        assert game.words.languages == languages, name
        for aid in game.actions:  # every action has a phrase in every language of the game
            assert sorted(game.words.actions[aid]) == sorted(languages), (name, aid)
    pompeii = games["pompeii"]
    assert worded(pompeii, "move_citizen from=r3c7 to=r2c7", "en") == "Move a citizen from r3c7 to r2c7"
    assert worded(pompeii, "move_citizen from=r3c7 to=r2c7", "hu") == "Polgár lépése: r3c7 → r2c7"
    assert worded(pompeii, "take_pile k=2", "ru") == "Взять стопку из четырёх карт 2"
    assert worded(pompeii, "relative square=r1c1", "hu") == "Rokont tesz a(z) r1c1 mezőre"
    assert set(pompeii.words.choices) == {"take_pile", "relative"}
    assert set(games["attika"].words.choices) == {"pay"} and set(games["alexander"].words.choices) == {"place"}


def test_every_option_and_history_entry_has_words_for_the_page(games):
    st = play_random(games["pompeii"], 3, 2, until=lambda s: s.phase == "settle" and len(s.history) > 6)
    seat = st.current_player()
    options = [a.to_json() for a in describe_actions(st, seat)]
    assert options and all(set(o["words"]) == {"en", "hu", "ru"} for o in options)
    view = words_view(st, seat)
    assert view["languages"] == ["en", "hu", "ru"]
    assert [h["text"] for h in view["history"]] == st.record_view(seat)
    assert all(h["words"]["en"].split(": ", 1)[0] in st.setup.seat_names for h in view["history"])
    assert view["names"]["lava"]["ru"] == "плитка лавы"
    json.dumps(view)  # plain JSON


def test_the_terminal_shows_words_in_the_language_asked(monkeypatch, capsys):
    answers(monkeypatch, "1", "q")
    assert main(["play", str(ruleset_dir("pompeii")), "--seed", "1", "--colour", "never", "--lang", "hu"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s+1\. A\(z\) \d\. négylapos paklit választja", out, re.MULTILINE)  # the options in words
    assert "készlet 36" in out and "húzópakli" in out  # zones by their names
    assert re.search(r"^  fekete: Kijátssza a\(z\) \d+ kártyát", out, re.MULTILINE) or "fekete: A(z)" in out  # others' moves in words
    assert "you are vörös" in out and "turn of vörös" in out  # the seats by the rulebook's names (seats[].say)


def test_leges_doc_and_replay_in_a_language(tmp_path, capsys):
    assert main(["doc", str(ruleset_dir("pompeii")), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "- in words: “Переместить фишку с клетки {from} на клетку {to}”" in out
    assert "| `lava` (плитка лавы) |" in out and "- asks `take_pile`, in words: “Взять стопку из четырёх карт {k}”" in out
    record = tmp_path / "game.json"
    monkeypatch_free = iter(["1"] * 9)
    import builtins
    saved = builtins.input
    builtins.input = lambda prompt="": next(monkeypatch_free)
    try:
        assert main(["play", str(ruleset_dir("tictactoe")), "--colour", "never", "--record", str(record)]) == 0
    finally:
        builtins.input = saved
    capsys.readouterr()
    assert main(["replay", str(record), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s+1\. X: Put a mark on r0c0$", out, re.MULTILINE)  # the seat by its display name


def test_the_log_lines_the_engine_writes_in_words(games):
    from leges.engine.words import worded_log
    game = games["pompeii"]
    seats = ["red", "black"]
    assert worded_log(game, "red shows ad79", "hu", seats) == "vörös megmutatja: i. u. 79-kártya"
    assert worded_log(game, "red shows ad79", "ru", seats) == "красный показывает: карта «79 год н.э.»"
    assert worded_log(game, "someone shows ad79", "hu", seats) is None  # not a seat's reveal: the ruleset's own text
    assert worded_log(game, "red made 1", "hu", seats) is None
    st = play_random(game, 3, 1, until=lambda s: any(" shows " in line for line in s.log))
    view = words_view(st, 0)
    called = tuple(game.words.seat(s, "hu") for s in st.setup.seat_names)
    assert any(entry["words"].get("hu", "").startswith(called) for entry in view["log"])


def test_a_phrase_may_not_hold_control_characters(tmp_path):
    text = load_error(write(tmp_path, '{en: "Take {n}\\e[2J"}'))
    assert "ruleset.yaml:22:" in text and "\x1b" not in text
