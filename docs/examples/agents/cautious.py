"""An example user agent (docs/agents.md): look one move ahead, never hand the opponents a win.

    leges simulate rulesets/tictactoe --agents docs/examples/agents/cautious.py:Cautious,random

It only uses what every agent may: the view's legal actions, and states drawn by `view.resample`
(in which whatever its player cannot see is drawn afresh), played on with the public API.
"""
from __future__ import annotations

from leges.agents import Agent


class Cautious(Agent):
    name = "cautious"
    params = {"samples": (int, 4, "determinisations to try each action in (hidden information)")}

    def choose(self, view):
        actions = view.legal_actions()
        me = view.player
        best, best_score = [], None
        for i, action in enumerate(actions):
            score = 0.0
            for _ in range(self.samples):
                st = view.resample(self.rng)  # a whole state, consistent with what `me` has seen
                st.apply_action(action)
                if st.is_terminal():
                    score += 10 * st.returns()[me]  # winning now beats everything
                    continue
                # how many answers of the next player would end the game against us?
                for reply in st.legal_actions():
                    after = st.clone()
                    after.apply_action(reply)
                    if after.is_terminal() and after.returns()[me] < 0:
                        score -= 1
            if best_score is None or score > best_score:
                best, best_score = [i], score
            elif score == best_score:
                best.append(i)
        return self.rng.choice(best)
