"""`leges compare`: the same seeds and seats under A and B, differences with paired intervals."""
from __future__ import annotations

import json
import shutil

import pytest

from helpers import ROOT
from leges import LegesError
from leges.cli import main
from leges.cli.compare import resolve_variants

NOOP = """\
leges_variant: 1
id: noop
title: Different words, the same game
kind: house_rule
description: Only a description changes.
parameters:
  - {id: unused, type: int, default: 0}
patch:
  - op: set
    section: actions
    id: place
    key: description
    value: Put a mark on a free square.
"""
O_FIRST = """\
leges_variant: 1
id: o_first
title: o begins
kind: house_rule
description: The second seat begins.
patch:
  - op: set
    section: phases
    id: play
    key: first
    value: o
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory):
    root = tmp_path_factory.mktemp("cmp")
    shutil.copytree(ROOT / "rulesets" / "tictactoe", root / "t")
    shutil.copytree(ROOT / "maps", root / "maps")
    (root / "t" / "variants").mkdir(exist_ok=True)
    (root / "t" / "variants" / "noop.yaml").write_text(NOOP)
    (root / "t" / "variants" / "o_first.yaml").write_text(O_FIRST)
    return str(root / "t")


def compare(capsys, *args) -> dict:
    assert main(["compare", *args, "--json", "-j", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_real_difference_is_significant(ruleset, capsys):
    out = compare(capsys, ruleset, "--b", "o_first", "-g", "200")
    assert set(out) >= {"a", "b", "difference"}
    d = out["difference"]["seat_win_rate.x"]
    assert d["significant"] and d["high"] < 0 and set(d) == {"value", "low", "high", "significant"}
    assert out["a"]["seat_win_rate.x"]["value"] > out["b"]["seat_win_rate.x"]["value"]


def test_a_no_op_variant_is_not_significant(ruleset, capsys):
    out = compare(capsys, ruleset, "--a", "", "--b", "noop,unused=3", "-g", "60", "--agents", "greedy,random")
    assert out["variants_b"] == ["noop", "noop.unused=3"]
    assert not any(d["significant"] for d in out["difference"].values())


def test_text_says_plainly_which_differences_are_significant(ruleset, capsys):
    assert main(["compare", ruleset, "--b", "o_first", "-g", "100", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "seat_win_rate.x" in out and "not significant" in out and " significant" in out
    assert "differences are significant" in out


def test_variant_lists_are_checked(ruleset):
    assert resolve_variants(ruleset, "", "--a") == []
    assert resolve_variants(ruleset, "noop, o_first", "--b") == ["noop", "o_first"]
    with pytest.raises(LegesError, match="neither a variant nor a parameter"):
        resolve_variants(ruleset, "start_money=18", "--b")


def test_diff_reuses_the_metrics(capsys):
    path = str(ROOT / "rulesets" / "tictactoe")
    assert main(["diff", path, "--seeds", "2", "--games", "20", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    stats = out["statistics"]["a"]
    assert {"mean_length", "seat_win_rate", "mean_scores", "unfinished", "metrics"} <= set(stats)
    assert set(stats["metrics"]["duration"]) == {"value", "low", "high"}


def test_compare_draws_a_plot(ruleset, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / "ab.png"
    assert main(["compare", ruleset, "--b", "o_first", "-g", "20", "-j", "1", "-q", "--plot", str(target)]) == 0
    assert target.read_bytes()[:4] == b"\x89PNG"
