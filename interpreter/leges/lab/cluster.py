"""A Dask cluster kept for the whole of a study that plays in chunks (session.py, `chunk_seconds`).

Why: `runner.run` opens a client — and with `--dask local` starts a cluster — each time it is
called, which is right for one batch of games but not for a study that sends a few games at a
time so that each is written down as it finishes: `leges simulate --dask local` of 40 games took
half a minute, starting a cluster for every eight. Here one client serves every chunk of the
study, each ruleset is bundled and sent to the workers once, and the client (and the cluster it
started) is closed when the study ends or is stopped.
"""
from __future__ import annotations

import time
from typing import Any

from .runner import GameSpec, Job, bundle, dask_client, play_bundled_chunk
from .simulate import PlayResult


def timed_bundled_chunk(job: Job, packed: tuple[str, bytes, str], games: list[GameSpec]) -> tuple[list[PlayResult], float]:
    """On a worker: the games' results, and the seconds they took (what the next chunk is sized by)."""
    start = time.perf_counter()
    results = play_bundled_chunk(job, packed, games)
    return results, time.perf_counter() - start


class Cluster:
    """A client of the scheduler at `address` ('local': a cluster of `jobs` workers started here),
    opened at the first chunk; `submit` sends a chunk and gives its future."""

    def __init__(self, address: str, jobs: int | None):
        self.address, self.jobs = address, jobs
        self.client: Any = None
        self.cluster: Any = None
        self.packed: dict[str, Any] = {}  # ruleset → its bundle, scattered to every worker

    @property
    def workers(self) -> int:
        """Workers the scheduler has (at least one)."""
        if self.client is None:
            return max(1, self.jobs or 1)
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def submit(self, job: Job, games: list[GameSpec]):
        if job.ruleset not in self.packed:
            packed = bundle(job.ruleset)  # a ruleset that cannot be bundled is reported before a cluster starts
            if self.client is None:
                self.client, self.cluster = dask_client(self.address, self.jobs)
            self.packed[job.ruleset] = self.client.scatter(packed, broadcast=True)
        return self.client.submit(timed_bundled_chunk, job, self.packed[job.ruleset], games, pure=False)

    def close(self, pending=()) -> None:
        """Cancel the chunks still out, and close the client (and the cluster it started)."""
        if self.client is None:
            return
        client, cluster, self.client, self.cluster = self.client, self.cluster, None, None
        self.packed = {}
        try:
            if pending:
                client.cancel(list(pending))
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
