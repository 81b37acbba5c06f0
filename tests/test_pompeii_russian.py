"""The Downfall of Pompeii read from its Russian translation (book `ru`, variants/russian.yaml).

The base rules cite the Russian text beside the Hungarian one where both say the same
(`source.also`); the variant changes what the Russian text says differently. These tests check
the citations, that every rule of the Russian reading cites the Russian text, and the
differences the scenarios (rulesets/pompeii/scenarios/*_ru.yaml, *_hu.yaml) cannot show.
"""
from __future__ import annotations

import re

import pytest
import yaml

import leges
from helpers import ROOT, SHARED, dicts_in, expr, play_random, position, texts
from leges.model.sections import citations
from leges.model.loader import load_declarations

PATH = str(ROOT / "rulesets" / "pompeii")
VARIANT = ROOT / "rulesets" / "pompeii" / "variants" / "russian.yaml"
AD79_ON_TOP = """
    move take([c for c in deck if c.number == 9], 2) to hand(red)
    move take([c for c in deck if c.number == 1], 2) to hand(red)
    for p in players:
      draw 4 - count(hand(p)) from deck to hand(p)
    move [c for c in aside if c.type == "ad79"] to deck at top
"""


@pytest.fixture(scope="module")
def russian():
    return leges.load(PATH, variants=["russian"])


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _declarations(rs):
    return [*rs.components, *rs.zones, *rs.variables, *rs.functions, *rs.procedures, *rs.setup, *rs.phases,
            *rs.actions, *rs.triggers, *rs.readings, *rs.invariants, *rs.constants,
            *([rs.scoring] if rs.scoring else [])]


def test_every_russian_citation_is_in_the_russian_rulebook():
    """Sections and quotes of `ru` — in the base files, the variant and the scenarios — are in pompeii.ru.txt."""
    book = SHARED / "rulebooks" / "pompeii.ru.txt"
    if not book.exists():
        pytest.skip("the rulebooks are not beside the project (../shared/rulebooks)")
    text = _norm(book.read_text(encoding="utf-8"))
    problems, seen = [], 0
    for path in sorted((ROOT / "rulesets" / "pompeii").rglob("*.yaml")):
        for source in [d for d in dicts_in(yaml.safe_load(path.read_text(encoding="utf-8"))) if "book" in d and "section" in d]:
            if source["book"] != "ru":
                continue
            seen += 1
            if _norm(source["section"]) not in text:
                problems.append(f"{path.name}: no section '{source['section']}'")
            for fragment in re.split(r"\.\.\.|…", source.get("quote", "")):
                fragment = _norm(fragment.strip(' "'))
                if fragment and fragment not in text:
                    problems.append(f"{path.name}: quote not found: '{fragment}'")
    assert seen > 60 and not problems, "\n".join(problems)


def test_every_rule_of_the_russian_reading_cites_the_russian_text():
    """With the variant, every declaration that cites a rulebook cites `ru` (itself or in `also`);
    every reading cites it; the declarations the variant changes cite `ru` alone."""
    rs, _, _ = load_declarations(PATH, variants=["russian"])
    missing = [d.id for d in _declarations(rs)
               if any("book" in s for _, s in citations(d)) and not any(s.get("book") == "ru" for _, s in citations(d))]
    assert not missing, f"rules of the Russian reading that do not cite it: {missing}"
    assert all(any(s.get("book") == "ru" for _, s in citations(r)) for r in rs.readings)
    patch = yaml.safe_load(VARIANT.read_text(encoding="utf-8"))["patch"]
    changed = {(op["section"], op["id"]) for op in patch if op["op"] in ("set", "replace")}
    for decl in _declarations(rs):
        section = next((s for s, i in changed if i == decl.id), None)
        if section is None:
            continue
        books = [s.get("book") for _, s in citations(decl)]
        assert books and set(books) <= {"ru"}, f"{section} {decl.id} cites {books}"
        if isinstance(decl.source, dict) and "reading" in decl.source:
            assert decl.source["reading"].startswith("ru_"), f"{decl.id}: a reading of the Russian text"
    assert "escape_moves_mandatory" not in {r.id for r in rs.readings}


def test_lava_tiles_per_symbol_are_taken_from_hu(russian, pompeii):
    """The Russian text gives 45 tiles and six symbols, not how many of each: the counts are hu's, and say so."""
    rs, _, _ = load_declarations(PATH, variants=["russian"])
    lava = next(c for c in rs.components if c.id == "lava")
    assert lava.source["book"] == "ru" and lava.source["note"] == "not stated in this rulebook; taken from hu"
    st_ru = russian.new_initial_state(players=3, seed=0)
    st_hu = pompeii.new_initial_state(players=3, seed=0)
    count = 'count(components("lava"), t => t.symbol == "{}")'
    for symbol in ("vase", "helmet", "mask", "scroll", "column", "coin"):
        assert expr(russian, st_ru, count.format(symbol)) == expr(pompeii, st_hu, count.format(symbol))


# ----------------------------------------------------------------------- differences
def test_ad79_first_is_shown_in_hu_but_not_in_ru(pompeii, russian):
    """ad79_first (ru_ad79_not_shown): both replace the card and shuffle it into the bottom 16;
    only the Hungarian reading shows it to the others."""
    for game, shown in ((pompeii, True), (russian, False)):
        st = position(game, 3, "settle", "red", AD79_ON_TOP, seed=3)
        st.apply_action(texts(st)[0])
        assert expr(game, st, "ad79_drawn == 1 and count(hand(red)) == 4")
        where = [st.setup.ctype[c] for c in st.zones["deck"]].index("ad79")
        assert where < 16  # index 0 is the bottom
        seen_by_black = st.observation(1)["log"]
        assert any("red shows ad79" in line for line in seen_by_black) == shown
        assert st.observation(1)["vars"]["ad79_drawn"] == 1  # that it came up is public in both


def test_only_jokers_four_still_count_and_an_empty_hand_does_not(russian):
    """declare_eruption (ru_only_jokers): four jokers out of turn, as in hu; an empty hand never."""
    st = position(russian, 3, "settle", "red", """
    ad79_drawn = 1
    move take(supply(red), 4) to r2c8
    move take(supply(red), 4) to r5c4
    move take([c for c in deck if c.number == 5], 2) to hand(yellow)
    move take([c for c in deck if c.number == 9], 2) to hand(yellow)
    move take([c for c in deck if c.number == 10], 4) to hand(red)
    """)
    assert "declare_eruption" in texts(st, 2)       # yellow: four jokers
    assert "declare_eruption" not in texts(st, 1)   # black: no cards at all
    st.apply_action("yellow: declare_eruption")
    assert st.phase == "opening" and expr(russian, st, "erupter == yellow")


@pytest.mark.parametrize("variants", [(), ("russian",)])
def test_early_end_every_gate_or_every_way_to_one_blocked_is_the_same_end(variants):
    """Wording, not a difference: hu ends early when lava has shut every gate, ru when "все ворота
    или пути к ним заблокированы". The cut-off rule removes at once every citizen with no way to an
    open gate, so at every decision of the escape each citizen on the board still has one; when
    no citizen has, none is left and both end. Checked in random games of both readings."""
    game = leges.load(PATH, variants=variants)
    for seed in range(4):
        st = play_random(game, 3, seed, until=lambda s: s.phase == "escape")
        rng_pick = 0
        while not st.is_terminal():
            if st.phase == "escape":
                assert expr(game, st, "all(spaces, s => count(citizens(s)) == 0 or gate_distances()[s] != none)")
            st.apply_option(rng_pick % len(st.pending))
            rng_pick += 7
        assert expr(game, st, "all(spaces, s => count(citizens(s)) == 0)")


@pytest.mark.parametrize("variants", [(), ("russian",)])
def test_lava_shutting_the_last_ways_ends_the_game_with_gates_still_open(variants):
    """The only citizens shut in a pocket of lava (r3c1; every gate still open): both readings throw
    them into the volcano and the game ends — the Russian "пути к ним заблокированы" case."""
    game = leges.load(PATH, variants=variants)
    st = position(game, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "coin"] to box
    move take([t for t in box if t.symbol == "vase"], 1) to r2c1
    move take([t for t in box if t.symbol == "vase"], 1) to r3c0
    move take([t for t in box if t.symbol == "vase"], 1) to r3c2
    move take(supply(red), 2) to r3c1
    move take(supply(black), 1) to r3c1
    move take([t for t in box if t.symbol == "vase"], 1) to r4c1
    """)
    assert st.is_terminal()
    assert expr(game, st, "count(open_gates()) == 7 and count(volcano) == 3")


@pytest.mark.parametrize("variants, may_pass", [((), False), (("russian",), True)])
def test_escape_moves_may_be_passed_only_in_ru(variants, may_pass):
    """escape (ru_escape_moves_optional, escape_moves_mandatory): 'pass' is offered only in the Russian reading."""
    game = leges.load(PATH, variants=variants)
    st = position(game, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(supply(red), 2) to r4c7
    """)
    assert ("pass" in texts(st)) == may_pass
