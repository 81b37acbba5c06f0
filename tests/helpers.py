"""Helpers for the tests (importable as `helpers`: pytest puts tests/ on the path)."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
# `leges mutate` points the rule tests at a mutated copy of a ruleset: LEGES_RULESETS names the
# folder holding it (with a maps/ folder beside it), used instead of the bundled rulesets/.
RULESETS = Path(os.environ.get("LEGES_RULESETS") or ROOT / "rulesets")


def ruleset_dir(game: str) -> Path:
    """The folder of a bundled game's ruleset (the mutant's, under `leges mutate`)."""
    return RULESETS / game


def maps_dir() -> Path:
    """The maps folder beside the rulesets (copied along with a ruleset by tests that change one)."""
    return RULESETS.parent / "maps"


def play_random(game, players: int, seed: int, until=None):
    """Play random legal actions (the simulator's agent) until the end, or until `until(state)`."""
    from leges.agents.seeding import agent_rng
    st = game.new_initial_state(players=players, seed=seed)
    rng = agent_rng(seed)
    while not st.is_terminal() and not (until and until(st)):
        st.apply_option(rng.randrange(len(st.pending)))
    return st


def counting_calls(game, name: str) -> list:
    """The arguments of every call of user function `name` from now on: its generated function,
    wrapped in the namespace the generated code looks it up in."""
    ns = game.compiler.namespace
    fname = next(k for k in ns if k.startswith("F") and k.split("_", 1)[1] == name)
    calls: list = []
    inner = ns[fname]
    ns[fname] = lambda *args: calls.append(args[2:]) or inner(*args)
    return calls


def dicts_in(data):
    """Every mapping anywhere in a loaded YAML document, outermost first."""
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from dicts_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from dicts_in(value)


def expr(game, state, text: str):
    """Evaluate a rule-language expression in a state (for assertions)."""
    from leges.model.decl import At, Text
    from leges.text.yaml_source import load_yaml_text
    doc = load_yaml_text("x: 1\n", "<test>")
    return game.compile_expression(Text(text, At(doc, ("x",))))(state, {"me": None})


def same_as_the_reference_build(game, plain, st, text: str):
    """`text`'s value in `st`, asserted the same as the reference build `plain` gives (which asks every
    item), for the same work; the value."""
    game.fresh_work()
    value = expr(game, st, text)
    spent = game.max_work - game.work
    copy = st.copy()
    copy.game = plain
    plain.fresh_work()
    assert expr(plain, copy, text) == value
    assert plain.max_work - plain.work == spent
    return value


def position(game, players: int, phase: str | None, turn: str | None, arrange: str = "", seed: int = 0,
             explicit_chance: bool = False):
    """A state arranged directly (as a scenario's `position`), at the start of `turn`'s turn in `phase`
    (with `explicit_chance`, every shuffle and random draw is a chance decision)."""
    import yaml
    from leges.authoring.scenario import start
    from leges.text.yaml_source import load_yaml_text
    pos = {}
    if phase:
        pos["phase"] = phase
    if turn:
        pos["turn"] = turn
    if arrange:
        import textwrap
        pos["arrange"] = textwrap.dedent(arrange).strip("\n") + "\n"
    data = {"leges_scenario": 1, "id": "t", "ruleset": ".", "players": players, "seed": seed, "position": pos}
    if explicit_chance:
        data["chance"] = "explicit"
    doc = load_yaml_text(yaml.safe_dump(data, sort_keys=False), "<position>")
    return start(game, doc)


def texts(state, player=None) -> list[str]:
    return [a.text for a in state.legal_actions(player)]


def send(server, path, body=None, headers=None, raw: bytes | None = None, token=True, content_type="application/json",
         browser: str | None = "host"):
    """(status, JSON reply) of a request to the page's server (tests/conftest.py `serving`); by
    default as the page sends it: with the server's token, a body as JSON, and the cookie of a
    browser (`browser` names one: each holds the seats it opened first, web/claims.py; None: no cookie)."""
    import json
    import urllib.error
    import urllib.request
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    sent = {}
    if token:
        sent["X-Leges-Token"] = server.token
    if browser is not None:
        sent["Cookie"] = f"leges_client=browser-{browser}"
    if data is not None and content_type:
        sent["Content-Type"] = content_type
    sent.update(headers or {})
    request = urllib.request.Request(server.url.rstrip("/") + path, data=data, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class StuckAgent:
    """An agent that thinks until the test lets it go (`STUCK["release"].set()`): a search that
    takes as long as a test needs, with no clock (`leges serve --agent stuck=helpers:StuckAgent`)."""

    def choose(self, view):
        STUCK["thinking"].set()
        STUCK["release"].wait(120)
        return 0


def _stuck_events() -> dict:
    import threading
    return {"thinking": threading.Event(), "release": threading.Event()}


STUCK = _stuck_events()


# A house rule kept outside the game's folder (`--variant PATH`): Pompeii's escape with three moves a turn
HOUSE = """leges_variant: 1
id: house_moves
title: "House rule: three escape moves a turn"
kind: house_rule
provenance: {status: house_rule, note: "a faster escape"}
parameters: [{id: escape_moves, type: int, default: 3, min: 1, max: 6}]
patch: []
"""
