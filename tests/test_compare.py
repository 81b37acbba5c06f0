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
    assert d["significant"] and d["high"] < 0 and d["p_adjusted"] < 0.05 and d["p"] <= d["p_adjusted"]
    assert set(d) == {"value", "low", "high", "p", "p_adjusted", "significant", "significant_unadjusted",
                      "effect_size", "spread", "pairs"} and d["pairs"] == 200 and d["effect_size"] < 0
    assert out["adjustment"] == "holm"
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


def test_p_values_are_adjusted_for_the_metrics_compared_together():
    from leges.lab.stats import Difference, adjust

    def diff(p):
        return Difference(0.1, 0.01, 0.2, p=p)
    raw = {"a": diff(0.01), "b": diff(0.04), "c": diff(0.03), "d": diff(0.005)}
    assert all(d.significant for d in raw.values())  # each alone, at 95 %
    holm = adjust(raw, "holm")
    assert [round(holm[k].p_adjusted, 6) for k in "abcd"] == [0.03, 0.06, 0.06, 0.02]
    assert [holm[k].significant for k in "abcd"] == [True, False, False, True]
    assert holm["b"].significant_raw  # the interval alone still leaves out 0
    scipy_stats = pytest.importorskip("scipy.stats")
    bh = adjust(raw, "bh")
    assert [bh[k].p_adjusted for k in "abcd"] == pytest.approx(list(scipy_stats.false_discovery_control([0.01, 0.04, 0.03, 0.005])))
    assert [adjust(raw, "none")[k].p_adjusted for k in "abcd"] == [0.01, 0.04, 0.03, 0.005]


def test_a_paired_difference_has_its_p_value_size_and_advice():
    from leges.lab.stats import paired_difference
    d = paired_difference([0, 0, 0, 0, 1, 0, 0, 1], [1, 1, 0, 1, 1, 1, 0, 1])
    assert d.p == pytest.approx(0.0331, abs=1e-4) and d.pairs == 8  # scipy.stats.ttest_rel gives the same
    assert d.effect == pytest.approx(0.5 / d.spread)
    assert d.needed(0.5) == 9 and d.needed(0.25) == 36 and d.needed(0.5, tests=20) > d.needed(0.5)
    assert d.detectable() == pytest.approx(0.53, abs=0.01)
    same = paired_difference([1, 2], [1, 2])
    assert same.p == 1.0 and not same.significant


def test_text_says_how_many_pairs_a_small_difference_needs(ruleset, capsys):
    assert main(["compare", ruleset, "--b", "o_first", "-g", "100", "-j", "1", "-q", "--agents", "greedy,random"]) == 0
    out = capsys.readouterr().out
    assert "p adj." in out and "Holm's correction" in out
    assert "needs about" in out and "pairs" in out


def test_a_study_under_several_sets_of_agents_says_what_holds_under_all(ruleset, capsys, tmp_path):
    out = compare(capsys, ruleset, "--b", "o_first", "-g", "100", "--agents", "greedy,random", "--agents", "random",
                  "--records", str(tmp_path))
    assert [s["agents"] for s in out["studies"]] == [["greedy", "random"], ["random", "random"]]
    assert out["robust"]["seat_win_rate.x"] is True  # o's first move helps o whoever plays
    assert out["robust"]["duration"] is False  # a longer game only where greedy plays x
    assert len(out["studies"][0]["results_a"]) == len(out["studies"][0]["results_b"]) == 100
    for agents in ("greedy-random", "random-random"):
        for side in "ab":
            records = sorted((tmp_path / agents / side).glob("*.json"))
            assert len(records) == 100
    record = json.loads(next((tmp_path / "random-random" / "b").glob("*seed7.json")).read_text())
    assert record["variants"] == ["o_first"] and record["seed"] == 7
    assert main(["replay", str(next((tmp_path / "random-random" / "b").glob("*seed7.json")))]) == 0


def test_several_sets_of_agents_finding_no_difference_say_so(ruleset, capsys):
    """(The robustness table of no row used to stop the report with an internal error.)"""
    assert main(["compare", ruleset, "--b", "noop", "-g", "10", "--agents", "random", "--agents", "greedy",
                 "-j", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "none: no difference is significant under any set of agents" in out


def test_until_interval_plays_pairs_until_the_differences_are_narrow(ruleset, capsys):
    out = compare(capsys, ruleset, "--b", "o_first", "-g", "1000", "--until-interval", "0.3")
    assert out["games"] < 1000 and out["games"] % 100 == 0
    assert all(out["difference"][k]["high"] - out["difference"][k]["low"] < 0.3 for k in out["difference"]
               if k.startswith("seat_win_rate."))
    assert len(out["results_a"]) == len(out["results_b"]) == out["games"]


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
