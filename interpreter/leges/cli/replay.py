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
    except UnicodeDecodeError as exc:
        raise LegesError(Diagnostic(Position(path, 1, 1), f"not a JSON record: not UTF-8 text ({exc.reason})")) from None
    except OSError as exc:
        raise LegesError(Diagnostic(Position(path), f"cannot read the record: {exc.strerror}")) from None
    wanted = {"ruleset": (str,), "players": (int,), "seed": (int,), "actions": (list,),
              "ruleset_path": (str, type(None)), "variants": (list, type(None)),
              "explicit_chance": (bool, type(None))}
    names = {str: "a string", int: "a whole number", list: "a list", bool: "true or false", type(None): "null"}
    for key, types in wanted.items():
        value = record.get(key)
        if key not in record and type(None) in types:
            continue
        if not isinstance(value, types) or (int in types and isinstance(value, bool)):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"the record's '{key}' should be "
                                        + " or ".join(names[t] for t in types) + f", not {json.dumps(value)}",
                                        "records are written by `leges simulate --records DIR` or `leges play --record FILE`"))
    for i, action in enumerate(record["actions"]):
        if not isinstance(action, str):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"action {i + 1} of the record is not a text: "
                                        f"{json.dumps(action)}", "each action is written as `seat: action text`"))
    for i, variant in enumerate(record.get("variants") or []):
        if not isinstance(variant, str):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"variant {i + 1} of the record is not a text: "
                                        f"{json.dumps(variant)}"))
    return record


def _json_position(path: str, key: str, index: int | None = None) -> Position:
    """Where the value of a top-level `key` (or its `index`th item) is written in a JSON file."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        match = re.search(r'"%s"\s*:\s*' % re.escape(key), text)
        if match is None:
            return Position(path, 1, 1)
        offset = match.end()
        if index is not None:
            decoder = json.JSONDecoder()
            offset += 1  # past '['
            for i in range(index + 1):
                while text[offset] in " \t\r\n,":
                    offset += 1
                if i == index:
                    break
                _, offset = decoder.raw_decode(text, offset)
    except (OSError, ValueError, IndexError):
        return Position(path, 1, 1)
    line = text.count("\n", 0, offset) + 1
    return Position(path, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _locate_action(d: Diagnostic, path: str) -> Diagnostic:
    """'action N of the record: ...' is placed at that action in the record file."""
    match = re.match(r"action (\d+) of the record", d.message)
    if match is None or d.position.line:
        return d
    return Diagnostic(_json_position(path, "actions", int(match.group(1)) - 1), d.message, d.hint, d.severity)


def cmd_replay(args) -> int:
    from ..records import replay
    record = _read_record(args.record)
    path = args.ruleset or record.get("ruleset_path")
    if not path:
        raise LegesError(Diagnostic(Position(args.record), "the record names no ruleset path", "give it with --ruleset"))
    game = load_ruleset(path, argparse.Namespace(variant=record.get("variants") or []))
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
