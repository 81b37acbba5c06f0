"""The Downfall of Pompeii: misreadings of the rulebook that every other test let pass (issue 38), each
caught by a scenario.

Each scenario of rulesets/pompeii/scenarios named here follows the rulebook; the test builds the
misreading from the real ruleset (tests/fidelity.py) and checks that the scenario fails on it, at
the step that tells the two apart. The scenarios themselves also run in tests/test_scenarios.py
and under `leges mutate`.
"""
from __future__ import annotations

import pytest

from fidelity import failure, misread, scenario
from helpers import ruleset_dir

GAME = "pompeii"

# misreading: (scenario, [(file, rule text, misread text)], what the failure must mention)
MISREADINGS = {
    # "Lehet a megengedettnél kevesebb mezőt is mozogni": a citizen may leave with points to spare.
    # Misread: leaving takes all of the citizen's points.
    "leave_with_all_points_only": (
        "leave_with_points_to_spare",
        [("escape.yaml", "exit_cost(s) <= points(s)", "exit_cost(s) == points(s)")],
        "'leave_city from=r1c5' should be legal"),
    # The other side of the boundary: just enough points leave too. Misread: more than enough needed.
    "leave_with_points_to_spare_only": (
        "leave_with_points_to_spare",
        [("escape.yaml", "exit_cost(s) <= points(s)", "exit_cost(s) < points(s)")],
        "'leave_city from=r4c1' should be legal"),
    # "A kapun történő áthaladás egy mozgáspontba kerül": one point short, no leaving. Misread: passing
    # the gate is free.
    "gate_costs_nothing": (
        "leave_with_points_to_spare",
        [("escape.yaml", "else gate_distances()[s] + 1", "else gate_distances()[s]")],
        "'leave_city from=r0c1' should not be legal"),
    # "Ez a játékos még befejezheti a körét": whoever draws the last tile finishes the turn. Misread:
    # the game ends as soon as the last tile is drawn (and placed).
    "end_as_the_last_tile_is_drawn": (
        "last_tile_turn_is_finished",
        [("escape.yaml", "      lava_step()\n      repeat escape_moves:\n",
          "      lava_step()\n      if count(bag) == 0:\n        end phase\n      repeat escape_moves:\n")],
        "'leave_city from=r0c5' should be legal"),
    # The same misreading written as the turn's moves skipped once the bag is empty.
    "no_moves_after_the_last_tile": (
        "last_tile_turn_is_finished",
        [("escape.yaml", "repeat escape_moves:", "repeat (if count(bag) == 0 then 0 else escape_moves):")],
        "'leave_city from=r0c5' should be legal"),
}


@pytest.mark.parametrize("name", sorted({s for s, _, _ in MISREADINGS.values()}))
def test_the_scenario_holds_on_the_rules(name):
    outcome = scenario(ruleset_dir(GAME), name)
    assert outcome.passed, "\n".join(outcome.failures)


@pytest.mark.parametrize("misreading", sorted(MISREADINGS))
def test_the_scenario_fails_on_the_misreading(tmp_path, misreading):
    name, edits, told = MISREADINGS[misreading]
    told_by = failure(scenario(misread(tmp_path, GAME, edits), name))
    assert told in told_by, told_by
