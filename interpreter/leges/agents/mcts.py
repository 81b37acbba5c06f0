"""`mcts`: UCT; Information-Set MCTS where information is hidden; guided by the ruleset's heuristic.

Every iteration searches a fresh determinisation (`View.resample`: what the player cannot see,
and the future chance, drawn afresh), so one tree gathers what holds across the states the player
cannot tell apart (single-observer IS-MCTS, Cowling, Powley & Whitehouse 2012). The tree's edges
are action texts; a move is scored by UCB1 over the iterations in which it was available (the
"subset-armed bandit"), for the player who makes it, so several players share one tree (max^n).

How an iteration is scored — the defaults, and why (measured: docs/balance-testing.md, section 6):

- Exploration `c = 0.5`: with rewards stretched to the range seen (below), 1.4 spread the visits
  over nearly every move and the most visited was close to chance; on the same 30 games of a
  bundled game against greedy, 0.5 won 22 where 1.4 won 18, and no worse elsewhere (agents.md).
- With a heuristic (every bundled game has one), the new leaf is scored by it at once
  (`depth=0`): each player's lead over the best other, relative to the values in play. Random
  play-outs to the end misled the search in the games that matter most (random bidders make
  money worthless; more iterations made it *worse* against greedy), and a heuristic read at the
  leaf costs far less than a play-out, so the same time buys many more iterations.
- Without one (or with `heuristic=none`), play-outs go to the end, their moves chosen by MAST
  (playout.py) rather than uniformly, so that a game without a heuristic still gets better
  play-outs than random ones — whatever ran before in the process: a heuristic another agent
  learned for the ruleset is that agent's (evaluation.py); `heuristic=learned` asks for one.

Secret simultaneous decisions (`secret: true`, e.g. a share-out everybody makes behind a screen,
committed in seat order): a choice sealed from the others must not steer their choices, so the
tree does not descend on it. Every secret decision of a stretch is looked up in the node where
the stretch began (a player's statistics there are kept over all the others' sealed choices, as
in decoupled simultaneous-move search); once the stretch is over, the search goes on below the
searching player's own choice, which it knows, and nobody else's.
"""
from __future__ import annotations

import math
import time

from ..engine.constants import CHANCE
from ..text.errors import Diagnostic, LegesError, Position
from .base import Agent, View
from .evaluation import Evaluation, Heuristic, heuristic_for
from .mcts_prior import Guide, guide, tried_moves
from .moves import moves, play, play_chance, random_move, sealed, texts
from .playout import Mast

ROLLOUTS = ("mast", "random")


class Node:
    """A node of the tree: its statistics, and its children by who moves and the move's text.

    The children are kept per player (`kids[who][text]`), not under `(who, text)` keys: a node
    visited looks up each of its moves, tens of them at a decision of a board game, and a key
    tuple made for each was a tenth of a search's own work."""
    __slots__ = ("visits", "avail", "value", "kids", "prior")

    def __init__(self, players: int):
        self.visits = 0
        self.avail = 0
        self.value = [0.0] * players  # summed rewards in [0, 1], one per player
        self.kids: dict[int, dict[str, Node]] = {}
        self.prior: dict[str, float] | None = None  # with a move prior: its moves' scores, by text

    @property
    def children(self) -> dict[tuple[int, str], "Node"]:
        """The children under `(who, text)` keys (a copy, for reading the tree)."""
        return {(who, text): child for who, kids in self.kids.items() for text, child in kids.items()}

    @children.setter
    def children(self, children: dict[tuple[int, str], "Node"]) -> None:
        self.kids = {}
        for (who, text), child in children.items():
            self.kids.setdefault(who, {})[text] = child


def estimated(values: list[float]) -> list[float]:
    """Heuristic values turned into rewards in [0, 1] for a cut roll-out: each player's lead over the
    best other, relative to the largest value in play (0.5: level; towards 1: far ahead)."""
    n = len(values)
    if n < 2:
        return [0.5] * n
    scale = max(abs(v) for v in values) + 1.0
    out = []
    for p, v in enumerate(values):
        lead = v - max(w for q, w in enumerate(values) if q != p)
        out.append(min(1.0, max(0.0, 0.5 + 0.5 * lead / scale)))
    return out


SETTLED_EVERY = 50  # iterations between two looks at whether the choice is settled


def settled(root: Node, me: int, left: int) -> bool:
    """Whether the most visited move at the root can no longer be overtaken in the iterations
    left: then they would change nothing (the move played is the most visited), and are saved."""
    first = second = 0
    for child in root.kids.get(me, {}).values():
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


class MCTSAgent(Agent):
    name = "mcts"
    params = {
        "iterations": (int, 1000, "iterations per decision (default 1000)"),
        "seconds": (float, None, "or a time budget per decision; with both, whichever ends first "
                                 "(results then depend on the machine)"),
        "c": (float, 0.5, "exploration constant of UCB1 (rewards lie in [0, 1]; default 0.5)"),
        "depth": (int, None, "play-out moves before the heuristic scores the position (default with a "
                             "heuristic: 0, the new leaf is scored at once)"),
        "heuristic": (str, None, "the heuristic that scores play-outs (default: the ruleset's first; 'learned': "
                                 "one learned from random games; 'none': play every play-out to the end)"),
        "normalise": (int, None, "1: explore on rewards stretched to the range seen in the search, 0: as they "
                                 "are (default: 1 when the heuristic scores play-outs, whose rewards differ little)"),
        "rollout": (str, "mast", "play-out moves: 'mast' (by each move's average reward so far, "
                                 "ε-greedy) or 'random'"),
        "prior": (str, None, "a move prior guiding the search (mcts_prior.py): 'learned', or a prior's YAML "
                             "file; untried moves are then expanded best-ranked first (default: none, at random)"),
        "widen": (float, 1.0, "with a prior: a node visited n times has at most 1 + widen * sqrt(n) moves "
                              "tried (progressive widening, best-ranked first); 0: every move"),
    }
    iterations: int  # the settings of `params`, set by Agent.__init__
    seconds: float | None
    c: float
    depth: int | None
    heuristic: str | None
    normalise: int | None
    rollout: str
    prior: str | None
    widen: float

    def start(self, game, player, rng) -> None:
        if self.rollout not in ROLLOUTS:
            raise LegesError(Diagnostic(Position("--agents"), f"mcts: no roll-out '{self.rollout}'",
                                        "rollout=" + " or rollout=".join(ROLLOUTS)))
        # What scores an iteration is fixed by the spec and the ruleset alone, never by what ran
        # before (agents/evaluation.py): in a ruleset without a heuristic the default plays out to
        # the end, as `mcts` always has; `heuristic=learned` (or a `depth`) asks for a learned one.
        self._judge: Heuristic | None = None
        if self.heuristic == "none":
            if self.depth is not None:
                raise LegesError(Diagnostic(Position("--agents"), "mcts: 'depth' cuts play-outs to be scored by a "
                                            "heuristic, and heuristic=none asks for none"))
            self._cut = None
        elif self.depth is not None or self.heuristic is not None or game.heuristics:
            self._judge = heuristic_for(game, self.heuristic)
            self._cut = self.depth if self.depth is not None else 0
        else:
            self._cut = None
        self._stretch = bool(self.normalise) if self.normalise is not None else self._cut is not None
        self._guide: Guide | None = guide(game, self.prior, self.widen)
        super().start(game, player, rng)

    @property
    def evaluation(self) -> Evaluation | None:
        """How it scores an iteration (None before it starts: that depends on the ruleset)."""
        if not hasattr(self, "_cut"):
            return None
        moves = "MAST" if self.rollout == "mast" else "random"
        guided = f"; moves expanded by the move prior ({self.prior}, widen={self.widen:g})" if self._guide else ""
        if self._judge is None:
            return Evaluation(f"play-outs to the end ({moves} moves){guided}")
        if self._cut == 0:
            return self._judge.describe("read at each new leaf" + guided)
        return self._judge.describe(f"read after play-outs of {self._cut} moves ({moves})" + guided)

    def choose(self, view: View) -> int:
        actions = view.legal_actions()
        if len(actions) == 1:
            return 0
        root = self.search(view)
        me = view.player
        mine = root.kids.get(me, {})
        scored = []
        for i, a in enumerate(actions):  # the most visited; among as many visits, the best on average
            child = mine.get(a.text)
            scored.append(((child.visits, child.value[me] / child.visits) if child and child.visits else (-1, 0.0), i))
        best = max(s for s, _ in scored)
        return self.rng.choice([i for s, i in scored if s == best])

    def search(self, view: View) -> Node:
        """One search: selection, expansion, play-out and back-propagation in one loop. Complex on purpose:
        it is the hot loop of the agent, and its four steps share the loop's locals."""
        n, rng, c, me = view.players, self.rng, self.c, view.player
        root = Node(n)
        self.mast = Mast()
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        iterations = self.iterations if self.iterations is not None else (1 << 62 if deadline else 1000)
        log = math.log
        sqrt = math.sqrt
        guide_ = self._guide
        # each player's range of rewards, seen so far (stretched) or given
        low, high, span = [0.0] * n, [1.0] * n, [1.0] * n
        if self._stretch:
            low, high = [math.inf] * n, [-math.inf] * n
        for done in range(iterations):
            if deadline is not None and time.perf_counter() > deadline:
                break
            if done % SETTLED_EVERY == 0 and done and settled(root, me, iterations - done):
                break
            st = view.resample(rng)
            node = root
            path = [root]
            played: list[tuple[int, str]] = []
            own = None  # the searcher's own choice in a stretch of secret decisions: where the search goes on
            # selection and expansion
            while not st.terminal:
                mv = moves(st)
                if mv.player == CHANCE:
                    play_chance(st, rng)
                    continue
                who = mv.player
                names = texts(st, mv)
                secret = sealed(st, mv)
                if not secret and own is not None:
                    node, own = own, None  # the stretch is over: below what the searcher chose
                kids = node.kids.get(who)
                if kids is None:
                    kids = node.kids[who] = {}
                row = []  # the moves' children, in order, while none is untried
                untried = None
                for i, t in enumerate(names):
                    child = kids.get(t)
                    if child is None:
                        if untried is None:
                            untried = [i]
                        else:
                            untried.append(i)
                    else:
                        child.avail += 1
                        row.append(child)
                held = None  # with a prior: the untried moves that wait while the tried ones are searched
                if untried is not None and guide_ is not None:
                    held = untried
                    untried = guide_.expand(st, node, who, names, untried, len(row))
                if untried is not None:
                    i = rng.choice(untried) if guide_ is None else untried[0]
                    child = Node(n)
                    child.avail = 1
                    kids[names[i]] = child
                    play(st, mv, i)
                    path.append(child)
                    played.append((who, names[i]))
                    break
                best, best_i = -math.inf, 0
                rand = rng.random
                base, scale = low[who], span[who]
                for i, child in enumerate(row):
                    explore = c * sqrt(log(child.avail) / child.visits)
                    if secret:  # randomised: deterministic UCB1 lets secret choosers cycle in step
                        explore *= 2.0 * rand()
                    score = (child.value[who] / child.visits - base) / scale + explore
                    if score > best:
                        best, best_i = score, i
                child = row[best_i]
                if held is not None:  # the row holds the tried moves alone: the move's own index
                    best_i = tried_moves(len(names), held)[best_i]
                play(st, mv, best_i)
                path.append(child)
                played.append((who, names[best_i]))
                if not secret:
                    node = child
                elif who == me:
                    own = child
            reward = self.playout(st, played)
            if self._stretch:
                for p, r in enumerate(reward):
                    if r < low[p]:
                        low[p] = r
                    if r > high[p]:
                        high[p] = r
                    span[p] = high[p] - low[p] if high[p] - low[p] > 1e-9 else 1.0
            for node in path:
                node.visits += 1
                value = node.value
                for p in range(n):
                    value[p] += reward[p]
            if self._cut != 0:
                self.mast.update(played, reward)
        return root

    def playout(self, st, played: list[tuple[int, str]]) -> list[float]:
        """Play on from the leaf (`depth` moves, or to the end), and score where it stopped."""
        depth = self._cut
        rng = self.rng
        mast = self.mast if self.rollout == "mast" else None
        steps = 0
        while not st.terminal and (depth is None or steps < depth):
            if mast is not None:
                mast.step(st, rng, played)
            else:
                random_move(st, rng)
            steps += 1
        if st.terminal:
            return [0.5 + 0.5 * r for r in st.returns()]
        assert self._judge is not None  # a cut play-out is scored by a heuristic (start)
        return estimated(self._judge.values(st))
