"""Copies of one resampled world, each played on with another action, must each play as the
reference build plays (greedy's look-ahead does exactly this). On Attika (found by the agents'
strength benchmark) a value cached on one copy was served to a sibling where it was wrong: a
resampled world's memo is all empty, and a move forgetting near values skipped an empty slot
without taking it for its own, so the values it computed next went into the dict its siblings
still shared (engine/state.py, `State._forget_near`)."""
from __future__ import annotations

import random

import leges
from helpers import ROOT, ruleset_dir
from leges.engine.resample import resample

STATE = ROOT / "tests" / "data" / "attika_sibling_copies.state.json"  # seed 3, decision 79 of greedy,greedy


def outcomes(optimise: bool) -> list[str]:
    game = leges.load(str(ruleset_dir("attika")), optimise=optimise)
    st = game.state_from_json(STATE.read_text())
    world = resample(st, st.current_player(), random.Random(0))
    out = []
    for action in st.legal_actions():
        sibling = world.copy()
        try:
            sibling.apply_action(action)
            out.append(sibling.to_json())
        except leges.LegesError as exc:
            out.append(f"{action.text}: {exc.diagnostics[0].message}")
    return out


def test_sibling_copies_of_a_resampled_world_play_as_the_reference_build():
    assert outcomes(True) == outcomes(False)
