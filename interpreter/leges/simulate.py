"""Random play-outs: the balance-testing workhorse behind `leges simulate`.

The random agent draws from its own generator (seeded from the game's seed), so the same seed
gives the same game, and the game's own chance stays in the game state.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .errors import Diagnostic, Position, RuleError


@dataclass
class PlayResult:
    seed: int
    ranking: list  # [[seat names tied for first], ...]
    scores: list
    returns: list
    length: int
    unfinished: bool
    history: list = field(default_factory=list)


def agent_rng(seed: int) -> random.Random:
    return random.Random(seed * 2654435761 + 97)


def random_playout(game, players: int, seed: int, check: bool = False) -> PlayResult:
    """Play one game with uniformly random legal actions (out-of-turn ones included)."""
    st = game.new_initial_state(players=players, seed=seed)
    rng = agent_rng(seed)
    anytime = bool(game.anytime)
    length = 0
    while not st.terminal:
        options = st.pending["options"]
        extra = st.out_of_turn_actions() + st._anytime_as_actions(st.pending["player"]) if anytime else ()
        k = rng.randrange(len(options) + len(extra))
        if k < len(options):
            st.apply_option(k)
        else:
            st.apply_action(extra[k - len(options)])
        length += 1
        if check:
            broken = game.check_invariants(st)
            if broken:
                raise RuleError(Diagnostic(Position(game.ruleset_file),
                                           f"invariant {', '.join(broken)} broken after action {length} "
                                           f"('{st.history[-1]}') in the game with seed {seed}",
                                           f"replay it: leges simulate ... --seed {seed} --games 1 --records DIR"))
    names = st.setup.seat_names
    return PlayResult(seed=seed, ranking=[[names[p] for p in group] for group in st.ranking()],
                      scores=st.scores(), returns=st.returns(), length=length, unfinished=st.unfinished,
                      history=list(st.history))


@dataclass
class Summary:
    ruleset: str
    players: int
    seed: int
    results: list[PlayResult]
    seconds: float

    @property
    def finished(self) -> list[PlayResult]:
        return [r for r in self.results if not r.unfinished]

    def mean_length(self) -> float:
        return sum(r.length for r in self.results) / max(1, len(self.results))

    def seat_win_rate(self, seats: list[str]) -> dict[str, float]:
        """Share of finished games each seat won; a shared first place counts as a share of a win."""
        wins = {s: 0.0 for s in seats}
        for r in self.finished:
            first = r.ranking[0]
            for s in first:
                wins[s] += 1 / len(first)
        n = max(1, len(self.finished))
        return {s: w / n for s, w in wins.items()}

    def playouts_per_second(self) -> float:
        return len(self.results) / self.seconds if self.seconds > 0 else 0.0


def simulate(game, players: int, games: int, seed: int, check: bool = False, progress=None) -> Summary:
    results = []
    start = time.perf_counter()
    for i in range(games):
        results.append(random_playout(game, players, seed + i, check))
        if progress is not None:
            progress(i + 1, games, time.perf_counter() - start)
    return Summary(game.id, players, seed, results, time.perf_counter() - start)
