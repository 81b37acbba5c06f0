"""leges serve without a browser: the page's API over HTTP (a real uvicorn server in a thread), and
what it sends — one seat's view, the same in every world that seat cannot tell from the real one."""
from __future__ import annotations

import json
import random
import re
import shutil
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import leges  # noqa: E402
from helpers import ROOT, maps_dir, play_random, ruleset_dir, send  # noqa: E402
from leges.web.server import ServeOptions  # noqa: E402
from leges.web.views import seat_payload  # noqa: E402

SAMPLE = ROOT / "docs" / "examples" / "sample"


def test_a_whole_game_of_tictactoe_over_http(serving):
    server = serving(ruleset_dir("tictactoe"))
    status, info = send(server, "/api/info")
    assert status == 200 and info["title"] == "Tic-Tac-Toe" and info["seats"] == ["x", "o"]
    status, view = send(server, "/api/play", {"players": 2, "seat": "o", "agents": "random", "seed": 3})
    assert status == 200 and view["seat"] == "o"
    assert view["history"] and view["news"] == view["history"]  # x (an agent) has moved already
    while not view["terminal"]:
        action = view["actions"][0]
        assert action["spaces"] and action["cite"]["section"] == "Play" and "ruleset.yaml:" in action["cite"]["where"]
        status, view = send(server, f"/api/play/{view['match']}/act", {"action": action["text"]})
        assert status == 200
    assert view["result"]["ranking"] and "<svg" in view["svg"]
    status, bad = send(server, f"/api/play/{view['match']}/act", {"action": "place square=r0c0"})
    assert status == 400 and "game is over" in bad["error"]


def test_an_illegal_action_is_refused_with_why(serving):
    """The refusal says why (state.explain): the parameter's options, the rule's citation; the game is untouched."""
    server = serving(ruleset_dir("tictactoe"))
    _, view = send(server, "/api/play", {"players": 2, "seat": "x"})
    mid = view["match"]
    _, view = send(server, f"/api/play/{mid}/act", {"action": "place square=r1c1"})
    status, bad = send(server, f"/api/play/{mid}/act", {"action": "place square=r1c1"})
    assert status == 400 and "legal now" in bad["diagnostics"][0]["hint"]
    why = bad["explanation"]
    source = leges.load(str(ruleset_dir("tictactoe"))).actions["place"].decl.source
    assert why["reason"] == "domain" and why["seat"] == "x" and why["rule"] == "action:place"
    assert why["message"].startswith("square=r1c1 is not among the options of 'square'")
    assert "r1c1" not in why["message"].rsplit(": ", 1)[1]  # the free squares listed
    assert why["citation"] == f"{source['book']} § {source['section']}: «{source['quote']}»"
    assert bad["error"] == why["line"] and bad["error"].startswith("'place square=r1c1' is not legal for x: square=r1c1 ")
    assert bad["error"].endswith(why["citation"])
    _, again = send(server, f"/api/play/{mid}")
    assert again["history"] == view["history"]  # nothing was applied
    status, bad = send(server, f"/api/play/{mid}/act", {"action": "o: place square=r0c0"})
    assert status == 400 and bad["explanation"]["seat"] == "x"  # a text naming another seat is still x's
    status, bad = send(server, "/api/play", {"players": 2, "seat": "z"})
    assert status == 400 and "no seat 'z'" in bad["error"] and "explanation" not in bad


def test_a_refused_action_shows_the_condition_and_its_values(serving):
    """A `require` that is false: the condition, the values of its parts, the citation."""
    server = serving(SAMPLE)
    _, view = send(server, "/api/play", {"players": 2, "seat": "o", "seed": 1})
    status, bad = send(server, f"/api/play/{view['match']}/act", {"action": "concede"})
    why = bad["explanation"]
    assert status == 400 and why["reason"] == "require" and why["rule"] == "action:concede"
    assert why["condition"] == "score[me] + 10 < max(map(players, p => score[p]))"
    assert ["score[me] + 10", "10"] in why["values"] and ["me", "o"] in why["values"]
    assert why["citation"] == "docs § Actions" and "(score[me] + 10 = 10, " in bad["error"]


@pytest.fixture(scope="module")
def leaky(tmp_path_factory):
    """The sample game with a `require` that reads the hidden deck: explained as is, it shows the deck."""
    folder = tmp_path_factory.mktemp("leaky") / "sample"
    shutil.copytree(SAMPLE, folder)
    rules = folder / "ruleset.yaml"
    text = rules.read_text()
    old = "require: count(supply(me)) > 0 and card.number > square.bonus"
    assert old in text
    rules.write_text(text.replace(old, "require: top(deck).number > 6 and count(supply(me)) > 0 and card.number > square.bonus"))
    return leges.load(str(folder))


def test_why_tells_only_what_the_seat_may_see(leaky):
    from leges.engine.seat_explanation import seat_explanation
    st = leaky.new_initial_state(players=2, seed=0)
    card = st.setup.clabel[st.zones["hand.x"][0]]
    text = f"place card={card} square=r0c0"
    deck = [st.setup.clabel[c] for c in st.zones["deck"]]
    assert any(label in str(st.explain(text, 0)) for label in deck)  # the rules' values as they are: the deck
    why = seat_explanation(st, text, 0)
    assert why.reason == "require" and why.condition == "top(deck).number > 6" and ("card", card) in why.values
    assert not any("deck" in k for k, _ in why.values) and not any(label in str(why) for label in deck)
    assert str(why).endswith("— docs § Actions")
    rng = random.Random(4)
    for _ in range(3):  # the same in worlds x cannot tell from this one
        assert seat_explanation(st.resample(0, rng), text, 0) == why


@pytest.mark.parametrize("name, players, n", [("pompeii", 3, 30), ("attika", 2, 25), ("alexander", 3, 40)])
def test_why_is_the_same_in_worlds_the_seat_cannot_tell_apart(name, players, n):
    """As the page's view: why an action is refused is the same in a world resampled for the seat."""
    from leges.engine.saved_state import recompute_pending
    from leges.engine.seat_explanation import seat_explanation
    game = leges.load(str(ruleset_dir(name)))
    count = iter(range(n + 1))
    st = play_random(game, players, 7, until=lambda s: next(count) >= n)
    seat = st.current_player()
    legal = [a.text for a in st.legal_actions(seat)]
    texts = []
    for t in [t for t in legal if "=" in t][:2]:  # a value outside a parameter's options: the first, the last
        words = t.split()
        named = [i for i, w in enumerate(words) if "=" in w]
        for i in {named[0], named[-1]}:
            texts.append(" ".join(words[:i] + [words[i].split("=")[0] + "=zz"] + words[i + 1:]))
    texts += [a for a in game.actions if a not in {t.split()[0] for t in legal}][:2]  # an action not asked for
    rng = random.Random(5)
    told = []
    for text in texts:
        why = seat_explanation(st, text, seat)
        told.append(why)
        other = st.resample(seat, rng)
        if other.pending is not None:
            other.pending = recompute_pending(other) or other.pending
        assert seat_explanation(other, text, seat) == why, (name, text)
    assert len(told) >= 3 and all(w is not None for w in told) and any(w.reason == "domain" for w in told)


def test_stepping_through_a_record(serving, tmp_path):
    from leges.cli import main
    assert main(["simulate", str(ruleset_dir("pompeii")), "-p", "3", "-g", "1", "--seed", "4", "--records", str(tmp_path), "-q"]) == 0
    record = next(tmp_path.glob("*.json"))
    server = serving(ruleset_dir("pompeii"), record=str(record))
    _, info = send(server, "/api/info")
    replay = info["replays"][0]
    total = len(json.loads(record.read_text())["actions"])
    assert replay["steps"] == total and replay["seats"] == ["red", "black", "yellow"]
    _, start = send(server, f"/api/replay/{replay['id']}?step=0")
    assert start["step"] == 0 and start["history"] == [] and start["seat"] is None
    _, mid = send(server, f"/api/replay/{replay['id']}?step=20&seat=black")
    assert mid["step"] == 20 and len(mid["history"]) == 20 and mid["seat"] == "black" and mid["last"] == mid["history"][-1]
    _, end = send(server, f"/api/replay/{replay['id']}?step={total + 5}")
    assert end["step"] == total and end["terminal"] and end["result"]
    status, _ = send(server, "/api/replay", {"record": "{\"leges_record\": 1}", "name": "bad.json"})
    assert status == 400


@pytest.fixture
def game_copy(tmp_path):
    shutil.copytree(ruleset_dir("tictactoe"), tmp_path / "rulesets" / "tictactoe")
    (tmp_path / "maps").mkdir()
    shutil.copy(maps_dir() / "tictactoe.yaml", tmp_path / "maps")
    return tmp_path / "rulesets" / "tictactoe"


def wait_for_version(server, version, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _, status = send(server, "/api/watch")
        if status["version"] != version:
            return status
        time.sleep(0.1)
    raise AssertionError("the change was not noticed")


def test_a_saved_file_reloads_the_game_or_shows_located_errors(serving, game_copy):
    server = serving(game_copy)
    _, view = send(server, "/api/play", {"players": 2, "seat": "x"})
    _, view = send(server, f"/api/play/{view['match']}/act", {"action": "place square=r1c1"})
    rules = game_copy / "ruleset.yaml"
    text = rules.read_text()
    rules.write_text(text.replace("count(s) == 0]", "count(s) == O]"))
    status = wait_for_version(server, view["version"])
    assert not status["ok"]
    error = status["errors"][0]
    assert error["file"].endswith("ruleset.yaml") and error["line"] > 0 and "'O'" in error["text"]
    rules.write_text(text.replace("put one of your marks", "put one of your own marks"))
    status = wait_for_version(server, status["version"])
    assert status["ok"] and not status["errors"]
    _, again = send(server, f"/api/play/{view['match']}")
    assert again["history"][:1] == view["history"][:1]  # the same game, replayed under the new rules
    assert "own marks" in again["actions"][0]["cite"]["quote"]


# --------------------------------------------------------------- hidden information
@pytest.mark.parametrize("name, players, steps", [("pompeii", 3, (9, 30, 70)), ("attika", 2, (6, 25)),
                                                  ("alexander", 3, (8, 40))])
def test_the_page_gets_only_what_its_seat_may_see(name, players, steps):
    """What the server sends for a seat is the same in a world resampled for that seat: nothing of
    what the seat may not see reaches the page (the whole payload: picture, actions, history, log)."""
    from leges.engine.saved_state import recompute_pending
    game = leges.load(str(ruleset_dir(name)))
    rng = random.Random(11)
    compared = 0
    for n in steps:
        count = iter(range(n + 1))
        st = play_random(game, players, 7, until=lambda s: next(count) >= n)
        if st.is_terminal():
            continue
        for seat in [*range(players), None]:
            for _ in range(2):
                other = st.resample(seat if seat is not None else 0, rng)
                other.forget_cached()
                if other.pending is not None:
                    other.pending = recompute_pending(other) or other.pending
                assert seat_payload(other, seat) == seat_payload(st, seat), (name, n, seat)
                compared += 1
    assert compared


def test_the_page_names_its_seat_and_no_other_hand(serving):
    server = serving(ruleset_dir("pompeii"))
    _, view = send(server, "/api/play", {"players": 3, "seat": "black", "seed": 1})
    assert view["seat"] == "black" and 'data-view="black"' in view["svg"]
    assert all(a["player"] == 1 for a in view["actions"])


@pytest.mark.parametrize("name, players", [("tictactoe", 2), ("pompeii", 3), ("attika", 3), ("alexander", 4)])
def test_every_bundled_game_plays_and_replays_in_the_page(name, players, tmp_path):
    from leges.cli import main
    from leges.web.match import Match
    from leges.web.replay import Replay, read_record_text
    from leges.web.session import Workspace
    from leges.web.views import play_view, replay_view
    ws = Workspace(str(ruleset_dir(name)))
    match = Match("m", 1, players, 2, ["random"] * players)
    match.start(ws.game)
    match.run()
    rng = random.Random(2)
    clicked = 0
    for _ in range(12):
        view = play_view(match, ws)
        if view["terminal"]:
            break
        assert view["actions"] and view["seat"] == ws.game.setup_for(players).seat_names[1]
        named = [a for a in view["actions"] if a["spaces"]]
        action = rng.choice(named or view["actions"])
        clicked += bool(named)
        match.act(action["text"])
    assert clicked or name == "alexander"  # a space to click in every game whose early moves name one
    assert main(["simulate", str(ruleset_dir(name)), "-p", str(players), "-g", "1", "--seed", "1",
                 "--records", str(tmp_path), "-q"]) == 0
    path = next(tmp_path.glob("*.json"))
    replay = Replay("r", read_record_text(path.read_text(), path.name), path.name)
    replay.rebuild(ws.game)
    assert replay.steps == len(replay.record["actions"]) and replay.error is None
    for step in (0, replay.steps // 2, replay.steps):
        view = replay_view(replay, step, None, ws)
        assert view["step"] == step and len(view["history"]) == step and "<svg" in view["svg"]
    assert view["terminal"] and view["result"]["ranking"]


def test_the_serve_command(tmp_path):
    """`leges serve` as typed: it says where the page is, serves it, and stops on a signal."""
    import signal
    import socket
    import subprocess
    import sys
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "leges", "serve", str(ruleset_dir("tictactoe")), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = response.read().decode()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
                time.sleep(0.2)
        assert "<script src=\"/static/app.js\"></script>" in page
        token = re.search(r'<meta name="leges-token" content="([^"]+)">', page).group(1)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/info", headers={"X-Leges-Token": token})
        with urllib.request.urlopen(request, timeout=5) as response:
            info = json.loads(response.read())
        assert info["title"] == "Tic-Tac-Toe"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}/" in out and "Traceback" not in err


# --------------------------------------------------------------- a table for people (issue #23)
def test_a_table_gives_each_person_a_key_to_its_own_seat(serving):
    server = serving(ruleset_dir("pompeii"), options=ServeOptions(seed=2))  # a fixed deal: only from the command line
    status, red = send(server, "/api/play", {"players": 3, "seat": "red",
                                             "seats": {"red": "person", "black": "person", "yellow": "greedy"}})
    assert status == 200 and red["people"] == ["red", "black"] and red["agents"] == {"yellow": "greedy"}
    key = red["links"]["black"]
    assert list(red["links"]) == ["black"] and key != red["match"]
    status, black = send(server, f"/api/play/{key}", browser="black")
    assert status == 200 and black["seat"] == "black" and "links" not in black and black["match"] == key
    assert 'data-view="black"' in black["svg"] and all(a["player"] == 1 for a in black["actions"])
    match = server.app.state.workspace.find_match(red["match"])
    assert black["svg"] == seat_payload(match.st, 1)["svg"] != seat_payload(match.st, 0)["svg"]
    status, _ = send(server, f"/api/play/{key}/act", {"action": red["actions"][0]["text"] if red["actions"] else "x"}, browser="black")
    assert status == 400  # a key acts for its own seat only: red's move is not black's
    status, none = send(server, "/api/play/" + "0" * 16)
    assert status == 400 and "no such game" in none["error"]
    status, same = send(server, f"/api/play/{key}?stamp={black['stamp']}", browser="black")
    assert status == 200 and same["same"]  # a page waiting asks cheaply
    status, _ = send(server, f"/api/play/{red['match']}/act", {"action": red["actions"][0]["text"]})
    assert status == 200
    status, after = send(server, f"/api/play/{key}?stamp={black['stamp']}", browser="black")
    assert not after.get("same") and len(after["history"]) > len(black["history"])


def test_simultaneous_secret_choices_wait_for_every_person(serving):
    """Alexander's share-out: every seat shares in secret; a person's choice waits for the other person's."""
    server = serving(ruleset_dir("alexander"))
    _, red = send(server, "/api/play", {"players": 3, "seat": "red", "seats": {"red": "person", "blue": "person"}})
    key = red["links"]["blue"]
    _, blue = send(server, f"/api/play/{key}", browser="blue")
    assert red["your_turn"] and not blue["your_turn"] and len(red["actions"]) == 816
    _, red = send(server, f"/api/play/{red['match']}/act", {"action": "share order=3 armies=5 temples=4"})
    assert not red["your_turn"] and red["history"] == ["red: share order=3 armies=5 temples=4"]
    _, blue = send(server, f"/api/play/{key}", browser="blue")
    assert blue["your_turn"] and blue["history"] == ["red: (sealed)"]  # waiting for blue, red's share unseen
    _, blue = send(server, f"/api/play/{key}/act", {"action": "share order=2 armies=2 temples=2"}, browser="blue")
    assert "blue: share order=2 armies=2 temples=2" == blue["history"][1]
    assert blue["history"][0] == "red: share order=3 armies=5 temples=4"  # green (an agent) shared: the screens lifted together


def test_a_hot_seat_shows_a_view_only_once_its_player_looks(serving):
    server = serving(ruleset_dir("pompeii"), options=ServeOptions(seed=1))
    _, view = send(server, "/api/play", {"players": 3, "hotseat": True,
                                         "seats": {"red": "person", "black": "person", "yellow": "random"}})
    key = view["match"]
    assert view["curtain"] == "red" and view["actions"] == [] and 'data-view="public"' in view["svg"] and "links" not in view
    status, bad = send(server, f"/api/play/{key}/act", {"action": "take_pile k=0"})
    assert status == 400 and "red is to look first" in bad["error"]
    status, bad = send(server, f"/api/play/{key}/reveal", {"seat": "black"})
    assert status == 400
    _, view = send(server, f"/api/play/{key}/reveal", {"seat": "red"})
    assert view["curtain"] is None and view["seat"] == "red" and view["actions"]
    _, view = send(server, f"/api/play/{key}/act", {"action": view["actions"][0]["text"]})
    assert view["curtain"] == "black" and view["actions"] == [] and 'data-view="public"' in view["svg"]


def test_variants_are_listed_and_chosen_per_table(serving):
    server = serving(ruleset_dir("pompeii"))
    _, info = send(server, "/api/info")
    variants = {v["id"]: v for v in info["variants"]}
    assert set(variants) == {"dual_vent", "mayfair", "russian", "spare_the_weakest", "three_moves"}
    assert variants["mayfair"]["conflicts"] == ["russian"] and variants["mayfair"]["description"].startswith("Two A.D. 79")
    assert variants["three_moves"]["parameters"] == [{"id": "escape_moves", "type": "int", "default": 3, "min": 1, "max": 6,
                                                      "description": "the moves of an escape turn"}]
    assert variants["three_moves"]["provenance"].startswith("house_rule") and not variants["three_moves"]["on"]
    status, bad = send(server, "/api/play", {"players": 3, "variants": ["mayfair", "russian"]})
    assert status == 400 and bad["error"] in ("variant 'mayfair' conflicts with 'russian'", "variant 'russian' conflicts with 'mayfair'")
    assert bad["diagnostics"][0]["hint"] == "switch on one of them only"
    status, bad = send(server, "/api/play", {"players": 3, "variants": ["three_moves.escape_moves=9"]})
    assert status == 400 and "between 1 and 6" in bad["error"]
    for wrong in (["../../etc/passwd"], ["nothing"], "mayfair", [5], ["x"] * 40):
        status, bad = send(server, "/api/play", {"players": 3, "variants": wrong})
        assert status == 400 and bad["error"], wrong
    status, view = send(server, "/api/play", {"players": 3, "variants": ["three_moves.escape_moves=5", "mayfair"]})
    assert status == 200 and view["variants"] == ["three_moves.escape_moves=5", "mayfair"]
    match = server.app.state.workspace.find_match(view["match"])
    assert match.game.variants == ("three_moves", "mayfair") and server.app.state.workspace.game.variants == ()


def test_the_record_of_a_table_keeps_its_variants(serving):
    server = serving(ruleset_dir("tictactoe"))
    _, view = send(server, "/api/play", {"players": 2, "seat": "x", "variants": []})
    status, bad = send(server, f"/api/play/{view['match']}/record")
    assert status == 400 and "when the game is over" in bad["error"]
    while not view["terminal"]:
        _, view = send(server, f"/api/play/{view['match']}/act", {"action": view["actions"][0]["text"]})
    status, record = send(server, f"/api/play/{view['match']}/record")
    assert status == 200 and record["variants"] == [] and record["actions"] == view["history"]
    assert record["result"]["agents"] == ["person", "random"]
    from leges.lab.records import record_from_text
    assert record_from_text(json.dumps(record), "r.json")["players"] == 2


def test_why_is_asked_without_playing_and_undo_takes_back_in_practice(serving):
    server = serving(ruleset_dir("tictactoe"))
    _, view = send(server, "/api/play", {"players": 2, "seat": "x"})
    mid = view["match"]
    assert not view["undo"]
    _, view = send(server, f"/api/play/{mid}/why", {"action": "place square=r1c1"})
    assert view == {"legal": True}
    _, view = send(server, f"/api/play/{mid}/act", {"action": "place square=r1c1"})
    assert view["undo"] and len(view["history"]) == 2
    _, why = send(server, f"/api/play/{mid}/why", {"action": "place square=r1c1"})
    assert not why["legal"] and why["explanation"]["reason"] == "domain"
    _, again = send(server, f"/api/play/{mid}")
    assert again["history"] == view["history"]  # asking played nothing
    _, view = send(server, f"/api/play/{mid}/undo", {})
    assert view["history"] == [] and view["note"] == "taken back: x: place square=r1c1" and not view["undo"]
    status, bad = send(server, f"/api/play/{mid}/undo", {})
    assert status == 400 and "no decision of yours" in bad["error"]
    _, table = send(server, "/api/play", {"players": 2, "seat": "x", "seats": {"x": "person", "o": "person"}})
    send(server, f"/api/play/{table['match']}/act", {"action": "place square=r0c0"})
    status, bad = send(server, f"/api/play/{table['match']}/undo", {})
    assert status == 400 and "only in practice" in bad["error"]


def test_several_tables_at_once(serving):
    server = serving(ruleset_dir("tictactoe"))
    tables = [send(server, "/api/play", {"players": 2, "seat": "x", "seats": {"x": "person", "o": "person"}})[1]
              for _ in range(3)]
    for i, t in enumerate(tables):
        send(server, f"/api/play/{t['match']}/act", {"action": f"place square=r{i}c0"})
    for i, t in enumerate(tables):
        _, o = send(server, f"/api/play/{t['links']['o']}", browser="o")
        assert o["history"] == [f"x: place square=r{i}c0"] and o["your_turn"]


def test_a_hot_seat_shows_nobodys_view_while_the_agents_think():
    from leges.web.match import Match
    from leges.web.seating import HOT
    from leges.web.session import Workspace
    from leges.web.views import play_view
    ws = Workspace(str(ruleset_dir("pompeii")))
    match = Match("h", HOT, 3, 1, ["", "random", ""], hotseat=True)
    match.start(ws.game)
    match.run()
    assert play_view(match, ws)["curtain"] == "red"
    match.reveal("h", "red")
    view = play_view(match, ws)
    assert view["seat"] == "red" and view["actions"]
    match.act(view["actions"][0]["text"], seconds=0, seat=0)  # black (an agent) still to move: stopped at once
    view = play_view(match, ws)
    assert match.thinking and view["seat"] is None and view["actions"] == [] and 'data-view="public"' in view["svg"]
    match.run(force=True)
    view = play_view(match, ws)
    assert view["curtain"] == "yellow" and view["seat"] is None


def test_a_record_of_a_table_with_variants_replays_under_them(serving, tmp_path):
    """Attika under extra_amphorae: an amphora card on the first turn, played and recorded; the record
    steps through in the page under the same variants (the server serves the rules as written)."""
    server = serving(ruleset_dir("attika"))
    _, view = send(server, "/api/play", {"players": 2, "seat": "athens", "variants": ["extra_amphorae.start_amphorae=2"]})
    amphora = next(a["text"] for a in view["actions"] if a["text"].startswith("amphora_card"))
    _, view = send(server, f"/api/play/{view['match']}/act", {"action": amphora})
    match = server.app.state.workspace.find_match(view["match"])
    from leges.lab.records import make_record
    record = make_record(match.game, str(ruleset_dir("attika")), 2, 0, list(match.st.history))
    record["variants"] = list(match.variants)
    status, replay = send(server, "/api/replay", {"record": json.dumps(record), "name": "amphora.json"})
    assert status == 200 and replay["steps"] == len(record["actions"]) and replay["error"] is None
    status, step = send(server, f"/api/replay/{replay['replay']}?step=1")
    assert status == 200 and step["history"][0].endswith(amphora)
    record["variants"] = ["../../x"]
    status, _ = send(server, "/api/replay", {"record": json.dumps(record), "name": "bad.json"})
    assert status == 400
