"""A table no one can read over (issue 35): the deal comes from a seed the server draws in secret,
and a seat's link is held by the first browser that opens it.

The replay attack: a guest knows the public history; if it also knows (or can guess) the seed, it
replays that history offline and reads every hand. These tests play a table as two people would,
then try every seed a guest could guess (0, the page's old default, and the small numbers a host
types): none may reproduce the hidden cards.
"""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import leges  # noqa: E402
from helpers import ruleset_dir, send  # noqa: E402
from leges.text.errors import LegesError  # noqa: E402
from leges.web.server import ServeOptions  # noqa: E402

GUESSES = range(200)  # seeds a guest would try first: the old default 0 and what people type


def play_a_table(server, players: int, people: dict[str, str], steps: int) -> tuple[list[dict], object]:
    """A table of `people` (seat → browser) and random agents, each person playing its first legal
    action when it may, for `steps` rounds; every view any person was sent, and the match."""
    host = next(iter(people))
    seats = {name: ("person" if name in people else "random") for name in leges.load(str(server.ruleset)).setup_for(players).seat_names}
    status, view = send(server, "/api/play", {"players": players, "seat": host, "seats": seats}, browser=people[host])
    assert status == 200, view
    keys = {host: view["match"], **view["links"]}
    views = [view]
    for _ in range(steps):
        for name, browser in people.items():
            status, view = send(server, f"/api/play/{keys[name]}", browser=browser)
            assert status == 200, view
            views.append(view)
            if view["your_turn"] and view["actions"]:
                status, view = send(server, f"/api/play/{keys[name]}/act", {"action": view["actions"][0]["text"]}, browser=browser)
                assert status == 200, view
                views.append(view)
    match = server.app.state.workspace.find_match(keys[host])
    return views, match


def reads_the_table(game, match, guest: int, seed: int) -> bool:
    """The replay attack with one guessed seed: the guest's public history replayed from it, each
    agent's decision predicted by that agent seeded as the table seeds it (agents/seeding.py), and
    the hidden cards compared. True when the guess fits every step and gives every hidden card."""
    from leges.agents import View, make, start
    from leges.agents.seeding import seat_rng
    agents = {}
    for p, spec in enumerate(match.specs):
        if spec:
            agents[p] = make(spec)
            start(agents[p], game, p, seat_rng(seed, p, spec))
    st = game.new_initial_state(players=match.players, seed=seed)
    for entry in match.st.record_view(guest):
        if "(sealed)" in entry:
            break
        who = st.player_index(entry.split(": ", 1)[0])
        if who in agents and st.current_player() == who:
            view = View(st, who, None, None)
            choice = agents[who].choose(view)
            choice = view.legal_actions()[choice] if isinstance(choice, int) else choice
            if getattr(choice, "text", choice) != entry.split(": ", 1)[1]:
                return False
        try:
            st.apply_action(entry)
        except LegesError:
            return False
    return st.zones == match.st.zones


@pytest.mark.parametrize("name, players, people", [("pompeii", 2, ("red", "black")), ("alexander", 3, ("red", "blue"))])
def test_no_guessed_seed_replays_a_tables_hidden_cards(serving, name, players, people):
    """Pompeii: the deal is the secret; Alexander: an agent's secret share-out, which its generator
    (seeded from the table's seed) decides."""
    path = ruleset_dir(name)
    server = serving(path)
    server.ruleset = path
    views, match = play_a_table(server, players, {p: p for p in people}, steps=8)
    guest = match.st.setup.seat_names.index(people[1])
    assert len(match.st.record_view(guest)) >= 8
    game = leges.load(str(path))
    assert reads_the_table(game, match, guest, match.seed)  # the attack works when the seed is known
    assert not any(reads_the_table(game, match, guest, seed) for seed in GUESSES)
    assert match.secret
    for view in views:  # neither the seed nor the generator's state is in anything a person is sent
        text = json.dumps(view)
        assert str(match.seed) not in text and str(match.st.rng) not in text
        assert view["deal"] == {"secret": True, "seed": None}


def test_a_request_does_not_choose_the_seed_of_a_table_with_people(serving):
    server = serving(ruleset_dir("pompeii"))
    status, bad = send(server, "/api/play", {"players": 2, "seat": "red", "seed": 1234,
                                             "seats": {"red": "person", "black": "person"}})
    assert status == 400 and "secret seed" in bad["error"] and "leges serve --seed" in bad["diagnostics"][0]["hint"]
    status, bad = send(server, "/api/play", {"players": 2, "seat": "red", "seed": 7, "hotseat": True,
                                             "seats": {"red": "person", "black": "person"}})
    assert status == 400 and "secret seed" in bad["error"]
    # practice (one person, the rest agents): the person may deal a game again, and the page says it is not secret
    status, view = send(server, "/api/play", {"players": 2, "seat": "red", "seed": 1234, "agents": "random"})
    assert status == 200 and view["deal"] == {"secret": False, "seed": 1234}
    status, view = send(server, "/api/play", {"players": 2, "seat": "red", "agents": "random"})
    assert status == 200 and view["deal"] == {"secret": True, "seed": None}


def test_two_tables_are_dealt_differently(serving):
    server = serving(ruleset_dir("pompeii"))
    seeds = set()
    for i in range(3):
        _, view = send(server, "/api/play", {"players": 2, "seat": "red", "agents": "random"}, browser=f"b{i}")
        seeds.add(server.app.state.workspace.find_match(view["match"]).seed)
    assert len(seeds) == 3


def test_a_fixed_seed_comes_from_the_command_line_and_is_said(serving):
    server = serving(ruleset_dir("pompeii"), options=ServeOptions(seed=5))
    _, view = send(server, "/api/play", {"players": 2, "seat": "red", "seats": {"red": "person", "black": "person"}})
    assert view["deal"] == {"secret": False, "seed": 5}
    assert server.app.state.workspace.find_match(view["match"]).seed == 5


def test_a_link_seats_the_first_browser_that_opens_it(serving):
    server = serving(ruleset_dir("tictactoe"))
    _, host = send(server, "/api/play", {"players": 2, "seat": "x", "seats": {"x": "person", "o": "person"}})
    key = host["links"]["o"]
    assert host["claimed"] == {"x": True, "o": False}
    status, refused = send(server, f"/api/play/{key}")  # the host's browser holds x: not o's too
    assert status == 403 and "already holds a seat" in refused["error"]
    status, o = send(server, f"/api/play/{key}", browser="friend")
    assert status == 200 and o["seat"] == "o"
    status, host = send(server, f"/api/play/{host['match']}")
    assert host["claimed"] == {"x": True, "o": True}
    for browser in ("host", "stranger", None):  # o's link seats nobody else now, for looking or acting
        status, refused = send(server, f"/api/play/{key}", browser=browser)
        assert status == 403 and "svg" not in refused
        status, refused = send(server, f"/api/play/{key}/act", {"action": "place square=r0c0"}, browser=browser)
        assert status == 403
    status, refused = send(server, f"/api/play/{host['match']}", browser="friend")
    assert status == 403 and "taken" in refused["error"]


def test_the_host_hands_a_seat_over_openly(serving):
    server = serving(ruleset_dir("tictactoe"))
    _, host = send(server, "/api/play", {"players": 2, "seat": "x", "seats": {"x": "person", "o": "person"}})
    old = host["links"]["o"]
    send(server, f"/api/play/{old}", browser="friend")
    status, refused = send(server, f"/api/play/{old}/handover", {"seat": "o"}, browser="friend")
    assert status == 403 or status == 400  # only the host's page hands seats over
    status, host = send(server, f"/api/play/{host['match']}/handover", {"seat": "o"})
    assert status == 200 and host["handed"] != old and host["links"]["o"] == host["handed"]
    assert host["claimed"]["o"] is False and "o's seat was handed to a new link" in host["handovers"][0]
    status, gone = send(server, f"/api/play/{old}", browser="friend")
    assert status == 400 and "no such game" in gone["error"]
    status, o = send(server, f"/api/play/{host['handed']}", browser="newcomer")
    assert status == 200 and o["seat"] == "o" and o["handovers"] == host["handovers"]  # every seat is told
    status, bad = send(server, f"/api/play/{host['match']}/handover", {"seat": "x"})
    assert status == 400 and "not another person's seat" in bad["error"]


def test_a_request_without_a_browser_holds_no_seat(serving):
    server = serving(ruleset_dir("tictactoe"))
    status, refused = send(server, "/api/play", {"players": 2, "seat": "x"}, browser=None)
    assert status == 403 and "open the page first" in refused["diagnostics"][0]["hint"]


def test_a_record_whose_result_its_actions_do_not_give_is_flagged_in_the_page(serving):
    server = serving(ruleset_dir("tictactoe"))
    st = leges.load(str(ruleset_dir("tictactoe"))).new_initial_state(players=2, seed=0)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    record = {"leges_record": 1, "ruleset": "tictactoe", "players": 2, "seed": 0, "actions": list(st.history),
              "result": {"ranking": [["o"], ["x"]], "scores": [0, 1]}}  # x won: the result is forged
    status, view = send(server, "/api/replay", {"record": json.dumps(record), "name": "forged.json"})
    assert status == 200 and view["error"] and "replayed end with" in view["error"]


class _Draws:
    """An agent that draws when it may (what it draws stays in its hidden hand)."""

    def choose(self, view):
        texts = [a.text if hasattr(a, "text") else a for a in view.legal_actions()]
        return texts.index("draw") if "draw" in texts else 0


def test_undo_in_practice_stops_at_the_next_card_the_person_sees():
    """Taking back replays the same deal, so a decision followed by a card the person had not seen
    (its own draw) is not taken back: it would know what comes next. One followed by nothing new is."""
    from helpers import ROOT
    from leges.text.errors import LegesError as Refusal
    from leges.web.match import Match
    game = leges.load(str(ROOT / "tests" / "rulesets" / "hidden_top"))
    match = Match("m", 0, 2, 7, ["", "draws"], make=lambda spec: _Draws())
    match.start(game)
    match.run()
    played = next(a.text for a in match.st.legal_actions(0) if a.text.startswith("play "))
    match.act(played, seat=0)  # a card of the hand discarded: nothing new seen; o draws in secret
    assert match.can_undo(0)
    assert match.undo(0) == f"x: {played}" and match.st.history == []
    match.act("draw", seat=0)  # a card x had not seen
    assert not match.can_undo(0)
    with pytest.raises(Refusal) as refused:
        match.undo(0)
    assert "you saw a card you had not seen" in refused.value.diagnostics[0].message
    assert match.st.history[0] == "x: draw"  # nothing taken back
