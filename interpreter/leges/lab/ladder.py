"""A strength ladder: agents play round-robins in every seating, and get a Bradley–Terry rating.

Why: every answer of a study is only as good as the players that produced it. Before trusting
"variant B lengthens the game", a designer should know that the agents used are the strongest
at hand, and that more search makes them stronger on this game (when it does not, the search is
misled — random roll-outs in an auction — and its answers are suspect).

The tables: every multiset of `players` agents holding at least two different ones, each in
every rotation of its seats, so that no agent owes its rating to a seat. A game's ranking is
read as pairwise results between the different agents at the table (a place above: a win; the
same place: half of each; Zermelo's counting for multiplayer rankings). Bradley–Terry strengths
are fitted by Hunter's MM algorithm with one virtual draw between every two agents (a light
prior, so that an agent that never lost keeps a finite rating); ratings are on the Elo scale
(400 · log10 of the strength, mean 0) with 95 % percentile intervals from resampling the games.
"""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .runner import GameSpec
from .simulate import PlayResult

RESAMPLES = 400
PRIOR = 1.0  # virtual draws between every two agents


def tables(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every seating of the round: multisets of `players` agents with two or more different ones, rotated."""
    out: list[tuple[str, ...]] = []
    for combo in itertools.combinations_with_replacement(range(len(agents)), players):
        if len(set(combo)) < 2:
            continue
        seats = [agents[i] for i in combo]
        for r in range(players):
            rotated = tuple(seats[r:] + seats[:r])
            if rotated not in out:
                out.append(rotated)
    return out


def plan(agents: Sequence[str], players: int, rounds: int, seed: int) -> list[GameSpec]:
    """`rounds` rounds of every table; the tables of one round share a seed (common random numbers)."""
    return [GameSpec(seed + r, t) for r in range(rounds) for t in tables(agents, players)]


def pairwise(results: Sequence[PlayResult], agents: Sequence[str], seats: Sequence[str]) -> list[list[float]]:
    """wins[i][j]: how often agent i finished above agent j (halves for the same place), over the
    finished games both played in, each game counted once per pair of different agents (an agent
    in two seats of a game counts by the better of its places)."""
    index = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    wins = [[0.0] * k for _ in range(k)]
    for r in results:
        if r.unfinished:
            continue
        place = {seat: rank for rank, group in enumerate(r.ranking) for seat in group}
        best: dict[int, int] = {}
        for seat, spec in zip(seats, r.agents):
            rank = place.get(seat, len(seats))
            best[index[spec]] = min(best.get(index[spec], rank), rank)
        for i, j in itertools.combinations(sorted(best), 2):
            if best[i] < best[j]:
                wins[i][j] += 1
            elif best[j] < best[i]:
                wins[j][i] += 1
            else:
                wins[i][j] += 0.5
                wins[j][i] += 0.5
    return wins


def bradley_terry(wins: list[list[float]], prior: float = PRIOR, iterations: int = 2000) -> list[float]:
    """Ratings on the Elo scale (mean 0) fitted to the pairwise wins (Hunter's MM algorithm)."""
    k = len(wins)
    w = [[wins[i][j] + (prior / 2 if i != j else 0.0) for j in range(k)] for i in range(k)]
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            total = sum(w[i][j] for j in range(k) if j != i)
            denominator = sum((w[i][j] + w[j][i]) / (strength[i] + strength[j]) for j in range(k) if j != i)
            new.append(total / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / scale for s in new]
        done = max(abs(a - b) for a, b in zip(new, strength)) < 1e-10
        strength = new
        if done:
            break
    return [400 * math.log10(s) for s in strength]


@dataclass(frozen=True)
class Rating:
    agent: str
    value: float
    low: float
    high: float
    games: int
    score: float  # share of its pairwise results won

    def to_json(self) -> dict:
        return {"agent": self.agent, "rating": self.value, "low": self.low, "high": self.high, "games": self.games,
                "score": self.score}


@dataclass(frozen=True)
class Ladder:
    ratings: list[Rating]  # in the order the agents were given
    above: list[list[float]]  # above[i][j]: share of resamples in which i rated above j
    # one agent at several budgets (the parameter, the agents by rising budget, and whether the
    # rating rises at every step in 95 % of the resamples)
    budgets: list[tuple[str, list[str], bool]]

    def to_json(self) -> dict:
        return {"ratings": [r.to_json() for r in self.ratings],
                "above": [[None if math.isnan(x) else x for x in row] for row in self.above],
                "budgets": [{"parameter": p, "agents": a, "rises": ok} for p, a, ok in self.budgets]}


def rate(results: Sequence[PlayResult], agents: Sequence[str], seats: Sequence[str], seed: int = 0) -> Ladder:
    """The agents' ratings from the games they played, with intervals and the budget check."""
    k = len(agents)
    wins = pairwise(results, agents, seats)
    values = bradley_terry(wins)
    rng = random.Random(seed)
    draws: list[list[float]] = []
    n = len(results)
    for _ in range(RESAMPLES if n > 1 else 0):
        sample = [results[rng.randrange(n)] for _ in range(n)]
        draws.append(bradley_terry(pairwise(sample, agents, seats), iterations=300))
    ratings = []
    for i, agent in enumerate(agents):
        column = sorted(d[i] for d in draws)
        low, high = (column[int(0.025 * len(column))], column[min(len(column) - 1, int(0.975 * len(column)))]) \
            if column else (-math.inf, math.inf)
        played = sum(wins[i][j] + wins[j][i] for j in range(k) if j != i)
        ratings.append(Rating(agent, values[i], low, high, sum(1 for r in results if agent in r.agents),
                              sum(wins[i]) / played if played else math.nan))
    above = [[(sum(1 for d in draws if d[i] > d[j]) / len(draws)) if draws and i != j else math.nan for j in range(k)]
             for i in range(k)]
    ladders = []
    for budget, order in budget_orders(agents):
        ladders.append((budget, [agents[i] for i in order], all(above[b][a] >= 0.95 for a, b in itertools.pairwise(order))))
    return Ladder(ratings, above, ladders)


BUDGETS = ("iterations", "seconds", "width", "depth")


def budget_orders(agents: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Groups of two or more agents of one kind that differ in one budget parameter only: that
    parameter, and the group's indices by rising budget."""
    parsed = []
    for spec in agents:
        head, *items = spec.split(":")
        parsed.append((head, dict(item.partition("=")[::2] for item in items)))
    out = []
    for head in dict.fromkeys(h for h, _ in parsed):
        group = [i for i, (h, _) in enumerate(parsed) if h == head]
        if len(group) < 2:
            continue
        keys = set().union(*(parsed[i][1].keys() for i in group))
        differing = [key for key in keys if len({parsed[i][1].get(key) for i in group}) > 1]
        if len(differing) != 1 or differing[0] not in BUDGETS:
            continue
        key = differing[0]
        try:
            amounts = {i: float(parsed[i][1][key]) for i in group}
        except (KeyError, ValueError):
            continue
        out.append((key, sorted(group, key=lambda i: amounts[i])))
    return out
