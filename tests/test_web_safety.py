"""leges serve against a hostile web: what a request may not make the server do (issue: safe to serve).

Every request here is one an attacker could send — from another site through the user's browser,
from a rebound host name, or straight to the port: it must run no code, freeze nobody, and be
refused with a JSON error that says why."""
from __future__ import annotations

import json
import sys
import threading
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from helpers import ruleset_dir, send  # noqa: E402
from leges.web.guard import depth, host_names, split_host  # noqa: E402
from leges.web.seating import AgentPolicy  # noqa: E402
from leges.web.server import ServeOptions  # noqa: E402
from leges.web.store import Store  # noqa: E402


@pytest.fixture
def planted(tmp_path, monkeypatch):
    """A Python file and a module that leave a mark when anything imports them."""
    mark = tmp_path / "ran"
    code = f"open({str(mark)!r}, 'w').write('ran')\nclass A:\n    def choose(self, view):\n        return 0\n"
    (tmp_path / "evil.py").write_text(code)
    (tmp_path / "evil_module_for_leges.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path, mark
    sys.modules.pop("evil_module_for_leges", None)


@pytest.mark.parametrize("agents", ["{dir}/evil.py:A", "evil_module_for_leges:A", "random,{dir}/evil.py:A"])
def test_a_request_cannot_run_python(serving, planted, agents):
    folder, mark = planted
    server = serving(ruleset_dir("tictactoe"))
    status, reply = send(server, "/api/play", {"players": 2, "agents": agents.format(dir=folder)})
    assert status == 400 and "not run from here" in reply["error"]
    assert not mark.exists() and "evil_module_for_leges" not in sys.modules


def test_the_command_line_names_its_own_agents(serving, planted):
    folder, mark = planted
    policy = AgentPolicy(named={"mine": f"{folder}/evil.py:A"})
    server = serving(ruleset_dir("tictactoe"), options=ServeOptions(agents=policy))
    status, info = send(server, "/api/info")
    assert "mine" in info["agents"]
    status, view = send(server, "/api/play", {"players": 2, "seat": "o", "agents": "mine"})
    assert status == 200 and mark.exists() and view["history"]  # its own agent, as the person serving asked


@pytest.mark.parametrize("headers, token, content_type, status", [
    ({}, False, "application/json", 403),                                  # no token
    ({"X-Leges-Token": "guess"}, False, "application/json", 403),         # a wrong one
    ({}, True, "text/plain", 415),                                        # a "simple" cross-origin POST
    ({}, True, "application/x-www-form-urlencoded", 415),
    ({"Origin": "http://evil.example"}, True, "application/json", 403),   # another site's page
    ({"Origin": "null"}, True, "application/json", 403),
    ({"Sec-Fetch-Site": "cross-site"}, True, "application/json", 403),
    ({"Host": "evil.example:8765"}, True, "application/json", 421),       # DNS rebinding
    ({"Host": "127.0.0.1:1"}, True, "application/json", 421),             # another port
])
def test_only_the_servers_own_page_may_ask(serving, headers, token, content_type, status):
    server = serving(ruleset_dir("tictactoe"))
    got, reply = send(server, "/api/play", {"players": 2}, headers=headers, token=token, content_type=content_type)
    assert got == status and reply["error"] and reply["diagnostics"][0]["message"] == reply["error"]
    assert len(server.app.state.workspace.matches) == 0


def test_a_rebound_host_does_not_get_the_page(serving):
    server = serving(ruleset_dir("tictactoe"))
    request = urllib.request.Request(server.url, headers={"Host": "attacker.example"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 421 and server.token not in caught.value.read().decode()
    with urllib.request.urlopen(server.url, timeout=10) as response:  # by its own name: the page and its token
        page = response.read().decode()
    assert f'content="{server.token}"' in page and "leges_client=" in response.headers["Set-Cookie"]


def test_the_page_is_sent_with_a_token_and_without_framing(serving):
    server = serving(ruleset_dir("tictactoe"))
    with urllib.request.urlopen(server.url, timeout=10) as response:
        assert response.headers["X-Frame-Options"] == "DENY"
    with pytest.raises(urllib.error.HTTPError) as caught:  # nor as a file of the page
        urllib.request.urlopen(server.url + "static/index.html", timeout=10)
    assert caught.value.code == 404


@pytest.mark.parametrize("agents, message", [
    ("mcts:iterations=1000000000", "at most 2000 iterations"),
    ("mcts:c=nan", "is not a number"),
    ("mcts:iterations=-5", "is not a number"),
    ("nobody", "no agent 'nobody'"),
])
def test_agents_in_a_request_have_bounded_budgets(serving, agents, message):
    server = serving(ruleset_dir("tictactoe"))
    status, reply = send(server, "/api/play", {"players": 2, "seat": "o", "agents": agents})
    assert status == 400 and message in reply["error"]


def test_a_searching_agent_thinks_no_longer_than_the_server_allows():
    policy = AgentPolicy(max_iterations=10, max_seconds=0.5)
    assert policy.make("mcts:seconds=100000").seconds == 0.5
    assert policy.make("mcts").seconds == 0.5  # iterations alone: the time cap too
    assert policy.make("mcts:seconds=0.1").seconds == 0.1


def test_one_long_search_freezes_nobody(serving):
    """One table's agent thinks until the test lets it go; meanwhile other clients are answered and a
    new table plays — no clock: the answers came while that agent was provably still thinking."""
    import helpers
    helpers.STUCK.update(helpers._stuck_events())
    server = serving(ruleset_dir("pompeii"), options=ServeOptions(agents=AgentPolicy(named={"stuck": "helpers:StuckAgent"})))
    done = {}

    def slow():
        done["reply"] = send(server, "/api/play", {"players": 3, "seat": "black", "agents": "stuck"}, browser="slow")
    thread = threading.Thread(target=slow)
    thread.start()
    try:
        assert helpers.STUCK["thinking"].wait(60)
        status, _ = send(server, "/api/info", browser="other")
        assert status == 200
        status, view = send(server, "/api/play", {"players": 3, "seat": "red", "agents": "random"}, browser="other")
        assert status == 200 and view["your_turn"]
        status, view = send(server, f"/api/play/{view['match']}/act", {"action": view["actions"][0]["text"]}, browser="other")
        assert status == 200 and len(view["history"]) >= 1
        assert not helpers.STUCK["release"].is_set() and thread.is_alive()  # the other table still thinks
    finally:
        helpers.STUCK["release"].set()
        thread.join(60)
    status, view = done["reply"]
    assert status == 200


def test_agents_stop_at_the_time_limit_and_the_page_asks_for_the_rest(serving):
    server = serving(ruleset_dir("pompeii"), options=ServeOptions(agents=AgentPolicy(max_seconds=0.2), request_seconds=0.01))
    status, view = send(server, "/api/play", {"players": 4, "seat": "blue", "agents": "mcts"})
    assert status == 200 and view["thinking"] and not view["your_turn"]
    for _ in range(40):
        if not view["thinking"]:
            break
        status, view = send(server, f"/api/play/{view['match']}/continue", {})
    assert not view["thinking"] and view["your_turn"]


def test_requests_are_bounded(serving):
    server = serving(ruleset_dir("tictactoe"))
    status, reply = send(server, "/api/play", raw=b"[" * 100_000 + b"]" * 100_000)
    assert status == 400 and "nested" in reply["error"]
    status, reply = send(server, "/api/play", raw=b'{"a": ' + b"[" * 40 + b"1" + b"]" * 40 + b"}")
    assert status == 400 and "nested more than 32" in reply["error"]
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)  # refused on its length, unread
    conn.request("POST", "/api/play", headers={"Content-Type": "application/json", "X-Leges-Token": server.token,
                                               "Content-Length": str(9 << 20)})
    response = conn.getresponse()
    assert response.status == 413 and "larger than 8 MB" in json.loads(response.read())["error"]
    status, view = send(server, "/api/play", {"players": 2, "seat": "x"})
    status, reply = send(server, f"/api/play/{view['match']}/act", {"action": "x" * (4 << 20)})
    assert status == 400 and "longer than" in reply["error"] and len(json.dumps(reply)) < 2000
    for bad in ({"players": "2" * 5000}, {"players": [2]}, {"seed": 10 ** 30}, {"seat": {"a": 1}}, {"agents": 5}):
        status, reply = send(server, "/api/play", bad)
        assert status == 400 and reply["diagnostics"], bad


def test_a_body_without_a_length_is_cut_at_the_limit(serving):
    import http.client
    server = serving(ruleset_dir("tictactoe"))
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest("POST", "/api/replay")
    for k, v in {"Content-Type": "application/json", "X-Leges-Token": server.token, "Transfer-Encoding": "chunked"}.items():
        conn.putheader(k, v)
    conn.endheaders()
    chunk = b"x" * (1 << 20)
    try:
        for _ in range(12):
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
    except OSError:
        pass  # the server may hang up as soon as it has refused
    response = conn.getresponse()
    assert response.status == 400 and "larger than 8 MB" in json.loads(response.read())["error"]


@pytest.mark.parametrize("path, method", [("/api/nothing", "GET"), ("/api/play", "GET"), ("/nothing", "GET")])
def test_unknown_routes_are_json_errors(serving, path, method):
    server = serving(ruleset_dir("tictactoe"))
    status, reply = send(server, path)
    assert status in (404, 405) and reply["error"]


def test_games_are_kept_per_client():
    class Thing:
        def __init__(self, w):
            self.w = w

        def weight(self):
            return self.w
    store = Store(max_bytes=1000, per_client=2)
    for client in ("a", "b", "c"):
        for i in range(3):
            store.add(client, f"{client}{i}", Thing(10))
    assert sorted(store.items) == ["a1", "a2", "b1", "b2", "c1", "c2"]  # each client's own two most recent
    assert store.get("a1") is not None  # used: now the most recent of all
    store.add("d", "big", Thing(960))
    assert "big" in store.items and "a1" in store.items and "a2" not in store.items  # the least recently used went
    store.add("e", "huge", Thing(5000))
    assert list(store.items) == ["huge"]  # a single item over the bound is kept: its client is using it


def test_fifty_clients_keep_their_games(serving):
    server = serving(ruleset_dir("tictactoe"))
    matches = []
    for i in range(50):
        status, view = send(server, "/api/play", {"players": 2, "seat": "x"}, browser=f"c{i}")
        matches.append(view["match"])
    for i, mid in enumerate(matches):
        status, view = send(server, f"/api/play/{mid}", browser=f"c{i}")
        assert status == 200, view


def test_host_names():
    assert host_names("127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert host_names("0.0.0.0", ["table.local"]) == {"127.0.0.1", "localhost", "::1", "table.local"}
    assert host_names("192.0.2.7") == {"192.0.2.7"}
    assert split_host("[::1]:8765") == ("::1", 8765) and split_host("Localhost") == ("localhost", None)
    assert split_host("a:b") is None and split_host("") is None and split_host("[::1") is None
    assert depth({"a": [1, {"b": []}]}) == 4 and depth(5) == 0


def test_games_played_at_once_have_their_own_engine(serving):
    """The engine's counters (an action's work, a game's budget, values kept for every state) are a
    Game's: two matches in two threads each play on a Game of their own, and give the games one
    thread alone gives."""
    server = serving(ruleset_dir("pompeii"))
    replies = []

    def play():
        replies.append(send(server, "/api/play", {"players": 3, "seat": "yellow", "agents": "greedy", "seed": 4}))
    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    (s1, v1), (s2, v2) = replies
    assert s1 == s2 == 200 and v1["history"] == v2["history"] and v1["history"]
    store = server.app.state.workspace.matches
    one, two = store.get(v1["match"]), store.get(v2["match"])
    assert one.game is not two.game and one.game is not server.app.state.workspace.game
    assert one.st.budget is not None


@pytest.mark.parametrize("agents", ["{dir}/evil.py:A", "evil_module_for_leges:A"])
def test_a_tables_seats_cannot_run_python(serving, planted, agents):
    folder, mark = planted
    server = serving(ruleset_dir("tictactoe"))
    status, reply = send(server, "/api/play", {"players": 2, "seats": {"x": "person", "o": agents.format(dir=folder)}})
    assert status == 400 and "not run from here" in reply["error"]
    assert not mark.exists() and "evil_module_for_leges" not in sys.modules
    status, reply = send(server, "/api/play", {"players": 2, "seats": {"x": "mcts:iterations=1000000000", "o": "person"}})
    assert status == 400 and "at most 2000 iterations" in reply["error"]
    status, reply = send(server, "/api/play", {"players": 2, "seats": {"x": "random", "o": "random"}})
    assert status == 400 and "a seat of a person" in reply["error"]


@pytest.mark.parametrize("variants", [["../../../etc/passwd"], ["evil_module_for_leges"], ["a" * 5000], [{"id": 1}]])
def test_a_tables_variants_are_the_rulesets_own(serving, planted, variants):
    """A variant a request names is looked up among the ruleset's variant files, by name: no path, no module."""
    _, mark = planted
    server = serving(ruleset_dir("pompeii"))
    status, reply = send(server, "/api/play", {"players": 3, "variants": variants})
    assert status == 400 and reply["error"] and not mark.exists() and "evil_module_for_leges" not in sys.modules


@pytest.mark.parametrize("path, method", [("/act", "POST"), ("/why", "POST"), ("/undo", "POST"), ("/reveal", "POST"),
                                          ("/record", "GET"), ("", "GET")])
@pytest.mark.parametrize("headers, token, status", [({}, False, 403), ({"Origin": "http://evil.example"}, True, 403),
                                                    ({"Host": "evil.example:8765"}, True, 421)])
def test_a_tables_endpoints_are_guarded(serving, path, method, headers, token, status):
    server = serving(ruleset_dir("tictactoe"))
    _, view = send(server, "/api/play", {"players": 2, "seat": "x", "seats": {"x": "person", "o": "person"}})
    for key in (view["match"], view["links"]["o"]):
        body = {"action": "place square=r0c0"} if method == "POST" else None
        got, reply = send(server, f"/api/play/{key}{path}", body, headers=headers, token=token)
        assert got == status and reply["error"]
    _, again = send(server, f"/api/play/{view['match']}")
    assert again["history"] == []  # nothing of it was played


def test_a_seat_key_is_not_guessable_from_another():
    from leges.web.match import Match
    keys = set()
    for _ in range(20):
        match = Match(new_id_for_test(), 0, 4, 0, ["", "", "", "random"])
        assert len(match.keys) == 3 and all(len(k) == 16 for k in match.keys)
        keys |= set(match.keys)
    assert len(keys) == 60


def new_id_for_test():
    from leges.web.ids import new_id
    return new_id()
