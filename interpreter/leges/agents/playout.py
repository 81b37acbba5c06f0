"""How `mcts` plays beyond its tree: random moves, or moves chosen by MAST.

Why MAST (Move-Average Sampling Technique, Finnsson & Björnsson 2008; ε-greedy form after Tak,
Winands & Björnsson 2012): a uniformly random play-out says little in most board games — random
bidders raise every bid, random builders scatter. MAST keeps, across one decision's search, the
average reward each player got in the iterations where it made a move with a given text, and
plays out by those averages: the best-rated move of the decider, or, with probability `EPSILON`,
a random one. It needs no heuristic and knows no game: a move is its text, for the seat making it.
"""
from __future__ import annotations

from ..engine.constants import CHANCE
from .moves import everyone, play_any, play_chance

EPSILON = 0.4  # share of random moves in a MAST play-out (keeps it varied, as the papers found best)
UNSEEN = 0.5  # the average of a move never rated yet: neither good nor bad


class Mast:
    """Average rewards by (player, move text), gathered over one decision's search."""

    __slots__ = ("table", "epsilon")

    def __init__(self, epsilon: float = EPSILON):
        self.table: dict[tuple[int, str], list[float]] = {}  # key → [average, count]
        self.epsilon = epsilon

    def update(self, played: list[tuple[int, str]], reward: list[float]) -> None:
        """Each move made in an iteration gets the reward its player received at the end of it."""
        table = self.table
        for key in played:
            entry = table.get(key)
            if entry is None:
                table[key] = [reward[key[0]], 1.0]
            else:
                entry[1] += 1.0
                entry[0] += (reward[key[0]] - entry[0]) / entry[1]

    def value(self, player: int, text: str) -> float:
        entry = self.table.get((player, text))
        return UNSEEN if entry is None else entry[0]

    def step(self, st, rng, played: list[tuple[int, str]]) -> None:
        """One play-out move: MAST's choice among everything anybody may do now (noted in `played`)."""
        if st.pending.player == CHANCE:
            play_chance(st, rng)
            return
        player, names, extra = everyone(st)
        n = len(names) + len(extra)
        if rng.random() < self.epsilon:
            k = rng.randrange(n)
        else:
            table = self.table
            start = rng.randrange(n)  # ties go to a random one among the best
            k, best = start, -1.0
            for j in range(start, start + n):
                j %= n
                key = (player, names[j]) if j < len(names) else (extra[j - len(names)].player,
                                                                 extra[j - len(names)].text)
                entry = table.get(key)
                v = UNSEEN if entry is None else entry[0]
                if v > best:
                    k, best = j, v
        played.append((player, names[k]) if k < len(names) else (extra[k - len(names)].player,
                                                                 extra[k - len(names)].text))
        play_any(st, len(names), extra, k)

