"""Games on several processes, or a Dask cluster, give the results of one process, bit for bit."""
from __future__ import annotations

import os

import pytest

from helpers import ROOT
from leges.lab.runner import Job, bundle, plan, run, seatings

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


def _copy(tmp_path, game="tictactoe"):
    import shutil
    target = tmp_path / "rulesets" / game
    shutil.copytree(ROOT / "rulesets" / game, target)
    return target


@pytest.mark.parametrize("link", ["/dev/zero", "/etc/hostname", "/usr/share", "../outside.yaml"])
def test_a_bundle_never_takes_what_a_link_leads_to_outside_the_folder(tmp_path, link):
    from leges import LegesError
    folder = _copy(tmp_path)
    (tmp_path / "rulesets" / "outside.yaml").write_text("secret: 1\n")
    (folder / "alias").symlink_to(link)
    with pytest.raises(LegesError) as caught:
        bundle(str(folder))
    message = caught.value.diagnostics[0].format()
    assert "alias" in message and ("outside" in message or "link to a folder" in message) and "secret" not in message


def test_a_bundle_takes_a_link_inside_the_folder_as_the_file_it_names(tmp_path):
    import io
    import tarfile
    folder = _copy(tmp_path)
    (folder / "notes.txt").write_text("n\n")
    (folder / "same.txt").symlink_to("notes.txt")
    _, data, _ = bundle(str(folder))
    tar = tarfile.open(fileobj=io.BytesIO(data))
    member = tar.getmember("tictactoe/same.txt")
    assert member.isfile() and tar.extractfile(member).read() == b"n\n"


def test_a_planted_bundle_folder_is_never_used(tmp_path, monkeypatch):
    """A folder lying in $TMPDIR under the name a bundle took is not the bundle: each worker unpacks its own."""
    import tempfile
    from leges.lab import runner
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(runner, "_UNPACKED", {})
    digest, data, inner = bundle(TICTACTOE)
    for name in (f"leges-bundle-{digest}", f"leges-bundle-{digest[:16]}"):
        planted = tmp_path / name / inner
        planted.mkdir(parents=True)
        (planted / "ruleset.yaml").write_text("planted: true\n")
    folder = runner._unpacked(digest, data)
    assert "planted" not in (tmp_path / folder / inner / "ruleset.yaml").read_text()
    assert oct(os.stat(folder).st_mode & 0o777) == "0o700" and runner._unpacked(digest, data) == folder


def test_a_damaged_bundle_is_refused(tmp_path, monkeypatch):
    from leges import LegesError
    from leges.lab import runner
    monkeypatch.setattr(runner, "_UNPACKED", {})
    digest, data, _ = bundle(TICTACTOE)
    with pytest.raises(LegesError, match="damaged"):
        runner._unpacked(digest, data + b"x")


@pytest.mark.parametrize("address", ["nonsense://x", "tcp://::", "tcp://host:notaport"])
def test_a_bad_scheduler_address_is_a_located_error(address):
    pytest.importorskip("dask.distributed")
    from leges import LegesError
    from leges.lab.runner import dask_client
    with pytest.raises(LegesError) as caught:
        dask_client(address, 1)
    assert caught.value.diagnostics[0].format().startswith("--dask: error: cannot reach a Dask scheduler")
