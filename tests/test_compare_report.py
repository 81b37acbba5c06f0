"""`leges compare`'s report (issue 39, item 6): what each metric measures and in what unit, advice for
the designer's own statistics first and for differences worth seeing only, `--until-interval METRIC=WIDTH`,
intervals that fit the kind of figure (a rate, a count, a mean), and a plot of every set of agents.

The auction test game, with three statistics of its own: a count whose games all give 1 (taken for a
rate by its values, it read `100 % [61.0, 100]`), a truth value (a rate), and coins kept per player.
"""
from __future__ import annotations

import json
import shutil

import pytest

from helpers import ROOT
from studies import RICH
from leges.cli import main
from leges.lab.stats import Difference, Interval

STATISTICS = """\
statistics:
  - id: lots_at_end
    description: lots on the block at the end, plus one
    value: 1 + count(block)
  - id: rich
    description: the first player keeps some money
    value: money[first(players)] > 0
  - id: kept
    per_player: true
    description: coins kept
    value: money[p]
"""


@pytest.fixture(scope="module")
def auction(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("report")
    shutil.copytree(ROOT / "tests" / "rulesets" / "auction", root / "auction")
    with open(root / "auction" / "ruleset.yaml", "a", encoding="utf-8") as f:
        f.write(STATISTICS)
    (root / "auction" / "variants").mkdir()
    (root / "auction" / "variants" / "rich.yaml").write_text(RICH)
    return str(root / "auction")


def run(capsys, *args: str) -> str:
    assert main(["compare", *args, "-j", "1", "-q"]) == 0
    return capsys.readouterr().out


def test_the_table_says_what_each_metric_measures_and_in_what_unit(auction, capsys):
    out = run(capsys, auction, "--b", "rich", "-g", "4", "--agents", "random")
    table = out[out.index("metric "):out.index("differences are significant")]
    assert "what it measures [unit]" in table
    line = next(x for x in table.splitlines() if x.startswith("duration "))
    assert "decisions in a game" in line and "[decisions]" in line
    line = next(x for x in table.splitlines() if x.startswith("stat.rich "))
    assert "the first player keeps some money" in line and "[% of games]" in line
    line = next(x for x in table.splitlines() if x.startswith("stat.kept.o "))
    assert "coins kept, seat o" in line
    out = json.loads(run(capsys, auction, "--b", "rich", "-g", "4", "--agents", "random", "--json"))
    assert out["metrics"]["duration"] == {"kind": "mean", "unit": "decisions",
                                          "description": "decisions in a game (the engine takes one-option "
                                                         "decisions by itself)"}
    assert out["metrics"]["stat.kept.x"]["description"] == "coins kept"


def test_a_count_is_never_a_rate_for_giving_only_0_or_1(auction, capsys):
    out = json.loads(run(capsys, auction, "--b", "rich", "-g", "5", "--agents", "random", "--json"))
    count = out["a"]["stat.lots_at_end"]
    assert count["value"] == 1 and count["low"] < 1 < count["high"]  # five games of one: not certain, not a share
    assert out["metrics"]["stat.lots_at_end"]["kind"] == "count"
    assert out["metrics"]["stat.rich"]["kind"] == "rate"  # a truth value is a share of games
    assert out["metrics"]["stat.kept.x"]["kind"] == "count"
    assert all(out[side][f"stat.kept.{s}"]["low"] >= 0 for side in "ab" for s in "xo")  # no count below 0
    text = run(capsys, auction, "--b", "rich", "-g", "5", "--agents", "random")
    line = next(x for x in text.splitlines() if x.startswith("stat.lots_at_end "))
    assert "%" not in line.split("lots on the block")[0]


def test_count_interval_is_at_least_poissons():
    from leges.lab.stats import count
    i = count([1.0] * 5)
    assert i.value == 1 and i.low == pytest.approx(0.3247, abs=1e-3) and i.high == pytest.approx(2.3336, abs=1e-3)
    spread = count([0.0, 10.0, 0.0, 10.0, 0.0, 10.0])
    assert spread.low == 0.0 and spread.high > 8  # wider than Poisson's: t's
    assert count([-2.0, 1.0, 3.0]).low < 0  # a balance, not a count: t alone


def test_advice_puts_the_rulesets_statistics_first_and_leaves_out_differences_not_worth_seeing():
    from leges.cli.compare_report import advice
    def d(value: float, spread: float) -> Difference:
        return Difference(value, value - 0.5 * spread, value + 0.5 * spread, p=0.5, p_adjusted=1.0, spread=spread,
                          pairs=100)
    diffs = {"duration": d(2.0, 20.0), "forced_moves": d(0.0004, 0.05), "seat_win_rate.x": d(0.04, 0.9),
             "stat.kept.x": d(1.5, 12.0), "stat.kept.o": d(0.01, 3.0)}
    ma = {"duration": Interval(40, 38, 42), "forced_moves": Interval(0.1, 0.09, 0.11),
          "seat_win_rate.x": Interval(0.5, 0.4, 0.6), "stat.kept.x": Interval(6, 5, 7), "stat.kept.o": Interval(6, 5, 7)}
    lines, small = advice(ma, ma, diffs, None, 0.05)
    assert [x.split(":")[0].strip() for x in lines] == ["stat.kept.x", "duration"]
    assert set(small) == {"forced_moves", "seat_win_rate.x", "stat.kept.o"}  # 331,059 pairs for 0.0004: no one asks
    lines, small = advice(ma, ma, diffs, None, 0.01)
    assert "seat_win_rate.x" in [x.split(":")[0].strip() for x in lines] and "forced_moves" in small


def test_the_report_names_what_the_advice_leaves_out(auction, capsys):
    out = run(capsys, auction, "--b", "rich", "-g", "6", "--agents", "random", "--min-effect", "10")
    assert "To tell a difference" not in out
    line = next(x for x in out.splitlines() if x.startswith("No advice for"))
    assert "--min-effect" in line and "stat.kept.x" in line
    out = run(capsys, auction, "--b", "rich", "-g", "6", "--agents", "random", "--min-effect", "0.001")
    advised = out[out.index("To tell a difference"):].splitlines()[1:]
    first = [x.strip().split(":")[0] for x in advised if x.startswith("  ")]
    assert first and first[0].startswith("stat.")


def test_until_interval_stops_on_any_metric(auction, capsys):
    out = json.loads(run(capsys, auction, "--b", "rich", "-g", "300", "--agents", "random", "--json",
                         "--until-interval", "stat.kept=100"))
    assert out["games"] == 100  # narrow enough after the first batch
    out = json.loads(run(capsys, auction, "--b", "rich", "-g", "150", "--agents", "random", "--json",
                         "--until-interval", "stat.kept=100", "--until-interval", "duration=0.001"))
    assert out["games"] == 150  # every one named must be narrow: duration never is
    d = out["difference"]["duration"]
    assert not d["high"] - d["low"] < 0.001
    assert main(["compare", auction, "--until-interval", "stat.nothing=1", "-g", "2", "-j", "1", "-q"]) != 0
    assert "no metric 'stat.nothing' to stop on" in capsys.readouterr().err


def test_a_plain_until_interval_is_still_the_seats_win_rates(auction, capsys):
    out = json.loads(run(capsys, auction, "--b", "rich", "-g", "300", "--agents", "random", "--json",
                         "--until-interval", "0.4"))
    assert out["games"] < 300
    assert all(v["high"] - v["low"] < 0.4 for k, v in out["difference"].items() if k.startswith("seat_win_rate."))


def test_the_plot_draws_every_set_of_agents(auction, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "ab.svg"
    run(capsys, auction, "--b", "rich", "-g", "4", "--agents", "random", "--agents", "greedy,random",
        "--plot", str(target))
    svg = target.read_text()
    assert "agents random, random" in svg and "agents greedy, random" in svg
    assert "under 2 sets of agents" in svg


def test_simulate_reads_a_statistics_kind_from_its_type_too(auction, capsys):
    """`leges simulate` as compare: five games of one lot are a count of 1, not 100 % of games."""
    assert main(["simulate", auction, "-g", "5", "-j", "1", "-q", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    count = out["metrics"]["stat.lots_at_end"]
    assert count["value"] == 1 and count["low"] < 1 < count["high"]
    assert main(["simulate", auction, "-g", "5", "-j", "1", "-q"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("stat.lots_at_end "))
    assert "%" not in line.split("lots on the block")[0]
