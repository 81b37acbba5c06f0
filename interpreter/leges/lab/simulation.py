"""`leges simulate`'s games played as a study that survives being stopped.

Why: a simulation of a thousand games of a long ruleset runs for an hour, and one stopped by
Ctrl-C, a time limit or a killed terminal used to leave nothing. Its games go out through a
`Session` (session.py), like `compare`'s and `ladder`'s: each is written to the journal the moment
it finishes, a resumed simulation plays only the games its journal lacks, and a stopped one has
the games finished so far to report.

`--until-interval` looks at the seats' win-rate intervals after every `BATCH` games of the plan,
as it always has, so a resumed simulation stops where one run straight through would. (This is a
module of its own, not part of simulate.py: the journal and the session import simulate.py's
`PlayResult`, and simulate.py importing them back would be a cycle.)
"""
from __future__ import annotations

from collections.abc import Sequence

from . import metrics
from .runner import GameSpec, Job
from .session import Session, Task
from .simulate import PlayResult

PART = "simulate"  # the journal's name for a simulation's games (it has one part)
BATCH = 100  # --until-interval looks at the intervals after every this many games (whatever --jobs is)


def narrow_enough(results: Sequence[PlayResult], seats: Sequence[str], width: float) -> bool:
    """Whether every seat's win-rate interval is narrower than `width` (what --until-interval waits for)."""
    measured = metrics.summarise(list(results), list(seats))
    return all(m.width < width for k, m in measured.items() if k.startswith("seat_win_rate."))


def play_simulation(session: Session, job: Job, planned: Sequence[GameSpec], seats: Sequence[str],
                    until_width: float | None = None) -> list[PlayResult]:
    """The planned games finished, in the order of the plan: all of them, unless the session stops
    (Ctrl-C, SIGTERM, its time limit) or, with `until_width`, the win-rate intervals are narrow
    enough after a batch of `BATCH` games. Games the session's journal holds are read, not played."""
    size = BATCH if until_width is not None else max(1, len(planned))
    done: dict[int, PlayResult] = {}
    for first in range(0, len(planned), size):
        tasks = [Task(PART, i, job, planned[i]) for i in range(first, min(first + size, len(planned)))]
        done.update(session.play(tasks).get(PART, {}))
        if session.stopped is not None:
            break
        if until_width is not None and narrow_enough(ordered(done), seats, until_width):
            break
    return ordered(done)


def ordered(done: dict[int, PlayResult]) -> list[PlayResult]:
    """The results by their place in the plan (a pool finishes them in any order)."""
    return [done[i] for i in sorted(done)]
