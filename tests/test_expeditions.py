"""The expeditions test game (issue 39's card game with expeditions and wagers; tests/rulesets/expeditions),
used by benchmarks/agents_strength.py: its rules as its comment says them."""
from __future__ import annotations

import random

import leges
from helpers import ROOT

EXPEDITIONS = str(ROOT / "tests" / "rulesets" / "expeditions")


def _score(st, p) -> int:
    total = 0
    for i in range(3):
        cards = st.zones[f"expedition.{'xo'[p]}.{i}"]
        if cards:
            numbers = [st.setup.cstatic[c]["number"] for c in cards]
            total += (sum(numbers) - 12) * (1 + numbers.count(0))
    return total


def test_lays_go_up_and_the_score_is_the_expeditions_less_their_cost_times_the_wagers():
    game = leges.load(EXPEDITIONS)
    rng = random.Random(0)
    for seed in range(3):
        st = game.new_initial_state(players=2, seed=seed)
        assert len(st.zones["hand.x"]) == len(st.zones["hand.o"]) == 5 and len(st.zones["deck"]) == 17
        while not st.is_terminal():
            actions = st.legal_actions()
            for a in actions:
                if a.text.startswith("lay") and "to=expedition" in a.text:
                    _, card, to = a.text.split(" ")
                    pile = st.zones[to.split("=")[1]]
                    number = 0 if card.startswith("card=wager") else int(card.split("=")[1].split("/")[0])
                    assert not pile or number >= st.setup.cstatic[pile[-1]]["number"]  # at or above the top (a wager: before numbers)
            st.apply_action(rng.choice(actions))
        assert not st.zones["deck"]
        assert list(st.scores()) == [_score(st, p) for p in range(2)]
