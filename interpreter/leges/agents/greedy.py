"""`greedy`: one-ply look-ahead on the ruleset's heuristic (own value minus the best opponent's);
in a ruleset that declares none, on one learned for it, which stays the agent's (evaluation.py).

One ply is one move *completed*: the decisions of the same player a move opens at once (paying
for what was just bought) are made greedily before the move is judged.

For hidden information it looks ahead in one determinisation per decision (`View.resample`);
ties are broken at random, so that it does not always prefer the first option listed.
"""
from __future__ import annotations

from ..engine.action import Action
from .base import Agent, View
from .evaluation import Evaluation, Heuristic, heuristic_for
from .moves import moves, play, texts


def advantage(values: list[float], player: int) -> float:
    """The player's value minus the best of the others' (the value itself, alone)."""
    others = [v for q, v in enumerate(values) if q != player]
    return values[player] - (max(others) if others else 0.0)


class GreedyAgent(Agent):
    name = "greedy"
    params = {"heuristic": (str, None, "the heuristic to follow (default: the ruleset's first; in a ruleset that "
                                       "declares none, or with heuristic=learned: one learned from random games)"),
              "width": (int, None, "look at most this many actions, drawn at random (every kind among them), "
                                   "when there are more (default: all; for games slow to play out)")}
    heuristic: str | None  # the settings of `params`, set by Agent.__init__
    width: int | None

    judge: Heuristic

    def start(self, game, player, rng) -> None:
        self.judge = heuristic_for(game, self.heuristic)  # (a learned one is the agent's, not the game's)
        super().start(game, player, rng)

    @property
    def evaluation(self) -> Evaluation | None:
        """What it judges positions by (None before it starts: that depends on the ruleset)."""
        judge = getattr(self, "judge", None)
        return judge.describe("one move ahead") if judge is not None else None

    def _values(self, view: View, wanted: list[str], now: bool) -> list[float]:
        """The advantage after each wanted move (and, if `now`, of not moving, last)."""
        det = view.resample(self.rng)
        mv = moves(det) if det.pending is not None and det.pending.player == view.player else None
        index = {t: i for i, t in enumerate(texts(det, mv))} if mv else {}
        out = []
        for text in wanted:
            st = det.copy()
            if mv is not None and text in index:  # (index is empty without moves)
                play(st, mv, index[text])
            else:
                st.apply_action(Action(view.player, text))
            out.append(self._completed(st, view.player))
        if now:
            out.append(advantage(self.judge.values(det), view.player))
        return out

    def _completed(self, st, player: int) -> float:
        """The advantage once the move is complete: an action may open decisions of the same player
        (a payment after a purchase, a target after a choice of card) whose effect only then shows,
        so those are made greedily too (a few options each, `FOLLOW_UPS` deep)."""
        for _ in range(self.FOLLOW_UPS):
            if st.terminal or st.pending is None or st.pending.player != player:
                break
            mv = moves(st)
            choices = range(len(mv)) if len(mv) <= self.FOLLOW_UP_WIDTH else \
                self.rng.sample(range(len(mv)), self.FOLLOW_UP_WIDTH)
            best, best_value = None, None
            for i in choices:
                trial = st.copy()
                play(trial, mv, i)
                value = advantage(self.judge.values(trial), player)
                if best_value is None or value > best_value:
                    best, best_value = trial, value
            st = best
        return advantage(self.judge.values(st), player)

    FOLLOW_UPS = 2  # how many decisions of the same player a move may open that are looked into
    FOLLOW_UP_WIDTH = 6  # options looked at in each of them (drawn at random when there are more)

    def _best(self, values: list[float]) -> int:
        top = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v == top])

    def choose(self, view: View) -> int:
        actions = view.legal_actions()
        if len(actions) == 1:
            return 0
        indices = list(range(len(actions)))
        if self.width is not None and len(indices) > self.width:
            indices = self._sample(actions)
        values = self._values(view, [actions[i].text for i in indices], now=False)
        return indices[self._best(values)]

    def _sample(self, actions) -> list[int]:
        """`width` actions drawn at random, every kind of action (its first word) among them: a pass
        or a reveal must not drown among hundreds of placements."""
        kinds: dict[str, list[int]] = {}
        for i, a in enumerate(actions):
            kinds.setdefault(a.text.split(" ", 1)[0], []).append(i)
        groups = [self.rng.sample(g, len(g)) for g in kinds.values()]
        chosen: list[int] = []
        width = self.width
        assert width is not None  # _sample is asked only with a width (choose)
        while len(chosen) < width:
            for g in groups:
                if g and len(chosen) < width:
                    chosen.append(g.pop())
        return sorted(chosen)

    def interrupt(self, view: View):
        actions = view.legal_actions()
        values = self._values(view, [a.text for a in actions], now=True)
        best = self._best(values)
        return None if best == len(actions) or values[best] <= values[-1] else best
