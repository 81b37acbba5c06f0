"""Game records: the ruleset, its version and variants, the players, the seed and every action.

A record replays to the identical state: the seed restores the game's own randomness and each
action is applied by its text, checked against the legal actions at that point.
"""
from __future__ import annotations

import json
import os

from . import files
from .errors import Diagnostic, LegesError, Position
from .json_source import parse_json

FORMAT = 1


def make_record(game, ruleset_path: str, players: int, seed: int, history: list, result: dict | None = None,
                explicit_chance: bool = False) -> dict:
    return {
        "leges_record": FORMAT, "ruleset": game.id, "version": game.version,
        "ruleset_path": os.path.relpath(ruleset_path), "variants": list(game.variants), "players": players,
        "seed": seed, "explicit_chance": explicit_chance, "actions": list(history), "result": result,
    }


def write_record(path: str, record: dict) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=1, ensure_ascii=False)
        handle.write("\n")


def load_json(path: str, what: str, limit: int = files.MAX_JSON_BYTES):
    """A JSON file read through the file gate; a syntax error is located, its text never quoted."""
    return parse_json(files.read_text(path, limit, path, what=what + " file"), path, what)


def read_record(path: str) -> dict:
    record = load_json(path, "record")
    if not isinstance(record, dict) or record.get("leges_record") != FORMAT:
        raise LegesError(Diagnostic(Position(path, 1, 1), "not a Leges game record",
                                    "records are written by `leges simulate --records DIR` or `leges play --record FILE`"))
    for key in ("ruleset", "players", "seed", "actions"):
        if key not in record:
            raise LegesError(Diagnostic(Position(path, 1, 1), f"the record has no '{key}'"))
    return record


def replay(game, record: dict, path: str = "record", upto: int | None = None):
    """Re-run a record (its first `upto` actions, or all); every action must be legal when it is
    applied. Returns the state reached."""
    if record["ruleset"] != game.id:
        raise LegesError(Diagnostic(Position(path), f"the record is of '{record['ruleset']}', not '{game.id}'"))
    st = game.new_initial_state(players=record["players"], seed=record["seed"],
                                explicit_chance=bool(record.get("explicit_chance", False)))
    for i, text in enumerate(record["actions"][:upto]):
        try:
            st.apply_action(text)
        except LegesError as exc:
            d = exc.diagnostics[0]
            raise LegesError(Diagnostic(Position(path), f"action {i + 1} of the record: {d.message}", d.hint)) from None
    return st
