"""The pictures of the docs are current (issue 23: "screenshots in the docs are regenerated from `leges
render` and checked by a test"). Made by tests/screenshots.py (`python tests/screenshots.py --update`):
every bundled game played in the page, a screenshot at 1280×800, the game's record, and `leges render`
of the same position. Checked here without a browser, in seconds: every picture a doc shows exists, every
SVG is byte for byte what `leges render` draws of its stored record today, every screenshot is a PNG of
1280×800 shown by a doc. With chromium, Tic-Tac-Toe is played in the page again and must give the
stored record (the screenshots are made the same way each time).
"""
from __future__ import annotations

import json
import os
import shutil

import pytest

import screenshots
from screenshots import HEIGHT, PICTURES, WIDTH, check, png_size, referenced


def test_every_picture_the_docs_show_is_current():
    problems = check()
    assert not problems, "\n".join(problems)


def test_every_bundled_game_has_a_screenshot_in_the_docs():
    shown = referenced()
    bundled = {p.name for p in (screenshots.ROOT / "rulesets").iterdir() if (p / "ruleset.yaml").is_file()}
    pages = {p.name for p in PICTURES if p.page}
    assert bundled <= pages, bundled - pages
    for p in PICTURES:
        if p.page:
            assert png_size(p.png) == (WIDTH, HEIGHT) and p.png.name in shown and p.svg.name in shown, p.name
    assert sum(p.png.stat().st_size for p in PICTURES if p.page) < 400_000  # small enough for a repository


def test_a_picture_that_is_not_current_is_reported(tmp_path, monkeypatch):
    images = tmp_path / "images"
    shutil.copytree(screenshots.IMAGES, images)
    monkeypatch.setattr(screenshots, "IMAGES", images)
    svg = images / "tictactoe.svg"
    svg.write_text(svg.read_text(encoding="utf-8").replace("highlight line", "highlight"), encoding="utf-8")
    (images / "pompeii-page.png").write_bytes(b"not a picture")
    (images / "attika.svg").unlink()
    problems = "\n".join(check())
    assert "tictactoe.svg is not what `leges render` draws" in problems
    assert "pompeii-page.png is not a PNG of 1280×800" in problems
    assert "attika.svg is shown in README.md" not in problems and "attika.svg is shown in rendering.md" in problems


def test_a_record_the_rules_no_longer_play_is_reported(tmp_path, monkeypatch):
    records = tmp_path / "records"
    shutil.copytree(screenshots.RECORDS, records)
    monkeypatch.setattr(screenshots, "RECORDS", records)
    path = records / "tictactoe.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["actions"][1] = record["actions"][0].replace("x:", "o:")  # the same square twice
    path.write_text(json.dumps(record), encoding="utf-8")
    problems = "\n".join(check())
    assert "tictactoe: leges render of" in problems and "is not a legal action for o" in problems


CHROMIUM = os.environ.get("LEGES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no chromium at {CHROMIUM}")
def test_the_page_plays_the_stored_game_again(tmp_path, monkeypatch):
    """`--update` makes the same game again: Tic-Tac-Toe played in the page from its seed gives its record."""
    pytest.importorskip("starlette")
    sync_api = pytest.importorskip("playwright.sync_api")
    from test_web_browser import FLAGS
    monkeypatch.setattr(screenshots, "IMAGES", tmp_path)
    monkeypatch.setattr(screenshots, "RECORDS", tmp_path)
    picture = next(p for p in PICTURES if p.name == "tictactoe")
    with sync_api.sync_playwright() as pw:
        try:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, timeout=60_000)
        except Exception as exc:  # noqa: BLE001 - a chromium that does not start is a machine without a browser
            pytest.skip(f"chromium does not start: {exc}")
        try:
            screenshots.played_in_the_page(picture, browser)
        finally:
            browser.close()
    stored = json.loads((screenshots.ROOT / "docs" / "images" / "records" / "tictactoe.json").read_text(encoding="utf-8"))
    made = json.loads((tmp_path / "tictactoe.json").read_text(encoding="utf-8"))
    assert made == stored
    assert png_size(tmp_path / "tictactoe-page.png") == (WIDTH, HEIGHT)
