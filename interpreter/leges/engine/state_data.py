"""The fields of a game state, declared once: their types, how a copy takes each, what is saved.

A state is plain data (the brief: it serialises to JSON and back, copies cheaply, holds any pending
decision explicitly). `StateData` declares every field as a typed dataclass field with slots, and
each field's metadata says how `copy()` takes it and under which key `to_dict()` saves it; loading
(`from_dict`), the copy, the saved keys and the state schema's test (tests/test_state_data.py) all
read this one table, so a new field is one line here.

The copy is generated from the table once, at import: a search copies states millions of times, and
a loop over the fields would cost several times the hand-written copy it replaces. The generated
text comes from this module's own constants, never from a ruleset.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .decision import Pending

# How a copy takes a field.
SHARED = "shared"  # the same object: a number or text, or one never changed in place (replaced instead)
LIST = "list"  # a list of values: list(v)
LIST_OR_NONE = "list_or_none"
LISTS_BY_KEY = "lists_by_key"  # {key: list}: each list copied
DICTS_BY_KEY = "dicts_by_key"  # {key: dict}: each dict copied
VALUES_OR_LISTS = "values_or_lists"  # {key: value or list}: the lists copied (per-player variables)
FRAMES = "frames"  # [[code id, instruction index, locals]]: the locals and the lists in them copied
SHARED_LISTS = "shared_lists"  # {key: list}: the dict copied, the lists shared until written (copy on write)
OWN = "own"  # a fresh empty set for both the copy and the original (the slots or zones each holds alone)
CACHE = "cache"  # a value derived from the others, never changed in place, shared (None where never set)

_COPY = {
    SHARED: "self.{f}",
    LIST: "list(self.{f})",
    LIST_OR_NONE: "list(self.{f}) if self.{f} is not None else None",
    LISTS_BY_KEY: "{{k: list(v) for k, v in self.{f}.items()}}",
    SHARED_LISTS: "dict(self.{f})",
    DICTS_BY_KEY: "{{k: dict(v) for k, v in self.{f}.items()}}",
    VALUES_OR_LISTS: "{{k: (list(v) if isinstance(v, list) else v) for k, v in self.{f}.items()}}",
    FRAMES: "[[x[0], x[1], _copy_env(x[2])] for x in self.{f}]",
    CACHE: "getattr(self, '{f}', None)",  # (the state a game's states are copied from never sets it)
}

_REQUIRED = object()  # a saved field every saved state must have (no default for older saves)


def _field(copy: str, saved: str | None = None, default: Any = _REQUIRED) -> Any:
    """A state field: how a copy takes it, the key it is saved under (None: not saved, derived or
    begun afresh on loading), and the value a state saved before the key existed loads with."""
    return field(metadata={"copy": copy, "saved": saved, "default": default})


@dataclass(slots=True, init=False, eq=False, repr=False)
class StateData:
    """What a game state holds. Methods live in its subclasses (engine/api.py, engine/state.py)."""

    game: Any = _field(SHARED)  # the Game (engine/game.py, which imports this module)
    setup: Any = _field(SHARED)  # game.setup_for(n): the components, zones and seats of n players
    n: int = _field(SHARED, "players")
    zones: dict[str, list[int]] = _field(SHARED_LISTS, "zones")  # zone → its components, the top last
    where: list[str] = _field(LIST)  # component → its zone (derived from zones on loading)
    # the components on the board's spaces, by type and by (type, owner), in id order: derived (not
    # saved), kept by every move where the compiled rules go through them (engine/board_index.py)
    aboard: dict[Any, tuple[int, ...]] = _field(SHARED_LISTS)
    vars: dict[str, Any] = _field(VALUES_OR_LISTS, "vars")
    cprops: dict[int, dict[str, Any]] = _field(DICTS_BY_KEY, "cprops")  # component → dynamic properties
    sprops: dict[str, dict[str, Any]] = _field(DICTS_BY_KEY, "sprops")  # space → dynamic properties
    phase: str | None = _field(SHARED, "phase")
    flow: str = _field(SHARED, "flow")  # setup, begin, turn, end
    turn_player: int = _field(SHARED, "turn_player")
    turn_queue: list[int] | None = _field(LIST_OR_NONE, "turn_queue")
    turn_count: int = _field(SHARED, "turn_count")
    dropped: list[int] = _field(SHARED, "dropped", [])  # players out of this phase's turns, in order
    frames: list[list[Any]] = _field(FRAMES, "frames")  # the running programs: [code id, index, locals]
    pending: Pending | None = _field(SHARED, "pending")  # the decision asked, with its options
    rng: int = _field(SHARED, "rng")  # the game's own generator (engine/rng.py: SplitMix64)
    terminal: bool = _field(SHARED, "terminal")
    unfinished: bool = _field(SHARED, "unfinished")  # ended by a bound, not by the rules
    next_phase: str | None = _field(SHARED, "next_phase")
    history: list[Any] = _field(LIST, "history")  # every action taken: [player, text]
    fired: list[Any] = _field(LIST, "fired")
    explicit_chance: bool = _field(SHARED, "explicit_chance")
    log: list[str] = _field(LIST, "log")
    seed: int = _field(SHARED, "seed")
    sealed: list[Any] = _field(LIST, "sealed")  # secret choices made, not yet revealed
    budget: Any = _field(SHARED)  # the most the rules may spend in all (engine/budget.GameBudget)
    spent: list[float] = _field(LIST)  # [work, seconds] spent so far (not saved: begins afresh)
    forced_moves: bool = _field(SHARED, "forced_moves", False)  # decisions with one option asked too
    forced: int = _field(SHARED, "forced", 0)  # decisions with one option taken by the engine itself
    at_once: list[str] = _field(SHARED, "at_once", [])  # those taken since the last answered decision
    ending: dict[str, Any] | None = _field(SHARED, "end_reason", None)  # why the game (or the phase) ends
    memo: list[Any] = _field(LIST)  # the memoised functions' values, a slot each (lang/optimise/memo.py)
    private: set[int] = _field(OWN)  # slots of memo this state alone holds (changed in place)
    owned: set[str] = _field(OWN)  # zones whose lists this state alone holds (the others: State.writable)
    # what each seat has seen, read off the seed and the history (engine/seen.py), for the history
    # it names: derived, so not saved; a copy shares it until its history grows
    seen_by: Any = _field(CACHE)


STATE_FIELDS = fields(StateData)
SAVED_FIELDS = tuple(f for f in STATE_FIELDS if f.metadata["saved"])
GAME_KEYS = ("ruleset", "version", "variants")  # saved from the game, checked against it on loading


def saved_keys() -> tuple[str, ...]:
    """Every key of a saved state (what schemas/state.schema.json describes)."""
    return GAME_KEYS + tuple(f.metadata["saved"] for f in SAVED_FIELDS)


def required_keys() -> tuple[str, ...]:
    """The keys every saved state has; the others were added later and have defaults."""
    return GAME_KEYS + tuple(f.metadata["saved"] for f in SAVED_FIELDS if f.metadata["default"] is _REQUIRED)


def _copy_env(env: dict) -> dict:
    out = {}
    for k, v in env.items():
        if isinstance(v, list):
            v = [list(x) if isinstance(x, list) else x for x in v]
        out[k] = v
    return out


def copy_source() -> str:
    """The text of the generated copy: one assignment a field, as a hand-written copy would be."""
    lines = ["def copy(self):", "    s = _new(type(self))"]
    for f in STATE_FIELDS:
        kind = f.metadata["copy"]
        if kind == OWN:
            lines.append(f"    s.{f.name} = set()")
            lines.append(f"    self.{f.name} = set()")
        else:
            lines.append(f"    s.{f.name} = " + _COPY[kind].format(f=f.name))
    lines.append("    return s")
    return "\n".join(lines) + "\n"


def _make_copy():
    namespace: dict[str, Any] = {"_new": object.__new__, "_copy_env": _copy_env}
    exec(compile(copy_source(), "<engine/state_data.py: copy>", "exec"), namespace)  # our own text (above)
    return namespace["copy"]


copy_state = _make_copy()


def saved_dict(st: StateData) -> dict[str, Any]:
    """What `to_json` writes: the game's id, version and variants, and every saved field."""
    out: dict[str, Any] = {"ruleset": st.game.id, "version": st.game.version, "variants": list(st.game.variants)}
    for f in SAVED_FIELDS:
        out[f.metadata["saved"]] = getattr(st, f.name)
    out["cprops"] = {str(k): v for k, v in st.cprops.items()}  # JSON keys are texts
    if st.pending is not None:
        out["pending"] = st.pending.to_data()
    return out


def load_saved(st: StateData, data: dict[str, Any]) -> None:
    """Set every saved field of `st` from `data` (already checked: engine/saved_state.py), with the
    defaults of keys added since older states were saved."""
    for f in SAVED_FIELDS:
        key, default = f.metadata["saved"], f.metadata["default"]
        value = data[key] if default is _REQUIRED or key in data else default
        setattr(st, f.name, list(value) if isinstance(value, list) and f.metadata["copy"] == SHARED else value)
    st.zones = {k: list(v) for k, v in data["zones"].items()}
    st.owned = set(st.zones)
    st.cprops = {int(k): v for k, v in data["cprops"].items()}
    st.pending = Pending.from_data(data["pending"]) if data["pending"] is not None else None
