"""Design metrics of a batch of games, each with its 95 % interval — what a designer asks of a rule change.

Names follow Ludii's metrics where it has one (Browne et al., the Ludii metrics of game
quality). Every game gives one value of each metric (or none, where it does not apply: a seat's
win in a game that hit the turn limit); a batch reports their rate or mean with its interval
(stats.py). The same per-game values, taken pairwise, give A/B differences (`compare`).

The kind of a figure decides its interval, and is decided by what the figure is, never by the values
a batch happened to give: a rate (a share of games: Wilson), a count (t, never narrower than the
exact Poisson interval of the total), a mean (t), a figure of several rates (the bootstrap). A
ruleset's own statistic takes its kind from its declared type (`declared`): a truth value is a rate,
a whole number a count, a mean along the game a mean. Judged by its values, a count whose games all
gave 0 or 1 was taken for a rate, and one coin kept in every game of five read `100 % [56.6, 100]`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from . import stats
from .simulate import PlayResult


@dataclass(frozen=True)
class Metric:
    # rate (Wilson), mean (t), count (t, at least Poisson's), balance (bootstrap); auto: a statistic of
    # a game whose declarations were not read (Wilson if every value is 0 or 1, else t)
    kind: str
    description: str
    ludii: str = ""
    low: float | None = None  # the values a game can give lie in [low, high]: the interval is cut to them
    high: float | None = None
    unit: str = ""  # what one of its values counts (a rate: % of games)

    @property
    def percent(self) -> bool:
        """Shown as a percentage: a share of games, or a figure of such shares."""
        return self.kind in ("rate", "balance")

    @property
    def bounded(self) -> bool:
        """Its values lie in [0, 1] (a share), whatever their kind: a difference worth seeing is absolute."""
        return self.percent or (self.low == 0 and self.high == 1)


FIXED = {
    "duration": Metric("mean", "decisions in a game (the engine takes one-option decisions by itself)", "Duration Moves", 0,
                       unit="decisions"),
    "duration_turns": Metric("mean", "turns in a game", "Duration Turns", 0, unit="turns"),
    "branching_factor": Metric("mean", "legal moves at a decision, on average over a game's decisions", "Branching Factor",
                               0, unit="moves"),
    "forced_moves": Metric("mean", "share of moves that had one option (taken by the engine at once)", "Forced Moves",
                           0, 1, unit="share of moves"),
    "completion": Metric("rate", "share of games that end with a sole winner", "Completion", unit="% of games"),
    "drawishness": Metric("rate", "share of games that end with the first place shared (a draw)", "Drawishness",
                          unit="% of games"),
    "timeouts": Metric("rate", "share of games stopped by the turn or decision limit (limits.max_turns, max_decisions) "
                       "or the game's budget", "Timeouts", unit="% of games"),
    "decisiveness": Metric("mean", "share of a game's decisions played after its sole winner took the lead for good "
                                   "(high: decided early)", "Decisiveness Moves", 0, 1, unit="share of decisions"),
    "lead_changes": Metric("mean", "times the sole leader changed, looked at after every turn", "Lead Change", 0,
                           unit="changes"),
    "balance": Metric("balance", "1 - the widest gap between two seats' win rates (1: every seat wins as often)",
                      "Balance", unit="1 - gap"),
}
PREFIXED = {
    "seat_win_rate": Metric("rate", "share of finished games the seat won (a shared first place counts a share)",
                            unit="% of games"),
    "agent_win_rate": Metric("rate", "share of finished games won per seat the agent played (fair share: 1 / players)",
                             unit="% of games"),
    "score": Metric("mean", "the seat's final score", unit="points"),
    "stat": Metric("auto", "the ruleset's statistic (statistics:), at the end of a game or along it as it says"),
}
KINDS = {"rate": "% of games", "count": "per game", "mean": "per game"}  # a statistic's unit, by its kind


def metric(name: str, declared: dict[str, Metric] | None = None) -> Metric:
    """What `name` measures: a built-in metric, or a ruleset's statistic as `declared` says (stat.ID, or
    stat.ID.SEAT for one measured per player)."""
    if name in FIXED:
        return FIXED[name]
    if declared and name.startswith("stat."):
        sid = name.split(".")[1]
        if f"stat.{sid}" in declared:
            return declared[f"stat.{sid}"]
    return PREFIXED[name.split(".", 1)[0]]


def declared(game) -> dict[str, Metric]:
    """Every statistic of the game's ruleset as a metric: its description, and its kind from its type —
    a truth value (at the end, or the last, least or most of one along the game) is a rate; a number
    (or a sum, or a count of times a truth held) a count; a mean along the game a mean."""
    out: dict[str, Metric] = {}
    rs = getattr(game, "ruleset", None)
    for decl in getattr(rs, "statistics", None) or []:
        truth = _is_truth(game, decl)
        how = decl.aggregate or ("end" if decl.when == "end" else "count" if truth else "sum")
        if how in ("mean", "series"):
            kind = "mean"
        elif truth and how in ("end", "max", "min", "last"):
            kind = "rate"
        else:
            kind = "count"
        what = " ".join((decl.description or f"the ruleset's statistic '{decl.id}'").split())
        where = "" if decl.when == "end" else f" ({how} of its values {decl.when.replace('_', ' ')})"
        out[f"stat.{decl.id}"] = Metric(kind, what + where, unit=KINDS[kind],
                                        low=0 if truth and kind != "count" else None, high=1 if truth and kind == "mean" else None)
    return out


def _is_truth(game, decl) -> bool:
    """Whether a statistic's value is a truth value (its expression compiled again, as `leges eval`
    compiles one: the ruleset compiled it already, so nothing in the game changes)."""
    from ..engine.explain import compile_node
    from ..lang.check import types as T
    from ..lang.check.scope import Scope
    from ..lang.syntax.parser import parse_expression
    from ..text.errors import LegesError
    if decl.value is None:
        return False
    try:
        origin = decl.value.at.origin()
        scope = Scope({"p": T.PLAYER}, me=False) if decl.per_player else Scope(me=False)
        ty, _ = compile_node(game, parse_expression(decl.value.text, origin), scope, origin)
    except (LegesError, AttributeError):
        return False
    return ty == T.BOOL


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


def summarise(results: Sequence[PlayResult], seats: Sequence[str],
              kinds: dict[str, Metric] | None = None) -> dict[str, stats.Interval]:
    """Every metric of a batch of games with its 95 % interval (`kinds`: the ruleset's statistics as
    `declared` reads them; without, a statistic is a rate when its values are all 0 or 1)."""
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
        what = metric(name, kinds)
        if what.kind == "rate":
            out[name] = stats.wilson(sum(values), len(values))
        elif what.kind == "auto":
            out[name] = stats.rate_or_mean(values)
        elif what.kind == "count":
            out[name] = stats.count(values)
        else:
            out[name] = stats.mean(values)
        out[name] = out[name].within(what.low, what.high)
    return out


def differences(a: Sequence[PlayResult], b: Sequence[PlayResult], seats: Sequence[str],
                kinds: dict[str, Metric] | None = None) -> dict[str, stats.Difference]:
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
            low, high = metric(name, kinds).low, metric(name, kinds).high
            if metric(name, kinds).kind == "rate":
                low, high = 0.0, 1.0
            span = high - low if low is not None and high is not None else None
            out[name] = d.within(-span, span) if span is not None else d  # a difference of shares: within ±1
    return out


def to_json(measured: dict) -> dict:
    return {k: v.to_json() for k, v in measured.items()}
