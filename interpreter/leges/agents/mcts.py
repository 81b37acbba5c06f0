"""`mcts`: UCT with random roll-outs; Information-Set MCTS where information is hidden.

Every iteration searches a fresh determinisation (`View.resample`: what the player cannot see,
and the future chance, drawn afresh), so one tree gathers what holds across the states the player
cannot tell apart (single-observer IS-MCTS, Cowling, Powley & Whitehouse 2012). The tree's edges
are action texts; a move is scored by UCB1 over the iterations in which it was available (the
"subset-armed bandit"), for the player who makes it, so several players share one tree (max^n).
Roll-outs play uniformly random moves to the end — or, with `depth`, stop there and score the
position by the ruleset's heuristic: each player's lead over the best other, relative to the
values in play. With perfect
information this is plain UCT.
"""
from __future__ import annotations

import math
import time

from ..engine.constants import CHANCE
from .base import Agent, View
from .greedy import require_heuristic
from .moves import moves, play, play_chance, random_move, texts


class Node:
    __slots__ = ("visits", "avail", "value", "children")

    def __init__(self, players: int):
        self.visits = 0
        self.avail = 0
        self.value = [0.0] * players  # summed rewards in [0, 1], one per player
        self.children: dict[tuple[int, str], Node] = {}


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


class MCTSAgent(Agent):
    name = "mcts"
    params = {
        "iterations": (int, 1000, "iterations per decision (default 1000)"),
        "seconds": (float, None, "or a time budget per decision; with both, whichever ends first"),
        "c": (float, 1.4, "exploration constant of UCB1 (rewards lie in [0, 1]; default 1.4)"),
        "depth": (int, None, "cut roll-outs after this many moves and score them by the heuristic"),
        "heuristic": (str, None, "the heuristic for cut roll-outs (default: the ruleset's first)"),
    }

    def start(self, game, player, rng) -> None:
        if self.depth is not None:
            require_heuristic(game, self.heuristic, f"{self.name}:depth")
        super().start(game, player, rng)

    def choose(self, view: View) -> int:
        actions = view.legal_actions()
        if len(actions) == 1:
            return 0
        root = self.search(view)
        me = view.player
        scored = []
        for i, a in enumerate(actions):  # the most visited; among as many visits, the best on average
            child = root.children.get((me, a.text))
            scored.append(((child.visits, child.value[me] / child.visits) if child and child.visits else (-1, 0.0), i))
        best = max(s for s, _ in scored)
        return self.rng.choice([i for s, i in scored if s == best])

    def search(self, view: View) -> Node:
        n, rng, c = view.players, self.rng, self.c
        root = Node(n)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        iterations = self.iterations if self.iterations is not None else (1 << 62 if deadline else 1000)
        log = math.log
        sqrt = math.sqrt
        for _ in range(iterations):
            if deadline is not None and time.perf_counter() > deadline:
                break
            st = view.resample(rng)
            node = root
            path = [root]
            # selection and expansion
            while not st.terminal:
                mv = moves(st)
                if mv.player == CHANCE:
                    play_chance(st, rng)
                    continue
                who = mv.player
                names = texts(st, mv)
                children = node.children
                untried = [i for i, t in enumerate(names) if (who, t) not in children]
                for t in names:
                    child = children.get((who, t))
                    if child is not None:
                        child.avail += 1
                if untried:
                    i = rng.choice(untried)
                    child = Node(n)
                    child.avail = 1
                    children[(who, names[i])] = child
                    play(st, mv, i)
                    path.append(child)
                    break
                best, best_i = -1.0, 0
                for i, t in enumerate(names):
                    child = children[(who, t)]
                    score = child.value[who] / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if score > best:
                        best, best_i = score, i
                node = children[(who, names[best_i])]
                play(st, mv, best_i)
                path.append(node)
            reward = self.rollout(st)
            for node in path:
                node.visits += 1
                value = node.value
                for p in range(n):
                    value[p] += reward[p]
        return root

    def rollout(self, st) -> list[float]:
        depth = self.depth
        rng = self.rng
        steps = 0
        while not st.terminal and (depth is None or steps < depth):
            random_move(st, rng)
            steps += 1
        if st.terminal:
            return [0.5 + 0.5 * r for r in st.returns()]
        return estimated(st.heuristic(self.heuristic))
