"""Helpers for the tests (importable as `helpers`: pytest puts tests/ on the path)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def play_random(game, players: int, seed: int, until=None):
    """Play random legal actions (the simulator's agent) until the end, or until `until(state)`."""
    from leges.simulate import agent_rng
    st = game.new_initial_state(players=players, seed=seed)
    rng = agent_rng(seed)
    while not st.is_terminal() and not (until and until(st)):
        st.apply_option(rng.randrange(len(st.pending["options"])))
    return st


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
    from leges.source import load_yaml_text
    doc = load_yaml_text("x: 1\n", "<test>")
    return game.compile_expression(Text(text, At(doc, ("x",))))(state, {"me": None})


def position(game, players: int, phase: str | None, turn: str | None, arrange: str = "", seed: int = 0):
    """A state arranged directly (as a scenario's `position`), at the start of `turn`'s turn in `phase`."""
    import yaml
    from leges.scenario import start
    from leges.source import load_yaml_text
    pos = {}
    if phase:
        pos["phase"] = phase
    if turn:
        pos["turn"] = turn
    if arrange:
        import textwrap
        pos["arrange"] = textwrap.dedent(arrange).strip("\n") + "\n"
    data = {"leges_scenario": 1, "id": "t", "ruleset": ".", "players": players, "seed": seed, "position": pos}
    doc = load_yaml_text(yaml.safe_dump(data, sort_keys=False), "<position>")
    return start(game, doc)


def texts(state, player=None) -> list[str]:
    return [a.text for a in state.legal_actions(player)]


def rules_not_named(game: str, test_file: str) -> list[str]:
    """Rules (set-up steps, phases, actions, triggers, procedures, sourced functions) of a bundled game that
    neither the test file nor a scenario's `rules:` names."""
    import re
    import yaml
    from leges.model.loader import load_declarations
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / game))
    rules = {x.id for x in [*rs.setup, *rs.phases, *rs.actions, *rs.triggers, *rs.procedures]}
    rules |= {f.id for f in rs.functions if f.source}
    named = (ROOT / "tests" / test_file).read_text()
    for path in (ROOT / "rulesets" / game / "scenarios").glob("*.yaml"):
        named += " " + " ".join(yaml.safe_load(path.read_text()).get("rules", []))
    return sorted(r for r in rules if not re.search(rf"(?<![a-z0-9]){re.escape(r)}(?![a-z0-9])", named))
