"""Many games on all cores, or on a Dask cluster — with the results of one process, bit for bit.

A batch is a list of games, each fixed by its seed and its agents (one spec a seat); a game's
agents draw from generators seeded by the game's seed and seat (simulate.seat_rng), so where a
game is played changes nothing. Games go out in chunks and come back in order.

- `jobs`: processes on this machine (`concurrent.futures`); each loads the ruleset once.
- `dask`: an address of a `dask.distributed` scheduler, or `local` for a LocalCluster. The
  ruleset's folder and its map travel with the tasks (a small tar archive), so the workers need
  Leges installed but not the files; a user agent must be importable there.
"""
from __future__ import annotations

import hashlib
import io
import itertools
import math
import os
import tarfile
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .engine.budget import DEFAULT_BUDGET, GameBudget
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


def _game(job: Job, path: str | None = None):
    key = (path or job.ruleset, job.variants)
    if key not in _GAMES:
        from . import load
        _GAMES[key] = load(path or job.ruleset, variants=list(job.variants))
    return _GAMES[key]


def remember(job: Job, game) -> None:
    """A game already loaded here (forked processes inherit it instead of loading it again)."""
    _GAMES[(job.ruleset, job.variants)] = game


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
    """The ruleset folder and its map as a tar archive: (digest, bytes, the ruleset's path inside)."""
    from .model.loader import find_map
    from .model.loader import load_declarations
    path = Path(ruleset).resolve()
    folder = path if path.is_dir() else path.parent
    inner = folder.name if path.is_dir() else f"{folder.name}/{path.name}"
    rs, _, _ = load_declarations(str(path))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for f in sorted(folder.rglob("*")):
            if f.is_file() and not any(part.startswith((".", "__")) for part in f.relative_to(folder).parts):
                tar.add(str(f), arcname=f"{folder.name}/{f.relative_to(folder)}")
        map_file = find_map(folder, rs.map) if getattr(rs, "map", None) else None
        if map_file is not None and folder not in map_file.resolve().parents:
            tar.add(str(map_file), arcname=f"maps/{map_file.name}")
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest()[:16], data, inner


def _unpacked(digest: str, data: bytes) -> str:
    root = Path(tempfile.gettempdir()) / f"leges-bundle-{digest}"
    if not root.exists():
        staging = Path(tempfile.mkdtemp(prefix=f"leges-bundle-{digest}-"))
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(staging, filter="data")
        try:
            os.replace(staging, root)
        except OSError:
            pass  # another worker unpacked it first
    return str(root)


def play_bundled_chunk(job: Job, packed: tuple[str, bytes, str], chunk: list[GameSpec]) -> list[PlayResult]:
    digest, data, inner = packed
    return play_chunk(job, chunk, os.path.join(_unpacked(digest, data), inner))


def dask_client(address: str, jobs: int | None):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        from .errors import Diagnostic, LegesError, Position
        raise LegesError(Diagnostic(Position("--dask"), "Dask is not installed",
                                    "pip install 'leges[dask]' (dask.distributed)")) from None
    if address == "local":
        cluster = LocalCluster(n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        return Client(cluster), cluster
    return Client(address), None


def _run_dask(job: Job, games: list[GameSpec], address: str, jobs: int | None, progress: Progress | None):
    from dask.distributed import as_completed as dask_completed
    client, cluster = dask_client(address, jobs)
    try:
        packed = client.scatter(bundle(job.ruleset), broadcast=True)
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
