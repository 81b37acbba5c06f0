"""leges serve in a real browser: Playwright for Python driving Debian's chromium (launched by its
path; Playwright's own browser download is not used). A whole Tic-Tac-Toe game by clicks, a
Pompeii move by clicking a square, a record stepped through, a broken ruleset's located error, an
action refused with why; moves of Attika (hexes) and Alexander (a graph) against random opponents,
and a short record of each stepped through.

Skipped when Playwright, Starlette/uvicorn or chromium are missing. Screenshots are kept in
test-artifacts/browser/ (LEGES_ARTIFACTS overrides the folder).
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

import leges  # noqa: E402
from leges.web.server import ServeOptions  # noqa: E402
from helpers import ROOT, maps_dir, play_random, ruleset_dir  # noqa: E402

CHROMIUM = os.environ.get("LEGES_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(os.environ.get("LEGES_ARTIFACTS") or ROOT / "test-artifacts") / "browser"
TIMEOUT = 15_000  # ms: generous for a loaded machine; each step takes well under a second

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no chromium at {CHROMIUM}")


@pytest.fixture(scope="module")
def browser(request):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, timeout=60_000)
        except Exception as exc:  # noqa: BLE001 - a chromium that does not start is a machine without a browser
            pytest.skip(f"chromium does not start: {exc}")
        yield browser
        browser.close()
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\nbrowser screenshots: {ARTIFACTS}")


@pytest.fixture(scope="module")
def served():
    """`served(path)`: the page's server of a ruleset as it is, one for the module's tests that need
    no server of their own (no options, no record, no files changed). Each test's page is a browser
    context of its own, so its own cookie: the tables it sets up, the seats it holds and what it
    is refused are its own on the server, as on a fresh one. (A server for each test loaded its
    ruleset and stopped uvicorn again: a sixth of the time of these tests on a loaded machine.)"""
    from leges.web.server import Background, create_app
    servers: dict = {}

    def get(path):
        if str(path) not in servers:
            servers[str(path)] = Background(create_app(str(path)))
        return servers[str(path)]
    yield get
    for server in servers.values():
        server.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors  # no JavaScript error on the page


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def history_texts(page) -> list[str]:
    """The history as text forms (the page shows it in words, each entry keeping its text form)."""
    return page.eval_on_selector_all("#history li:not(.event)", "ls => ls.map(l => l.dataset.text)")


def history_length(page) -> int:
    return page.locator("#history li:not(.event)").count()


def test_a_whole_tictactoe_game_by_clicks(served, page):
    server = served(ruleset_dir("tictactoe"))
    page.goto(server.url)
    page.wait_for_selector("#board svg .hit.target")
    clicks = 0
    while page.locator("#result").is_hidden():
        target = page.locator("#board .hit.target").first
        square = target.get_attribute("data-space")
        with page.expect_response(lambda r: r.url.endswith("/act")):
            target.click()
        clicks += 1
        page.wait_for_function("s => document.querySelector(`#board [data-space='${s}'] .piece`)", arg=square)
        assert history_texts(page).count(f"x: place square={square}") == 1
        assert clicks <= 5
    shot(page, "tictactoe-game-over")
    assert re.match(r"Game over: (X > O|O > X|X = O)", page.locator("#result").inner_text())  # the seats' display names
    assert page.locator("#board .hit.target").count() == 0
    assert history_length(page) >= 2 * clicks - 1


def test_a_view_drawn_again_keeps_its_picture_so_a_click_half_made_counts(served, page):
    """A page that polls draws the same view again; the board's elements stay, or a click pressed
    on the old picture and let go on the new one would be no click at all (and no move)."""
    server = served(ruleset_dir("tictactoe"))
    page.goto(server.url)
    page.wait_for_selector("#board svg .hit.target")
    kept = page.evaluate("""() => { const before = document.querySelector('#board svg');
        render(JSON.parse(JSON.stringify(state.view))); return before === document.querySelector('#board svg'); }""")
    assert kept
    page.mouse.move(0, 0)
    box = page.locator("#board .hit.target").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => render(JSON.parse(JSON.stringify(state.view)))")  # a poll's answer, between press and release
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.mouse.up()


def test_a_pompeii_move_by_clicking_a_square(served, page):
    server = served(ruleset_dir("pompeii"))
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    page.select_option("#players", "3")
    page.select_option("#seat", "red")
    with page.expect_response(lambda r: r.url.endswith("/api/play")):
        page.click("#new-game")
    for _ in range(10):  # the set-up's choices name no square: taken from the list
        page.wait_for_selector("#actions li button")
        if page.locator("#board .hit.target").count():
            break
        first = page.locator("#actions button.act").first
        assert first.get_attribute("data-action").startswith("take_pile") and "§" in page.locator(".cite").first.text_content()
        with page.expect_response(lambda r: r.url.endswith("/act")):
            first.click()
    target = page.locator("#board .hit.target").first
    square = target.get_attribute("data-space")
    fitting = [t for t in page.eval_on_selector_all("#actions button.act", "bs => bs.map(b => b.dataset.action)")
               if t.endswith(f"square={square}")]
    assert fitting and all(t.startswith("play ") for t in fitting)
    before = page.locator(f"#board [data-space='{square}'] .piece").count()
    if len(fitting) == 1:
        with page.expect_response(lambda r: r.url.endswith("/act")):
            target.click()
    else:  # several cards fit this square: the list narrows to them
        target.click()
        page.wait_for_selector("#selection:not([hidden])")
        with page.expect_response(lambda r: r.url.endswith("/act")):
            page.locator("#actions li button.act").first.click()
    page.wait_for_function("s => document.querySelectorAll(`#board [data-space='${s}'] .piece`).length > 0", arg=square)
    moves = history_texts(page)
    assert sum(bool(re.match(rf"^red: play card=\S+ building=\S+ square={square}$", m)) for m in moves) == 1
    assert page.locator(f"#board [data-space='{square}'] .piece").count() >= max(before, 1)
    assert "red's" in page.locator(f"#board [data-space='{square}'] .piece title").first.text_content()
    shot(page, "pompeii-after-a-move")
    cite = page.locator(".cite").first.text_content()
    assert "hu §" in cite
    # the moves in the ruleset's languages: English by default, Hungarian or Russian when picked
    assert not page.locator("#lang-box").is_hidden()
    english = page.locator("#actions button.act").first.inner_text()
    page.select_option("#lang", "hu")
    hungarian = page.locator("#actions button.act").first.inner_text()
    assert english != hungarian and "=" not in hungarian
    page.select_option("#lang", "en")


def open_replay(page, server) -> None:
    page.goto(server.url)
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_selector("#board svg")


def step_forward(page, step: int) -> None:
    """One step on the timeline; `step` entries are then in the history."""
    with page.expect_response(lambda r: "/api/replay/" in r.url):
        page.click("#step-next")
    page.wait_for_function("n => document.querySelectorAll('#history li:not(.event)').length === n", arg=step)


def test_stepping_through_a_record(serving, page, tmp_path):
    from leges.cli import main
    assert main(["simulate", str(ruleset_dir("tictactoe")), "-g", "1", "--seed", "2", "--records", str(tmp_path), "-q"]) == 0
    record = next(tmp_path.glob("*.json"))
    total = len(json.loads(record.read_text())["actions"])
    open_replay(page, serving(ruleset_dir("tictactoe"), record=str(record)))
    for step in (1, 2, 3):
        step_forward(page, step)
    assert page.locator("#step-label").inner_text() == f"step 3 of {total}"
    assert page.locator("#board .piece").count() == 3
    shot(page, "tictactoe-replay-step-3")
    with page.expect_response(lambda r: "/api/replay/" in r.url):
        page.locator("#timeline").fill(str(total))
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#step-label").inner_text() == f"step {total} of {total}"
    with page.expect_response(lambda r: "/api/replay/" in r.url):
        page.click("#step-first")
    page.wait_for_function("() => document.querySelectorAll('#board .piece').length === 0")
    # a record opened in the page
    with page.expect_response(lambda r: r.url.endswith("/api/replay")):
        page.set_input_files("#record-file", str(record))
    with page.expect_response(lambda r: "/api/replay/" in r.url):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelectorAll('#history li:not(.event)').length === 1")


def test_a_broken_ruleset_shows_its_located_error(serving, page, tmp_path):
    shutil.copytree(ruleset_dir("tictactoe"), tmp_path / "rulesets" / "tictactoe")
    (tmp_path / "maps").mkdir()
    shutil.copy(maps_dir() / "tictactoe.yaml", tmp_path / "maps")
    folder = tmp_path / "rulesets" / "tictactoe"
    server = serving(folder)
    page.goto(server.url)
    page.wait_for_selector("#board svg .hit.target")
    rules = folder / "ruleset.yaml"
    text = rules.read_text()
    broken = text.replace("count(s) == 0]", "count(squre) == 0]")
    line = next(i for i, ln in enumerate(broken.splitlines(), 1) if "squre" in ln)
    rules.write_text(broken)
    page.wait_for_selector("#errors:not([hidden])")
    error = page.locator("#error-list li").first.inner_text()
    assert re.search(rf"ruleset\.yaml:{line}:\d+: error: unknown name 'squre'", error), error
    shot(page, "tictactoe-broken-ruleset")
    rules.write_text(text)
    page.wait_for_selector("#errors", state="hidden")
    page.wait_for_selector("#board svg .hit.target")
    assert "reloaded" in page.locator("#watch").inner_text()


def test_a_refused_action_says_why(served, page):
    """The page is stale (the game moved on in another tab): the action clicked is refused, with why."""
    server = served(ruleset_dir("tictactoe"))
    page.goto(server.url)
    page.wait_for_selector("#board svg .hit.target")
    match = page.evaluate("() => state.match")
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())  # another tab of the same browser
    request = urllib.request.Request(f"{server.url}api/play/{match}/act", data=b'{"action": "place square=r1c1"}',
                                     headers={"Content-Type": "application/json", "X-Leges-Token": server.token,
                                              "Cookie": cookie})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200
    with page.expect_response(lambda r: r.url.endswith("/act") and r.status == 400):
        page.locator("#actions button.act[data-action='place square=r1c1']").click()
    page.wait_for_selector("#notice .why")
    assert page.locator("#notice .refused").inner_text() == "'place square=r1c1' is not legal for X"
    assert page.locator("#notice .why").inner_text().startswith("square=r1c1 is not among the options of 'square'")
    assert re.match(r"folk § Play: «.+»", page.locator("#notice .cite").inner_text())
    page.wait_for_function("() => document.querySelectorAll('#history li:not(.event)').length === 2")  # the page caught up
    assert page.locator("#actions button.act[data-action='place square=r1c1']").count() == 0
    shot(page, "tictactoe-refused")


# ------------------------------------------------------------------ Attika and Alexander
def play_moves(page, seat: str, rng: random.Random, moves: int) -> int:
    """The seat's moves in the page: an action naming a space is chosen by clicking its spaces on the
    board (the last click plays it, or the list narrows to the actions left), any other is clicked in
    the list. Returns how many moves were made on the board."""
    on_board = 0
    for _ in range(moves):
        page.wait_for_function("() => state.view && (state.view.actions.length || state.view.terminal)")
        if page.evaluate("() => state.view.terminal"):
            break
        actions = page.evaluate("() => state.view.actions.map(a => [a.text, a.spaces])")
        before = history_length(page)
        named = [a for a in actions if a[1]]
        if named:
            text, spaces = rng.choice(named)
            chosen, posted = [], False
            for space in dict.fromkeys(spaces):
                chosen.append(space)
                left = {t for t, s in actions if all(c in s for c in chosen)}
                target = page.locator(f"#board .hit.target[data-space='{space}']")
                if len(left) == 1:
                    with page.expect_response(lambda r: r.url.endswith("/act")):
                        target.click()
                    posted = True
                    break
                target.click()
                page.wait_for_selector(f"#board .hit.chosen[data-space='{space}']")
            if not posted:  # several actions name these spaces: the list holds only them
                assert page.locator("#actions button.act").count() == len(left)
                with page.expect_response(lambda r: r.url.endswith("/act")):
                    page.locator(f"#actions button.act[data-action='{text}']").click()
            on_board += 1
        elif page.evaluate("() => !document.getElementById('numbers').hidden"):  # a decision of numbers (a share-out): typed in its form
            text = rng.choice([t for t, _ in actions][:60])  # as from the first options listed
            fill_numbers(page, text)
            with page.expect_response(lambda r: r.url.endswith("/act")):
                page.locator("#numbers button.act").click()
        else:
            shown = page.eval_on_selector_all("#actions button.act", "bs => bs.map(b => b.dataset.action)")
            assert shown, page.evaluate("() => [state.view.actions.map(a => a.text), document.getElementById('numbers').hidden, state.listAll]")
            text = rng.choice(shown)
            with page.expect_response(lambda r: r.url.endswith("/act")):
                page.locator("#actions button.act").nth(shown.index(text)).click()
        page.wait_for_function("n => document.querySelectorAll('#history li:not(.event)').length > n", arg=before)
        assert f"{seat}: {text}" in history_texts(page)[before:]
    return on_board


def fill_numbers(page, text: str) -> None:
    """The numbers of `text` (`share order=3 armies=5 temples=2`) typed into the page's form, in order."""
    for word in text.split()[1:]:
        key, value = word.split("=")
        field = page.locator(f"#numbers input[data-key='{key}']")
        field.fill(value)
        field.dispatch_event("change")


def new_game(page, players: int, seat: str, seed: int) -> None:
    page.wait_for_selector("#board svg")
    page.select_option("#players", str(players))
    page.select_option("#seat", seat)
    page.fill("#seed", str(seed))
    with page.expect_response(lambda r: r.url.endswith("/api/play")):
        page.click("#new-game")
    page.wait_for_function("s => state.view && state.view.seat === s", arg=seat)


@pytest.mark.parametrize("name, players, seat, moves", [("attika", 2, "corinth", 8), ("alexander", 3, "blue", 8)])
def test_moves_of_a_game_against_random_opponents(served, page, name, players, seat, moves):
    server = served(ruleset_dir(name))
    page.goto(server.url)
    new_game(page, players, seat, 3)
    assert page.input_value("#agents") == "random"
    on_board = play_moves(page, seat, random.Random(1), moves)
    assert on_board >= 1  # a space clicked: a hex for a building, a province to march to or to try
    others = [line for line in history_texts(page) if not line.startswith(seat + ": ")]
    assert others  # the random opponents moved in between
    assert "§" in page.locator("#actions .cite").first.text_content()  # behind its "why?"
    shot(page, f"{name}-after-moves")


@pytest.mark.parametrize("name, players, seat", [("attika", 3, "sparta"), ("alexander", 3, "green")])
def test_stepping_through_a_short_record(serving, page, tmp_path, name, players, seat):
    from leges.lab.records import make_record, write_record
    game = leges.load(str(ruleset_dir(name)))
    st = play_random(game, players, 5, until=lambda s: len(s.history) >= 30)
    path = tmp_path / f"{name}.json"
    write_record(str(path), make_record(game, str(ruleset_dir(name)), players, 5, list(st.history)))
    open_replay(page, serving(ruleset_dir(name), record=str(path)))
    for step in (1, 2, 3):
        step_forward(page, step)
        who, _, what = st.history[step - 1].partition(": ")
        assert page.locator("#last").inner_text() in (f"{who}: {what}", f"{who}: (sealed)")  # as everybody saw it
    assert page.locator("#step-label").inner_text() == "step 3 of 30"
    with page.expect_response(lambda r: "/api/replay/" in r.url):
        page.select_option("#replay-seat", seat)
    page.wait_for_function("s => state.view && state.view.seat === s", arg=seat)
    assert page.locator("#status").inner_text().startswith(f"{game.words.seat(seat, 'en')} — ")  # its display name
    mine = [i for i, entry in enumerate(st.history) if entry.startswith(seat + ": ")]
    step = mine[0] + 1  # the seat's own first action, as it saw it
    with page.expect_response(lambda r: "/api/replay/" in r.url):
        page.locator("#timeline").fill(str(step))
    page.wait_for_function("n => document.querySelectorAll('#history li:not(.event)').length === n", arg=step)
    assert page.locator("#last").inner_text() == st.history[step - 1]
    shot(page, f"{name}-replay-step-{step}")
    with page.expect_response(lambda r: "/api/replay/" in r.url):
        page.click("#step-last")
    page.wait_for_function("() => document.querySelectorAll('#history li:not(.event)').length === 30")
    assert page.locator("#step-label").inner_text() == "step 30 of 30" and page.locator("#result").is_hidden()


# ------------------------------------------------------------------ a table for people (issue #23)
@pytest.fixture
def pages(browser):
    """Two pages in two browser contexts (two people, two cookies), each failing its test on a JavaScript error."""
    made, errors = [], []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT)
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        made.append((context, pg))
    yield [pg for _, pg in made]
    for context, _ in made:
        context.close()
    assert not errors, errors


def set_up_table(page, players: int, seat: str, people: list[str], hotseat: bool = False,
                 variants: tuple = ()) -> dict:
    """A table set up in the page: `seat` is the page's own, `people` the other seats taken by people."""
    page.wait_for_selector("#board svg")
    page.select_option("#players", str(players))
    page.select_option("#seat", seat)  # the seed left empty: a table with people is dealt in secret
    for other in people:
        page.select_option(f"#seat-rows select.who[data-seat='{other}']", "person")
    if hotseat:
        page.check("#hotseat")
    for v in variants:
        page.locator("#variants-box summary").click()
        page.check(f"#variant-list input.variant-on[data-variant='{v}']")
    before = page.evaluate("() => state.match")
    with page.expect_response(lambda r: r.url.endswith("/api/play")):
        page.click("#new-game")
    page.wait_for_function("m => state.view && state.view.people && state.view.match !== m", arg=before)
    return page.evaluate("() => state.view")


def join(page, url: str, seat: str) -> None:
    page.goto(url)
    page.wait_for_function("s => state.view && state.view.seat === s", arg=seat)


def test_two_people_in_two_pages_play_tictactoe_to_its_end(served, pages):
    server = served(ruleset_dir("tictactoe"))
    x, o = pages
    x.goto(server.url)
    view = set_up_table(x, 2, "x", ["o"])
    assert view["people"] == ["x", "o"] and list(view["links"]) == ["o"]
    link = x.locator("#links a.seat-link[data-seat='o']").get_attribute("href")
    assert "#seat=" in link and view["links"]["o"] not in (view["match"], "")
    join(o, link, "o")
    assert o.locator("#links").is_hidden()  # the links are the page's that set the table up
    assert o.locator("#board .hit.target").count() == 0 and "Waiting for X" in o.locator("#waiting").inner_text()
    turn, moves = x, 0
    while True:
        other = o if turn is x else x
        turn.wait_for_selector("#board .hit.target")
        assert other.locator("#board .hit.target").count() == 0  # one seat decides at a time
        before = history_length(other)
        with turn.expect_response(lambda r: r.url.endswith("/act")):
            turn.locator("#board .hit.target").first.click()
        moves += 1
        other.wait_for_function("n => document.querySelectorAll('#history li:not(.event)').length > n", arg=before)  # it polled
        if turn.evaluate("() => state.view.terminal"):
            break
        turn = other
        assert moves <= 9
    for pg in pages:
        pg.wait_for_selector("#result:not([hidden])")
        assert re.match(r"Game over: (X > O|O > X|X = O)", pg.locator("#result").inner_text())
    assert history_texts(x) == history_texts(o)
    assert len(history_texts(x)) == moves
    shot(x, "table-tictactoe-x")
    shot(o, "table-tictactoe-o")
    with x.expect_download() as download:
        x.click("#record-link")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["ruleset"] == "tictactoe" and len(record["actions"]) == moves and record["variants"] == []


def panel_text(page) -> str:
    return " ".join(page.locator("#board svg .panel").first.text_content().split())


def test_two_people_at_pompeii_never_see_each_others_hand(serving, pages):
    """red and black are people in two pages, yellow an agent: each page holds its own seat's view,
    the one the server gives that seat — the same in worlds where the other's hand is another."""
    from leges.engine.saved_state import recompute_pending
    from leges.web.views import seat_payload
    server = serving(ruleset_dir("pompeii"), options=ServeOptions(seed=2))  # a fixed deal, from the command line only
    red, black = pages
    red.goto(server.url)
    view = set_up_table(red, 3, "red", ["black"])
    join(black, red.locator("#links a.seat-link[data-seat='black']").get_attribute("href"), "black")
    match = server.app.state.workspace.find_match(view["match"])
    seen = {"red": red, "black": black}
    rng = random.Random(3)
    moves, redrawn = 0, 0
    for _ in range(40):
        if moves >= 8:
            break
        for name, pg in seen.items():  # every page as the server would show its seat now, no more
            pg.wait_for_function("k => state.view && state.view.stamp === k", arg=match.stamp)
            shown = pg.evaluate("() => [state.view.svg, state.view.actions.map(a => a.text), state.view.history]")
            seat = match.st.setup.seat_names.index(name)
            other = 1 - seat
            with match.lock:
                st = match.st
                before = match.before  # the picture marks the last action's changes, as the seat saw them
                assert shown == [seat_payload(st, seat, before=before)["svg"], [a.text for a in st.legal_actions(seat)], st.record_view(seat)]
                assert shown[0] != seat_payload(st, other)["svg"]
                names = st.setup.seat_names
                hand = sorted(st.setup.clabel[c] for c in st.zones[f"hand.{names[other]}"])
                for _ in range(2):  # a world this seat cannot tell from the real one: the page would be the same
                    world = st.resample(seat, rng)
                    world.forget_cached()
                    if world.pending is not None:
                        world.pending = recompute_pending(world) or world.pending
                    assert seat_payload(world, seat, before=before)["svg"] == shown[0]
                    redrawn += sorted(world.setup.clabel[c] for c in world.zones[f"hand.{names[other]}"]) != hand
        mover = next((pg for pg in seen.values() if pg.evaluate("() => state.view.your_turn")), None)
        if mover is None:
            red.wait_for_timeout(100)
            continue
        first = mover.locator("#actions button.act").first
        with mover.expect_response(lambda r: r.url.endswith("/act")):
            first.click()
        moves += 1
    assert moves >= 8 and redrawn  # some of those worlds dealt the other person another hand
    shot(red, "table-pompeii-red")
    shot(black, "table-pompeii-black")


def test_a_variant_switched_on_in_the_page_changes_the_rules(served, page):
    """Attika: `extra_amphorae` (a parameter: amphorae at the start) makes an amphora card playable on the first turn."""
    server = served(ruleset_dir("attika"))
    page.goto(server.url)
    new_game(page, 2, "athens", 0)
    assert not any(a.startswith("amphora_card") for a in page.evaluate("() => state.view.actions.map(a => a.text)"))
    page.locator("#variants-box summary").click()
    item = page.locator("#variant-list li[data-variant='extra_amphorae']")
    assert "House rule" in item.inner_text() and "provenance: house_rule" in item.inner_text()
    assert item.locator("input.variant-param[data-param='start_amphorae']").input_value() == "1"
    assert "default 1" in item.inner_text()
    item.locator("input.variant-on").check()
    item.locator("input.variant-param[data-param='start_amphorae']").fill("2")
    with page.expect_response(lambda r: r.url.endswith("/api/play")):
        page.click("#new-game")
    page.wait_for_function("() => state.view.variants.length > 0")
    assert page.evaluate("() => state.view.variants") == ["extra_amphorae", "extra_amphorae.start_amphorae=2"]
    assert page.locator("#table-line .variants-on").inner_text() == "Variants: extra_amphorae (start_amphorae=2)"
    assert any(a.startswith("amphora_card") for a in page.evaluate("() => state.view.actions.map(a => a.text)"))
    page.fill("#filter", "amphora_card")
    assert page.locator("#actions button.act[data-action^='amphora_card']").count() >= 1
    shot(page, "attika-variant-on")


def test_a_conflicting_choice_of_variants_is_refused_before_the_game(served, page):
    server = served(ruleset_dir("pompeii"))
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    page.locator("#variants-box summary").click()
    assert "conflicts with russian" in page.locator("#variant-list li[data-variant='mayfair']").inner_text()
    page.check("#variant-list input.variant-on[data-variant='mayfair']")
    page.check("#variant-list input.variant-on[data-variant='russian']")
    page.wait_for_selector("#variant-conflict:not([hidden])")
    assert "conflicts with" in page.locator("#variant-conflict").inner_text()
    match = page.evaluate("() => state.match")
    page.click("#new-game")
    page.wait_for_selector("#notice:not([hidden])")
    assert "conflicts with" in page.locator("#notice").inner_text() and page.evaluate("() => state.match") == match


def test_an_illegal_click_on_the_board_says_why(served, page):
    server = served(ruleset_dir("tictactoe"))
    page.goto(server.url)
    page.wait_for_selector("#board svg .hit.target")
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#board .hit.target[data-space='r1c1']").click()
    page.wait_for_function("() => state.view.history.length === 2")
    with page.expect_response(lambda r: r.url.endswith("/why")):
        page.locator("#board .space[data-space='r1c1']").click(force=True)  # taken: no action names it
    page.wait_for_selector("#notice .why")
    assert page.locator("#notice .refused").inner_text() == "'place square=r1c1' is not legal for X"
    assert page.locator("#notice .why").inner_text().startswith("square=r1c1 is not among the options of 'square'")
    assert page.evaluate("() => state.view.history.length") == 2  # nothing was played
    shot(page, "tictactoe-illegal-click")


def test_undo_in_practice_takes_back_the_last_decision(served, page):
    server = served(ruleset_dir("tictactoe"))
    page.goto(server.url)
    page.wait_for_selector("#board svg .hit.target")
    assert page.locator("#undo").is_hidden()
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#board .hit.target[data-space='r0c0']").click()
    page.wait_for_selector("#undo:not([hidden])")
    with page.expect_response(lambda r: r.url.endswith("/undo")):
        page.click("#undo")
    page.wait_for_function("() => state.view.history.length === 0")
    assert page.locator("#board .hit.target[data-space='r0c0']").count() == 1
    assert "taken back: x: place square=r0c0" in page.locator("#notice").inner_text()


def test_a_hot_seat_covers_each_view_until_its_player_looks(served, page):
    server = served(ruleset_dir("tictactoe"))
    page.goto(server.url)
    set_up_table(page, 2, "x", ["o"], hotseat=True)
    for seat in ("x", "o", "x"):
        page.wait_for_selector("#curtain:not([hidden])")
        assert page.locator("#curtain-text").inner_text().startswith(f"Pass the screen to {seat.upper()}.")  # its display name
        assert page.evaluate("() => state.view.actions.length") == 0 and 'data-view="public"' in page.evaluate("() => state.view.svg")
        with page.expect_response(lambda r: r.url.endswith("/reveal")):
            page.click("#reveal")
        page.wait_for_function("s => state.view.seat === s && !state.view.curtain", arg=seat)
        assert page.locator("#curtain").is_hidden()
        with page.expect_response(lambda r: r.url.endswith("/act")):
            page.locator("#board .hit.target").first.click()
    shot(page, "tictactoe-hot-seat")


def test_a_busy_sign_while_the_agents_think(serving, page):
    from leges.web.seating import AgentPolicy
    server = serving(ruleset_dir("pompeii"), options=ServeOptions(agents=AgentPolicy(max_seconds=0.3), request_seconds=0.05))
    page.goto(server.url)
    page.wait_for_selector("#board svg")
    page.evaluate("""() => { window.busySeen = 0; new MutationObserver(() => { if (!document.getElementById('busy').hidden) window.busySeen++; })
                      .observe(document.getElementById('busy'), {attributes: true}); }""")
    page.select_option("#players", "3")
    page.select_option("#seat", "yellow")
    page.fill("#agents", "mcts")
    page.click("#new-game")
    page.wait_for_function("() => state.view && state.view.seat === 'yellow' && state.view.your_turn", timeout=60_000)
    assert page.evaluate("() => window.busySeen") > 0
    page.wait_for_selector("#busy", state="hidden")


@pytest.mark.parametrize("name, players", [("tictactoe", 2), ("pompeii", 4), ("attika", 4), ("alexander", 4)])
def test_the_page_fits_1280_by_800(served, browser, name, players):
    """The whole board and the seat's hand (the panel beside it) inside a 1280×800 window."""
    game = leges.load(str(ruleset_dir(name)))
    players = min(players, game.max_players)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    try:
        server = served(ruleset_dir(name))
        page.goto(server.url)
        seat = game.setup_for(players).seat_names[-1]
        new_game(page, players, seat, 1)
        for part in ("#board svg .board", "#board svg .panel", "#actions", "#status"):
            if not page.locator(part).count():
                continue
            box = page.locator(part).first.bounding_box()
            assert box and box["x"] >= 0 and box["y"] >= 0, (part, box)
            assert box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= 800, (part, box)
        board, svg = page.locator("#board").bounding_box(), page.locator("#board svg").bounding_box()
        assert svg["x"] >= board["x"] and svg["x"] + svg["width"] <= board["x"] + board["width"] + 0.5  # not cut by its box
        assert svg["y"] >= board["y"] and svg["y"] + svg["height"] <= board["y"] + board["height"] + 0.5
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280
        shot(page, f"{name}-1280x800")
    finally:
        context.close()


def test_a_share_out_is_a_form_of_numbers(served, page):
    """Alexander's share-out (816 options: every split of 15 cubes) is three numbers, each within what the ones before leave."""
    server = served(ruleset_dir("alexander"))
    page.goto(server.url)
    new_game(page, 3, "blue", 0)
    page.wait_for_selector("#numbers:not([hidden]) input[data-key='temples']")
    assert page.evaluate("() => state.view.actions.length") == 816 and page.locator("#actions li").count() == 0
    assert page.locator("#numbers input").evaluate_all("xs => xs.map(x => x.dataset.key)") == ["order", "armies", "temples"]
    page.click("#list-all")  # the options listed after all, then the form again
    page.wait_for_function("() => document.querySelectorAll('#actions li').length === 60")
    assert page.locator("#numbers").is_hidden()
    page.click("#list-all")
    fill_numbers(page, "share order=9 armies=4")
    assert page.locator("#numbers input[data-key='temples']").get_attribute("max") == "2"  # 15 - 9 - 4 left
    fill_numbers(page, "share temples=2")
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#numbers button.act").click()
    page.wait_for_function("() => state.view.history.some(h => h === 'blue: share order=9 armies=4 temples=2')")


def test_several_tables_at_once_in_one_page(served, page):
    server = served(ruleset_dir("tictactoe"))
    page.goto(server.url)
    first = set_up_table(page, 2, "x", ["o"])
    with page.expect_response(lambda r: r.url.endswith("/act")):
        page.locator("#board .hit.target[data-space='r0c0']").click()
    second = set_up_table(page, 2, "x", ["o"])
    assert second["match"] != first["match"] and second["history"] == []
    assert page.locator("#tables option").count() == 3  # "—" and the two tables
    with page.expect_response(lambda r: f"/api/play/{first['match']}" in r.url):
        page.select_option("#tables", first["match"])
    page.wait_for_function("() => state.view.history.length === 1")
    assert history_texts(page) == ["x: place square=r0c0"]


def test_a_host_holding_a_claimed_seats_link_is_refused_its_view(served, pages):
    """Two browser contexts: the friend opens o's link first and holds the seat; the host, who has
    the link, opens it in its own browser and gets no view of o, only why; the host sees the seat taken."""
    server = served(ruleset_dir("tictactoe"))
    host, friend = pages
    host.goto(server.url)
    view = set_up_table(host, 2, "x", ["o"])
    link = host.locator("#links a.seat-link[data-seat='o']").get_attribute("href")
    join(friend, link, "o")
    host.wait_for_function("() => state.view.claimed && state.view.claimed.o")  # it polled: the seat is taken
    assert "taken by a browser" in host.locator("#links").inner_text()
    spy = host.context.new_page()
    spy.goto(link)
    spy.wait_for_selector("#notice:not([hidden])")
    assert "taken" in spy.locator("#notice").inner_text()
    assert spy.evaluate("() => state.view ? state.view.seat : null") != "o"
    assert spy.locator("#board [data-view='o']").count() == 0
    shot(spy, "table-seat-taken")
    spy.close()
    assert view["deal"] == {"secret": True, "seed": None} and host.locator("#deal").is_hidden()
