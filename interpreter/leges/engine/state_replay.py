"""A saved state is what its history makes of its seed: replayed, and compared value by value.

A state carries the seed its game began with and every action taken since. Replaying those
actions from that seed (a new game with the same players, chance and forced-move settings) must
give the state itself: the same zones, variables, log, flow, generator and decision. So a rewritten
history, an edited variable or a moved card in a state whose history does not lead there is refused
at the first value that differs, with what the replay gives there. Play is deterministic (design.md:
the game's own generator, SplitMix64, lives in the state), so an honest state always matches.

Replaying costs what playing did; states loaded one after another along a game (a tool saving
after every move) would replay again and again, so the last replays of each game are kept
(a few states a game) and a longer history continues from the one it extends.

Not replayed: a position set up by a program (`state_from_json(text, edited=True)`: the caller
says it trusts such positions; every other check still holds). A game cut short by its budget
(engine/budget.py) is replayed under the budget of work it names, and must stop at the same
statement: it mostly does, but values remembered across games (design.md, memoisation) can spare
a replay work the game did, and seconds are no one's to reproduce — such a state is refused, and
loads with `edited=True` when its source is trusted. The replay runs under the default budget
otherwise: a game played on past it under a larger one does not load either.
"""
from __future__ import annotations

import json
import threading
import weakref
from collections import OrderedDict
from typing import Any

from ..text.errors import Collector, LegesError
from ..text.json_source import JsonDoc
from .budget import GameBudget

KEPT = 4  # replays kept a game: one each for a few games loaded along at once
HINT = ("a saved state is what replaying its history from its seed gives; a position set up by a program "
        "is loaded with state_from_json(text, edited=True)")

_kept: "weakref.WeakKeyDictionary[Any, OrderedDict]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def check_replay(st, doc: JsonDoc, errors: Collector) -> None:
    """Replay `st`'s history from its seed and report, at its place in `doc`, the first value of the
    saved state that differs from the replay's (or the action that cannot be replayed)."""
    data = doc.data
    budget = _cut_by(st, doc, errors)
    if budget is False:
        return
    replayed = _replay(st, doc, errors, budget)
    if replayed is None:
        return
    mine = json.loads(st.to_json())
    theirs = json.loads(replayed.to_json())
    for key in sorted(mine, key=lambda k: _ORDER.get(k, len(_ORDER))):
        if key not in data:  # a key saved states gained later: the loaded state takes the replay's value
            if mine[key] != theirs.get(key):
                _take(st, replayed, key)
            continue
        path = _first_difference(theirs.get(key), mine[key], (key,))
        if path is not None:
            errors.error(doc.position(path), f"replaying the history from seed {data['seed']} gives "
                         f"{_shown(_at(theirs, path))} here, not {_shown(_at(mine, path))}", HINT)
            return


def _cut_by(st, doc: JsonDoc, errors: Collector):
    """The budget a game cut short by its budget of work is replayed under (None: not cut short,
    the default budget); False, with the error reported, if it cannot be replayed to the same point."""
    ending = st.ending or {}
    if not (st.unfinished and ending.get("kind") == "budget"):
        return None
    limit = ending.get("limit")
    if ending.get("spent") == "work" and isinstance(limit, (int, float)) and 1 <= limit <= 10 ** 15:
        return GameBudget(work=int(limit))
    errors.error(doc.position(("end_reason",)), "a game cut short by its budget of seconds cannot be replayed to the "
                 "point where it stopped, so this state cannot be checked", "if you trust where it comes from, load it "
                 "with state_from_json(text, edited=True): every other check holds, the history is not replayed")
    return False


def _replay(st, doc: JsonDoc, errors: Collector, budget: GameBudget | None):
    """The state its history makes of its seed, under `budget` (None: the default), or None with the
    error reported if an action cannot be replayed."""
    game, history = st.game, st.history
    key = (st.n, st.seed, st.explicit_chance, st.forced_moves, budget, getattr(game, "budget", None),
           game.max_turns, game.max_decisions)  # (limits a caller may set between loads)
    replayed, done = None, 0
    with _lock:  # a copy changes what it is copied from (state_data.py: `owned`), so it is taken here
        kept = _kept.setdefault(game, OrderedDict())
        for (k, n), base in kept.items():
            if k == key and done < n <= len(history) and base.history == history[:n]:
                replayed, done = base, n
        if replayed is not None:
            replayed = replayed.copy()
    if replayed is None:
        replayed = game.new_initial_state(players=st.n, seed=st.seed, explicit_chance=st.explicit_chance,
                                          forced_moves=st.forced_moves, budget=budget)
    for i in range(done, len(history)):
        try:
            replayed.apply_action(history[i])
        except LegesError as exc:
            d = exc.diagnostics[0]
            errors.error(doc.position(("history", i)), f"action {i + 1} of the history cannot be replayed from "
                         f"seed {st.seed}: {d.message}", HINT)
            return None
    with _lock:
        kept = _kept.setdefault(game, OrderedDict())
        kept[(key, len(history))] = replayed.copy()
        kept.move_to_end((key, len(history)))
        while len(kept) > KEPT:
            kept.popitem(last=False)
    return replayed


def _order() -> dict[str, int]:
    """The order differences are looked for in: as the state's fields are declared (zones and
    variables first), the pending decision last — it follows from the rest."""
    from .state_data import saved_keys
    keys = [k for k in saved_keys() if k != "pending"] + ["pending"]
    return {k: i for i, k in enumerate(keys)}


_ORDER = _order()


def _take(st, replayed, key: str) -> None:
    """A field an older saved state lacks: the replay's value, not the default."""
    from .state_data import SAVED_FIELDS
    for f in SAVED_FIELDS:
        if f.metadata["saved"] == key:
            value = getattr(replayed, f.name)
            setattr(st, f.name, list(value) if isinstance(value, list) else value)


def _first_difference(theirs: Any, mine: Any, path: tuple) -> tuple | None:
    """The path of the first value where `mine` differs from `theirs` (in `mine`'s order), or None."""
    if theirs == mine:
        return None
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for k, v in mine.items():
            if k not in theirs:
                return path + (k,)
            found = _first_difference(theirs[k], v, path + (k,))
            if found is not None:
                return found
        return path
    if isinstance(mine, list) and isinstance(theirs, list):
        for i, (a, b) in enumerate(zip(theirs, mine)):
            found = _first_difference(a, b, path + (i,))
            if found is not None:
                return found
        return path
    return path


def _at(data: Any, path: tuple) -> Any:
    for k in path:
        if isinstance(data, dict) and k in data:
            data = data[k]
        elif isinstance(data, list) and isinstance(k, int) and k < len(data):
            data = data[k]
        else:
            return "nothing"
    return data


def _shown(value: Any) -> str:
    from ..text.terminal import shown
    return shown(json.dumps(value), 60)
