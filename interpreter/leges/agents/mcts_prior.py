"""How a move prior (prior.py) guides `mcts` (`mcts:prior=learned`): which untried move a node
expands next, and how many of its moves are tried at all.

Why: at a budget a study can afford (a few hundred iterations a decision) and some thirty moves at
the root, plain UCT spends its iterations trying every move about five times, and hundreds of
moves (a tile's placements) are not even tried once. The prior orders the untried moves, best-
ranked first, and progressive widening (Coulom 2007; Chaslot et al. 2008) lets a node visited `n`
times try at most `1 + widen * sqrt(n)` of them, so the iterations go deeper along the moves the
prior rates instead of wider over all of them; a move the prior underrates is still tried once the
node has been visited often enough. A node keeps the scores it has read (by move text), so an
option's features are read once per node, not once per visit.
"""
from __future__ import annotations

import math

from ..text.errors import Diagnostic, LegesError, Position
from .prior import Prior
from .prior_fit import prior_for


class Guide:
    """A prior and the widening it allows."""

    __slots__ = ("prior", "widen")

    def __init__(self, prior: Prior, widen: float):
        self.prior = prior
        self.widen = widen

    def expand(self, st, node, who: int, names: list[str], untried: list[int], tried: int) -> list[int] | None:
        """The untried move to expand (a list of one index), or None when the node may try no more
        moves yet (the search then selects among the tried ones)."""
        if tried and self.widen > 0 and tried >= 1 + self.widen * math.sqrt(node.visits):
            return None
        known = node.prior
        if known is None:
            known = node.prior = {}
        choices = st.pending.choices
        count = len(choices)
        score = self.prior.score
        best_i, best = untried[0], -math.inf
        for i in untried:
            text = names[i]
            s = known.get(text)
            if s is None:
                s = known[text] = score(st, choices[i], who) if i < count else 0.0
            if s > best:
                best_i, best = i, s
        return [best_i]


def guide(game, source: str | None, widen: float) -> Guide | None:
    """The guide an `mcts` spec asks for (None: no prior, the search as it always was)."""
    if source is None or source == "none":
        return None
    if widen < 0:
        raise LegesError(Diagnostic(Position("--agents"), "mcts: 'widen' is at least 0"))
    return Guide(prior_for(game, source), widen)


def tried_moves(count: int, untried: list[int]) -> list[int]:
    """The indices of a node's tried moves, in order (the others, `untried`, wait to be widened to)."""
    skip = set(untried)
    return [i for i in range(count) if i not in skip]
