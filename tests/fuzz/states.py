"""`python -m tests.fuzz.states --cases 2000`: saved states tampered with, as a stranger would.

Each case is an honest state of a bundled game at a random point of a random game, tampered with
once: one of the tamperings issue 35 found accepted (a phase that contradicts the running rule or
its program counter, a number at 10^20, every seat dropped out, a history rewritten — an action
replaced, removed or the history cut —, a component's owner of 99 or -5, a component duplicated
or missing, one of another type) or a blind one (a value somewhere replaced by a number, a text, another value of the state;
a list item removed, doubled or two swapped; a key removed). It is loaded with
`game.state_from_json`, a share of the cases as a position set up by a program (`edited=True`).
A finding is:

- a traceback: anything raised but LegesError;
- a refusal without a place in the text (file:line:col);
- an accepted state that is not what its history makes of its seed, replayed here independently
  (a new game, every action applied): its JSON differs from the loaded state's;
- an accepted edited position that breaks what every state holds: a number past 2^53 - 1, a
  component twice or nowhere, every seat out during a turn, another program running than the
  phase's.

Records too (a quarter as many cases): a whole game's record with its result, tampered with (a
result changed, an action replaced, removed or moved, another seed or number of players), read and
replayed as `leges replay` does; a finding is a traceback, a refusal without a place, or an
accepted record whose result is not what its actions give.

The cases are drawn from a seed (random.Random): the same seed, the same cases.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

GAMES = (("tictactoe", 2), ("pompeii", 3), ("alexander", 3), ("attika", 2))
MAX_INT = 2 ** 53 - 1
NUMBERS = [10 ** 20, -(10 ** 20), 99, -5, -1, 0, 1, 2, 2 ** 53, 2 ** 63]


@dataclass
class Findings:
    cases: int = 0
    refused: int = 0
    accepted: int = 0
    findings: list[str] = field(default_factory=list)


# ------------------------------------------------------------------ the named tamperings
def _phase(data, rng, game) -> str:
    others = [p for p in game.phases if p != data["phase"]]
    data["phase"] = rng.choice(others) if others else "nowhere"
    return "phase contradicts the running rule"


def _big(data, rng, game) -> str:
    name = rng.choice(sorted(data["vars"]))
    value = data["vars"][name]
    big = rng.choice([10 ** 20, -(10 ** 20)])
    if isinstance(value, list) and value and len(value) == data["players"]:
        value[rng.randrange(len(value))] = big
    else:
        data["vars"][name] = big
    return f"variable {name} at 10^20"


def _all_dropped(data, rng, game) -> str:
    data["dropped"] = list(range(data["players"]))
    return "every seat dropped out"


def _history(data, rng, game) -> str:
    history = data["history"]
    if not history:
        history.append(f"{game.setup_for(data['players']).seat_names[0]}: pass")
        return "history: an action added"
    i = rng.randrange(len(history))
    how = rng.choice(["remove", "replace", "cut", "swap"])
    if how == "remove" or (how == "swap" and len(history) < 2):
        history.pop(i)
    elif how == "replace":
        other = rng.choice(history)
        history[i] = history[i].split(": ", 1)[0] + ": " + other.split(": ", 1)[1]
    elif how == "cut":
        del history[i:]
    else:
        j = rng.randrange(len(history))
        history[i], history[j] = history[j], history[i]
    return f"history: {how} at {i}"


def _owner(data, rng, game) -> str:
    c = rng.randrange(len(game.setup_for(data["players"]).ctype))
    data["cprops"].setdefault(str(c), {})["owner"] = rng.choice([99, -5])
    return f"component {c}'s owner"


def _components(data, rng, game) -> str:
    full = [k for k, v in data["zones"].items() if v]
    zone = rng.choice(full)
    how = rng.choice(["duplicate", "missing", "retype", "extra"])
    count = len(game.setup_for(data["players"]).ctype)
    if how == "duplicate":
        rng.choice(list(data["zones"].values())).append(rng.choice(data["zones"][zone]))
    elif how == "missing":
        data["zones"][zone].pop(rng.randrange(len(data["zones"][zone])))
    elif how == "retype":
        data["zones"][zone][rng.randrange(len(data["zones"][zone]))] = rng.randrange(count)
    else:
        data["zones"][zone].append(count + rng.randrange(3))
    return f"component {how} in {zone}"


def _program(data, rng, game) -> str:
    """The running rule or its program counter changed: another phase's program, another instruction."""
    i = rng.randrange(len(data["frames"]))
    if rng.random() < 0.5:
        data["frames"][i][1] = max(0, data["frames"][i][1] + rng.choice([-2, -1, 1, 2]))
        return f"program counter of frame {i}"
    data["frames"][i][0] = rng.choice(sorted(game.codes))
    return f"rule of frame {i}"


NAMED: list[Callable] = [_phase, _big, _all_dropped, _history, _owner, _components, _program]


# ------------------------------------------------------------------ blind tamperings
def _paths(value: Any, path: tuple, out: list, depth: int = 0) -> None:
    if path:
        out.append(path)
    if depth > 6 or len(out) > 5000:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _paths(v, path + (k,), out, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value[:50]):
            _paths(v, path + (i,), out, depth + 1)


def _blind(data, rng, game) -> str:
    paths: list = []
    _paths(data, (), paths)
    path = rng.choice([p for p in paths if p[0] != "pending"] or paths)
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    value = parent[key]
    how = rng.choice(["number", "text", "other", "remove", "double", "swap"])
    if how in ("double", "swap") and isinstance(value, list) and value:
        i, j = rng.randrange(len(value)), rng.randrange(len(value))
        if how == "double":
            value.append(value[i])
        else:
            value[i], value[j] = value[j], value[i]
    elif how == "remove":
        if isinstance(parent, list):
            parent.pop(key)
        else:
            del parent[key]
    elif how == "text":
        parent[key] = rng.choice(["x", "", "red", "phase:settle:turn", "\u202e"])
    elif how == "other":
        other = rng.choice(paths)
        source = data
        for k in other:
            source = source[k]
        parent[key] = json.loads(json.dumps(source))
    else:
        parent[key] = rng.choice(NUMBERS + [v + d for v in (value,) if isinstance(value, int) and not isinstance(value, bool)
                                            for d in (-1, 1)])
    return f"{how} at {'/'.join(map(str, path))}"


# ------------------------------------------------------------------ the oracles
def replays_to(game, st) -> str | None:
    """Why the accepted `st` is not what its history makes of its seed, or None."""
    from leges.engine.budget import GameBudget
    ending = st.end_reason or {}
    budget = None
    if st.unfinished and ending.get("kind") == "budget":  # a game cut short: replayed under its budget of work
        if ending.get("spent") != "work":
            return "a game cut short by its budget of seconds was accepted"
        budget = GameBudget(work=int(ending["limit"]))
    again = game.new_initial_state(players=st.n, seed=st.seed, explicit_chance=st.explicit_chance,
                                   forced_moves=st.forced_moves, budget=budget)
    for entry in st.history:
        try:
            again.apply_action(entry)
        except Exception as exc:  # noqa: BLE001 — a finding, told as one
            return f"its history does not replay: {exc}"[:300]
    if again.to_json() != st.to_json():
        return "it differs from its replay"
    return None


def breaks_what_every_state_holds(game, st) -> str | None:
    """What an accepted edited position breaks of what every state holds, or None."""
    from leges.engine.state_consistency import expected_base, out_of_bounds
    data = json.loads(st.to_json())
    for key in ("vars", "cprops", "sprops", "frames"):
        found = out_of_bounds(data[key], (key,))
        if found:
            return f"a number or text past the bounds at {found[0]}"
    seen = [c for items in data["zones"].values() for c in items]
    if sorted(seen) != list(range(len(st.setup.ctype))):
        return "a component twice or nowhere"
    if data["flow"] == "turn" and len(set(data.get("dropped") or [])) >= st.n:
        return "every seat dropped out during a turn"
    if data["frames"] and data["frames"][0][0] != expected_base(game, data["phase"], data["flow"]):
        return "another program runs than the phase's"
    return None


# ------------------------------------------------------------------ the campaign
def honest_states(rng: random.Random, per_game: int = 4) -> list:
    """(game, state JSON) at random points of random games of each bundled game."""
    import leges
    from leges.engine.budget import GameBudget
    from helpers import ruleset_dir
    out = []
    for name, players in GAMES:
        game = leges.load(str(ruleset_dir(name)))
        for _ in range(per_game):
            budget = GameBudget(work=rng.choice([5_000, 20_000])) if rng.random() < 0.15 else None  # some cut short
            st = game.new_initial_state(players=players, seed=rng.randrange(1000), budget=budget,
                                        explicit_chance=rng.random() < 0.2, forced_moves=rng.random() < 0.2)
            stop = rng.randrange(1, 80)
            while not st.is_terminal() and len(st.history) < stop:
                if st.is_chance_node():
                    outcomes = st.chance_outcomes()
                    st.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    st.apply_action(rng.choice(st.legal_actions()))
            out.append((game, st.to_json()))
    return out


def campaign(cases: int, seed: int = 0, per_game: int = 4) -> Findings:
    from leges.text.errors import LegesError
    rng = random.Random(seed)
    states = honest_states(rng, per_game)
    found = Findings()
    for case in range(cases):
        game, text = rng.choice(states)
        data = json.loads(text)
        tamper = rng.choice(NAMED) if rng.random() < 0.5 else _blind
        try:
            what = tamper(data, rng, game)
        except (IndexError, KeyError, TypeError, ValueError):
            what = "nothing (the tampering did not apply)"
        edited = rng.random() < 0.25
        tampered = json.dumps(data, indent=rng.choice([None, 1]))
        found.cases += 1
        label = f"case {case} ({game.id}, {what}{', edited' if edited else ''})"
        try:
            st = game.state_from_json(tampered, "s.json", edited=edited)
        except LegesError as exc:
            found.refused += 1
            for d in exc.diagnostics:
                if d.position.file != "s.json" or not d.position.line or not d.position.col:
                    found.findings.append(f"{label}: a refusal without a place: {d.format()[:300]}")
            continue
        except Exception as exc:  # noqa: BLE001 — the finding this campaign looks for
            found.findings.append(f"{label}: {type(exc).__name__}: {str(exc)[:300]}")
            continue
        found.accepted += 1
        why = breaks_what_every_state_holds(game, st) if edited else replays_to(game, st)
        if why:
            found.findings.append(f"{label}: accepted, but {why}")
    return found


# ------------------------------------------------------------------ records
def honest_records(rng: random.Random, per_game: int = 3) -> list:
    """(game, record) of whole random games of Tic-Tac-Toe and Pompeii, with their results."""
    import leges
    from helpers import ruleset_dir
    from leges.lab.records import make_record
    out = []
    for name, players in (("tictactoe", 2), ("pompeii", 3)):
        game = leges.load(str(ruleset_dir(name)))
        for _ in range(per_game):
            seed = rng.randrange(1000)
            st = game.new_initial_state(players=players, seed=seed)
            while not st.is_terminal():
                st.apply_action(rng.choice(st.legal_actions()))
            names = st.setup.seat_names
            result = {"ranking": [[names[p] for p in group] for group in st.ranking()], "scores": st.scores()}
            out.append((game, make_record(game, str(ruleset_dir(name)), players, seed, st.history, result)))
    return out


def _tamper_record(record: dict, rng: random.Random) -> str:
    how = rng.choice(["scores", "ranking", "action", "remove", "swap", "seed", "players"])
    actions, result = record["actions"], record["result"]
    i, j = rng.randrange(len(actions)), rng.randrange(len(actions))
    if how == "scores":
        result["scores"][rng.randrange(len(result["scores"]))] += rng.choice([-1, 1, 10 ** 20])
    elif how == "ranking":
        result["ranking"] = [[seat for group in result["ranking"] for seat in group][::-1]] \
            if rng.random() < 0.5 else result["ranking"][::-1]
    elif how == "action":
        actions[i] = actions[i].split(": ", 1)[0] + ": " + actions[j].split(": ", 1)[1]
    elif how == "remove":
        actions.pop(i)
    elif how == "swap":
        actions[i], actions[j] = actions[j], actions[i]
    elif how == "seed":
        record["seed"] += 1
    else:
        record["players"] += rng.choice([-1, 1])
    return how


def record_campaign(cases: int, work, seed: int = 0) -> Findings:
    """Records tampered with (a result changed, an action replaced, removed or moved, another seed
    or number of players), read and replayed as `leges replay` does. A finding: a traceback, a refusal
    without a place, or an accepted record whose result is not what its actions give."""
    from leges.lab.records import read_record, replay, write_record
    from leges.text.errors import LegesError
    rng = random.Random(seed)
    records = honest_records(rng)
    found = Findings()
    for case in range(cases):
        game, honest = rng.choice(records)
        record = json.loads(json.dumps(honest))
        what = _tamper_record(record, rng)
        path = str(work / f"record{case % 8}.json")
        write_record(path, record)
        found.cases += 1
        label = f"record case {case} ({game.id}, {what})"
        try:
            st = replay(game, read_record(path), path)
        except LegesError as exc:
            found.refused += 1
            d = exc.diagnostics[0]
            if d.position.file != path or not d.position.line or not d.position.col:
                found.findings.append(f"{label}: a refusal without a place: {d.format()[:300]}")
            continue
        except Exception as exc:  # noqa: BLE001 — the finding this campaign looks for
            found.findings.append(f"{label}: {type(exc).__name__}: {str(exc)[:300]}")
            continue
        found.accepted += 1
        if st.is_terminal() and record["result"]["scores"] not in (st.scores(), st.returns()):
            found.findings.append(f"{label}: accepted, but its scores are not its replay's")
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz.states", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=500, help="how many tampered states (default 500)")
    p.add_argument("--seed", type=int, default=0, help="the seed the cases are drawn from (default 0)")
    args = p.parse_args(argv)
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory(prefix="leges-fuzz-records-") as work:
        runs = [("states", campaign(args.cases, args.seed)), ("records", record_campaign(args.cases // 4, Path(work), args.seed))]
    for what, found in runs:
        print(f"{what}: {found.cases} cases: {found.refused} refused, {found.accepted} accepted, "
              f"{len(found.findings)} findings")
        for line in found.findings[:50]:
            print("  " + line)
    return 1 if any(found.findings for _, found in runs) else 0


if __name__ == "__main__":
    sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__file__), ".."))
    sys.exit(main())
