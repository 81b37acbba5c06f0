"""Statistics measured along a game, not only at its end: when something happens, a value is
taken, and the values of a game make one figure (a sum, a count, a mean, a series...).

Why: a designer's question is often about what happens during play — "how many rounds end with
the last card going for nothing?", "how wide is the score gap after each round?" — and a figure
read at the end cannot say it without the ruleset keeping counters for the purpose. A
`statistics:` entry with `when` (`turn`, `round`, `decision`, `after ACTION`) is measured by the
simulator as the game goes (`Tracker`), so the rules stay the game's own.

When is read off what the simulator sees: a turn ends when the turn number changes, a round is
as many turns as there are players, a decision is one the players made (one the engine took by
itself, having a single option, is not seen), `after ACTION` is a decision whose text names the
action. The value is a number or a truth value, of the game or (`per_player`) of each player.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Measure:
    id: str
    per_player: bool
    fn: Callable
    when: str  # turn, round, decision, or "after ACTION"
    aggregate: str


class Tracker:
    """The values of a game's measures, taken as it is played (`step` after every decision)."""

    def __init__(self, measures: list[Measure], st):
        self.measures = measures
        self.values: dict[str, list] = {m.id: [] for m in measures}
        self.turn = st.turn_count
        self.turns = 0
        self.seen = len(st.history)

    def step(self, st) -> None:
        actions = [entry.split(": ", 1)[1].split(" ", 1)[0] for entry in st.history[self.seen:] if ": " in entry]
        self.seen = len(st.history)
        turn_ended = st.turn_count != self.turn
        if turn_ended:
            self.turn = st.turn_count
            self.turns += 1
        for m in self.measures:
            if m.when == "decision" or (m.when == "turn" and turn_ended) or \
                    (m.when == "round" and turn_ended and self.turns % st.n == 0):
                self.values[m.id].append(self._value(m, st))
            elif m.when.startswith("after "):
                wanted = m.when[6:]
                for _ in range(sum(1 for a in actions if a == wanted)):
                    self.values[m.id].append(self._value(m, st))

    @staticmethod
    def _value(m: Measure, st) -> Any:
        return st.measure(m.id, m.fn, m.per_player)

    def figures(self, players: int) -> tuple[dict, dict]:
        """({id: figure, or [figure per player]}, {id: the values of a series})."""
        out: dict = {}
        series: dict = {}
        for m in self.measures:
            values = self.values[m.id]
            if m.per_player:
                columns = [[v[p] for v in values] for p in range(players)]
                out[m.id] = [aggregate(c, m.aggregate) for c in columns]
            else:
                out[m.id] = aggregate(values, m.aggregate)
            if m.aggregate == "series":
                series[m.id] = values
        return out, series


def aggregate(values: list, how: str) -> float | None:
    """One figure of the values measured along a game (None: nothing was measured)."""
    if how in ("sum", "count"):
        return float(sum(values))
    if not values:
        return None
    if how in ("mean", "series"):
        return sum(values) / len(values)
    if how == "max":
        return float(max(values))
    if how == "min":
        return float(min(values))
    return float(values[-1])
