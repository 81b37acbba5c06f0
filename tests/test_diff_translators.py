"""`leges diff --for-translators` (leges/authoring/translation.py): per difference the two rulebooks' quotes
side by side and wrapped, the readings' questions and answers, the change in words, each change played
alone; then what is said differently and encoded the same. On a small translation of Tic-Tac-Toe made
here, and on Pompeii's Russian variant (which needs no rulebook text: the quotes are in the ruleset)."""
from __future__ import annotations

import json
import shutil

import pytest

from helpers import ROOT
from leges.cli import main

VARIANT = """leges_variant: 1
id: french
title: The French text of the rules
kind: translation
description: The same game read in French, where the game ends when the board is full or a row is made.
source: {book: fr, section: Jeu, quote: "Le premier qui aligne trois pions gagne"}
patch:
  - op: add
    section: readings
    value:
      id: fr_first_row
      kind: ambiguous
      question: Does the game end at the first row of three, or only once the board is full?
      text: At the first row ("Le premier qui aligne"), as in the folk text; a full board without one is a draw.
      source: {book: fr, section: But, quote: "Le premier qui aligne trois pions gagne"}
  - op: set
    section: actions
    id: place
    key: source
    value: {book: fr, section: Jeu, quote: "posez un de vos pions sur une case vide"}
  - op: set
    section: phases
    id: play
    key: source
    value: {book: fr, section: Jeu, quote: "Le premier qui aligne trois pions gagne", reading: fr_first_row}
  - op: set
    section: phases
    id: play
    key: end_if
    value: winner != none or all(spaces, s => count(s) > 0) or count(supply(current)) == 0
  - op: set
    section: scoring
    key: score
    value: if winner == p then 2 else 0
"""


@pytest.fixture()
def french(tmp_path):
    folder = tmp_path / "rulesets" / "tictactoe"
    shutil.copytree(ROOT / "rulesets" / "tictactoe", folder)
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    text = (folder / "ruleset.yaml").read_text()
    text = text.replace("    title: The traditional rules, as commonly stated\n",
                        "    title: The traditional rules, as commonly stated\n"
                        "  - {id: fr, file: none, title: Les règles, language: fr}\n")
    (folder / "ruleset.yaml").write_text(text)
    (folder / "variants").mkdir()
    (folder / "variants" / "french.yaml").write_text(VARIANT)
    return folder


def test_a_translation_is_shown_for_translators_by_default(french, capsys):
    assert main(["diff", str(french), "--variant", "french", "--seeds", "6", "--width", "90"]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 90 for line in out.splitlines() if "│" in line)  # wrapped, in two columns
    assert "A: folk § Play" in out and "B: fr § Jeu" in out
    assert "B reads it so (fr_first_row, ambiguous):" in out
    assert "Q: Does the game end at the first row of three" in out and "A: At the first row" in out
    assert "The phase play ends when:" in out and "in B:  winner != none or all(spaces" in out
    assert "The scoring scores each player:" in out and "in B:  if winner == p then 2 else 0" in out
    assert "set by" not in out and "source" not in out.split("(Each change")[0]  # no internal lines
    # every change has its own figure: the scoring parts every game (a different outcome), the end rule none
    scoring = out.split("The scoring scores each player:")[1]
    assert "Alone: play parts from the base in " in scoring and " 0 of 6 " not in scoring  # a draw does not part
    play = out.split("The phase play ends when:")[1].split("\n\n")[0]
    assert "Alone: never reached in 6 random games" in play
    same = out.split("Said differently, encoded the same (1)")[1]
    assert "the action place" in same and "A: folk § Play" in same and "posez un de vos pions" in same


def test_the_translators_report_as_json_and_off_on_request(french, capsys):
    assert main(["diff", str(french), "--variant", "french", "--seeds", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    by_id = {(d["section"], d["id"]): d for d in report["differences"]}
    assert set(by_id) == {("phases", "play"), ("scoring", "scoring")}  # the reading goes with the phase
    play = by_id[("phases", "play")]
    assert play["readings_b"][0]["id"] == "fr_first_row" and play["quotes_b"][0]["book"] == "fr"
    assert play["alone"]["seeds"] == 4 and play["alone"]["parted"] == 0 and play["alone"]["high"] < 1
    assert by_id[("scoring", "scoring")]["alone"]["parted"] >= 2
    assert [x["id"] for x in report["said_differently"]] == ["place"]
    assert main(["diff", str(french), "--variant", "french", "--seeds", "2", "--no-for-translators"]) == 0
    assert "rule difference" in capsys.readouterr().out


def test_a_phrase_names_the_changed_item(french):
    """An item with a phrase (`say:`) is named by it; without one, by what it is."""
    from leges.authoring.translation import named

    class Item:
        say = {"en": "Put a mark on {square}", "fr": "Poser un pion sur {square}"}
    assert named("actions", "place", Item(), ["fr"]) == "“Poser un pion sur {square}” (action place)"
    assert named("actions", "place", Item(), ["ru"]) == "“Put a mark on {square}” (action place)"
    assert named("phases", "play", object(), ["fr"]) == "the phase play"


def test_side_by_side_wraps_both_columns():
    from leges.authoring.translation import side_by_side
    rows = side_by_side(["a " * 60], ["б " * 10], 41)
    assert len(rows) > 3 and all(len(r) <= 41 for r in rows) and rows[0].endswith("б б б б б б б б б б")


def test_pompeii_russian_for_translators(russian):
    """Each of the Russian variant's rule changes played alone gets its own figure: the new pass no longer
    hides the others; the re-cited rules are said differently and encoded the same. (The report of the
    `russian` fixture below: the diff is seconds a run.)"""
    out, report = russian
    by_id = {(d["section"], d["id"]): d for d in report["differences"]}
    played = {k: d["alone"] for k, d in by_id.items() if d["alone"] and d["alone"]["seeds"]}
    assert {("phases", "escape"), ("actions", "move_citizen"), ("actions", "declare_eruption"),
            ("triggers", "ad79_first")} <= set(played)
    assert played[("phases", "escape")]["parted"] == 3  # the new pass: in each of the 3 games
    assert played[("actions", "move_citizen")]["parted"] > 0  # hidden behind the pass when played together
    assert by_id[("variables", "opening_tiles")]["alone"]["error"]  # goes with the opening's change
    declare = by_id[("actions", "declare_eruption")]
    assert declare["quotes_a"][0]["book"] == "hu" and declare["quotes_b"][0]["book"] == "ru"
    assert declare["readings_b"][0]["id"] == "ru_only_jokers" and declare["readings_b"][0]["question"]
    assert any("count(hand(me)) > 0" in line for line in declare["change"])
    assert not any("set by" in line for d in report["differences"] for line in d["change"])
    assert "numbered" in {x["id"] for x in report["said_differently"]}
    assert [x["id"] for x in report["borrowed"]] == ["lava"]
    assert "Said differently, encoded the same" in out and max(len(line) for line in out.splitlines()
                                                                if "│" in line) <= 100


@pytest.fixture(scope="module")
def russian():
    """The Pompeii Russian report as text and as JSON (3 seeds: a change random play misses stays unmet)."""
    import contextlib
    import io
    path = str(ROOT / "rulesets" / "pompeii")
    text, data = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(text):
        assert main(["diff", path, "--variant", "russian", "--seeds", "3", "--width", "100"]) == 0
    with contextlib.redirect_stdout(data):
        assert main(["diff", path, "--variant", "russian", "--seeds", "3", "--json"]) == 0
    return text.getvalue(), json.loads(data.getvalue())


def test_a_real_difference_is_never_said_to_be_encoded_the_same(russian):
    """The lone citizen: hu "amely egyedül van egy mezőn", ru "только одна игровая фишка игрока". The change
    is in move_citizen; first_alone and may_move cite the same passages and go with it, not under
    "encoded the same"."""
    out, report = russian
    same = {x["id"] for x in report["said_differently"]}
    assert not {"first_alone", "may_move"} & same
    move = next(d for d in report["differences"] if d["id"] == "move_citizen")
    assert {"first_alone", "may_move"} <= {x["id"] for x in move["shared"]}
    listed = out.split("Said differently, encoded the same")[1]
    assert "egyedül van egy mezőn" not in listed and "только одна игровая фишка игрока" not in listed


def test_also_and_set_up_quotes_are_compared(russian):
    """Cited by both books in the base (`also`) with a note on how the Russian text differs: the joker's
    "разместить свои фишки" and the left-over piles "положите их в коробку" (hu: unseen)."""
    out, report = russian
    same = {(x["section"], x["id"]) for x in report["said_differently"]}
    assert {("functions", "targets"), ("setup", "unused_piles")} <= same
    listed = out.split("Said differently, encoded the same")[1]
    assert "разместить свои фишки" in listed and "положите их в коробку" in listed
    assert "anélkül hogy a játékosok megnéznék" in " ".join(listed.split())


def test_a_borrowed_fact_is_flagged(russian):
    """The Russian book gives no lava tiles per symbol: the counts are borrowed from hu and said so."""
    out, report = russian
    assert [x["id"] for x in report["borrowed"]] == ["lava"]
    assert "lava" not in {x["id"] for x in report["said_differently"]}
    borrowed = out.split("Borrowed (1)")[1].split("Said differently")[0]
    assert "the component lava" in borrowed and "borrowed from hu: the counts per symbol: hu" in " ".join(borrowed.split())
    lava = report["borrowed"][0]["quotes_b"][0]
    assert lava["book"] == "ru" and lava["borrowed_from"] == "hu"


def test_a_borrowed_fact_names_a_declared_rulebook(french):
    """`provenance: {status: borrowed, from: BOOK}` names a declared rulebook; another is a located error."""
    import leges
    from leges.text.errors import LegesError
    path = french / "variants" / "french.yaml"
    path.write_text(path.read_text().replace(
        'value: {book: fr, section: Jeu, quote: "posez un de vos pions sur une case vide"}',
        'value: {book: fr, section: Jeu, quote: "posez un de vos pions sur une case vide", '
        'provenance: {status: borrowed, from: de}}'))
    with pytest.raises(LegesError) as caught:
        leges.load(str(french), variants=["french"])
    assert "error: no rulebook 'de' is declared" in str(caught.value)
    assert "ruleset.yaml:" in str(caught.value)  # located: the item the variant patched


def test_each_change_is_said_in_words(russian):
    out, _ = russian
    opening = out.split("The phase opening ends when:")[1].split("as rule text:")[0]
    assert "the number of lava spaces is at least opening lava tiles or the number of bag is 0" in opening
    assert "count(" not in opening
    declare = out.split("(action declare_eruption) — require")[1]
    assert "B describes it:  A player holding only jokers" in declare


def test_a_change_random_play_never_met_is_said_so(russian):
    out, report = russian
    declare = next(d for d in report["differences"] if d["id"] == "declare_eruption")
    assert declare["alone"]["parted"] == 0 and declare["alone"]["never_reached"]
    part = out.split("(action declare_eruption) — require")[1].split("\n\n")[0]
    assert "never reached in 3 random games" in " ".join(part.split()) and "parts from the base in 0" not in part


def test_plain_words_read_the_language_only():
    from leges.authoring.plain_words import words
    assert words("count(xs(), c => c.owner == me) >= 2") == (
        "the number of xs for which c.owner is the player deciding is at least 2")
    assert words("any(hand(p), c => is_big(c)) and n != none") == "some c in hand of p has is big of c and n is not nothing"


def _cited_in_both_without_a_note() -> set:
    """The Pompeii items the Russian variant leaves as they are, whose citations quote both books
    (the Russian quote an `also` entry) with no note on how the Russian text differs."""
    import leges
    from leges.authoring.translation import _SECTIONS, _items
    from leges.authoring.translation_same import quotes
    base = leges.load(str(ROOT / "rulesets" / "pompeii"))
    russian = leges.load(str(ROOT / "rulesets" / "pompeii"), variants=["russian"])
    out = set()
    for section in _SECTIONS:
        a, b = _items(base.ruleset, section), _items(russian.ruleset, section)
        for key in a.keys() & b.keys():
            qa, qb = quotes(a[key]), quotes(b[key])
            if [vars(q) for q in qa] == [vars(q) for q in qb] and {q.book for q in qb} >= {"hu", "ru"} \
                    and not any(q.book == "ru" and q.note for q in qb):
                out.add((section, key))
    return out


def test_rules_cited_in_both_books_without_a_note_are_compared(russian):
    """A rule the base cites in both books (the Russian quote under `also`) with no note on how the texts
    differ is compared all the same, never skipped: it goes with a change when its passages ground one,
    else it is listed as said differently, encoded the same — its two quotes side by side, marked as
    having no note, so the translator knows nobody has compared them yet."""
    out, report = russian
    unnoted = _cited_in_both_without_a_note()
    assert {("functions", "exit_cost"), ("zones", "hand"), ("scoring", "scoring")} <= unnoted
    same = {(x["section"], x["id"]): x for x in report["said_differently"]}
    grounding = {(s["section"], s["id"]) for d in report["differences"] for s in d["shared"]}
    changed = {(d["section"], d["id"]) for d in report["differences"]}
    borrowed = {(x["section"], x["id"]) for x in report["borrowed"]}
    assert not unnoted - (set(same) | grounding | changed | borrowed), "cited in both books, and not compared"
    exit_cost = same[("functions", "exit_cost")]
    assert exit_cost["unnoted"] is True and {q["book"] for q in exit_cost["quotes_b"]} >= {"hu", "ru"}
    assert same[("functions", "targets")]["unnoted"] is False  # the author's note says how ru differs
    listed = out.split("Said differently, encoded the same")[1]
    block = listed.split(" - the function exit_cost\n")[1].split("\n - ")[0]
    ru = next(q["quote"] for q in exit_cost["quotes_b"] if q["book"] == "ru")
    assert " ".join(ru.split())[:30] in " ".join(block.replace("│", " ").split())
    assert listed.index("with no note on whether the texts agree (") < listed.index(" - the function exit_cost\n")
    # what the author compared (a note, or a citation the variant changed) first, then what is left
    unnoted_flags = [x["unnoted"] for x in report["said_differently"]]
    assert unnoted_flags == sorted(unnoted_flags) and unnoted_flags[0] is False
