"""A heuristic learned by self-play: learn from random games, then from games of the players that
heuristic makes, keeping each new heuristic unless a head-to-head match shows it worse.

Why: random players show what the rules allow, not what is worth doing. At an auction they bid
any amount for any lot, so a coin kept and a coin bid go with winning in muddled ways, and a
greedy player following what they teach jumps to most of its money on the first lot it sees. The
players a heuristic makes play other games, whose results say more about the positions those
players reach — and so, round after round:

1. play `self_play_games` games with greedy players following the current heuristic (one move in
   `explore` is a random one, so that positions they would never reach still get weighed);
2. fit a new heuristic (learn.fit) to the positions of every self-play round so far — each
   position of these games, not one in `every`: the greedy players' own moves cost more than the
   features read, and a position between two bids is where a pledge is told from a coin kept;
   pooled, because a round's 40 games alone make weights that swing from round to round;
3. play a head-to-head match, greedy on the new heuristic against greedy on the current one
   (`match`, `sequential`), and decide by what it shows:
   - the new one **better**: kept, and on to the next round;
   - **worse**: dropped; stop, with the current one;
   - **neither** by the match's cap (`match_games`): kept — it is not shown worse, and it was
     learned from more games, of players rather than random moves — but stop: nothing shows that
     another round would help, and on the auction rounds after such a round drift (below).

The match is sequential. Each deal is played once with the new heuristic in every seat (the same
shuffles: common random numbers), and the deal is the statistic's unit: the new side's share is
its points over the games counted, its interval a t interval over deals (the variance of a ratio,
from each deal's residual), which leaves out what the seat alone decides. Every `LOOK` games, and
at the cap, the interval is looked at, and the match stops at the first look at which it leaves
1/2. Each of the K looks the cap allows is taken at level 1 - 5 %/K (Bonferroni): all of them
together call two equally strong heuristics better or worse with probability at most 5 %, where
a plain 95 % interval looked at again and again would take a run of luck for a gain.

Why this rule, measured on the auction test game (tests/rulesets/auction), seeds 1-8. Two
players, 30 random and 30 self-play games: round 0's heuristic values a coin bid above a coin kept
at 7 seeds of 8, round 1's weighs lots and kept coins right at all 8, and yet beats round 0's by
little (shares of 0.50-0.58 in matches of 400 games), so that "more than half the points in 20
games" kept round 1 at 1 seed of 8 (40 games: about half the time, a coin flip). No cap a designer
waits for shows such a gain; "not shown worse" keeps round 1 at all 8 (7 ties at 200 games, one
shown better). Two and three players, 100 random and 40 self-play games: round 1 scores about
0.62 against round 0 and is shown better at all 8 seeds, in 40-80 games; round 2 scores 0.50
against round 1, and round 3 0.47-0.49 against round 2 at all 16 seeds and set-ups (400 games
each) — hence the stop after a round not shown better. A deal's games vary less than games taken
one by one on the auction (the variance of a share 0.08-0.13 against 0.24: the seat decides much),
so deals show round 1's gain in 78 games on average where single games need 107 (in a game where
the seat decides less, deals help less: docs/agents.md has a bundled game's figures).

Its cost is counted in games, never in seconds, so that the same call learns the same heuristic on
any machine: a match plays whole deals, in an order fixed by the seed, until a look decides or the
cap is passed; a match that shows neither costs the whole cap.
"""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
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
MATCH_GAMES = 200  # games of a head-to-head match at most: its cap
LOOK = 40  # games between two looks at a match's result
ALPHA = 0.05  # the chance, over all the looks of a match, of calling two equal heuristics better or worse
WIDTH = 8  # actions a self-play player looks at, at most (drawn at random, every kind among them): a game of
# hundreds of placements a turn would cost seconds a game, and the fit needs many games more than best moves
BETTER, WORSE, NEITHER = "better", "worse", "neither"  # what a match shows of the new heuristic


@dataclass(frozen=True)
class Match:
    """A head-to-head match as far as it was played (`sequential`): what it shows of the new side."""

    score: float  # the new side's points in the games counted: 1 a game won, ½ a draw (and between, 3+ players)
    games: int  # games counted: those of whole deals, none cut short by the rules
    deals: int  # deals counted
    played: int  # every game played, cut short or not: the cost
    looks: int  # looks taken at the result
    planned: int  # looks the cap allows: each one is taken at level 1 - ALPHA / planned
    low: float  # the interval of the new side's share at the last look (0 to 1 before any)
    high: float
    outcome: str  # BETTER or WORSE (the interval left 1/2 on that side), or NEITHER by the cap

    @property
    def share(self) -> float:
        return self.score / self.games if self.games else math.nan

    @property
    def level(self) -> float:
        """The coverage of each look's interval."""
        return 1 - ALPHA / self.planned


@dataclass(frozen=True)
class Round:
    """One round of self-play: what it learned and how that did against the heuristic before it."""

    number: int  # 0: learned from random games (kept: there is nothing before it)
    learned: Learned
    match: Match | None  # None for round 0, and for a round that learned nothing
    kept: bool

    @property
    def share(self) -> float:
        return self.match.share if self.match else math.nan


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
    out.rounds.append(Round(0, current, None, True))
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
        if not new.features:
            out.rounds.append(Round(number, new, None, False))
            if progress:
                progress(out.rounds[-1])
            break
        result = match(game, _judge(game, new), judge, players, match_games, seed + number * 7_919, explore)
        out.games_played += result.played
        out.rounds.append(Round(number, new, result, result.outcome != WORSE))
        if progress:
            progress(out.rounds[-1])
        if result.outcome == WORSE:
            break
        current = new
        if result.outcome == NEITHER:  # kept, not shown worse; but nothing says another round helps
            break
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


def match(game, new: Heuristic, old: Heuristic, players: Sequence[int], cap: int, seed: int,
          explore: float = EXPLORE) -> Match:
    """Greedy on `new` against greedy on `old`, `new` in one seat and `old` in the others: each deal
    (seed, seed + 1, ..., cycling through the player counts) played once with `new` in every seat,
    until a look decides or `cap` games are passed (`sequential`). A game's points for `new` are
    (1 + its return) / 2: 1 a sole win, ½ a draw of two, 1/2 on average over the seats."""
    def deals() -> Iterator[list[float | None]]:
        for deal in itertools.count(seed):  # (lazily: a match that stops plays no deal more)
            n = players[deal % len(players)]
            yield [_duel(game, n, deal, seat, new, old, explore) for seat in range(n)]
    return sequential(deals(), cap)


def sequential(deals: Iterable[Sequence[float | None]], cap: int, look: int = LOOK, alpha: float = ALPHA) -> Match:
    """Read a match deal by deal — each deal the new side's points in each seat, None for a game the
    rules cut short — looking at its result every `look` games played and at the cap, and stopping
    at the first look whose interval of the new side's share leaves 1/2: BETTER above, WORSE below;
    NEITHER if none does by `cap` games (or when `deals` runs out). A deal with a game cut short
    is played but not counted: its seats would no longer balance. Each of the looks the cap allows
    is taken at level 1 - alpha / looks, so that together they err with probability at most alpha."""
    planned = max(1, math.ceil(cap / look))
    counted: list[tuple[float, int]] = []  # (the new side's points, games) of each deal counted
    played = looks = 0
    due = min(look, cap)  # games played at the next look
    low, high = 0.0, 1.0
    for results in deals:
        played += len(results)
        if None not in results:
            counted.append((math.fsum(r for r in results if r is not None), len(results)))
        if played < due:
            continue
        looks += 1
        due = min((played // look + 1) * look, cap)  # (a look at most between two multiples of `look`)
        low, high = _interval(counted, 1 - alpha / planned)
        outcome = BETTER if low > 0.5 else WORSE if high < 0.5 else NEITHER
        if outcome != NEITHER or played >= cap:
            return _match(counted, played, looks, planned, low, high, outcome)
    return _match(counted, played, looks, planned, low, high, NEITHER)


def _match(counted: list[tuple[float, int]], played: int, looks: int, planned: int, low: float, high: float,
           outcome: str) -> Match:
    return Match(math.fsum(s for s, _ in counted), sum(n for _, n in counted), len(counted), played, looks, planned,
                 low, high, outcome)


def _interval(counted: Sequence[tuple[float, int]], level: float) -> tuple[float, float]:
    """A t interval, at `level`, of the share sum(points) / sum(games) over deals — the variance of a
    ratio estimated from the deals' residuals, so that what a deal's seats share cancels out. Fewer
    than two deals: no interval (0 to 1)."""
    from scipy.stats import t
    deals = len(counted)
    if deals < 2:
        return 0.0, 1.0
    games = sum(n for _, n in counted)
    share = math.fsum(s for s, _ in counted) / games
    variance = deals / (deals - 1) * math.fsum((s - share * n) ** 2 for s, n in counted) / games ** 2
    half = float(t.ppf(0.5 + level / 2, deals - 1)) * math.sqrt(variance)
    return max(0.0, share - half), min(1.0, share + half)


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
