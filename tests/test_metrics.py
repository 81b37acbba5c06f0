"""Design metrics and their intervals: the formulas, and the shape `leges simulate` reports them in."""
from __future__ import annotations

import json
import math

from helpers import ROOT
from leges.lab import stats
from leges.cli import main
from leges.lab.metrics import per_game, summarise
from leges.lab.simulate import PlayResult, play_game

TICTACTOE = str(ROOT / "rulesets" / "tictactoe")


def close(a, b, tol=1e-3):
    return abs(a - b) < tol


def test_wilson_interval_known_values():
    i = stats.wilson(5, 10)
    assert close(i.value, 0.5) and close(i.low, 0.2366) and close(i.high, 0.7634)
    zero = stats.wilson(0, 10)
    assert zero.low == 0 and close(zero.high, 0.2775)


def test_t_interval_known_values():
    i = stats.mean([1, 2, 3, 4])
    assert close(i.value, 2.5) and close(i.low, 0.4457, 1e-3) and close(i.high, 4.5543, 1e-3)
    assert close(stats.t_quantile(1000), 1.9623, 1e-3)


def test_paired_differences_of_identical_batches_are_exactly_zero():
    d = stats.paired_difference([1, 2, 3], [1, 2, 3])
    assert (d.value, d.low, d.high, d.significant) == (0.0, 0.0, 0.0, False)
    assert stats.paired_difference([0] * 40, [1] * 20 + [0] * 20).significant


def test_bootstrap_is_deterministic():
    data = [0.1 * k for k in range(30)]
    assert stats.bootstrap(data, lambda xs: sum(xs) / len(xs)) == stats.bootstrap(data, lambda xs: sum(xs) / len(xs))


def test_a_games_measures(tictactoe):
    r = play_game(tictactoe, 2, 3, ["greedy", "random"])
    row = per_game(r, ["x", "o"])
    assert row["duration"] == r.length and row["branching_factor"] == r.options / r.length
    assert row["completion"] + row["drawishness"] + row["timeouts"] == 1
    assert row["stat.decided"] in (0, 1) and "stat.marks_placed.x" in row
    assert "agent_win_rate.greedy" in row and "lead_changes" in row


def test_a_shared_first_place_is_a_draw_and_shares_the_win():
    r = PlayResult(seed=0, ranking=[["x", "o"]], scores=[0, 0], returns=[0, 0], length=9, unfinished=False,
                   agents=["random", "random"], turns=9, options=45)
    row = per_game(r, ["x", "o"])
    assert row["drawishness"] == 1 and row["seat_win_rate.x"] == 0.5
    m = summarise([r] * 10, ["x", "o"])
    assert m["balance"].value == 1 and m["seat_win_rate.o"].value == 0.5


def test_simulate_json_gives_every_metric_an_interval(capsys):
    assert main(["simulate", TICTACTOE, "-g", "60", "--json", "-j", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    m = out["metrics"]
    for name in ("duration", "branching_factor", "decisiveness", "drawishness", "balance", "completion",
                 "lead_changes", "seat_win_rate.x", "score.o", "stat.decided"):
        assert set(m[name]) == {"value", "low", "high"}, name
        assert m[name]["low"] <= m[name]["value"] <= m[name]["high"] or math.isnan(m[name]["value"])
    assert abs(m["seat_win_rate.x"]["value"] - out["seat_win_rate"]["x"]) < 1e-12


def test_until_interval_stops_once_the_seat_intervals_are_narrow(capsys):
    assert main(["simulate", TICTACTOE, "-g", "1000", "--until-interval", "0.25", "--json", "-j", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 100  # looked at after every 100 games
    assert all(v["high"] - v["low"] < 0.25 for k, v in out["metrics"].items() if k.startswith("seat_win_rate."))


def test_simulate_text_shows_intervals_and_rotated_agents(capsys):
    assert main(["simulate", TICTACTOE, "-g", "4", "--agents", "greedy,random", "--rotate-seats", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "agent win rate: greedy" in out and "every seating in turn" in out and "balance" in out
    assert "[greedy, random]" in out and "[random, greedy]" in out


def test_simulate_draws_a_plot(tmp_path, capsys):
    import pytest
    pytest.importorskip("matplotlib")
    target = tmp_path / "games.svg"
    assert main(["simulate", TICTACTOE, "-g", "10", "--agents", "greedy,random", "-q", "-j", "1", "--plot", str(target)]) == 0
    assert "<svg" in target.read_text()
    assert main(["simulate", TICTACTOE, "-g", "2", "-q", "-j", "1", "--plot", str(tmp_path / "x.pdf")]) == 2
    assert "neither .svg nor .png" in capsys.readouterr().err


def test_an_interval_never_reaches_values_the_metric_cannot_take():
    """A t interval of few games can run below 0 for a count or above 1 for a share; the true mean
    cannot, so the interval is cut there (infinite ends, of a single game, are left as they are)."""
    from leges.lab.metrics import metric
    wide = stats.mean([0, 0, 9])
    assert wide.low < 0 and wide.within(0, None).low == 0 and wide.within(0, None).high == wide.high
    assert stats.mean([0.9, 1.0, 0.2]).within(0, 1).high == 1
    assert stats.mean([4]).within(0, None).low == -math.inf
    assert metric("lead_changes").low == 0 and metric("decisiveness").high == 1 and metric("score.x").low is None
