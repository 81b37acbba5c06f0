"""A choice the map relates to spaces, made by a click on the board (issue 38, authors), in Chromium.

Connect Four (tests/rulesets/connect_four) drops into a column: `drop column=3` names no space, but
the map's cells have a `col` coordinate, so the page highlights the cells of every column a disc may
drop into and a click on any of them drops it there. A click on a cell of a full column asks why, and
is told the rule (its `require`); a click where no action takes a space says so.
"""
from __future__ import annotations

import os

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, browser, page, served, set_up_table, shot  # noqa: E402,F401 - the browser fixtures
from helpers import ROOT, ruleset_dir  # noqa: E402

CONNECT_FOUR = ROOT / "tests" / "rulesets" / "connect_four"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no chromium at {CHROMIUM}")


def history(page) -> list[str]:
    return page.eval_on_selector_all("#history li:not(.event)", "ls => ls.map(l => l.dataset.text)")


def test_a_click_on_any_cell_drops_into_its_column(served, page):
    server = served(CONNECT_FOUR)
    page.goto(server.url)
    page.wait_for_selector("#board svg .hit.target")
    targets = page.eval_on_selector_all("#board .hit.target", "gs => gs.map(g => g.dataset.space)")
    assert len(targets) == 42  # every cell of every column: all seven are open
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#board .hit.target[data-space='r0c3']").click()  # the top cell: the disc falls
    page.wait_for_function("() => state.view.history.length >= 2")
    assert history(page)[0] == "red: drop column=3"
    assert page.locator("#board [data-space='r5c3'] .piece").count() == 1
    assert page.locator("#board [data-space='r0c3'] .piece").count() == 0
    shot(page, "connect-four-click")


def test_a_click_on_a_full_columns_cell_says_why(served, page):
    server = served(CONNECT_FOUR)
    page.goto(server.url)
    set_up_table(page, 2, "red", ["yellow"], hotseat=True)
    for n, seat in enumerate(["red", "yellow"] * 3):  # six discs, in turn: column 3 full, nobody four in a row
        page.wait_for_selector("#curtain:not([hidden])")
        with page.expect_response(lambda r: r.url.endswith("/reveal")):
            page.click("#reveal")
        page.wait_for_function("s => state.view.seat === s && !state.view.curtain", arg=seat)
        with page.expect_response(lambda r: r.url.endswith("/act")):
            page.locator(f"#board .hit.target[data-space='r{n % 2}c3']").click()
    page.wait_for_selector("#curtain:not([hidden])")
    with page.expect_response(lambda r: r.url.endswith("/reveal")):
        page.click("#reveal")
    page.wait_for_function("() => state.view.seat === 'red' && !state.view.curtain")
    assert history(page) == [f"{s}: drop column=3" for s in ["red", "yellow"] * 3]
    assert page.locator("#board .hit.target[data-space^='r'][data-space$='c3']").count() == 0  # not highlighted
    with page.expect_response(lambda r: r.url.endswith("/why")):
        page.locator("#board .space[data-space='r2c3']").click(force=True)
    page.wait_for_selector("#notice .why")
    assert page.locator("#notice .refused").inner_text() == "'drop column=3' is not legal for Red"
    assert page.locator("#notice .why").inner_text().startswith("the action's condition is false: count(spaces, s => s.col")
    assert len(history(page)) == 6  # nothing was played
    shot(page, "connect-four-full-column")


def test_a_click_no_action_takes_says_so(served, page):
    """Pompeii's set-up asks for a pile, which no space names: a click on the board is told so."""
    server = served(ruleset_dir("pompeii"))
    page.goto(server.url)
    set_up_table(page, 3, "red", [])
    page.wait_for_function("() => state.view.actions.length > 0 || state.view.terminal")
    assert page.evaluate("() => state.view.actions.every(a => a.spaces.length === 0)")
    page.locator("#board .space[data-space='r3c3']").click(force=True)
    page.wait_for_selector("#notice:not([hidden])")
    assert page.locator("#notice").inner_text() == "No action takes this space now: choose one in the list."
