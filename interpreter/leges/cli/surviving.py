"""The options of a study that survives being stopped (`simulate`, `compare`, `ladder`): --log, --resume,
--time-limit, --progress-every; the session they make (lab/session.py), and the words of a partial report."""
from __future__ import annotations

import os
import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown

JOURNAL = "journal.jsonl"  # the journal's name beside --records DIR, when no --log is given
DEFAULT_PROGRESS = "60s"


def add_study_arguments(p, records: bool = False) -> None:
    beside = f" (default with --records DIR: DIR/{JOURNAL})" if records else ""
    p.add_argument("--log", metavar="FILE",
                   help="write every game to FILE (JSON lines) the moment it finishes, so that a study stopped "
                        "keeps its games" + beside)
    p.add_argument("--resume", metavar="FILE",
                   help="continue the study whose journal FILE is: its finished games are read, only the others "
                        "played; give the options it began with. The report is the one a run straight through gives")
    p.add_argument("--time-limit", type=float, metavar="S",
                   help="stop after S seconds and report the games finished (marked partial; --resume goes on)")
    p.add_argument("--progress-every", default=DEFAULT_PROGRESS, metavar="N|Ns",
                   help="off a terminal, a progress line on standard error every N games, or every N seconds "
                        f"(e.g. 30s; default {DEFAULT_PROGRESS}); --quiet: none")


def journal_path(args) -> str | None:
    """Where the study's games are written: --resume's file, --log's, or beside --records."""
    if args.resume and args.log and os.path.abspath(args.resume) != os.path.abspath(args.log):
        raise LegesError(Diagnostic(Position("--log"), "--resume writes on in the journal it reads",
                                    "give --resume FILE alone"))
    if args.resume or args.log:
        return args.resume or args.log
    records = getattr(args, "records", None)
    if records:
        os.makedirs(records, exist_ok=True)
        return os.path.join(records, JOURNAL)
    return None


def open_journal(args, header: dict):
    """The study's journal (None: none asked for), resumed or begun."""
    from ..lab.journal import Journal
    path = journal_path(args)
    if path is None:
        return None
    return Journal.open(path, header, bool(args.resume), "--resume")


def progress(args, command: str, total: int):
    """A bar on a terminal, lines off one, nothing with --quiet."""
    from ..lab.session import ProgressLines
    if args.quiet:
        return None
    if sys.stderr.isatty():
        return ProgressBar(total, not args.json) if not args.json else None
    games, seconds = every(args.progress_every)
    return ProgressLines(command, games, seconds)


class ProgressBar:
    """A tqdm bar on the terminal's stderr (nothing when it is not a terminal, or with --quiet)."""

    def __init__(self, total: int, enabled: bool, unit: str = "game"):
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False)
            except ImportError:
                self.bar = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.n = done
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def every(text: str) -> tuple[int | None, float | None]:
    """`50` → every 50 games; `30s` → every 30 seconds."""
    seconds = text.endswith("s")
    try:
        value = float(text[:-1]) if seconds else int(text)
    except ValueError:
        value = -1
    if value <= 0:
        raise LegesError(Diagnostic(Position("--progress-every"), f"'{shown(text, 40)}' is neither a number of games "
                                    "nor of seconds", "e.g. --progress-every 50 (games) or --progress-every 30s"))
    return (None, value) if seconds else (int(value), None)


def check_time_limit(args) -> None:
    if args.time_limit is not None and args.time_limit <= 0:
        raise LegesError(Diagnostic(Position("--time-limit"), "--time-limit must be above 0 seconds"))
    every(args.progress_every)


def partial_note(session, journal, finished: int, planned: int) -> str | None:
    """The first line of a partial report: why it stopped, and how to go on."""
    if session.stopped is None:
        return None
    kept = f"every finished game is in {journal.path}: add --resume {journal.path} to go on" if journal is not None \
        else "--log FILE would have kept them for --resume"
    return f"PARTIAL: {session.stopped} after {finished} of {planned} games; {kept}"


def exit_status(session) -> int:
    """0, or 130 for a study interrupted by Ctrl-C, 143 by SIGTERM (its partial report printed all the same)."""
    from ..lab.session import INTERRUPTED, TERMINATED
    return 130 if session.stopped == INTERRUPTED else 143 if session.stopped == TERMINATED else 0
