"""Every scenario of the bundled rulesets (the rulebooks' worked examples) passes."""
from __future__ import annotations

import pytest

from leges.authoring.scenario import find_scenarios, run_file

from helpers import ROOT

SCENARIOS = find_scenarios([str(ROOT / "rulesets")])


def test_scenarios_are_found():
    assert len(SCENARIOS) >= 9


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.split("rulesets/")[-1])
def test_scenario(path):
    outcome = run_file(path)
    assert outcome.passed, "\n".join(outcome.failures)


def test_a_failing_scenario_reports_its_failure(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "leges_scenario: 1\nid: bad\nruleset: " + str(ROOT / "rulesets" / "tictactoe") + "\nplayers: 2\n"
        "source: {book: folk, section: Play}\nsteps:\n  - do: place square=r0c0\n    expect: count(r0c0) == 2\n")
    outcome = run_file(str(bad))
    assert not outcome.passed
    assert "bad.yaml:8:13: expected count(r0c0) == 2" in outcome.failures[0]
