"""`leges compare` says how each set's agents played under A and under B (issue 39, item 4).

Why: a degenerate player — one that always passes, or bids everything every time — makes B − A an
artefact of its play, and a rule change can make an agent degenerate on one side only. So the text
report gives lab/behaviour.py's block for A and for B, a flagged agent first, before the table of
differences; `--json` carries a `behaviour` object per side, per set of agents.
"""
from __future__ import annotations

import json

import pytest

from helpers import ROOT
from studies import RICH
from leges.cli import main

BIDDING = str(ROOT / "tests" / "rulesets" / "bidding")  # offer an amount, or pass

PASSER = '''
from leges.agents import Agent


class Passer(Agent):
    name = "passer"

    def choose(self, view):
        actions = view.legal_actions()
        return next((i for i, a in enumerate(actions) if a.text == "pass"), 0)
'''



@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[str, str]:
    """(the passing agent's spec, the variant file B is played under)."""
    folder = tmp_path_factory.mktemp("compare_behaviour")
    (folder / "passer.py").write_text(PASSER)
    (folder / "rich.yaml").write_text(RICH)
    return f"{folder / 'passer.py'}:Passer", str(folder / "rich.yaml")


def test_a_degenerate_agent_is_flagged_under_a_and_b_before_the_differences(files, capsys):
    passer, rich = files
    # two pairs: the passer has six decisions with a choice a game, twelve a side (ten make "always")
    argv = ["compare", BIDDING, "--b", rich, "--agents", f"{passer},random", "-g", "2", "-j", "1"]
    assert main([*argv, "-q"]) == 0
    out = capsys.readouterr().out
    flag_a = out.index(f"DEGENERATE? under A: {passer} always passes (")
    flag_b = out.index(f"DEGENERATE? under B: {passer} always passes (")
    assert out.index("behaviour of the agents under A") < flag_a < out.index("behaviour of the agents under B") < flag_b
    assert flag_b < out.index("metric ") < out.index("differences are significant")
    assert "offer amount: " in out  # random's bids, their spread
    assert "left at the end: money" in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for side in "ab":
        found = data["behaviour"][side]
        assert [f["agent"] for f in found["flags"]] == [passer]
        assert [a["agent"] for a in found["agents"]] == [passer, "random"]
        assert found["agents"][0]["actions"]["pass"]["share"] == 1.0
    assert data["studies"][0]["behaviour"] == data["behaviour"]
    assert data["behaviour"]["b"]["agents"][0]["end"]["money"]["median"] == 18  # a rich start, left unspent


def test_random_play_keeps_the_behaviour_in_json_but_says_nothing_of_it(capsys):
    assert main(["compare", BIDDING, "-g", "2", "-j", "1", "-q"]) == 0
    assert "behaviour of the agents" not in capsys.readouterr().out
    assert main(["compare", BIDDING, "-g", "2", "-j", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [a["agent"] for a in data["behaviour"]["a"]["agents"]] == ["random"]
    assert data["behaviour"]["a"]["flags"] == data["behaviour"]["b"]["flags"] == []
