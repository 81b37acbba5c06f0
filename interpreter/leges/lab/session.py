"""Playing a study's games so that the study survives being stopped.

Why: `compare` and `ladder` used to play everything, then report; a study stopped after fifty
minutes left nothing, and said nothing meanwhile off a terminal. Here every game goes out on its
own, and the moment it is finished it is written to the study's journal (journal.py) and counted;
a game the journal already holds is not played again. Ctrl-C (or SIGTERM), or the study's time
limit, stops the games still to play — the ones running are abandoned, their processes ended —
and the caller reports what finished, marked partial. Off a terminal, a line on standard error
every so many games or seconds says how far the study is.

A game's result depends on its seed and agents only (runner.py), so which process plays it, in
which order, and in which run — straight through, or resumed — changes nothing in the report.
"""
from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable

from .journal import Journal
from .runner import GameSpec, Job, play_chunk, run
from .simulate import PlayResult

CLOCK = time.monotonic  # what a study's time limit and progress lines are read on (tests tick it by hand)
MAX_CHUNK = 64  # games a process is given at once, at most, when a session plays in chunks
GRACE_SECONDS = 2.0  # a stopped session in chunks waits this long for the chunks out before ending their processes
INTERRUPTED = "interrupted (Ctrl-C)"
TERMINATED = "terminated (a signal to stop)"


@dataclass(frozen=True)
class Task:
    """One game of a study: which part of it (A's games of the first set, a ladder's), its place in
    that part's plan, and what plays it."""
    part: str
    index: int
    job: Job
    game: GameSpec


class _Terminated(KeyboardInterrupt):
    """SIGTERM, taken as Ctrl-C: a study stopped by its scheduler keeps its games and prints them too."""


def timed_chunk(job: Job, games: list[GameSpec]) -> tuple[list[PlayResult], float]:
    """In a worker: the games' results, and the seconds they took (what the next chunk is sized by)."""
    start = time.perf_counter()
    results = play_chunk(job, games)
    return results, time.perf_counter() - start


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the study's to handle (it ends the workers itself), not a traceback each;
    and SIGTERM ends the worker quietly (a forked worker inherits the study's own SIGTERM handler,
    which would print a traceback in every worker the study ends)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class ProgressLines:
    """Off a terminal: a line on standard error every `games` games or `seconds` seconds."""

    def __init__(self, command: str, games: int | None, seconds: float | None, clock=None, stream=None):
        self.command, self.games, self.seconds, self.clock = command, games, seconds, clock or CLOCK
        self.stream = stream
        self.start = self.last = self.clock()
        self.base = self.last_done = 0

    def found(self, done: int) -> None:
        """Games read from the journal: counted, but not as played in this run's time."""
        self.base += done
        self.last_done += done

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        due = (self.games is not None and done - self.last_done >= self.games) or \
              (self.seconds is not None and now - self.last >= self.seconds)
        if not due and done != total:
            return
        self.last, self.last_done = now, done
        played, spent = done - self.base, now - self.start
        left = f"; about {(total - done) * spent / played:.0f} s more" if played and done < total else ""
        stream = self.stream or sys.stderr
        print(f"leges {self.command}: {done} of {total} games ({done / total:.0%}), {spent:.0f} s{left}", file=stream,
              flush=True)


class Session:
    """Plays tasks for one study: from its journal where it has them, else on `jobs` processes (or
    `dask`), each written down as it finishes; stops on Ctrl-C, SIGTERM or `time_limit` seconds.

    `chunk_seconds`: on processes, give each a few games at once, as many as play in about that many
    seconds (one game, until the first have told how long a game takes), and keep only a few chunks
    out: a game of a millisecond costs more to send than to play, and a future for each of thousands
    of games made a study of short games several times slower than `runner.run`. Each game is still
    written down the moment its chunk returns. None (the default): one game a process at a time."""

    def __init__(self, journal: Journal | None, total: int, jobs: int | None = None, dask: str | None = None,
                 time_limit: float | None = None, progress: Callable[[int, int], None] | None = None,
                 finished: Callable[[Task, PlayResult], None] | None = None, clock=None,
                 chunk_seconds: float | None = None):
        self.journal, self.total, self.jobs, self.dask = journal, total, jobs, dask
        self.chunk_seconds = chunk_seconds
        self.time_limit, self.progress, self.finished = time_limit, progress, finished
        self.clock = clock or CLOCK
        self.started = self.clock()
        self.done = 0
        self.read = 0  # of them, read from the journal (not played in this run: not in its play-outs per second)
        self.stopped: str | None = None  # why the study stopped before its end
        self._pool: ProcessPoolExecutor | None = None
        self._cluster: Any = None  # with `dask` and `chunk_seconds`: one client for the study (cluster.py)
        self._out: dict = {}  # the chunks out, by their futures
        self._saved_handler: Any = None  # the SIGTERM handler to put back

    # ------------------------------------------------------------------ life
    def __enter__(self) -> Session:
        if threading.current_thread() is threading.main_thread():
            def terminate(signum, frame):
                raise _Terminated()
            self._saved_handler = signal.signal(signal.SIGTERM, terminate)
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:  # (after a failed game, the games not begun are not waited for)
            self._pool.shutdown(wait=True, cancel_futures=exc[0] is not None)
            self._pool = None
        if self._cluster is not None:
            self._cluster.close(self._out)
            self._cluster, self._out = None, {}
        if self._saved_handler is not None:
            signal.signal(signal.SIGTERM, self._saved_handler)
            self._saved_handler = None
        if self.journal is not None:
            if self.stopped is None and exc[0] is None:
                self.journal.finish()
            self.journal.close()

    # ------------------------------------------------------------------ playing
    def play(self, tasks: list[Task]) -> dict[str, dict[int, PlayResult]]:
        """The results of `tasks` finished so far, by part and index: all of them, unless the study stops."""
        out: dict[str, dict[int, PlayResult]] = {}
        missing = []
        for t in tasks:
            known = self.journal.results(t.part).get(t.index) if self.journal is not None else None
            if known is not None and (known.seed, list(known.agents)) == (t.game.seed, list(t.game.agents)):
                out.setdefault(t.part, {})[t.index] = known
                self.found(t, known)
            else:
                missing.append(t)
        if missing and self.stopped is None:
            try:
                self._play(missing, out)
            except KeyboardInterrupt as exc:
                self.stopped = TERMINATED if isinstance(exc, _Terminated) else INTERRUPTED
                self._abandon()
        return out

    def found(self, task: Task, result: PlayResult) -> None:
        """A game the journal holds: counted (not as played now), and handed on like one played."""
        self.done += 1
        self.read += 1
        if isinstance(self.progress, ProgressLines):
            self.progress.found(1)
        elif self.progress is not None:
            self.progress(self.done, self.total)
        if self.finished is not None:
            self.finished(task, result)

    def _over_time(self) -> bool:
        if self.time_limit is not None and self.clock() - self.started >= self.time_limit:
            self.stopped = f"the time limit ({self.time_limit:g} s) reached"
        return self.stopped is not None

    def _record(self, task: Task, result: PlayResult, out: dict) -> None:
        if self.journal is not None:
            self.journal.add(task.part, task.index, task.game, result)
        out.setdefault(task.part, {})[task.index] = result
        self.done += 1
        if self.finished is not None:
            self.finished(task, result)
        if self.progress is not None:
            self.progress(self.done, self.total)

    def _play(self, tasks: list[Task], out: dict) -> None:
        workers = self.jobs or os.cpu_count() or 1
        if self.dask and self.chunk_seconds is not None:
            self._play_chunks(tasks, out, workers)
        elif self.dask:
            self._play_dask(tasks, out)
        elif workers == 1 or len(tasks) == 1:
            for t in tasks:
                if self._over_time():
                    return
                self._record(t, play_chunk(t.job, [t.game])[0], out)
        elif self.chunk_seconds is not None:
            self._play_chunks(tasks, out, workers)
        else:
            self._play_pool(tasks, out, workers)

    def _play_pool(self, tasks: list[Task], out: dict, workers: int) -> None:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        pending = {self._pool.submit(play_chunk, t.job, [t.game]): t for t in tasks}
        while pending:
            finished, _ = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
            for future in finished:
                self._record(pending.pop(future), future.result()[0], out)
            if self._over_time():
                self._abandon()
                return

    def _play_chunks(self, tasks: list[Task], out: dict, workers: int) -> None:
        """Chunks of consecutive games of one job, sized by the seconds a game took so far, two a
        process (or a cluster's worker) out at a time; each chunk's games written down as it returns."""
        if self.dask and self._cluster is None:
            from .cluster import Cluster
            self._cluster = Cluster(self.dask, self.jobs)
        elif not self.dask and self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        target = self.chunk_seconds or 0.0
        waiting: deque[Task] = deque(tasks)
        returned: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._out = {}  # future → its chunk's tasks (a Dask future calls back from a thread of its own)
        per_game: float | None = None  # seconds a game, as the chunks so far took them

        def submit() -> None:
            size = 1 if per_game is None else max(1, min(MAX_CHUNK, int(target / max(per_game, 1e-6))))
            group = [waiting.popleft()]
            while waiting and len(group) < size and waiting[0].job == group[0].job:
                group.append(waiting.popleft())
            future = self._send(group[0].job, [t.game for t in group])
            self._out[future] = group
            future.add_done_callback(returned.put)

        def fill() -> None:
            most = 2 * (self._cluster.workers if self.dask and self._cluster is not None else workers)
            while waiting and len(self._out) < most:
                submit()

        fill()
        while self._out:
            try:
                future = returned.get(timeout=1.0)
            except queue.Empty:
                future = None
            if future is not None:
                group = self._out.pop(future)
                results, seconds = future.result()
                per_game = seconds / len(group)  # the latest chunk's (a worker's first also loads the ruleset)
                for t, result in zip(group, results):
                    self._record(t, result, out)
            if self._over_time():
                self._abandon()
                return
            fill()

    def _send(self, job: Job, games: list[GameSpec]) -> Any:
        """A chunk sent to the cluster, or to a process: its future, whose result is (results, seconds)."""
        if self._cluster is not None:
            return self._cluster.submit(job, games)
        assert self._pool is not None
        return self._pool.submit(timed_chunk, job, games)

    def _play_dask(self, tasks: list[Task], out: dict) -> None:
        """On a cluster: a batch of a few games a worker at a time, each batch written down as it returns."""
        size = 4 * (self.jobs or os.cpu_count() or 1)
        for i in range(0, len(tasks), size):
            if self._over_time():
                return
            batch = tasks[i:i + size]
            for job in dict.fromkeys(t.job for t in batch):
                mine = [t for t in batch if t.job == job]
                for t, result in zip(mine, run(job, [t.game for t in mine], self.jobs, self.dask)):
                    self._record(t, result, out)

    def _abandon(self) -> None:
        """Stop now: the games not begun are dropped, the ones running ended with their processes."""
        if self._cluster is not None:
            self._cluster.close(self._out)
            self._cluster, self._out = None, {}
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if self._out:  # chunks out: let them end (they last about `chunk_seconds`) rather than kill a worker
            wait(list(self._out), timeout=GRACE_SECONDS)  # writing one back, which would hang the pool's reader
            self._out = {}
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
