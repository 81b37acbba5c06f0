"""`leges replay`: re-run a game record, checking that every action was legal."""
from __future__ import annotations

import argparse
import os
import sys

from ..text.errors import Diagnostic, LegesError, Position, RuleError, named_at
from ..text.terminal import WIDE, shown
from .common import EXIT_FAIL, EXIT_OK, load_ruleset


def _read_record(path: str) -> dict:
    """The record at `path` (records.read_record checks its fields); a folder or a file that is not
    text is told as not a record."""
    from ..lab.records import read_record
    if os.path.isdir(path):
        raise LegesError(Diagnostic(Position(path), "is a directory, expected a game record (a .json file)"))
    try:
        return read_record(path)
    except LegesError as exc:
        d = exc.diagnostics[0]
        if d.message.startswith("not UTF-8"):
            raise LegesError(Diagnostic(d.position, f"not a JSON record: {d.message}", d.hint)) from None
        raise


def load_recorded(record: dict, record_path: str, ruleset: str | None, files_given: list[str] | None = None):
    """The game a record is of: `ruleset` as typed, else the folder the record names, under the
    record's variants. What the record names and loading cannot find is reported in the record."""
    from ..text.files import ruleset_reference
    from ..lab.records import record_position
    path = ruleset or record.get("ruleset_path")
    if not path:
        raise LegesError(Diagnostic(Position(record_path, 1, 1), "the record names no ruleset path", "give it with --ruleset"))
    places = {"--variant": (record_position(record_path, "variants"), "a variant this record names")}
    if not ruleset:  # a path written in the record, not typed by the user: a ruleset folder only
        at = record_position(record_path, "ruleset_path")
        ruleset_reference(path, path, at)
        places[os.path.relpath(path)] = (at, "the ruleset this record names")
    # A variant file outside the ruleset (--variant PATH when it was played) is never read because a
    # record names it: the record may be a stranger's. It is given again with --variant PATH, and
    # replay() checks its digest (or says which file the record needs).
    from_files = {f.get(k) for f in record.get("variant_files") or [] if isinstance(f, dict) for k in ("id", "path")}
    requests = [v for v in record.get("variants") or [] if v not in from_files] + list(files_given or [])
    with named_at(places):
        return load_ruleset(path, argparse.Namespace(variant=requests))


def cmd_replay(args) -> int:
    from ..lab.records import record_position, replay
    record = _read_record(args.record)
    game = load_recorded(record, args.record, args.ruleset, getattr(args, "variant", None))
    marks: list[tuple[int, int]] = []  # (moves, log lines) after each action: which events each one fired
    try:
        st = replay(game, record, args.record, after=lambda s: marks.append((len(s.history), len(s.log))))
    except LegesError as exc:
        # replay() reports every failure at the record; when a rule failed, the place in the
        # ruleset matters most: it is the exception replay() was handling when it raised.
        cause = exc.__context__
        if isinstance(cause, RuleError):
            raise LegesError(list(cause.diagnostics) + exc.diagnostics) from None
        raise
    print(f"replayed {len(record['actions'])} actions of {shown(game.title)}: every action was legal")
    if getattr(args, "lang", None):  # the moves as people read them, in the ruleset's words (engine/words.py)
        for line in worded_moves(game, st, marks, args.lang):
            print(line)
    print(str(st))
    if not st.is_terminal():
        who = st.player_name(st.current_player())
        raise LegesError(Diagnostic(record_position(args.record, "actions"),
                                    f"the record ends after {len(record['actions'])} actions, before the game is over",
                                    f"it was cut off: {who} is to decide next"))
    if st.is_terminal():
        seats = [shown(s) for s in st.setup.seat_names]
        print("result: " + " > ".join(" = ".join(seats[p] for p in g) for g in st.ranking()) + f"; scores {st.scores()}")
        saved = record.get("result") or {}
        if saved.get("scores") is not None and saved["scores"] != st.scores():
            print(f"the record says scores {shown(saved['scores'])}: they differ", file=sys.stderr)
            return EXIT_FAIL
    return EXIT_OK


def worded_moves(game, st, marks: list[tuple[int, int]], lang: str) -> list[str]:
    """Every move in words, numbered, each followed by what the game told after it (the events the
    ruleset gives a phrase, a card shown, a `log` statement's text), as `leges play` tells them."""
    from ..engine.words import worded_entry, worded_log
    seats = st.setup.seat_names
    out = []
    moves = logs = 0
    for upto_moves, upto_logs in marks + [(len(st.history), len(st.log))]:
        for i in range(moves, upto_moves):
            out.append(f"  {i + 1:4}. {shown(worded_entry(game, st.history[i], lang) or st.history[i], WIDE)}")
        for line in st.log[logs:upto_logs]:
            out.append(f"        log: {shown(worded_log(game, line, lang, seats) or line, WIDE)}")
        moves, logs = max(moves, upto_moves), max(logs, upto_logs)
    return out


def register(sub, variant) -> None:
    p = sub.add_parser("replay", help="re-run a game record, checking every action, and show the final state")
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--ruleset", help="the ruleset (default: the path stored in the record)")
    p.add_argument("--lang", metavar="LANG", help="also list the moves in words, in this language (those the ruleset gives), each with the events it fired")
    p.add_argument("--variant", action="append", metavar="PATH",
                   help="a variant file outside the ruleset the record was played under (its content is checked "
                        "against the record's digest; a record never makes Leges read a file it names)")
    p.set_defaults(run=cmd_replay)
