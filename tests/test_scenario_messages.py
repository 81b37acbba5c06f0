"""A failing scenario says enough to fix it: the values of the check's parts, who is to move, the
pending decision and what is legal; a check written as a YAML value is told so."""
from __future__ import annotations

import pytest

from helpers import ROOT
from leges.text.errors import LegesError
from leges.authoring.scenario import check_file, run_file

SAMPLE = ROOT / "docs" / "examples" / "sample"

HEAD = f"""leges_scenario: 1
id: s
title: a scenario of the sample
ruleset: {SAMPLE}
players: 2
source: {{book: docs, section: Scenarios}}
position:
  phase: play
  turn: o
  arrange: |
    deal 3 from deck to [hand(x), hand(o)]
"""


def scenario(tmp_path, steps: str):
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "steps:\n" + steps)
    return str(path)


def test_a_failed_check_shows_its_values_and_the_decision(tmp_path):
    path = scenario(tmp_path, "  - expect: count(hand(o)) == 4 and count(deck) > 0\n")
    failure = run_file(path).failures[0]
    lines = failure.splitlines()
    assert lines[0].endswith("expected count(hand(o)) == 4 and count(deck) > 0")
    assert "       count(hand(o)) = 3" in lines and "       count(hand(o)) == 4 = false" in lines
    assert "       to move: o, deciding an action (place) in phase:play:turn" in lines
    assert lines[-1].startswith("       legal: place card=")


def test_the_wrong_player_to_move(tmp_path):
    failure = run_file(scenario(tmp_path, "  - to_move: x\n")).failures[0]
    assert "expected x to decide, but it is o" in failure and "\n       legal: " in failure


def test_an_action_that_is_not_legal_is_explained(tmp_path):
    failure = run_file(scenario(tmp_path, "  - do: place card=zz square=r0c0\n")).failures[0]
    assert "'place card=zz square=r0c0' is not a legal action for o" in failure
    assert "not legal: card=zz is not among the options of 'card' (hand(me))" in failure and "docs § Actions" in failure


def test_an_action_that_should_be_legal_is_explained(tmp_path):
    failure = run_file(scenario(tmp_path, "  - legal: [place card=zz square=r1c1]\n")).failures[0]
    assert "'place card=zz square=r1c1' should be legal\n       not legal: card=zz" in failure


@pytest.mark.parametrize("expect, shown", [("[true]", "true"), ("[count(deck) > 0, 3]", "3"), ("false", "false"),
                                           ("[1]", "1"), ("[0]", "0")])  # not true, false: 1 == True
def test_a_check_read_as_a_yaml_value(tmp_path, expect, shown):
    path = scenario(tmp_path, f"  - expect: {expect}\n")
    for run in (run_file, check_file):
        with pytest.raises(LegesError) as info:
            run(path)
        d = info.value.diagnostics[0]
        assert d.message == f"a check is rule text, but YAML read {shown} here as a value"
        assert f"quote it ('{shown}')" in d.hint and d.position.line == 13


def test_passing_scenarios_still_pass(tmp_path):
    assert run_file(scenario(tmp_path, "  - expect: count(hand(o)) == 3\n    to_move: o\n")).passed


# ------------------------------------------------------------------ leges validate: scenarios and variant files
def test_validate_a_folder_of_scenarios_a_scenario_and_a_variant_file(capsys):
    from leges.cli import main
    folder = ROOT / "rulesets" / "pompeii" / "scenarios"
    one = sorted(folder.glob("*.yaml"))[0]
    variant = ROOT / "rulesets" / "pompeii" / "variants" / "mayfair.yaml"
    assert main(["validate", str(folder), str(one), str(variant)]) == 0
    out = capsys.readouterr().out.splitlines()
    from leges.authoring.scenario import find_scenarios
    count = len(find_scenarios([str(folder)]))
    assert out[0] == f"{folder}: ok — {count} scenarios of The Downfall of Pompeii, checked without being played " \
                     "(`leges test` plays them)"
    assert out[1].startswith(f"{one}: ok — a scenario of The Downfall of Pompeii")
    assert out[2].startswith(f"{variant}: ok — variant 'mayfair' of The Downfall of Pompeii, the ruleset loaded with")


def test_validate_a_folder_of_variants(capsys):
    from leges.cli import main
    folder = ROOT / "rulesets" / "pompeii" / "variants"
    assert main(["validate", str(folder)]) == 0
    count = len(list(folder.glob("*.yaml")))
    assert capsys.readouterr().out == f"{folder}: ok — {count} variant files, each checked with its ruleset\n"


def test_validate_reports_a_broken_scenario_and_a_stray_variant(tmp_path, capsys):
    from leges.cli import main
    path = scenario(tmp_path, "  - expect: [true]\n")
    stray = tmp_path / "v.yaml"
    stray.write_text("leges_variant: 1\nid: v\ntitle: V\nkind: house_rule\npatch: []\n")
    assert main(["validate", path, str(stray)]) == 2
    err = capsys.readouterr().err
    assert "a check is rule text, but YAML read true here as a value" in err
    assert "a variant file is read from its ruleset's variants/ folder" in err
    assert "leges_variant" not in err.replace("leges_variant: 1", "")  # never "unknown key 'leges_variant'"


def test_a_variant_file_is_not_a_ruleset(capsys):
    from leges.cli import main
    assert main(["simulate", str(ROOT / "rulesets" / "pompeii" / "variants" / "mayfair.yaml"), "-g", "1"]) == 2
    err = capsys.readouterr().err
    assert "this is a variant file, not a ruleset" in err and "--variant NAME" in err


def sample_with_an_invariant(tmp_path):
    """The sample with one more invariant, which its first move of o breaks (for these tests)."""
    import shutil
    shutil.copytree(SAMPLE, tmp_path / "sample")
    checks = tmp_path / "sample" / "checks.yaml"
    checks.write_text(checks.read_text() + """  - id: o_waits
    description: o has no mark on the board (true only at the start, for this test)
    check: count(components("mark", o), m => m.space != none) == 0
""")
    return HEAD.replace(str(SAMPLE), str(tmp_path / "sample"))


def test_a_step_that_breaks_an_invariant_fails_the_scenario(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(sample_with_an_invariant(tmp_path)
                    + "steps:\n  - do: place card=green5 square=r0c0\n  - expect: count(deck) >= 0\n")
    failures = run_file(str(path)).failures
    assert len(failures) == 1 and "invariant 'o_waits' held before step 1 and not after it" in failures[0]
    path.write_text(path.read_text().replace("leges_scenario: 1\n", "leges_scenario: 1\ncheck_invariants: false\n"))
    assert run_file(str(path)).passed


def test_a_position_is_checked_against_the_invariants_when_the_scenario_says_so(tmp_path):
    head = sample_with_an_invariant(tmp_path).replace(
        "    deal 3 from deck to [hand(x), hand(o)]\n",
        "    deal 3 from deck to [hand(x), hand(o)]\n    move first(components(\"mark\", o)) to r2c2\n")
    path = tmp_path / "s.yaml"
    path.write_text(head + "steps:\n  - expect: count(deck) >= 0\n")
    assert run_file(str(path)).passed  # by default a position arranged by hand is the author's
    path.write_text(head.replace("leges_scenario: 1\n", "leges_scenario: 1\ncheck_invariants: true\n")
                    + "steps:\n  - expect: count(deck) >= 0\n")
    failures = run_file(str(path)).failures
    assert failures and "invariant 'o_waits' does not hold at the position" in failures[0]
