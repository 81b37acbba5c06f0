"""The state's public face, in OpenSpiel's vocabulary: who decides, what they may do, what they see.

`legal_actions()` lists `Action`s with a stable readable text such as
`play card=6 building=6b square=r4c3`; `apply_action` takes an Action or its text. Chance
points (explicit mode) are decided by player CHANCE with `chance_outcomes()`; otherwise the
seeded generator in the state decides them.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .action import Action, IllegalAction
from .constants import CHANCE, TERMINAL
from .decision import as_options
from .state_data import StateData


def _illegal(st: "StateAPI", text: str, player: int) -> IllegalAction:
    legal = [a.text for a in st.legal_actions(player)]
    who = st.player_name(player)
    listed = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
    from difflib import get_close_matches
    close = get_close_matches(text, legal, n=1, cutoff=0.5)
    hint = (f"did you mean '{close[0]}'? " if close else "") + (f"legal now: {listed}" if legal else f"{who} has no legal action now")
    return IllegalAction(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                    f"'{shown(text)}' is not a legal action for {who}", hint))


class StateAPI(StateData):
    """The public methods of `State`, on the plain data StateData declares."""

    __slots__ = ()
    copy: Callable[[], "StateAPI"]  # State.copy: generated from the fields' table (state_data.py copy_state)

    def player_name(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        if player == TERMINAL:
            return "nobody"
        return self.setup.seat_names[player]

    def player_index(self, name: str) -> int:
        if name == "chance":
            return CHANCE
        try:
            return self.setup.seat_names.index(name)
        except ValueError:
            if name.isdigit() and int(name) < self.n:
                return int(name)
            raise LegesError(Diagnostic(Position(self.game.id), f"no player '{name}'",
                                        "players: " + ", ".join(self.setup.seat_names))) from None

    # ------------------------------------------------------------ decisions
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.pending is None:
            return TERMINAL
        return self.pending.player

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return not self.terminal and self.pending is not None and self.pending.player == CHANCE

    def chance_outcomes(self) -> list[tuple[Action, float | None]]:
        pending = self.pending
        if self.terminal or pending is None or pending.player != CHANCE:  # is_chance_node(), narrowed
            return []
        return [(Action(CHANCE, o.text), o.probability) for o in pending.options]

    def _anytime_options(self, player: int) -> list:
        if self.terminal or self.pending is None or self.pending.player == CHANCE or self.flow == "setup":
            return []
        self.game.fresh_work()
        out = []
        for action in self.game.anytime:
            out.extend(action.options(self, player, {}))
        return as_options(out)

    def _options(self, player: int) -> list:
        own = self.pending.options if self.pending and self.pending.player == player else []
        if player == CHANCE:
            return list(own)
        return list(own) + self._anytime_options(player)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if player is None:
            player = self.current_player()
        if player == TERMINAL:
            return []
        return [Action(player, o.text) for o in self._options(player)]

    def decision(self) -> dict | None:
        """The pending decision as plain data (None once the game is over): who decides (`player`, `seat`),
        its `kind` (choose, act, chance), the `options`' texts in the rules' order, the `rule` asking
        (`phase:ID:turn`, `action:ID`, `procedure:ID`, ...); for a choose its `name` and `label`, for an
        act the `actions` offered; whether it may be passed (`optional`); for chance the `probabilities`.
        Like `legal_actions` it shows the options: `observation(player)` is what a player may see."""
        pending = self.pending
        if self.terminal or pending is None:
            return None
        options = pending.options
        kind = pending.kind
        out = {"player": pending.player, "seat": self.player_name(pending.player), "kind": kind,
               "options": [o.text for o in options],
               "rule": self.frames[-1][0].split("(", 1)[0] if self.frames else None,
               "optional": any(o.action == "pass" for o in options)}
        if kind == "choose":
            chosen = [o for o in options if o.action != "pass"] or options
            out["name"] = next(iter(chosen[0][2]), None) if chosen else None
            out["label"] = chosen[0][0].split(" ", 1)[0] if chosen and chosen[0][1] != "pass" else None
        elif kind == "act":
            out["actions"] = list(dict.fromkeys(o.action for o in options if o.action != "pass"))
        else:
            out["probabilities"] = [o.probability for o in options]
        return out

    @property
    def end_reason(self) -> dict | None:
        """Why the game ended, None while it goes on: {"kind": "end_if", "phase": ID} (the phase's end_if
        held and no phase follows), {"kind": "end_game", "rule": ID} (a rule's `end game`), {"kind":
        "max_turns", "turns": N} (limits.max_turns: the game is unfinished), {"kind": "max_decisions",
        "decisions": N} (limits.max_decisions: unfinished too), {"kind": "budget", "spent": "work" or
        "seconds", "limit": N} (the game's budget, engine/budget.py: unfinished too) or {"kind": "last_phase",
        "phase": ID} (the last phase ended otherwise: its turns used up, an `end phase`, no turns)."""
        return self.ending if self.terminal else None

    # ---------------------------------------------------------- integer action ids
    def _id_texts(self, player: int) -> list[str]:
        if player == TERMINAL or self.terminal:
            return []
        return sorted({o.text for o in self._options(player)})

    def action_to_string(self, player: int, action: int) -> str:
        """The text of action id `action` of `player` in this state. Ids are per state: the index of the
        action's text among the texts of `legal_actions(player)` sorted (by code point), so 0 to
        len(legal_actions(player)) - 1; the same id may name another action in another state."""
        texts = self._id_texts(player)
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(texts):
            raise IllegalAction(Diagnostic(Position(f"{self.game.id}@{len(self.history)}"),
                                           f"no action id {action!r} for {self.player_name(player)} now",
                                           f"ids are 0 to {len(texts) - 1} here" if texts else "no legal action now"))
        return texts[action]

    def string_to_action(self, player: int, text: str) -> int:
        """The id (see `action_to_string`) of the legal action of `player` with this text."""
        from bisect import bisect_left
        texts = self._id_texts(player)
        i = bisect_left(texts, text)
        if i == len(texts) or texts[i] != text:
            raise _illegal(self, text, player)
        return i

    def explain(self, action, player: int | None = None, seat: int | None = None):
        """Why an action (an Action or its text) is or is not legal now: the condition that fails, the values
        involved, the rule's citation (engine/explain.py). `str()` of the result is one line for a player.
        It reads the whole state, hidden cards too (for authors); with `seat`, only what that seat may
        be told, the same in every state it cannot tell apart (engine/seat_explanation.py; None: legal)."""
        if seat is not None:
            from .seat_explanation import seat_explanation
            return seat_explanation(self, getattr(action, "text", None) or str(action), seat)
        from .explain import explain
        return explain(self, action, player)

    def _anytime_as_actions(self, player: int) -> list[Action]:
        return [Action(player, o.text) for o in self._anytime_options(player)]

    def out_of_turn_actions(self) -> list[Action]:
        """Actions that players other than the one deciding may take right now."""
        if self.pending is None:
            return []
        current = self.pending.player
        return [Action(p, o.text) for p in range(self.n) if p != current for o in self._anytime_options(p)]

    def apply_action(self, action) -> None:
        """Apply an Action, or an action text (for the player deciding now)."""
        if isinstance(action, Action):
            player, text = action.player, action.text
        else:
            text = str(action)
            player = self.current_player()
            if ": " in text and text.split(": ", 1)[0] in ("chance", *self.setup.seat_names):
                who, text = text.split(": ", 1)
                player = self.player_index(who)
        if self.terminal:
            raise IllegalAction(Diagnostic(Position(self.game.id), f"the game is over; '{text}' cannot be applied"))
        pending = self.pending
        if pending is not None and pending.player == player:
            for i, o in enumerate(pending.choices):
                if o[0] == text:  # an option is only found in a pending decision
                    self.apply_option(i)
                    return
        option = None
        for o in self._anytime_options(player):
            if o.text == text:
                option = o
                break
        if option is None:
            raise _illegal(self, text, player)
        self.fired = []
        if self.at_once:
            self.at_once = []
        self.pending = None
        local = dict(option.params)
        local["me"] = player
        self.frames.append([self.game.actions[option.action].code_id, 0, local])
        self._record(player, option.action, text)
        self.game.flow.run(self)

    def _record(self, player: int, action_id: str, text: str) -> None:
        if action_id in self.game.secret_actions:
            self.sealed.append(len(self.history))
        self.history.append(f"{self.setup.seat_names[player] if player >= 0 else self.player_name(player)}: {text}")

    def record_view(self, player: int) -> list[str]:
        """The history as `player` may see it: others' secret commitments of the phase stay sealed."""
        sealed = set(self.sealed)
        out = []
        for i, entry in enumerate(self.history):
            who = entry.split(": ", 1)[0]
            out.append(f"{who}: (sealed)" if i in sealed and who != self.player_name(player) else entry)
        return out

    def apply_option(self, index: int) -> None:
        """Fast path for simulation: apply the pending decision's option number `index`."""
        pending = self.pending
        assert pending is not None, "apply_option: no decision is pending"  # the caller's contract
        option = pending.choices[index]  # (a plain tuple: Option's fields in order)
        # the answer handed to the waiting instruction (it reads it when the program resumes)
        self.fired = []
        if self.at_once:
            self.at_once = []
        self.pending = None
        if pending.kind == "chance":
            self.frames[-1][2]["$chance"] = option[2]["value"]
        else:
            self.frames[-1][2]["$answer"] = option
        player = pending.player
        if option[1] in self.game.secret_actions:
            self.sealed.append(len(self.history))
        self.history.append((self.setup.seat_names[player] if player >= 0 else self.player_name(player)) + ": " + option[0])
        self.game.flow.run(self)

    def clone(self) -> "StateAPI":
        return self.copy()

    def resample(self, player: int, rng) -> "StateAPI":
        """A state `player` cannot tell from this one, all it cannot see drawn afresh (engine/resample.py),
        keeping everything it has seen along the game, read off this state's seed and history
        (engine/seen.py)."""
        from .seen import resample_seen
        return resample_seen(self, player, rng)

    # -------------------------------------------------------------- results
    def scores(self) -> list:
        if self.game.score_fn is None:
            return [0] * self.n
        return [self._score_keys(p)[0] for p in range(self.n)]

    def _score_keys(self, p: int) -> tuple:
        env = {"p": p, "me": None}
        self.game.fresh_work()
        try:
            score = self.game.score_fn(self, env) if self.game.score_fn else 0
            return (score, *[f(self, env) for f in self.game.tiebreak_fns])
        except LegesError:
            raise
        except Exception as exc:
            from .failures import describe_failure, failure_hint
            raise LegesError(Diagnostic(self.game.score_position or Position(self.game.ruleset_file),
                                        f"scoring failed: {describe_failure(exc)}", failure_hint(exc))) from None

    def ranking(self) -> list[list[int]]:
        """Players grouped by place: [[winner(s)], [second(s)], ...]; ties share a place."""
        keys = {p: self._score_keys(p) for p in range(self.n)}
        places: list[list[int]] = []
        for p in sorted(range(self.n), key=lambda p: keys[p], reverse=True):
            if places and keys[places[-1][0]] == keys[p]:
                places[-1].append(p)
            else:
                places.append([p])
        return places

    def returns(self) -> list[float]:
        """+1 for a sole winner ... -1 for a sole loser: (players beaten - players ahead) / (n - 1)."""
        if not self.terminal or self.unfinished or self.n < 2:
            return [0.0] * self.n
        places = self.ranking()
        result = [0.0] * self.n
        ahead = 0
        for group in places:
            behind = self.n - ahead - len(group)
            for p in group:
                result[p] = (behind - ahead) / (self.n - 1)
            ahead += len(group)
        return result

    def heuristic(self, name: str | None = None) -> list[float]:
        """Each player's estimated value by the ruleset's heuristic `name` (default: its first).

        A finished game is valued by its result instead: a large bonus by `returns()` on top of
        the heuristic, so that a look-ahead prefers a won game to any estimate.
        """
        fns = self.game.heuristics
        if not fns:
            raise LegesError(Diagnostic(Position(self.game.ruleset_file), "this ruleset declares no heuristics",
                                        "declare one under `heuristics:` (a value per player `p`)"))
        if name is None:
            name = next(iter(fns))
        fn = fns.get(name)
        if fn is None:
            from ..text.errors import did_you_mean
            raise LegesError(Diagnostic(Position(self.game.ruleset_file), f"no heuristic named '{name}'",
                                        did_you_mean(name, fns) or "heuristics: " + ", ".join(fns)))
        self.game.fresh_work()
        try:
            values = [float(fn(self, {"p": p, "me": None})) for p in range(self.n)]
        except LegesError:
            raise
        except Exception as exc:
            from .failures import describe_failure, failure_hint
            raise LegesError(Diagnostic(self._where(f"heuristic:{name}"), f"heuristic '{name}' failed: {describe_failure(exc)}",
                                        failure_hint(exc))) from None
        if self.terminal and not self.unfinished:
            bonus = 1_000_000.0
            values = [v + bonus * r for v, r in zip(values, self.returns())]
        return values

    def _where(self, key: str) -> Position:
        return self.game.positions.get(key) or Position(self.game.ruleset_file)

    def statistics(self) -> dict:
        """The ruleset's `statistics:` measured at the end, now: {id: value} or {id: [value per player]}."""
        return {sid: self.measure(sid, fn, per_player) for sid, per_player, fn in self.game.statistics}

    def measure(self, sid: str, fn, per_player: bool):
        """One statistic's value now (a number, or one a player), its failure located at the statistic."""
        self.game.fresh_work()
        try:
            values = [_number(fn(self, {"p": p, "me": None})) for p in range(self.n)] if per_player \
                else [_number(fn(self, {"me": None}))]
        except LegesError:
            raise
        except Exception as exc:
            from .failures import describe_failure, failure_hint
            raise LegesError(Diagnostic(self._where(f"statistic:{sid}"),
                                        f"statistic '{sid}' failed: {describe_failure(exc)}", failure_hint(exc))) from None
        for v in values:
            if v.__class__ not in (int, float):
                raise LegesError(Diagnostic(self._where(f"statistic:{sid}"),
                                            f"statistic '{sid}' gave {_kind(v)}, not a number",
                                            "a statistic is a number or a truth value in every position"))
        return values if per_player else values[0]

    # ---------------------------------------------------------- observation
    def observation(self, player: int) -> dict:
        """What `player` may see: hidden zones show only how many items they hold."""
        setup = self.setup
        labels = setup.clabel
        zones: dict[str, list[str] | dict[str, Any]] = {}
        for key in setup.zone_order:
            items = self.zones[key]
            vis = setup.zone_visibility.get(key, "all")
            owner = setup.zone_owner.get(key)
            if vis == "all" or (vis == "owner" and owner == player):
                if not items and key not in setup.zone_kind:
                    continue  # empty board space
                visible = [labels[c] for c in items]
                if setup.zone_kind.get(key, "set") in ("bag", "set"):
                    visible.sort()
                zones[key] = visible
            elif vis == "top":
                zones[key] = {"count": len(items), "top": labels[items[-1]] if items else None}
            else:
                zones[key] = {"count": len(items)}
        variables = {}
        for name, value in self.vars.items():
            vis = self.game.variable_visibility.get(name, "all")
            if vis == "hidden":
                continue
            if vis == "owner" and isinstance(value, list) and len(value) == self.n:
                value = [v if i == player else "?" for i, v in enumerate(value)]
            variables[name] = value
        view = {
            "ruleset": self.game.id, "you": self.player_name(player), "phase": self.phase,
            "turn": self.player_name(self.turn_player), "to_move": self.player_name(self.current_player()),
            "zones": zones, "vars": variables, "log": self.log[-10:],
        }
        if self.pending is not None and self.pending.player == player:
            view["options"] = [o.text for o in self.pending.options]
        if self.terminal:
            view["scores"] = self.scores()
        return view

    def observation_string(self, player: int) -> str:
        return json.dumps(self.observation(player), sort_keys=True)

    def __str__(self) -> str:
        lines = [f"phase {self.phase}, turn of {self.player_name(self.turn_player)}, "
                 f"to move: {self.player_name(self.current_player())}"]
        for key in self.setup.zone_order:
            items = self.zones[key]
            if items:
                lines.append(f"  {key}: " + " ".join(shown(self.setup.clabel[c], 60) for c in items))
        for name, value in self.vars.items():
            lines.append(f"  {name} = {json.dumps(value)}")
        return "\n".join(lines)


def _number(value: object) -> object:  # a truth value as 0 or 1; anything else as it is (checked by measure)
    return int(value) if isinstance(value, bool) else value


def _kind(value) -> str:
    return "none" if value is None else f"a {type(value).__name__.replace('str', 'string')}"
