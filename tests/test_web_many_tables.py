"""Many tables at once (issue 35, item 4): a ruleset is loaded and checked once per set of variants,
and every table plays on a private copy of it (engine/private_copy.py) — counters of its own, the
compiled rules shared."""
from __future__ import annotations

import random
import threading

import pytest

import leges
from helpers import ruleset_dir, send
from leges.engine.private_copy import private_copy


def play(game, seed: int, moves: int = 400) -> list[str]:
    st = game.new_initial_state(players=3, seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.history) < moves:
        st.apply_action(rng.choice(st.legal_actions()))
    return list(st.history)


def test_private_copies_play_the_rules_with_counters_of_their_own():
    game = leges.load(str(ruleset_dir("pompeii")))
    a, b = private_copy(game), private_copy(game)
    assert a.compiler is game.compiler and a.actions is game.actions  # the rules shared
    assert a.meter is not b.meter and a.flow.game is a and a.work == game.max_work
    st = a.new_initial_state(players=3, seed=1)
    assert st.game is a and st.copy().game is a
    assert play(a, 5) == play(game, 5) == play(b, 5)


def test_tables_in_threads_at_once_play_as_alone():
    """Two copies played in two threads at once, every action switching threads often: each game is
    the one it plays alone (a shared work counter would cut or stretch the actions' budgets)."""
    import sys
    game = leges.load(str(ruleset_dir("pompeii")))
    alone = [play(private_copy(game), seed) for seed in (1, 2, 3, 4)]
    together: dict[int, list[str]] = {}
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=lambda s=seed: together.__setitem__(s, play(private_copy(game), s)))
                   for seed in (1, 2, 3, 4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert [together[s] for s in (1, 2, 3, 4)] == alone


def test_the_server_loads_a_ruleset_once_per_set_of_variants(serving, monkeypatch):
    pytest.importorskip("starlette")
    server = serving(ruleset_dir("pompeii"))
    loads = []
    real = leges.load
    monkeypatch.setattr(leges, "load", lambda *a, **k: loads.append(k.get("variants")) or real(*a, **k))
    for i in range(4):
        status, view = send(server, "/api/play", {"players": 3, "seat": "red", "agents": "random"}, browser=f"b{i}")
        assert status == 200, view
    assert loads == []  # the rules served, shared
    for i in range(3):
        status, view = send(server, "/api/play", {"players": 3, "seat": "red", "agents": "random", "variants": ["mayfair"]},
                            browser=f"v{i}")
        assert status == 200, view
    assert loads == [["mayfair"]]  # loaded once, for all three tables
    games = [m.game for m in server.app.state.workspace.matches.values()]
    assert len({id(g) for g in games}) == 7 and len({id(g.compiler) for g in games}) == 2
