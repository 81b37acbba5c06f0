"""Games on several processes, or a Dask cluster, give the results of one process, bit for bit."""
from __future__ import annotations

import pytest

from helpers import ROOT
from leges.runner import Job, bundle, plan, run, seatings

TICTACTOE = str(ROOT / "rulesets" / "tictactoe")
POMPEII = str(ROOT / "rulesets" / "pompeii")


def test_rotation_plays_each_seed_in_every_distinct_seating():
    assert seatings(["mcts", "random", "random"]) == [("mcts", "random", "random"), ("random", "mcts", "random"),
                                                        ("random", "random", "mcts")]
    games = plan(10, 7, ["a", "b"], rotate=True)
    assert [(g.seed, g.agents) for g in games[:3]] == [(10, ("a", "b")), (10, ("b", "a")), (11, ("a", "b"))]
    assert len(games) == 7


def test_two_processes_give_the_results_of_one():
    job = Job(TICTACTOE, (), 2)
    games = plan(0, 24, ["greedy", "mcts:iterations=20"], rotate=True)
    assert run(job, games, jobs=2) == run(job, games, jobs=1)


def test_variants_travel_with_the_job():
    job = Job(POMPEII, ("mayfair",), 3)
    games = plan(5, 4, ["random"] * 3, rotate=False)
    one, two = run(job, games, jobs=1), run(job, games, jobs=2)
    assert one == two and [r.seed for r in two] == [5, 6, 7, 8]


def test_the_bundle_holds_the_ruleset_and_its_map():
    import io
    import tarfile
    digest, data, inner = bundle(TICTACTOE)
    names = tarfile.open(fileobj=io.BytesIO(data)).getnames()
    assert inner == "tictactoe" and "tictactoe/ruleset.yaml" in names and "maps/tictactoe.yaml" in names


def test_a_local_dask_cluster_gives_the_results_of_one_process():
    pytest.importorskip("dask.distributed")
    job = Job(TICTACTOE, (), 2)
    games = plan(3, 12, ["greedy", "random"], rotate=True)
    assert run(job, games, jobs=2, dask="local") == run(job, games, jobs=1)
