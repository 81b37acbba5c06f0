"""Whether a saved state hangs together, beyond the shape and names `saved_state._Checker` checks.

A tampered state can name only real zones, components and rules and still be one no play of the
rules produces: a phase other than the one whose program runs, a number past the language's bound,
a fixed property (`owner`) given as one that changes, every seat out of the phase's turns. The
engine's fast paths trust all of that, so each is refused here, at its place in the JSON, before the
state is built. (A state carrying a history is also replayed from its seed: engine/state_replay.py;
these checks hold for a position set up by a program too, which is not replayed.)
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..lang.codegen.runtime import MAX_CHARS, MAX_INT

TYPE_HINT = "a saved property has the type the ruleset declares: the rules, compiled for it, assume it"
BOUND_HINT = "numbers in a game are at most 2^53 - 1 either way (docs/language.md, Bounds)"


def check_consistency(checker) -> None:
    """Every check of this module, reported through `checker` (a saved_state._Checker)."""
    numbers(checker)
    properties(checker)
    running_program(checker)
    seats_in_play(checker)


# ------------------------------------------------------------------ numbers and texts within the bounds
def out_of_bounds(value: Any, path: tuple, depth: int = 0) -> tuple[tuple, str] | None:
    """The first number past ±(2^53 − 1) or text past a million characters inside `value` (its path
    and what is wrong), or None. Rules can never build one (lang/codegen/runtime.py checks each), so
    one in a saved state was written there by hand."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return (path, f"{_digits(value)} is past the bound of a number") if not -MAX_INT <= value <= MAX_INT else None
    if isinstance(value, float):
        return (path, f"{value!r} is not a number a rule makes (only whole numbers)") \
            if value != value or value in (float("inf"), float("-inf")) or abs(value) > MAX_INT else None
    if isinstance(value, str):
        return (path, f"a text of {len(value):,} characters, past the bound of {MAX_CHARS:,}") if len(value) > MAX_CHARS else None
    if depth > 64:  # the JSON reader bounds nesting already; a value this deep is no rule's
        return path, "a value nested more than 64 deep"
    items: Iterable[tuple[Any, Any]]
    if isinstance(value, list):
        items = enumerate(value)
    elif isinstance(value, dict):
        items = value.items()
    else:
        return None
    for key, item in items:
        found = out_of_bounds(item, path + (key,), depth + 1)
        if found:
            return found
    return None


def _digits(value: int) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"a number of {len(text)} digits"


def numbers(checker) -> None:
    """Variables, dynamic properties and the running rules' locals: every number within the bound."""
    data = checker.data
    places: list[tuple[tuple, Any]] = [(("vars", k), v) for k, v in data["vars"].items()]
    places += [(("cprops", k), v) for k, v in data["cprops"].items()]
    places += [(("sprops", k), v) for k, v in data["sprops"].items()]
    places += [(("frames", i, 2), frame[2]) for i, frame in enumerate(data["frames"])]
    for path, value in places:
        found = out_of_bounds(value, path)
        if found:
            checker.error(found[0], found[1], BOUND_HINT)


# ------------------------------------------------------------------ dynamic properties
def properties(checker) -> None:
    """A saved property of a component or space is one a rule sets (`set x.prop = ...`), and of its
    declared type. The others (a component's `owner`, a card's number) are fixed by the set-up and
    read from it, never from the state: one written in the state was written by hand."""
    sym, setup = checker.sym, checker.setup
    if sym is None:
        return
    changing = sym.dynamic_component_props
    space_changing: set[str] = getattr(checker.game.compiler, "dynamic_space_props", set())
    count = len(setup.ctype)
    for key, props in checker.data["cprops"].items():
        c = int(key)
        if c >= count:
            continue  # told by the shape check (no such component)
        declared = sym.component_types.get(setup.ctype[c], {})
        for name, value in props.items():
            if name not in changing:
                fixed = "is fixed by the set-up" if name in declared or name in ("owner", "type") else "is no property"
                checker.error(("cprops", key, name), f"'{_short(name)}' of component {c} ({setup.clabel[c]}) {fixed}: "
                              "no rule changes it", "a state holds only the properties rules set", key=True)
            elif name in declared:
                problem = checker.misfit(value, declared[name])
                if problem:
                    checker.error(("cprops", key, name), f"'{name}' of component {c} is declared {declared[name]}: "
                                  f"{problem}", TYPE_HINT)
    for space, props in checker.data["sprops"].items():
        if space not in setup.spaces:
            continue
        for name, value in props.items():
            if name not in space_changing:
                checker.error(("sprops", space, name), f"'{_short(name)}' of space '{_short(space)}' is no property "
                              "a rule changes", "a state holds only the properties rules set", key=True)
            elif name in sym.space_props:
                problem = checker.misfit(value, sym.space_props[name])
                if problem:
                    checker.error(("sprops", space, name), f"'{name}' of a space is declared {sym.space_props[name]}: "
                                  f"{problem}", TYPE_HINT)


# ------------------------------------------------------------------ the running program and the phase
def expected_base(game, phase_id: str | None, flow: str) -> str | None:
    """The rule at the bottom of the frames in this part of the flow (engine/flow.py pushes it): the
    set-up's code, or the phase's on_begin, turn or on_end; None where none can run."""
    if flow == "setup":
        return game.setup_code
    phase = game.phases.get(phase_id) if phase_id is not None else None
    if phase is None:
        return None
    return {"begin": phase.on_begin, "turn": phase.turn, "end": phase.on_end}.get(flow)


def running_program(checker) -> None:
    """The program at the bottom of the frames is the one the phase and flow say runs: a phase name
    that contradicts the running rule is refused (the rules would resume one phase's code believing
    they are in another). A turn's program runs for the turn's player."""
    data, game = checker.data, checker.game
    frames, flow, phase = data["frames"], data["flow"], data["phase"]
    if not frames or flow == "over" or (phase is not None and phase not in game.phases):
        return
    want = expected_base(game, phase, flow)
    base = frames[0][0]
    if base not in game.codes:
        return  # told by the frames' check
    if want is None:
        checker.error(("frames", 0, 0), f"rule '{_short(base)}' runs, but in flow '{flow}' of phase "
                      f"'{_short(phase)}' no rule runs", "the bottom frame is the phase's own program")
    elif base != want:
        checker.error(("phase",), f"phase '{_short(phase)}' (flow '{flow}') runs '{want}', but the rule running "
                      f"at the bottom of the frames is '{_short(base)}'",
                      f"the phase and flow say which program runs first in the frames (at {checker.doc.position(('frames', 0, 0))})")
    elif flow == "turn":
        env = frames[0][2]
        me = env.get("me")
        if "me" not in env:
            checker.error(("frames", 0, 2), "the turn's program runs for no player ('me' is missing)",
                          "a turn's program runs for the turn's player")
        elif me != data["turn_player"] or isinstance(me, bool):
            checker.error(("frames", 0, 2, "me"), f"the turn's program runs for {_short(json_text(me))}, but the "
                          f"state says the turn is player {data['turn_player']}'s", "a turn's program runs for the turn's player")


def seats_in_play(checker) -> None:
    """Not every seat out of the phase's turns while a turn is played: when the last one drops out
    the phase ends (engine/flow.py), so such a state asks no one. Nor a seat out of a phase that has
    not begun."""
    data = checker.data
    dropped = data.get("dropped") or []
    if data["flow"] == "turn" and len(set(dropped)) >= checker.n and not data["terminal"]:
        checker.error(("dropped",), f"every seat ({checker.n}) has dropped out, yet a turn is played",
                      "when the last seat drops out the phase ends")
    elif data["flow"] == "setup" and dropped:
        checker.error(("dropped",), "seats dropped out before the first phase began",
                      "dropping out is from a phase's turns")


def json_text(value: Any) -> str:
    import json
    return json.dumps(value)


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."
