"""Plausible play, checked: what each agent of a study did, in figures a designer can read.

Why: a study's answer is only as good as its players. An agent that never takes an action it
could take, that always passes, or that always chooses the largest value a parameter offers
(everything it has, every time) plays a game no person plays, and its answers — "B leaves
players more to spend", "the last seat wins" — are artefacts. Ratings (ladder.py) do not show it:
a degenerate agent can even win. So every game keeps, per seat, a small tally of its decisions
(`Watch`, fed by the play loop or by replaying a record's actions), and a study reports per agent:

- how often it took each action when the action was offered (`pass` among them), beside how
  often a uniformly random player would have;
- the spread of the values it chose for each numeric parameter, and how often it chose the
  largest or the smallest value offered;
- the per-player numeric variables at the end of its games (what it left unused), beside their
  values at its first decision.

A flag is raised only on enough evidence: at least `MIN_CHANCES` decisions, or an action a
uniform random player would have taken about `EXPECTED` times or more (so that random itself,
the baseline, is almost never flagged). Only decisions with two options or more count: a single
option is no choice.
"""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

PASS = "pass"  # the action of an option that passes (engine/decision.py)
MIN_CHANCES = 10  # decisions an agent must have had before "always ..." is said of it
EXPECTED = 5.0  # "never takes X" only where a uniform random player would have taken X about this often

_action_of = itemgetter(1)
_params_of = itemgetter(2)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def numeric_params(game: Any) -> dict[str, tuple[str, ...]]:
    """Each action's parameters whose values are numbers (declared `int`; components, players and
    spaces are numbered too, but their largest value means nothing)."""
    out: dict[str, tuple[str, ...]] = {}
    for name, action in getattr(game, "actions", {}).items():
        types = getattr(action, "param_types", None) or {}
        names = tuple(p for p, ty in types.items() if getattr(ty, "kind", None) == "int")
        if names:
            out[name] = names
    return out


def numeric_variables(game: Any) -> tuple[str, ...]:
    """The per-player variables that hold numbers: declared so, or, without a declared type, a number
    at the start."""
    compiler = getattr(game, "compiler", None)
    symbols = getattr(getattr(compiler, "symbols", None), "variables", None) or {}
    out = []
    for name, (per_player, initial) in getattr(game, "variables", {}).items():
        if not per_player:
            continue
        info = symbols.get(name)
        kind = getattr(getattr(info, "type", None), "kind", None)
        if kind == "int" or (kind is None and _number(initial)):
            out.append(name)
    return tuple(out)


class Watch:
    """One game's tally, per seat: fed every decision (`decided`) and the state at the start and the
    end. Kept small and plain (lists and dicts of numbers): it travels with the game's result
    between processes and into a study's journal."""

    def __init__(self, game: Any, players: int, extremes: bool = True):
        self.extremes = extremes  # whether to tell a chosen value the largest or smallest offered (the costly part)
        self.numeric = numeric_params(game)
        self.variables = numeric_variables(game)
        self.seats: list[dict[str, Any]] = [{"decisions": 0, "actions": {}, "params": {}} for _ in range(players)]
        self.start: dict[str, list] = {}
        self.end: dict[str, list] = {}

    def decided(self, player: int, choices: Sequence[tuple], chosen: int | None) -> None:
        """`player` chose option `chosen` of `choices` (a pending decision's options as tuples: text,
        action, params, ...); None: it did something else (an out-of-turn action)."""
        n = len(choices)
        if n < 2 or not 0 <= player < len(self.seats):
            return
        tally = self.seats[player]
        tally["decisions"] += 1
        actions = tally["actions"]
        kinds = set(map(_action_of, choices))  # (loops in C: a decision may offer hundreds of options)
        counts = {kinds.pop(): n} if len(kinds) == 1 else Counter(map(_action_of, choices))
        for action, k in counts.items():
            row = actions.get(action)
            if row is None:
                row = actions[action] = [0, 0, 0.0]  # offered, taken, a uniform random player's expected takes
            row[0] += 1
            row[2] += k / n
        if chosen is None:
            return
        option = choices[chosen]
        action = option[1]
        actions[action][1] += 1
        names = self.numeric.get(action)
        if not names:
            return
        params = None
        for name in names:
            value = option[2].get(name)
            if not _number(value):
                continue
            row = tally["params"].get(f"{action} {name}")
            if row is None:
                row = tally["params"][f"{action} {name}"] = {"values": {}, "choices": 0, "largest": 0, "smallest": 0}
            row["values"][value] = row["values"].get(value, 0) + 1
            if not self.extremes:
                continue
            if params is None:
                same = choices if counts[action] == n else [o for o in choices if o[1] == action]
                params = list(map(_params_of, same))
            try:
                offered = list(map(itemgetter(name), params))
                low, high = min(offered), max(offered)
            except (KeyError, TypeError):  # a parameter not always given, or not always a number
                offered = [v for p in params if _number(v := p.get(name))]
                low, high = min(offered), max(offered)
            if low != high:
                row["choices"] += 1
                row["largest"] += value == high
                row["smallest"] += value == low

    def variables_now(self, st: Any) -> dict[str, list]:
        found = {}
        for name in self.variables:
            values = st.vars.get(name)
            if isinstance(values, list) and len(values) == len(self.seats):
                found[name] = [v if _number(v) else None for v in values]
        return found

    def begin(self, st: Any) -> None:
        """The state at the first decision (after the setup: what the players had to begin with)."""
        self.start = self.variables_now(st)

    def finish(self, st: Any) -> None:
        self.end = self.variables_now(st)

    def to_json(self) -> dict:
        seats = []
        for tally in self.seats:
            params = {key: {**row, "values": sorted([v, c] for v, c in row["values"].items())}
                      for key, row in tally["params"].items()}
            seats.append({"decisions": tally["decisions"], "actions": tally["actions"], "params": params})
        return {"seats": seats, "start": self.start, "end": self.end}


def watch_actions(game: Any, players: int, seed: int, actions: Iterable[str]) -> dict:
    """The tally of a game replayed from its actions (a record's `seat: action param=value` texts):
    the same as the play loop keeps, for games played elsewhere, or written by hand."""
    st = game.new_initial_state(players=players, seed=seed)
    watch = Watch(game, players)
    started = False
    names = st.setup.seat_names
    for text in actions:
        if not started:
            watch.begin(st)
            started = True
        pending = st.pending
        seat, _, rest = text.partition(": ")
        if pending is not None and seat in names and names.index(seat) == pending.player:
            choices = pending.choices
            index = next((i for i, c in enumerate(choices) if c[0] == rest), None)
            watch.decided(pending.player, choices, index)
        st.apply_action(text)
    watch.finish(st)
    return watch.to_json()


# ------------------------------------------------------------------ a study's figures, per agent
@dataclass
class Spread:
    """Numbers an agent chose (or was left with): their least, median, largest and mean."""
    low: float
    median: float
    high: float
    mean: float
    count: int

    @classmethod
    def of(cls, counts: dict[float, int]) -> Spread | None:
        values = sorted(counts)
        total = sum(counts.values())
        if not total:
            return None
        expanded = [v for v in values for _ in range(counts[v])] if total <= 100_000 else values
        return cls(values[0], statistics.median(expanded), values[-1],
                   sum(v * c for v, c in counts.items()) / total, total)

    def to_json(self) -> dict:
        return {"min": self.low, "median": self.median, "max": self.high, "mean": self.mean, "count": self.count}


@dataclass
class AgentBehaviour:
    agent: str
    seats: int = 0  # seats it played, over the games
    decisions: int = 0
    actions: dict[str, list] = field(default_factory=dict)  # action → [offered, taken, random's expected takes]
    params: dict[str, dict] = field(default_factory=dict)  # "action param" → values, choices, largest, smallest
    start: dict[str, dict] = field(default_factory=dict)  # variable → {value: count}
    end: dict[str, dict] = field(default_factory=dict)
    unchanged: dict[str, int] = field(default_factory=dict)  # variable → seats that ended with what they began
    flags: list[str] = field(default_factory=list)

    def add(self, tally: dict) -> None:
        self.decisions += tally.get("decisions", 0)
        for action, (offered, taken, expected) in tally.get("actions", {}).items():
            row = self.actions.setdefault(action, [0, 0, 0.0])
            row[0] += offered
            row[1] += taken
            row[2] += expected
        for key, row in tally.get("params", {}).items():
            mine = self.params.setdefault(key, {"values": {}, "choices": 0, "largest": 0, "smallest": 0})
            for value, count in row["values"]:
                mine["values"][value] = mine["values"].get(value, 0) + count
            for k in ("choices", "largest", "smallest"):
                mine[k] += row[k]

    def spread(self, key: str) -> Spread | None:
        return Spread.of(self.params[key]["values"])

    def to_json(self) -> dict:
        return {"agent": self.agent, "seats": self.seats, "decisions": self.decisions,
                "actions": {a: {"offered": o, "taken": t, "share": t / o if o else None, "random_expected": e}
                            for a, (o, t, e) in self.actions.items()},
                "params": {k: {**_json(self.spread(k)), "choices": r["choices"], "largest": r["largest"],
                               "smallest": r["smallest"]} for k, r in self.params.items()},
                "end": {v: {**_json(Spread.of(c)), "start": _json(Spread.of(self.start.get(v, {}))),
                            "unchanged": self.unchanged.get(v, 0)} for v, c in self.end.items()},
                "flags": self.flags}


def _json(spread: Spread | None) -> dict:
    return spread.to_json() if spread is not None else {}


def summarise(results: Iterable[Any]) -> list[AgentBehaviour]:
    """Each agent's behaviour over the games' tallies (results with `agents` and `behaviour`), in the
    order the agents first sat; the flags said."""
    agents: dict[str, AgentBehaviour] = {}
    for r in results:
        watched = getattr(r, "behaviour", None) or {}
        if not _sound(watched):  # (a damaged journal's line: its game counts, its tally does not)
            watched = {}
        tallies = watched.get("seats") or []
        for seat, spec in enumerate(r.agents):
            mine = agents.setdefault(spec, AgentBehaviour(spec))
            mine.seats += 1
            if seat < len(tallies):
                mine.add(tallies[seat])
            for name, values in (watched.get("end") or {}).items():
                first = (watched.get("start") or {}).get(name) or [None] * len(values)
                if seat >= len(values) or not _number(values[seat]):
                    continue
                _count(mine.end.setdefault(name, {}), values[seat])
                if seat < len(first) and _number(first[seat]):
                    _count(mine.start.setdefault(name, {}), first[seat])
                    mine.unchanged[name] = mine.unchanged.get(name, 0) + (values[seat] == first[seat])
    found = list(agents.values())
    for a in found:
        a.flags = flags(a, found)
    return found


def _sound(watched: Any) -> bool:
    """Whether a game's tally has the shape `Watch.to_json` gives (a journal read back may be damaged)."""
    if not isinstance(watched, dict):
        return False
    seats, ends = watched.get("seats", []), [watched.get("start", {}), watched.get("end", {})]
    if not isinstance(seats, list) or not all(isinstance(e, dict) and all(isinstance(v, list) for v in e.values())
                                              for e in ends):
        return False
    for tally in seats:
        if not (isinstance(tally, dict) and isinstance(tally.get("decisions", 0), int)
                and isinstance(tally.get("actions", {}), dict) and isinstance(tally.get("params", {}), dict)):
            return False
        if not all(isinstance(row, list) and len(row) == 3 and all(_number(x) for x in row)
                   for row in tally.get("actions", {}).values()):
            return False
        for row in tally.get("params", {}).values():
            if not (isinstance(row, dict) and all(isinstance(row.get(k), int) for k in ("choices", "largest", "smallest"))
                    and isinstance(row.get("values"), list)
                    and all(isinstance(p, list) and len(p) == 2 and all(_number(x) for x in p) for p in row["values"])):
                return False
    return True


def _count(counts: dict, value: Any) -> None:
    counts[value] = counts.get(value, 0) + 1


def flags(a: AgentBehaviour, everyone: Sequence[AgentBehaviour] = ()) -> list[str]:
    """What makes `a` look degenerate, in words; nothing when the evidence is thin."""
    out = []
    offered, taken, expected = a.actions.get(PASS, (0, 0, 0.0))
    always = offered >= MIN_CHANCES and taken == offered
    if always:  # (and so never takes anything else when it could: said once)
        out.append(f"always passes ({offered} of {offered} decisions where it could)")
    elif offered and taken == 0 and expected >= EXPECTED:
        out.append(f"never passes when it could ({offered} decisions; a uniformly random player "
                   f"would have passed about {expected:.0f} times)")
    for action, (offered, taken, expected) in a.actions.items():
        if action != PASS and not always and taken == 0 and expected >= EXPECTED:
            out.append(f"never takes {_name(action)} when it could ({offered} decisions; a uniformly random "
                       f"player would have taken it about {expected:.0f} times)")
    for key, row in a.params.items():
        action, _, param = key.partition(" ")
        if row["choices"] < MIN_CHANCES:
            continue
        for end in ("largest", "smallest"):
            if row[end] == row["choices"]:
                out.append(f"always chooses the {end} value of {param} offered ({_name(action)}: "
                           f"{row['choices']} of {row['choices']} decisions)")
    for name, same in a.unchanged.items():
        used = any(b.unchanged.get(name, 0) < sum(b.end.get(name, {}).values()) for b in everyone if b is not a)
        if a.seats >= MIN_CHANCES and same == sum(a.end.get(name, {}).values()) and used:
            out.append(f"ends every game with the {name} it had at its first decision (other agents do not)")
    return out


def _name(action: str) -> str:
    return "choose" if action == "$choose" else action


# ------------------------------------------------------------------ the report
def _num(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.3g}"


def _share(part: float, whole: float) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def worth_telling(specs: Sequence[str], found: Sequence[AgentBehaviour]) -> bool:
    """Whether a text report says the behaviour: with agents other than random, or when one looks
    degenerate (random play is the baseline, not a player to check; --json always carries it)."""
    return any(s != "random" for s in specs) or any(a.flags for a in found)


def text_lines(found: Sequence[AgentBehaviour], indent: str = "  ", under: str = "") -> list[str]:
    """The report's block, for the text of `simulate`, `ladder` and `compare` (`under`: the side, A
    or B, its games were played under): the flags first, then each agent. Left out as noise: an
    action never offered beside another one (taking it was no choice), and a variable no agent's
    games ever changed."""
    if not found:
        return []
    side = f" under {under}" if under else ""
    out = [f"{indent}behaviour of the agents{side} (read it before the answer: a degenerate player makes the answer suspect):"]
    flagged = [(a.agent, f) for a in found for f in a.flags]
    for agent, text in flagged:
        out.append(f"{indent}  DEGENERATE?{side}{':' if side else ''} {agent} {text}")
    if not flagged:
        out.append(f"{indent}  no agent looks degenerate (never taking an action it could, always passing, "
                   "always the largest or smallest value)")
    changed = {name for a in found for name, same in a.unchanged.items() if same < sum(a.end[name].values())}
    for a in found:
        out.append(f"{indent}  {a.agent}: {a.decisions} decisions with a choice, in {a.seats} seats")
        taken = [f"{_name(x)} {_share(t, o)} of {o} (random {_share(e, o)})"
                 for x, (o, t, e) in sorted(a.actions.items(), key=lambda kv: kv[0] != PASS) if e < o - 1e-9]
        if taken:
            out.append(f"{indent}    takes, when offered: " + ", ".join(taken))
        for key, row in a.params.items():
            s = a.spread(key)
            if s is None:
                continue
            extremes = (f"; the largest offered {_share(row['largest'], row['choices'])}, the smallest "
                        f"{_share(row['smallest'], row['choices'])} of {row['choices']}") if row["choices"] else ""
            action, _, param = key.partition(" ")
            out.append(f"{indent}    {_name(action)} {param}: {_spread(s)}{extremes}")
        left = []
        for name, counts in a.end.items():
            s, first = Spread.of(counts), Spread.of(a.start.get(name, {}))
            if s is None or name not in changed:
                continue
            began = "" if first is None else f"; {_num(first.low)} at the first decision" if first.low == first.high \
                else f"; median {_num(first.median)} at the first decision"
            left.append(f"{name} {_spread(s)}{began}")
        if left:
            out.append(f"{indent}    left at the end: " + "; ".join(left))
    return out


def _spread(s: Spread) -> str:
    return f"median {_num(s.median)}, mean {_num(s.mean)} (min {_num(s.low)}, max {_num(s.high)})"


def to_json(found: Sequence[AgentBehaviour]) -> dict:
    return {"agents": [a.to_json() for a in found],
            "flags": [{"agent": a.agent, "text": f} for a in found for f in a.flags]}
