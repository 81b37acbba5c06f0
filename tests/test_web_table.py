"""The table of a game without a map, played in a real browser by clicks (tests/rulesets/card_table):
a card of the hand, then where it goes; the deck or the discard pile to draw from; a click on a zone
no action names says why (the `/why` explanation); the zones and cards a click may choose are
highlighted. The seats' display names and the events' phrases are shown in the language picked.

The same Playwright and chromium as tests/test_web_browser.py (its fixtures), skipped without them.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from leges.web.server import ServeOptions

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, browser, page, shot  # noqa: E402,F401 - the browser fixtures

import os  # noqa: E402

CARD_TABLE = Path(__file__).parent / "rulesets" / "card_table"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no chromium at {CHROMIUM}")


def settle(page) -> None:
    """Wait until the page has no request under way (a click that acts waits for its answer)."""
    page.wait_for_function("() => state.busy === 0 && state.view && state.view.mode === 'play'")


def history(page) -> list[str]:
    return page.eval_on_selector_all("#history li:not(.event)", "ls => ls.map(l => l.dataset.text)")


def test_a_card_game_without_a_map_played_by_clicks(serving, page):
    server = serving(CARD_TABLE, options=ServeOptions(seed=3))  # a fixed deal: the same game every run (a secret one ended, 1 in 5, before north drew)
    page.goto(server.url)
    page.wait_for_selector("#board svg .zone[data-zone]")
    settle(page)
    # north's first draw was forced (the discard pile is empty): a card of the hand is to be laid
    cards = page.locator("#board .zone[data-zone='hand.north'] .card.face.target")
    assert cards.count() == 3  # two dealt, one drawn
    assert page.locator("#board .zone.target").count() >= 1  # the hand itself: every card of it fits
    label = cards.first.get_attribute("data-label")
    cards.first.click()
    settle(page)
    # two places fit that card: the row and the discard pile, highlighted; the list narrows to them
    assert page.locator("#board .zone.target[data-zone='row.north']").count() == 1
    assert page.locator("#board .zone.target[data-zone='discard']").count() == 1
    assert sorted(page.eval_on_selector_all("#actions button.act", "bs => bs.map(b => b.dataset.action)")) == \
        [f"lay card={label} to=discard", f"lay card={label} to=row.north"]
    assert page.locator("#board .card.face.chosen").get_attribute("data-label") == label
    shot(page, "card-table-a-card-chosen")
    # a zone no action names: why it is not legal, and nothing is played
    with page.expect_response(lambda r: r.url.endswith("/why")):
        page.locator("#board .zone[data-zone='row.south']").click()
    page.wait_for_selector("#notice .why")
    assert page.locator("#notice .refused").inner_text() == f"'lay card={label} to=row.south' is not legal for North"
    assert "to=row.south" in page.locator("#notice .why").inner_text()
    assert history(page) == []
    # then the row: played
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#board .zone[data-zone='row.north']").click()
    settle(page)
    assert history(page)[0] == f"north: lay card={label} to=row.north"
    assert page.locator(f"#board .zone[data-zone='row.north'] .card.face[data-label='{label}']").count() == 1
    # the event the lay fired, in its phrase (and the seat by its display name)
    assert any(f"North lays {label} on the row" in t for t in
               page.eval_on_selector_all("#history li.event", "ls => ls.map(l => l.textContent)"))
    # the rest of the game by clicks alone: a card, then where it goes; a pile to draw from
    for _ in range(40):
        if not page.locator("#result").is_hidden():
            break
        target = page.locator("#board .card.face.target").first
        if not target.count():
            target = page.locator("#board .zone.target").first
        assert target.count(), page.locator("#waiting").inner_text()
        target.click()
        settle(page)
    assert not page.locator("#result").is_hidden()
    assert page.locator("#result").inner_text().startswith("Game over: ")
    shot(page, "card-table-game-over")
    moves = [m for m in history(page) if m.startswith("north: ")]
    assert any(m.startswith("north: draw pile=") for m in moves) or len(moves) >= 3


def test_seat_names_and_events_in_the_language_picked(serving, page):
    server = serving(CARD_TABLE, options=ServeOptions(seed=3))  # a fixed deal: the same game every run (a secret one ended, 1 in 5, before north drew)
    page.goto(server.url)
    page.wait_for_selector("#board svg .zone[data-zone]")
    settle(page)
    assert page.locator("#status").inner_text().startswith("North — ")
    assert "North (person)" in page.locator("#table-line").inner_text()
    page.select_option("#lang", "hu")
    assert page.locator("#status").inner_text().startswith("Észak — ")
    assert "Észak (person)" in page.locator("#table-line").inner_text()
    assert page.locator("#seat option[value='north']").inner_text() == "Észak"
    assert page.locator("#board g.area.player[data-player='north'] text").first.text_content().startswith("Észak  (you")  # the picture's too
    label = page.locator("#board .zone[data-zone='hand.north'] .card.face").first.get_attribute("data-label")
    page.locator(f"#board .zone[data-zone='hand.north'] .card.face[data-label='{label}']").click()
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#board .zone[data-zone='row.north']").click()
    settle(page)
    entries = page.eval_on_selector_all("#history li", "ls => ls.map(l => [l.className, l.textContent, l.dataset.text])")
    assert entries[0][1] == f"Észak: Leteszi: {label} → sor Észak" and entries[0][2] == f"north: lay card={label} to=row.north"
    assert ["event", f"Észak a sorára teszi: {label}"] in [e[:2] for e in entries]
    page.select_option("#lang", "en")
