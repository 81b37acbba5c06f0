"""Game records: the ruleset, its version and variants, the players, the seed and every action.

A record replays to the identical state: the seed restores the game's own randomness and each
action is applied by its text, checked against the legal actions at that point.
"""
from __future__ import annotations

import json
import os

from ..text import files
from ..text.errors import Diagnostic, LegesError, Position
from ..text.json_source import parse_json
from ..text.terminal import shown

FORMAT = 1


def make_record(game, ruleset_path: str, players: int, seed: int, history: list, result: dict | None = None,
                explicit_chance: bool = False) -> dict:
    record = {
        "leges_record": FORMAT, "ruleset": game.id, "version": game.version,
        "ruleset_path": os.path.relpath(ruleset_path), "variants": list(game.variant_requests or game.variants),
        "players": players,
        "seed": seed, "explicit_chance": explicit_chance, "actions": list(history), "result": result,
    }
    outside = getattr(game.ruleset, "variant_files", ())
    if outside:  # --variant PATH: which file, and its digest, so a replay finds it or says which it needs
        record["variant_files"] = [f.as_record() for f in outside]
    return record


def write_record(path: str, record: dict) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=1, ensure_ascii=False)
        handle.write("\n")


def read_record(path: str) -> dict:
    """The record at `path`, each of its fields checked, so that a damaged record (a stranger's) is
    reported where it is damaged, never a crash of whatever reads it later."""
    return record_from_text(files.read_text(path, files.MAX_JSON_BYTES, path, what="record file"), path)


def record_from_text(text: str, path: str) -> dict:
    """The record written in `text` (a file's, or one sent to the page), checked as `read_record` does."""
    from ..text.json_source import position

    def record_position(where: str, key: str, index: int | None = None) -> Position:
        return position(text, where, (key,) if index is None else (key, index))
    record = parse_json(text, path, "record")
    if not isinstance(record, dict) or record.get("leges_record") != FORMAT:
        raise LegesError(Diagnostic(Position(path, 1, 1), "not a Leges game record", WRITTEN_BY))
    for key in ("ruleset", "players", "seed", "actions"):
        if key not in record:
            raise LegesError(Diagnostic(Position(path, 1, 1), f"the record has no '{key}'", WRITTEN_BY))
    for key, types in FIELDS.items():
        value = record.get(key)
        if key not in record and type(None) in types:
            continue
        if not isinstance(value, types) or (int in types and isinstance(value, bool)):
            raise LegesError(Diagnostic(record_position(path, key), f"the record's '{key}' should be "
                                        + " or ".join(_NAMES[t] for t in types) + f", not {short(value)}", WRITTEN_BY))
    for key, hint in (("actions", "each action is written as `seat: action text`"), ("variants", None)):
        for i, item in enumerate(record.get(key) or []):
            if not isinstance(item, str):
                raise LegesError(Diagnostic(record_position(path, key, i), f"{key[:-1]} {i + 1} of the record is not "
                                            f"a text: {short(item)}", hint))
    if record.get("variants"):  # read as strictly as --variant (a record's requests come back into the page)
        from ..model.variants.choice import check_requests
        from ..model.variants.outside import is_path
        # the path of a variant file the record names in its variant_files (`leges serve --variant PATH`
        # writes it as requested): never read because of the record (`leges replay` asks for it), so
        # it is left to that check; every other request is read as strictly as --variant
        paths = {f.get("path") for f in record.get("variant_files") or [] if isinstance(f, dict)}
        kept = [i for i, v in enumerate(record["variants"]) if not (is_path(v) and v in paths)]
        try:
            check_requests([record["variants"][i] for i in kept], "variants")
        except LegesError as exc:
            bad = exc.diagnostics[0]
            raise LegesError(Diagnostic(record_position(path, "variants", kept[bad.position.line - 1]),
                                        f"the record's variants: {bad.message}", bad.hint)) from None
    if record["players"] < 1 or record["players"] > 64:
        raise LegesError(Diagnostic(record_position(path, "players"), f"the record's game has {record['players']} players",
                                    "a game has between 1 and 64 players"))
    _check_result(record.get("result"), path, record_position)
    return record


WRITTEN_BY = "records are written by `leges simulate --records DIR` or `leges play --record FILE`"
FIELDS = {"ruleset": (str,), "players": (int,), "seed": (int,), "actions": (list,),
          "ruleset_path": (str, type(None)), "variants": (list, type(None)),
          "explicit_chance": (bool, type(None)), "version": (str, type(None)), "result": (dict, type(None)),
          "variant_files": (list, type(None))}
_NAMES = {str: "a string", int: "a whole number", list: "a list", bool: "true or false", dict: "a mapping",
          type(None): "null"}


def _check_result(result: dict | None, path: str, record_position) -> None:
    """A record's `result` is what the game ended with: a ranking of seat names, one score a seat."""
    if result is None:
        return
    ranking, scores = result.get("ranking"), result.get("scores")
    if ranking is not None and not (isinstance(ranking, list) and all(
            isinstance(group, list) and all(isinstance(seat, str) for seat in group) for group in ranking)):
        raise LegesError(Diagnostic(record_position(path, "result"), f"the record's result has a ranking that is not "
                                    f"lists of seat names: {short(ranking)}", WRITTEN_BY))
    if scores is not None and not (isinstance(scores, list) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in scores)):
        raise LegesError(Diagnostic(record_position(path, "result"), f"the record's result has scores that are not "
                                    f"a list of numbers: {short(scores)}", WRITTEN_BY))


def short(value) -> str:
    """A value of a record as a message may quote it: JSON, one line, at most 60 characters."""
    return shown(json.dumps(value), 60)


def record_position(path: str, key: str, index: int | str | None = None) -> Position:
    """Where the value of a top-level `key` (or its `index`th item) is written in the record at `path`."""
    from ..text.json_source import position
    try:
        text = files.read_text(path, files.MAX_JSON_BYTES)
    except LegesError:
        return Position(path, 1, 1)
    return position(text, path, (key,) if index is None else (key, index))


def replay(game, record: dict, path: str = "record", upto: int | None = None, after=None):
    """Re-run a record (its first `upto` actions, or all) of `game` (its id, version and number of
    players checked first); every action must be legal when it is applied. A problem is reported
    where the record at `path` writes what is wrong. `after(state)`, if given, is called on the
    state at the start and after each action (`leges replay --lang` tells what each one did).
    Returns the state reached."""
    if record["ruleset"] != game.id:
        raise LegesError(Diagnostic(record_position(path, "ruleset"), f"the record is of '{shown(record['ruleset'], 60)}', "
                                    f"not of '{game.id}'"))
    if record.get("version") is not None and record["version"] != game.version:
        raise LegesError(Diagnostic(record_position(path, "version"),
                                    f"the record was written with version {shown(record['version'], 60)} of {game.id}, "
                                    f"this is version {shown(game.version, 60)}",
                                    "the rules may have changed since; replay it with the ruleset it was written with"))
    if not game.min_players <= record["players"] <= game.max_players:
        raise LegesError(Diagnostic(record_position(path, "players"),
                                    f"the record is of a game of {record['players']} players, but {shown(game.title)} "
                                    f"is for {game.min_players} to {game.max_players}"))
    if record.get("variant_files") or getattr(game.ruleset, "variant_files", ()):
        from ..model.variants.outside import check_recorded
        check_recorded(record.get("variant_files"), list(getattr(game.ruleset, "variant_files", ())),
                       record_position(path, "variant_files"))
    st = game.new_initial_state(players=record["players"], seed=record["seed"],
                                explicit_chance=bool(record.get("explicit_chance", False)))
    if after is not None:
        after(st)
    for i, text in enumerate(record["actions"][:upto]):
        try:
            st.apply_action(text)
        except LegesError as exc:
            d = exc.diagnostics[0]
            raise LegesError(Diagnostic(record_position(path, "actions", i), f"action {i + 1} of the record: {d.message}",
                                        d.hint)) from None
        if after is not None:
            after(st)
    if upto is None or upto >= len(record["actions"]):
        check_result(record, st, path)
    return st


def check_result(record: dict, st, path: str = "record", text: str | None = None) -> None:
    """The result a record writes is the one its actions, replayed, end with: a record whose ranking
    or scores contradict its own replay was edited (or is of other rules), and is refused there.
    Scores are the game's own (`leges simulate`) or its returns (the page's records); a result of a
    game the replay leaves unfinished (cut short by a budget) is not compared. `text`: the record's
    JSON when it is no file (one sent to the page), to locate the error in it."""
    from ..text.json_source import position
    result = record.get("result")
    if not result or not st.is_terminal():
        return

    def located(index: str) -> Position:
        return position(text, path, ("result", index)) if text is not None else record_position(path, "result", index)
    names = st.setup.seat_names
    scores, returns = st.scores(), st.returns()
    saved = result.get("scores")
    if saved is not None and saved != scores and saved != returns:
        raise LegesError(Diagnostic(located("scores"),
                                    f"the record says scores {short(saved)}, but its actions replayed end with "
                                    f"{short(scores)}", "a record's result is what replaying its actions gives"))
    ranking = result.get("ranking")
    if ranking is not None:
        by_score = [sorted(names[p] for p in group) for group in st.ranking()]
        by_return = [sorted(names[p] for p in range(st.n) if returns[p] == v) for v in sorted(set(returns), reverse=True)]
        if [sorted(group) for group in ranking] not in (by_score, by_return):
            raise LegesError(Diagnostic(located("ranking"),
                                        f"the record's ranking is {short(ranking)}, but its actions replayed end with "
                                        f"{short(by_score)}", "a record's result is what replaying its actions gives"))
