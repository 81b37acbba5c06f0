"""Design metrics of a batch of games, each with its 95 % interval — what a designer asks of a rule change.

Names follow Ludii's metrics where it has one (Browne et al., the Ludii metrics of game
quality). Every game gives one value of each metric (or none, where it does not apply: a seat's
win in a game that hit the turn limit); a batch reports their rate or mean with its interval
(stats.py). The same per-game values, taken pairwise, give A/B differences (`compare`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from . import stats
from .simulate import PlayResult


@dataclass(frozen=True)
class Metric:
    kind: str  # rate (Wilson), mean (t), auto (Wilson if every value is 0 or 1, else t), balance (bootstrap)
    description: str
    ludii: str = ""
    low: float | None = None  # the values a game can give lie in [low, high]: the interval is cut to them
    high: float | None = None


FIXED = {
    "duration": Metric("mean", "decisions in a game (the engine takes one-option decisions by itself)", "Duration Moves", 0),
    "duration_turns": Metric("mean", "turns in a game", "Duration Turns", 0),
    "branching_factor": Metric("mean", "legal moves at a decision, on average over a game's decisions", "Branching Factor", 0),
    "forced_moves": Metric("mean", "share of moves that had one option (taken by the engine at once)", "Forced Moves",
                           0, 1),
    "completion": Metric("rate", "share of games that end with a sole winner", "Completion"),
    "drawishness": Metric("rate", "share of games that end with the first place shared (a draw)", "Drawishness"),
    "timeouts": Metric("rate", "share of games stopped by the turn or decision limit (limits.max_turns, max_decisions) or the game's budget", "Timeouts"),
    "decisiveness": Metric("mean", "share of a game's decisions played after its sole winner took the lead for good "
                                   "(high: decided early)", "Decisiveness Moves", 0, 1),
    "lead_changes": Metric("mean", "times the sole leader changed, looked at after every turn", "Lead Change", 0),
    "balance": Metric("balance", "1 - the widest gap between two seats' win rates (1: every seat wins as often)",
                      "Balance"),
}
PREFIXED = {
    "seat_win_rate": Metric("rate", "share of finished games the seat won (a shared first place counts a share)"),
    "agent_win_rate": Metric("rate", "share of finished games won per seat the agent played (fair share: 1 / players)"),
    "score": Metric("mean", "the seat's final score"),
    "stat": Metric("auto", "the ruleset's statistic (statistics:), at the end of a game or along it as it says"),
}


def metric(name: str) -> Metric:
    if name in FIXED:
        return FIXED[name]
    return PREFIXED[name.split(".", 1)[0]]


def wins(r: PlayResult, seats: Sequence[str]) -> list[float] | None:
    """Each seat's share of the win (None: the game did not finish)."""
    if r.unfinished:
        return None
    first = r.ranking[0]
    return [1 / len(first) if s in first else 0.0 for s in seats]


def per_game(r: PlayResult, seats: Sequence[str]) -> dict[str, float | None]:
    """One game's value of every metric (None where it does not apply)."""
    out: dict[str, float | None] = {
        "duration": r.length,
        "duration_turns": r.turns,
        "branching_factor": r.options / r.length if r.length else None,
    }
    if r.forced is not None:
        out["forced_moves"] = r.forced / (r.forced + r.length) if r.forced + r.length else None
    won = wins(r, seats)
    sole = won is not None and len(r.ranking[0]) == 1
    out["completion"] = 1.0 if sole else 0.0
    out["drawishness"] = 1.0 if won is not None and not sole else 0.0
    out["timeouts"] = 1.0 if r.unfinished else 0.0
    if r.leaders:
        out["lead_changes"] = _lead_changes(r.leaders)
        out["decisiveness"] = _decisiveness(r, seats) if sole else None
    shares: list[float | None] = list(won) if won else [None] * len(seats)
    for s, w in zip(seats, shares):
        out[f"seat_win_rate.{s}"] = w
    agents = sorted(set(r.agents))
    if len(agents) > 1:
        for a in agents:
            mine = [i for i, spec in enumerate(r.agents) if spec == a]
            out[f"agent_win_rate.{a}"] = None if won is None else sum(won[i] for i in mine) / len(mine)
    for s, v in zip(seats, r.scores):
        if isinstance(v, (int, float)):
            out[f"score.{s}"] = float(v)
    for sid, value in r.statistics.items():  # None: a statistic measured along the game that never was
        if isinstance(value, list):
            for s, v in zip(seats, value):
                out[f"stat.{sid}.{s}"] = None if v is None else float(v)
        else:
            out[f"stat.{sid}"] = None if value is None else float(value)
    return out


def _lead_changes(leaders: list) -> int:
    changes, last = 0, None
    for _, who in leaders:
        if who is not None:
            if last is not None and who != last:
                changes += 1
            last = who
    return changes


def _decisiveness(r: PlayResult, seats: Sequence[str]) -> float | None:
    winner = seats.index(r.ranking[0][0])
    since = r.length
    for at, who in reversed(r.leaders):
        if who != winner:
            break
        since = at
    return (r.length - since) / r.length if r.length else None


def balance(wins_per_game: Sequence[list[float]]) -> float:
    n = len(wins_per_game)
    if not n:
        return float("nan")
    rates = [sum(w[i] for w in wins_per_game) / n for i in range(len(wins_per_game[0]))]
    return 1 - (max(rates) - min(rates))


def names_in(rows: Iterable[dict]) -> list[str]:
    """Every metric measured in these games, in a stable order: the fixed ones first, as declared."""
    seen: dict[str, None] = {}
    for row in rows:
        for k in row:
            seen.setdefault(k, None)
    fixed = [k for k in FIXED if k in seen or (k == "balance" and any(x.startswith("seat_win_rate.") for x in seen))]
    return fixed + [k for k in seen if k not in FIXED]


def summarise(results: Sequence[PlayResult], seats: Sequence[str]) -> dict[str, stats.Interval]:
    """Every metric of a batch of games with its 95 % interval."""
    rows = [per_game(r, seats) for r in results]
    out: dict[str, stats.Interval] = {}
    for name in names_in(rows):
        if name == "balance":
            won = [w for w in (wins(r, seats) for r in results) if w is not None]
            if len(seats) > 1 and won:
                out[name] = stats.bootstrap(won, balance)
            continue
        values = [v for v in (row.get(name) for row in rows) if v is not None]
        if not values:
            continue
        kind = metric(name).kind
        if kind == "rate":
            out[name] = stats.wilson(sum(values), len(values))
        elif kind == "auto":
            out[name] = stats.rate_or_mean(values)
        else:
            out[name] = stats.mean(values)
        out[name] = out[name].within(metric(name).low, metric(name).high)
    return out


def differences(a: Sequence[PlayResult], b: Sequence[PlayResult], seats: Sequence[str]) -> dict[str, stats.Difference]:
    """B - A for every metric both measured, over the games paired by seed and seating."""
    rows_a = [per_game(r, seats) for r in a]
    rows_b = [per_game(r, seats) for r in b]
    out: dict[str, stats.Difference] = {}
    for name in names_in(rows_a + rows_b):
        if name == "balance":
            pairs = [(wa, wb) for wa, wb in ((wins(x, seats), wins(y, seats)) for x, y in zip(a, b))
                     if wa is not None and wb is not None]
            if len(seats) > 1 and pairs:
                if all(x == y for x, y in pairs):
                    out[name] = stats.Difference(0.0, 0.0, 0.0, p=1.0, effect=0.0, spread=0.0, pairs=len(pairs))
                else:
                    out[name] = stats.paired_bootstrap(pairs, balance)
            continue
        d = stats.paired_difference([x.get(name) for x in rows_a], [y.get(name) for y in rows_b])
        if d.value == d.value:  # not NaN: measured in some pair
            low, high = metric(name).low, metric(name).high
            if metric(name).kind == "rate":
                low, high = 0.0, 1.0
            span = high - low if low is not None and high is not None else None
            out[name] = d.within(-span, span) if span is not None else d  # a difference of shares: within ±1
    return out


def to_json(measured: dict) -> dict:
    return {k: v.to_json() for k, v in measured.items()}
