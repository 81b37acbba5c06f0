"""`leges replay`: re-run a game record, checking that every action was legal."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

from ..errors import Diagnostic, LegesError, Position, RuleError
from .common import EXIT_FAIL, EXIT_OK, load_ruleset


def _read_record(path: str) -> dict:
    """The record at `path`, its fields checked, so that a damaged record is reported, never a crash."""
    from ..records import read_record
    if os.path.isdir(path):
        raise LegesError(Diagnostic(Position(path), "is a directory, expected a game record (a .json file)"))
    try:
        record = read_record(path)
    except LegesError as exc:
        d = exc.diagnostics[0]
        if d.message.startswith("not UTF-8"):
            raise LegesError(Diagnostic(d.position, f"not a JSON record: {d.message}", d.hint)) from None
        raise
    wanted = {"ruleset": (str,), "players": (int,), "seed": (int,), "actions": (list,),
              "ruleset_path": (str, type(None)), "variants": (list, type(None)),
              "explicit_chance": (bool, type(None)), "version": (str, type(None))}
    names = {str: "a string", int: "a whole number", list: "a list", bool: "true or false", type(None): "null"}
    for key, types in wanted.items():
        value = record.get(key)
        if key not in record and type(None) in types:
            continue
        if not isinstance(value, types) or (int in types and isinstance(value, bool)):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"the record's '{key}' should be "
                                        + " or ".join(names[t] for t in types) + f", not {_short(value)}",
                                        "records are written by `leges simulate --records DIR` or `leges play --record FILE`"))
    for i, action in enumerate(record["actions"]):
        if not isinstance(action, str):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"action {i + 1} of the record is not a text: "
                                        f"{_short(action)}", "each action is written as `seat: action text`"))
    for i, variant in enumerate(record.get("variants") or []):
        if not isinstance(variant, str):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"variant {i + 1} of the record is not a text: "
                                        f"{_short(variant)}"))
    if record["players"] < 1 or record["players"] > 64:
        raise LegesError(Diagnostic(_json_position(path, "players"), f"the record's game has {record['players']} players",
                                    "a game has between 1 and 16 players"))
    return record


def _short(value) -> str:
    """A value of the record as a message may quote it: JSON, one line, at most 60 characters."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _json_position(path: str, key: str, index: int | None = None) -> Position:
    """Where the value of a top-level `key` (or its `index`th item) is written in a JSON file."""
    from ..files import MAX_JSON_BYTES, read_text
    from ..json_source import position
    try:
        text = read_text(path, MAX_JSON_BYTES)
    except LegesError:
        return Position(path, 1, 1)
    return position(text, path, (key,) if index is None else (key, index))


def _locate_action(d: Diagnostic, path: str) -> Diagnostic:
    """'action N of the record: ...' is placed at that action in the record file."""
    match = re.match(r"action (\d+) of the record", d.message)
    if match is None or d.position.line:
        return d
    return Diagnostic(_json_position(path, "actions", int(match.group(1)) - 1), d.message, d.hint, d.severity)


def cmd_replay(args) -> int:
    from ..records import replay
    from ..files import ruleset_reference
    record = _read_record(args.record)
    path = args.ruleset or record.get("ruleset_path")
    if not path:
        raise LegesError(Diagnostic(Position(args.record), "the record names no ruleset path", "give it with --ruleset"))
    if not args.ruleset:  # a path written in the record, not typed by the user: a ruleset folder only
        ruleset_reference(path, path, _json_position(args.record, "ruleset_path"))
    game = load_ruleset(path, argparse.Namespace(variant=record.get("variants") or []))
    if record.get("ruleset") != game.id:
        raise LegesError(Diagnostic(_json_position(args.record, "ruleset"),
                                    f"the record is of '{record['ruleset']}', not of '{game.id}' ({path})"))
    if record.get("version") is not None and record["version"] != game.version:
        raise LegesError(Diagnostic(_json_position(args.record, "version"),
                                    f"the record was written with version {record['version']} of {game.id}, "
                                    f"this is version {game.version}",
                                    "the rules may have changed since; replay it with the ruleset it was written with"))
    if not game.min_players <= record["players"] <= game.max_players:
        raise LegesError(Diagnostic(_json_position(args.record, "players"),
                                    f"the record is of a game of {record['players']} players, but {game.title} "
                                    f"is for {game.min_players} to {game.max_players}"))
    try:
        st = replay(game, record, args.record)
    except LegesError as exc:
        located = [_locate_action(d, args.record) for d in exc.diagnostics]
        # replay() reports every failure at the record; when a rule failed, the place in the
        # ruleset matters most: it is the exception replay() was handling when it raised.
        cause = exc.__context__
        if isinstance(cause, RuleError):
            located = list(cause.diagnostics) + located
        raise LegesError(located) from None
    print(f"replayed {len(record['actions'])} actions of {game.title}: every action was legal")
    print(str(st))
    if not st.is_terminal():
        who = st.player_name(st.current_player())
        raise LegesError(Diagnostic(_json_position(args.record, "actions"),
                                    f"the record ends after {len(record['actions'])} actions, before the game is over",
                                    f"it was cut off: {who} is to decide next"))
    if st.is_terminal():
        seats = st.setup.seat_names
        print("result: " + " > ".join(" = ".join(seats[p] for p in g) for g in st.ranking()) + f"; scores {st.scores()}")
        saved = record.get("result") or {}
        if saved.get("scores") is not None and saved["scores"] != st.scores():
            print(f"the record says scores {saved['scores']}: they differ", file=sys.stderr)
            return EXIT_FAIL
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("replay", help="re-run a game record, checking every action, and show the final state")
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--ruleset", help="the ruleset (default: the path stored in the record)")
    p.set_defaults(run=cmd_replay)
