"""Attika: misreadings of the rulebook that every other test let pass (issue 38), each caught by a scenario.

Each scenario of rulesets/attika/scenarios named here follows the rulebook; the test builds the
misreading from the real ruleset (tests/fidelity.py) and checks that the scenario fails on it, at
the step that tells the two apart. The scenarios themselves also run in tests/test_scenarios.py
and under `leges mutate`.
"""
from __future__ import annotations

import pytest

from fidelity import failure, misread, scenario
from helpers import ruleset_dir

GAME = "attika"

# misreading: (scenario, [(file, rule text, misread text)], what the failure must mention)
MISREADINGS = {
    # "Ingyenes az utca megépítése, ha közvetlenül egy másik, saját utca mellé kerül": beside one's own
    # street. Misread: beside any player's street.
    "street_free_beside_any_street": (
        "street_free_beside_own_street_only",
        [("building.yaml", '"street" in built_around(b.owner, s)',
          '"street" in [x.name for n in neighbors(s) for x in n if x.type == "building"]')],
        "need(top(board(athens)), h11_9)"),
    # A card for each reveal or build given up ("feláldozott"); an amphora's extra action not made is
    # not one (reading amphora_actions). Misread: the cards count the actions the amphorae added too.
    "card_for_an_unused_amphora_action": (
        "amphora_action_unused_earns_no_card",
        [("turn.yaml", "forgone = reveals_per_turn - taken", "forgone = budget - taken"),
         ("turn.yaml", "forgone = builds_per_turn - taken", "forgone = budget - taken")],
        "count(hand(athens)) == 0"),
    # "először leteszi az épületet ... ezután azonnal húz egyet a fel nem használt térképdarabok közül":
    # the building first, then the tile. Misread: the tile as soon as the stack's last building is revealed.
    "tile_before_the_last_building": (
        "tile_after_the_last_building",
        [("turn.yaml",
          "      act build_revealed, keep_revealed\n      if count(stack) == 0:\n        expand_map()\n",
          "      if count(stack) == 0:\n        expand_map()\n      act build_revealed, keep_revealed\n")],
        "count(new_tile) == 0"),
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
