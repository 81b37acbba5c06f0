"""A heuristic learned by self-play: learn from random games, then from games of the players that
heuristic makes, keeping each new heuristic only while it beats the one before.

Why: random players show what the rules allow, not what is worth doing. At an auction they bid
any amount for any lot, so a coin kept and a coin bid go with winning in muddled ways, and a
greedy player following what they teach jumps to most of its money on the first lot it sees. The
players a heuristic makes play other games, whose results say more about the positions those
players reach — and so, round after round:

1. play `games` games with greedy players following the current heuristic (one move in
   `explore` is a random one, so that positions they would never reach still get weighed);
2. fit a new heuristic (learn.fit) to the positions of every self-play round so far — each
   position of these games, not one in `every`: the greedy players' own moves cost more than the
   features read, and a position between two bids is where a pledge is told from a coin kept;
   pooled, because a round's 40 games alone make weights that swing from round to round;
3. play a head-to-head match, greedy on the new heuristic against greedy on the current one, in
   every seat in turn (the same deals for both: common random numbers), and keep the new one only
   if it scored more than its fair share; else stop, with the current one.

Its cost is counted in games, never in seconds, so that the same call learns the same heuristic
on any machine. The match's share comes with a Wilson interval for the report (cli/learn.py), but
the decision is the share itself: a few dozen games cannot prove a small gain, and a round that
only ties is not kept.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..engine.constants import CHANCE
from .base import Agent, View
from .evaluation import Heuristic
from .greedy import GreedyAgent
from .learn import COMPILING, LEARNED, Learned, Position, compile_features, fit, sample
from .features import candidates
from .moves import moves, random_move

ROUNDS = 3  # self-play rounds at most, after the round of random games
EXPLORE = 0.1  # share of moves played at random in self-play games
SELF_PLAY_GAMES = 40  # games of each self-play round (the command's default)
MATCH_GAMES = 40  # games of each head-to-head match
WIDTH = 8  # actions a self-play player looks at, at most (drawn at random, every kind among them): a game of
# hundreds of placements a turn would cost seconds a game, and the fit needs many games more than best moves


@dataclass(frozen=True)
class Round:
    """One round of self-play: what it learned and how that did against the heuristic before it."""

    number: int  # 0: learned from random games (kept: there is nothing before it)
    learned: Learned
    score: float  # the new heuristic's points in the match: 1 a game won, ½ a draw (and between, 3+ players)
    games: int  # games of the match (0 for round 0)
    kept: bool

    @property
    def share(self) -> float:
        return self.score / self.games if self.games else math.nan


@dataclass
class SelfPlay:
    """The rounds played, and the heuristic kept."""

    rounds: list[Round] = field(default_factory=list)
    games_played: int = 0  # every game: learning and matches

    @property
    def learned(self) -> Learned:
        """The last round kept."""
        return [r for r in self.rounds if r.kept][-1].learned


Fit = Callable[[list, Sequence[Position], int, str], Learned]


def self_play(game, players: Sequence[int], games: int = 60, seed: int = 0, every: int = 4, rounds: int = ROUNDS,
              match_games: int = MATCH_GAMES, explore: float = EXPLORE, fitter: Fit = fit,
              progress: Callable[[Round], None] | None = None, self_play_games: int | None = None) -> SelfPlay:
    """Learn from `games` random games, then up to `rounds` rounds of self-play of `self_play_games`
    games each (default: `games`; see the module's docstring). `fitter` is learn.fit (a test may
    hand it another); `progress` hears of each round as it ends."""
    per_round = self_play_games or games
    features = compile_features(game, candidates(game))
    out = SelfPlay()
    current = fitter(features, sample(game, features, players, games, seed, every), games, "random games")
    out.games_played += games
    out.rounds.append(Round(0, current, 0.0, 0, True))
    if progress:
        progress(out.rounds[-1])
    pooled: list[Position] = []  # every self-play round's positions: each fit learns from all of them
    for number in range(1, rounds + 1):
        if not current.features:
            break
        judge = _judge(game, current)
        mover = _greedy_mover(game, judge, explore)
        fresh = sample(game, features, players, per_round, seed + number * 100_003, 1, mover)
        pooled += [Position(p.game + number * per_round, p.values, p.results) for p in fresh]
        out.games_played += per_round
        rounds_seen = "round 1" if number == 1 else f"rounds 1 to {number}"
        source = f"self-play games ({rounds_seen}, by greedy players on the heuristics of the rounds before)"
        new = fitter(features, pooled, per_round * number, source)
        score = 0.0
        played = 0
        if new.features:
            score, played = match(game, _judge(game, new), judge, players, match_games, seed + number * 7_919,
                                  explore)
            out.games_played += played
        kept = played > 0 and score > played / 2
        out.rounds.append(Round(number, new, score, played, kept))
        if progress:
            progress(out.rounds[-1])
        if not kept:
            break
        current = new
    return out


def _judge(game, learned: Learned) -> Heuristic:
    text = learned.expression()
    with COMPILING:  # the compiler is shared by the games of one ruleset (learn.py)
        fn = game.compile_expression(text, player=True)
    return Heuristic(LEARNED, fn, text, "being learned by self-play")


class _Follower(GreedyAgent):
    """Greedy on a heuristic handed to it, not one named in the ruleset or learned for it."""

    def __init__(self, judge: Heuristic):
        super().__init__(width=WIDTH)
        self.fixed = judge

    def start(self, game, player, rng) -> None:
        Agent.start(self, game, player, rng)
        self.judge = self.fixed


def _greedy_mover(game, judge: Heuristic, explore: float):
    """A move of learn.sample for self-play: greedy on `judge` for whoever decides, now and then random."""
    agent = _Follower(judge)

    def move(st, rng: random.Random) -> None:
        mv = moves(st)
        if mv.player == CHANCE or len(mv) < 2 or rng.random() < explore:
            random_move(st, rng)
            return
        agent.start(game, mv.player, rng)
        _apply(st, agent.choose(View(st, mv.player)))
    return move


def _apply(st, choice) -> None:
    """Apply an agent's choice (an index among the legal actions, or an action)."""
    player = st.pending.player
    actions = st.legal_actions(player)
    st.apply_action(actions[choice] if isinstance(choice, int) else choice)


def match(game, new: Heuristic, old: Heuristic, players: Sequence[int], games: int, seed: int,
          explore: float = EXPLORE) -> tuple[float, int]:
    """Greedy on `new` against greedy on `old`, `new` in one seat and `old` in the others, the seat
    turning game by game; each deal played once for every seat (common random numbers). Returns
    `new`'s points — (1 + its return) / 2 a game: 1 a sole win, ½ a draw of two — and the games."""
    score = 0.0
    played = 0
    for deal in range(seed, seed + 3 * games):  # (a deal the rules cut short is not counted: a bound)
        n = players[deal % len(players)]
        for seat in range(n):
            if played == games:
                return score, played
            result = _duel(game, n, deal, seat, new, old, explore)
            if result is not None:
                score += result
                played += 1
    return score, played


def _duel(game, n: int, deal: int, seat: int, new: Heuristic, old: Heuristic, explore: float) -> float | None:
    """One game of the match: `new`'s points, None when the rules cut it short. Both sides make a
    random move now and then, as in self-play: between two greedy players a deal is often played
    the same way every time, so that the seat decides it, and the match would say nothing."""
    st = game.new_initial_state(players=n, seed=deal)
    rng = random.Random(deal * 31 + seat)
    agents = [_Follower(new if p == seat else old) for p in range(n)]
    for p, agent in enumerate(agents):
        agent.start(game, p, random.Random(rng.random()))
    while not st.terminal:
        mv = moves(st)
        if mv.player == CHANCE or len(mv) < 2 or rng.random() < explore:
            random_move(st, rng)
            continue
        _apply(st, agents[mv.player].choose(View(st, mv.player)))
    return None if st.unfinished else (1 + st.returns()[seat]) / 2
