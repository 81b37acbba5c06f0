"""Many games on all cores, or on a Dask cluster — with the results of one process, bit for bit.

A batch is a list of games, each fixed by its seed and its agents (one spec a seat); a game's
agents draw from generators seeded by the game's seed and seat (agents/seeding.py), so where a
game is played changes nothing. Games go out in chunks and come back in order.

- `jobs`: processes on this machine (`concurrent.futures`); each loads the ruleset once.
- `dask`: an address of a `dask.distributed` scheduler, or `local` for a LocalCluster. The
  ruleset's folder and its map travel with the tasks (a small tar archive), so the workers need
  Leges installed but not the files; a user agent must be importable there.
"""
from __future__ import annotations

import atexit
import hashlib
import io
import itertools
import logging
import math
import os
import shutil
import tarfile
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable

from ..engine.budget import DEFAULT_BUDGET, GameBudget
from .simulate import PlayResult, play_game


@dataclass(frozen=True)
class Job:
    """What every game of a batch shares: the ruleset (a folder, or its main file), variants, players,
    and the most each game's rules may spend (engine/budget.py)."""

    ruleset: str
    variants: tuple[str, ...]
    players: int
    check: bool = False
    budget: GameBudget = DEFAULT_BUDGET
    # the variants on whose rules an agent that learns a heuristic learns it, when not these (compare:
    # B's players are A's, lab/compare.py); None: these
    learn_on: tuple[str, ...] | None = None


@dataclass(frozen=True)
class GameSpec:
    seed: int
    agents: tuple[str, ...]


def seatings(specs: list[str]) -> list[tuple[str, ...]]:
    """Every distinct seating of the agents (the order first seen), for --rotate-seats."""
    seen: dict[tuple[str, ...], None] = {}
    for p in itertools.permutations(specs):
        seen.setdefault(p, None)
    return list(seen)


def plan(seed: int, games: int, specs: list[str], rotate: bool, start: int = 0) -> list[GameSpec]:
    """Games number start..games-1: with rotation, each seed is played in every seating in turn."""
    if not rotate:
        return [GameSpec(seed + i, tuple(specs)) for i in range(start, games)]
    orders = seatings(specs)
    return [GameSpec(seed + i // len(orders), orders[i % len(orders)]) for i in range(start, games)]


_GAMES: dict = {}


def _key(job: Job, path: str | None) -> tuple:
    learn_on = job.learn_on if job.learn_on != job.variants else None
    return path or job.ruleset, job.variants, learn_on


def _game(job: Job, path: str | None = None):
    """The job's game, loaded once per process. One whose agents learn on other rules (`learn_on`)
    is a Game of its own, kept under its own key: no job that did not ask shares its heuristic."""
    key = _key(job, path)
    if key not in _GAMES:
        from .. import load
        from ..agents.learn import learn_on
        game = load(path or job.ruleset, variants=list(job.variants))
        if key[2] is not None:
            learn_on(game, _game(Job(job.ruleset, key[2], job.players), path))
        _GAMES[key] = game
    return _GAMES[key]


def remember(job: Job, game) -> None:
    """A game already loaded here (forked processes inherit it instead of loading it again); one for
    a job with `learn_on` must have been given its source (agents.learn.learn_on)."""
    _GAMES[_key(job, None)] = game


def play_chunk(job: Job, chunk: list[GameSpec], path: str | None = None) -> list[PlayResult]:
    game = _game(job, path)
    return [play_game(game, job.players, g.seed, list(g.agents), job.check, budget=job.budget) for g in chunk]


def chunks(games: list[GameSpec], workers: int) -> list[list[GameSpec]]:
    size = max(1, min(64, math.ceil(len(games) / (workers * 8))))
    return [games[i:i + size] for i in range(0, len(games), size)]


Progress = Callable[[int, int], None]


def run(job: Job, games: list[GameSpec], jobs: int | None = None, dask: str | None = None,
        progress: Progress | None = None) -> list[PlayResult]:
    """Play the games; results in the order of `games`, whatever ran them."""
    workers = jobs or os.cpu_count() or 1
    if dask:
        return _run_dask(job, games, dask, jobs, progress)
    if workers == 1 or len(games) <= 1:
        out = []
        for g in games:
            out.extend(play_chunk(job, [g]))
            if progress:
                progress(len(out), len(games))
        return out
    parts = chunks(games, workers)
    results: list = [None] * len(parts)
    done = 0
    with ProcessPoolExecutor(max_workers=min(workers, len(parts))) as pool:
        futures = {pool.submit(play_chunk, job, part): i for i, part in enumerate(parts)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            done += len(results[futures[future]])
            if progress:
                progress(done, len(games))
    return [r for part in results for r in part]


# ------------------------------------------------------------------ Dask
def bundle(ruleset: str) -> tuple[str, bytes, str]:
    """The ruleset folder and its map as a tar archive: (its SHA-256, the bytes, the ruleset's path inside).

    The files are read through the file gate (loader.ruleset_tree): a link out of the folder, a
    device or an oversized folder is a located error here, before any worker sees the archive."""
    from ..model.loader import ruleset_tree
    tree, inner = ruleset_tree(ruleset)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, content in sorted(tree.items()):
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(content), 0o600
            tar.addfile(info, io.BytesIO(content))
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest(), data, inner


_UNPACKED: dict[str, str] = {}  # digest → folder, in this worker process


def _unpacked(digest: str, data: bytes) -> str:
    """The bundle unpacked, once per worker process, into a folder of its own made by `mkdtemp` (private,
    with a name no one can guess). A folder found lying in a shared place such as $TMPDIR is never
    reused: anyone could have planted one under the name a bundle would take."""
    if digest not in _UNPACKED:
        if hashlib.sha256(data).hexdigest() != digest:
            from ..text.errors import Diagnostic, LegesError, Position
            raise LegesError(Diagnostic(Position("--dask"), "the ruleset's bundle arrived damaged at a worker",
                                        "run again; if it repeats, check the cluster's network"))
        root = tempfile.mkdtemp(prefix="leges-bundle-")
        atexit.register(shutil.rmtree, root, True)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(root, filter="data")
        _UNPACKED[digest] = root
    return _UNPACKED[digest]


def play_bundled_chunk(job: Job, packed: tuple[str, bytes, str], chunk: list[GameSpec]) -> list[PlayResult]:
    digest, data, inner = packed
    return play_chunk(job, chunk, os.path.join(_unpacked(digest, data), inner))


CONNECT_SECONDS = 20  # how long a scheduler may take to answer before `--dask ADDRESS` is an error


def dask_client(address: str, jobs: int | None):
    from ..text.errors import Diagnostic, LegesError, Position
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise LegesError(Diagnostic(Position("--dask"), "Dask is not installed",
                                    "pip install 'leges[dask]' (dask.distributed)")) from None
    if address == "local":
        # its workers' logs stay quiet: a task that fails is reported by the client, where it is located,
        # and a heartbeat missed while the cluster closes is no news (it printed worker tracebacks)
        cluster = LocalCluster(n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.CRITICAL)
        return Client(cluster), cluster
    try:
        return Client(address, timeout=CONNECT_SECONDS), None
    except (OSError, ValueError, TypeError, TimeoutError) as exc:  # a malformed, unknown or silent address
        reason = " ".join(str(exc).split())[:300] or type(exc).__name__
        raise LegesError(Diagnostic(Position("--dask"), f"cannot reach a Dask scheduler at '{address}': {reason}",
                                    "give a scheduler's address (tcp://HOST:PORT) or 'local' for a cluster on "
                                    "this machine")) from None


def _run_dask(job: Job, games: list[GameSpec], address: str, jobs: int | None, progress: Progress | None):
    from dask.distributed import as_completed as dask_completed
    packed = bundle(job.ruleset)  # a ruleset that cannot be bundled is reported before a cluster starts
    client, cluster = dask_client(address, jobs)
    try:
        packed = client.scatter(packed, broadcast=True)
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        parts = chunks(games, workers)
        futures = [client.submit(play_bundled_chunk, job, packed, part, pure=False) for part in parts]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list = [None] * len(parts)
        done = 0
        for future in dask_completed(futures):
            results[index[future.key]] = future.result()
            done += len(results[index[future.key]])
            if progress:
                progress(done, len(games))
        return [r for part in results for r in part]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
