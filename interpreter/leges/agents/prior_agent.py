"""`prior`: plays the option a move prior (prior.py) ranks best — no look-ahead, no copy of the state.

Why an agent of its own: where a decision has hundreds of options, `greedy` pays for applying each
to a copy and reading the heuristic; a learned prior ranks them from what they say, at a few
dictionary reads each, so a study can afford it where it cannot afford a search. It is only as good
as what the options' features tell (docs/agents.md measures it against `random` and `greedy`).

It decides from one determinisation of what its player may see (`View.resample`): the options'
features read the state (how many components stand on a space), and the view hands no other.
"""
from __future__ import annotations

from .base import Agent, View
from .evaluation import Evaluation
from .moves import moves, texts
from .prior import Prior, softmax
from .prior_fit import prior_for


class PriorAgent(Agent):
    name = "prior"
    params = {"prior": (str, "learned", "the move prior: 'learned' (imitating greedy on the ruleset's heuristic, "
                                        "kept on disk) or the path of a prior's YAML file"),
              "temperature": (float, 0.0, "0: the best-ranked option (ties at random); above 0: drawn by "
                                          "softmax of the scores divided by it")}
    prior: str  # the settings of `params`, set by Agent.__init__
    temperature: float

    ranking: Prior

    def start(self, game, player, rng) -> None:
        self.ranking = prior_for(game, self.prior)
        super().start(game, player, rng)

    @property
    def evaluation(self) -> Evaluation:
        return Evaluation(f"move prior ({self.prior}), no look-ahead")

    def choose(self, view: View) -> int:
        actions = view.legal_actions()
        if len(actions) == 1:
            return 0
        st = view.resample(self.rng)
        if st.pending is None or st.pending.player != view.player:
            return self.rng.randrange(len(actions))
        mv = moves(st)
        scores = self.ranking.scores(st, view.player, mv.count) + [0.0] * len(mv.extra)
        by_text = dict(zip(texts(st, mv), scores))
        ranked = [by_text.get(a.text, 0.0) for a in actions]
        if self.temperature > 0:
            weights = softmax(s / self.temperature for s in ranked)
            return self.rng.choices(range(len(actions)), weights)[0]
        top = max(ranked)
        return self.rng.choice([i for i, s in enumerate(ranked) if s == top])
