"""Reading a saved state (`Game.state_from_json`): nothing in it is trusted.

A state may come from anywhere — a file, a network peer, a bug elsewhere — and the engine's
fast paths assume a coherent one (each component in exactly one place, players in range, the
pending decision's options computed by the rules). So a saved state is checked, in order:

1. its shape, against `schemas/state.schema.json`;
2. that it belongs to this game: the ruleset's id, version and variants, a number of players the
   game allows;
3. its content against the game: every zone known and present, every component exactly once,
   variables declared with values of their type, dynamic properties of real components and
   spaces, phases, players and code that exist, a history of known seats;
4. the pending decision, recomputed by running again the instruction that suspended (on a copy):
   the options written in the file are never used — options that differ are an error, and the
   loaded state holds the recomputed ones, so a forged option can never be legal (a state edited
   by hand or built by a program may leave them empty, `"options": []`, to take the rules' own);
5. the ruleset's invariants;
6. that it hangs together (engine/state_consistency.py: numbers within the language's bounds,
   properties that rules change, the phase's own program running, a seat still in the turns), and
   that replaying its history from its seed gives it (engine/state_replay.py) — unless the caller
   loads a position set up by a program (`edited=True`), which is not replayed.

Every problem is reported at its place in the JSON text (file:line:col), all of them together.
"""
from __future__ import annotations

from typing import Any

from ..text.errors import Collector, Diagnostic, LegesError, Position
from ..text.files import MAX_JSON_BYTES
from ..text.json_source import JsonDoc
from .constants import CHANCE, SUSPEND
from .pending import recompute_pending
from .state import LOG_LIMIT, State
from .state_consistency import check_consistency
from .state_replay import check_replay

FLOWS_WITH_PHASE = ("begin", "turn", "end")
DEFAULT_HINT = "a saved state holds only what play of these rules produces (what State.to_json() writes)"
SEATS_HINT = "players are numbered from 0, one less than the number of players at most"
TYPE_HINT = "a saved value has the type the ruleset declares: the rules, compiled for it, assume it"


def load_state(game, text: str, file: str = "state", edited: bool = False) -> State:
    """The state saved in `text` (JSON), checked against `game`; raises LegesError with every problem.
    `edited`: the caller accepts a position set up by a program, which its history need not reach."""
    from ..model.schemas import validate
    if not isinstance(text, str):
        raise LegesError(Diagnostic(Position(file), "a saved state is JSON text (what State.to_json() returns)"))
    if len(text) > MAX_JSON_BYTES:
        raise LegesError(Diagnostic(Position(file, 1, 1), f"the saved state is larger than {MAX_JSON_BYTES:,} "
                                    "characters (the limit for a saved state)"))
    doc = JsonDoc.parse(text, file, "saved state")
    errors = Collector()
    if not isinstance(doc.data, dict):
        raise LegesError(Diagnostic(doc.position(()), "a saved state is a JSON object",
                                    "what State.to_json() returns"))
    if not validate(doc, "state", errors):
        errors.raise_if_errors()
    data = doc.data
    _check_game(game, doc, errors)
    errors.raise_if_errors()
    checker = _Checker(game, doc, errors)
    checker.check()
    errors.raise_if_errors()
    st = State.from_dict(game, data)
    _recompute_pending(st, doc, errors)
    errors.raise_if_errors()
    _check_invariants(st, doc, errors)
    if not edited:  # (after the invariants too: the replay says where the state departs from play)
        check_replay(st, doc, errors)
    errors.raise_if_errors()
    return st


def _check_game(game, doc: JsonDoc, errors: Collector) -> None:
    data = doc.data
    if data["ruleset"] != game.id:
        errors.error(doc.position(("ruleset",)), f"this state is of '{_short(data['ruleset'])}', not of '{game.id}'",
                     "load it with the game it was saved from")
    if data["version"] != game.version:
        errors.error(doc.position(("version",)), f"this state was saved with version {_short(data['version'])} of "
                     f"{game.id}, this is version {game.version}", "the rules may have changed since")
    if list(data["variants"]) != list(game.variants):
        saved = ", ".join(data["variants"]) or "none"
        errors.error(doc.position(("variants",)), f"this state was saved with variants [{_short(saved)}], the game "
                     f"has [{', '.join(game.variants) or 'none'}]", "load the game with the same variants")
    n = data["players"]
    if not game.min_players <= n <= game.max_players:
        errors.error(doc.position(("players",)), f"{game.title} is for {game.min_players} to {game.max_players} "
                     f"players, not {n}")


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Checker:
    """The content of a saved state checked against the game (its shape is already right)."""

    def __init__(self, game, doc: JsonDoc, errors: Collector):
        self.game, self.doc, self.errors = game, doc, errors
        self.data = doc.data
        self.n = self.data["players"]
        self.setup = game.setup_for(self.n)
        self.sym = game.compiler.symbols if game.compiler is not None else None

    def error(self, path: tuple, message: str, hint: str | None = None, key: bool = False) -> None:
        self.errors.error(self.doc.position(path, key), message, hint or DEFAULT_HINT)

    def check(self) -> None:
        self.zones()
        self.variables()
        self.properties()
        self.flow()
        self.frames()
        self.history()
        check_consistency(self)

    # ------------------------------------------------------------ components and zones
    def zones(self) -> None:
        zones, setup = self.data["zones"], self.setup
        known = setup.initial
        for key in zones:
            if key not in known:
                self.error(("zones", key), f"no zone '{_short(key)}' in {self.game.id} with {self.n} players",
                           key=True)
        for key in known:
            if key not in zones:
                self.error(("zones",), f"zone '{key}' is missing", "every zone is saved, empty ones as []")
        count = len(setup.ctype)
        seen: dict[int, tuple] = {}
        for key, items in zones.items():
            for i, c in enumerate(items):
                if c >= count:
                    self.error(("zones", key, i), f"no component {c}: the game has {count} (0 to {count - 1})",
                               "the set-up numbers the components (their types with them), each in exactly one zone")
                elif c in seen:
                    self.error(("zones", key, i), f"component {c} ({setup.clabel[c]}) is in two places",
                               f"it is also at {self.doc.position(seen[c])}")
                else:
                    seen[c] = ("zones", key, i)
        missing = [c for c in range(count) if c not in seen]
        if missing:
            shown = ", ".join(f"{c} ({setup.clabel[c]})" for c in missing[:5]) + (" ..." if len(missing) > 5 else "")
            self.error(("zones",), f"{len(missing)} components are nowhere: {shown}",
                       "every component is in exactly one zone")

    # ------------------------------------------------------------ variables
    def variables(self) -> None:
        saved = self.data["vars"]
        declared = self.game.variables
        for name in saved:
            if name not in declared:
                self.error(("vars", name), f"no variable '{_short(name)}' in {self.game.id}", key=True)
        for name, (per_player, _) in declared.items():
            if name not in saved:
                self.error(("vars",), f"variable '{name}' is missing")
                continue
            value = saved[name]
            ty = self.sym.variables[name].type if self.sym is not None and name in self.sym.variables else None
            if per_player:
                if not isinstance(value, list) or len(value) != self.n:
                    self.error(("vars", name), f"'{name}' has one value per player: a list of {self.n}")
                    continue
                for p, v in enumerate(value):
                    self.value(("vars", name, p), v, ty, name)
            else:
                self.value(("vars", name), value, ty, name)

    def value(self, path: tuple, value: Any, ty, name: str) -> None:
        """A value must fit the declared type (what the rules, compiled for that type, will assume)."""
        problem = self.misfit(value, ty)
        if problem:
            self.error(path, f"'{name}' is declared {ty}: {problem}", TYPE_HINT)

    def misfit(self, value: Any, ty) -> str | None:
        """Why a saved value does not fit the type, or None: one branch a kind of type."""
        if ty is None or value is None:
            return None
        kind = ty.kind
        setup = self.setup
        if kind in ("int", "bool"):
            ok = isinstance(value, (int, bool))
        elif kind == "str":
            ok = isinstance(value, str)
        elif kind == "player":
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < self.n
        elif kind == "component":
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(setup.ctype) and (
                not ty.sub or setup.ctype[value] in ty.sub)
        elif kind in ("space", "zone"):
            ok = isinstance(value, str) and value in (setup.spaces if kind == "space" else setup.initial)
        elif kind == "area":
            ok = isinstance(value, str) and (self.sym is None or value in self.sym.area_ids)
        elif kind == "list":
            if not isinstance(value, list):
                return f"{_short(value)} is not a list"
            for item in value:
                inner = self.misfit(item, ty.elem)
                if inner:
                    return inner
            return None
        elif kind == "table":
            if not isinstance(value, dict):
                return f"{_short(value)} is not a table"
            return next((p for p in (self.misfit(v, ty.elem) for v in value.values()) if p), None)
        elif kind == "tuple":
            if not isinstance(value, list) or len(value) != len(ty.items):
                return f"{_short(value)} is not a tuple of {len(ty.items)} values"
            return next((p for p in (self.misfit(v, t) for v, t in zip(value, ty.items)) if p), None)
        else:
            return None
        return None if ok else f"{_short(value)} is not {'an' if kind[0] in 'aeiou' else 'a'} {kind} of this game"

    def properties(self) -> None:
        count = len(self.setup.ctype)
        for key in self.data["cprops"]:
            if int(key) >= count:
                self.error(("cprops", key), f"no component {key}: the game has {count}", key=True)
        for key in self.data["sprops"]:
            if key not in self.setup.spaces:
                self.error(("sprops", key), f"no space '{_short(key)}' on the board", key=True)

    # ------------------------------------------------------------ where the game is
    def flow(self) -> None:
        """The saved flow (phase, whose turn, frames, pending decision) checked against the game:
        one branch a part of the flow, each with its own message."""
        data, phases = self.data, self.game.phases
        phase, flow = data["phase"], data["flow"]
        if phase is not None and phase not in phases:
            self.error(("phase",), f"no phase '{_short(phase)}' in {self.game.id}")
        if flow in FLOWS_WITH_PHASE and phase is None:
            self.error(("flow",), f"flow '{flow}' needs a phase")
        ending = data.get("end_reason")
        if ending and ending.get("phase") is not None and ending["phase"] not in phases:
            self.error(("end_reason", "phase"), f"no phase '{_short(ending['phase'])}' in {self.game.id}")
        nxt = data["next_phase"]
        if nxt is not None and nxt != "end" and nxt not in phases:
            self.error(("next_phase",), f"no phase '{_short(nxt)}' in {self.game.id}")
        if data["turn_player"] >= self.n:
            self.error(("turn_player",), f"player {data['turn_player']} in a game of {self.n}", SEATS_HINT)
        for i, p in enumerate(data["turn_queue"] or []):
            if p >= self.n:
                self.error(("turn_queue", i), f"player {p} in a game of {self.n}", SEATS_HINT)
        for i, p in enumerate(data.get("dropped") or []):
            if p >= self.n:
                self.error(("dropped", i), f"player {p} in a game of {self.n}", SEATS_HINT)
        if data["turn_count"] > self.game.max_turns > 0:
            self.error(("turn_count",), f"{data['turn_count']} turns: more than the game's limit of {self.game.max_turns}")
        if len(data["history"]) > self.game.max_decisions > 0:
            self.error(("history",), f"{len(data['history'])} decisions: more than the game's limit of {self.game.max_decisions}")
        terminal = data["terminal"]
        if terminal != (flow == "over"):
            self.error(("terminal",), "a game is over exactly when its flow is 'over'")
        if data["unfinished"] and not terminal:
            self.error(("unfinished",), "only a game that is over can be unfinished")
        pending = data["pending"]
        if terminal and (pending is not None or data["frames"]):
            self.error(("pending",) if pending is not None else ("frames",), "a game that is over has no decision "
                       "and no running rule")
        if not terminal and pending is None:
            self.error(("pending",), "the game is neither over nor waiting for a decision",
                       "a saved state is one where a player (or chance) decides, or the end")
        if pending is not None:
            if not data["frames"]:
                self.error(("pending",), "a decision is pending but no rule is running to ask for it")
            player = pending["player"]
            if player != CHANCE and player >= self.n:
                self.error(("pending", "player"), f"player {player} in a game of {self.n}", SEATS_HINT)
            if (player == CHANCE) != (pending["kind"] == "chance"):
                self.error(("pending", "kind"), "chance decides chance decisions, and only those")
            if pending["kind"] == "chance" and not data["explicit_chance"]:
                self.error(("pending", "kind"), "a chance decision in a game whose chance is not explicit")
        if len(data["log"]) > LOG_LIMIT:
            self.error(("log",), f"more than {LOG_LIMIT} log lines")

    def frames(self) -> None:
        codes = self.game.codes
        for i, (code_id, pc, env) in enumerate(self.data["frames"]):
            code = codes.get(code_id)
            if code is None:
                self.error(("frames", i, 0), f"no rule '{_short(code_id)}' in {self.game.id}")
                continue
            top = i == len(self.data["frames"]) - 1 and self.data["pending"] is not None
            if pc > code.size or (top and pc == code.size):  # at the end: done, popped when it resumes
                self.error(("frames", i, 1), f"rule '{code_id}' has {code.size} instructions, not {pc + 1}")
            me = env.get("me")
            if me is not None and (not isinstance(me, int) or isinstance(me, bool) or not 0 <= me < self.n):
                self.error(("frames", i, 2, "me"), f"'me' is {_short(me)}, not a player of this game")
            for name in ("$answer", "$chance"):
                if name in env and i == len(self.data["frames"]) - 1 and self.data["pending"] is not None:
                    self.error(("frames", i, 2, name), "an answer is already given to the pending decision",
                               "a saved state holds no answer: the decision is made by apply_action")

    def history(self) -> None:
        seats = set(self.setup.seat_names) | {"chance"}
        history = self.data["history"]
        for i, entry in enumerate(history):
            who = entry.split(": ", 1)[0] if ": " in entry else None
            if who not in seats:
                self.error(("history", i), "a history entry is `seat: action text` with a seat of this game")
        for i, index in enumerate(self.data["sealed"]):
            if index >= len(history):
                self.error(("sealed", i), f"entry {index} of a history of {len(history)}")


def _recompute_pending(st: State, doc: JsonDoc, errors: Collector) -> None:
    """The options are the rules', never the file's: recomputed, compared, replaced."""
    from .failures import describe_failure, failure_hint
    if st.pending is None:
        return
    saved = st.pending  # as the file has it, until replaced by the rules' own
    where = ("frames", len(st.frames) - 1)
    at = st.game.codes[st.frames[-1][0]].positions[st.frames[-1][1]]
    try:
        fresh = recompute_pending(st)
    except LegesError as exc:
        d = exc.diagnostics[0]
        errors.error(doc.position(where), f"the rule waiting here cannot resume: {d.message} (at {d.position})", d.hint)
        return
    except RecursionError:
        errors.error(doc.position(where), "the rule waiting here cannot resume: nested too deeply")
        return
    except Exception as exc:  # forged locals: a value of the wrong kind for the instruction
        errors.error(doc.position(where), f"the rule waiting here cannot resume: {describe_failure(exc)} (at {at})",
                     failure_hint(exc))
        return
    if fresh is None:
        errors.error(doc.position(("pending",)), "no decision arises at this point of the rules",
                     "the pending decision of a saved state is the one its running rule asks for")
        return
    if fresh.player != CHANCE and not (fresh.player.__class__ is int and 0 <= fresh.player < st.n):
        errors.error(doc.position(where), f"the rule waiting here asks {_short(fresh.player)}, no player of "
                     "this game", "its locals (`me`) were changed")
        return
    if fresh.player != saved.player or fresh.kind != saved.kind:
        errors.error(doc.position(("pending",)), f"the rules ask {st.player_name(fresh.player)} for a "
                     f"'{fresh.kind}' decision here, not {_short(st.player_name(saved.player))} "
                     f"for '{saved.kind}'")
        return
    texts = [o.text for o in fresh.options]
    if not saved.choices:  # left empty (a state edited by hand or built by a program): the rules' own
        st.pending = fresh
        return
    for i, option in enumerate(saved.choices):
        if not option or option[0] not in texts:
            errors.error(doc.position(("pending", "options", i)), f"option {_short(option[0] if option else option)} "
                         "is not one the rules give here", "options are recomputed from the rules, never trusted; "
                         "an edited state may leave them empty (\"options\": []) to take the rules' own")
            return
    if len(saved.choices) != len(texts):
        errors.error(doc.position(("pending", "options")), f"the rules give {len(texts)} options here, "
                     f"the state holds {len(saved.choices)}", "an edited state may leave them empty "
                     "(\"options\": []) to take the rules' own")
        return
    st.pending = fresh  # the rules' own options (their parameters too), whatever the file said


def _check_invariants(st: State, doc: JsonDoc, errors: Collector) -> None:
    for inv_id, fn, _ in st.game.invariants:
        try:
            ok = fn(st, {"me": None})
        except Exception:  # noqa: BLE001 — the state, not the rule, is at fault here
            ok = False
        if not ok:
            errors.error(doc.position(()), f"invariant '{inv_id}' does not hold in this state",
                         "the state cannot arise by play of these rules")
