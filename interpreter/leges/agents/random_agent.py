"""`random`: a uniformly random legal action — the baseline every other agent is measured against."""
from __future__ import annotations

from .base import Agent, View
from .evaluation import Evaluation


class RandomAgent(Agent):
    name = "random"
    evaluation = Evaluation("none (uniformly random moves)")

    def choose(self, view: View) -> int:
        return self.rng.randrange(len(view.legal_actions()))

    def interrupt(self, view: View):
        """Interrupt as often as a uniform choice among all moves would: each out-of-turn action counts as one."""
        actions = view.legal_actions()
        waiting = getattr(view, "waiting", 1)
        k = self.rng.randrange(len(actions) + waiting)
        return k if k < len(actions) else None
