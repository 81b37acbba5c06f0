"""The game state: plain data (zones, variables, the program stack, the pending decision).

Everything here serialises to JSON and back; `copy()` is cheap (a few dict and list copies).
Rules run as programs whose frames `[code id, instruction index, locals]` sit in `frames`; when
a player must decide, `pending` holds the decision and its options explicitly.
"""
from __future__ import annotations

import json
from typing import Any

from ..lang.optimise.memo import TURN_ID, Read
from ..lang.codegen.runtime import RuleMisuse
from . import rng as R
from .api import StateAPI
from .constants import CHANCE, MISSING, TERMINAL  # noqa: F401  (re-exported)
from .board_index import board_index, moved_on_or_off
from .decision import Pending
from .state_data import copy_state, load_saved, saved_dict

LOG_LIMIT = 200


class State(StateAPI):
    """A game state: the fields of engine/state_data.py; the operations the rules' compiled code
    calls (zones, properties, chance, triggers, the flow's bookkeeping); the public methods of
    engine/api.py."""

    __slots__ = ()

    # ---------------------------------------------------------- zone operations
    def place(self, c: int, zone: str, index: int | None) -> None:
        """Move component c from wherever it is into `zone` (on top, or at list index `index`).

        The memoised functions that read where components of c's type are forget their values;
        those that only look at the board keep them unless the move touches a board space.
        """
        source = self.where[c]
        spaces = self.setup.spaces
        memo = self.memo
        slots = self.game.place_slots[self.setup.ctype[c]]
        board = zone in spaces or source in spaces
        for i in slots[board]:
            memo[i] = {}
        if board:
            if slots[2]:
                self._forget_near(slots[2], source, zone)
            onto = zone in spaces
            if self.game.index_board and onto != (source in spaces):
                setup = self.setup
                moved_on_or_off(self.aboard, c, setup.ctype[c], setup.cowner[c], onto)
        zone_ids, key_slots = self.setup.zone_ids, self.game.key_slots
        for key in (zone_ids[source], zone_ids[zone]):
            for i in key_slots[key]:
                memo[i] = {}
        owned = self.owned
        old = self.zones[source] if source in owned else self.writable(source)
        if old and old[-1] == c:
            old.pop()
        else:
            old.remove(c)
        target = self.zones[zone] if zone in owned else self.writable(zone)
        if index is None:
            target.append(c)
        else:
            target.insert(index, c)
        self.where[c] = zone

    def stack(self, source: str, dest: str, bottom: bool) -> None:
        if source == dest:
            return
        items = self.zones[source]
        self.moved({self.setup.ctype[c] for c in items}, source in self.setup.spaces or dest in self.setup.spaces)
        self.changed(self.setup.zone_ids[source])
        self.changed(self.setup.zone_ids[dest])
        if bottom:
            self.writable(dest)[0:0] = items
        else:
            self.writable(dest).extend(items)
        for c in items:
            self.where[c] = dest
        self.zones[source] = []
        self.owned.add(source)
        if self.game.index_board and (source in self.setup.spaces or dest in self.setup.spaces):
            self.aboard = board_index(self)

    def deal(self, source: str, zones: list, rounds: int) -> None:
        """`deal N from SOURCE to ZONES`: one item at a time round the zones, N rounds, until the source is empty."""
        for _ in range(rounds):
            for z in zones:
                items = self.zones[source]
                if not items:
                    return
                self.place(items[-1], z, None)

    def writable(self, zone: str) -> list[int]:
        """The list of `zone`, this state's own to change: a copy shares every zone's list with the
        state it was copied from (copying thousands of mostly empty zones was most of a copy's cost,
        and a search copies a state every iteration) until one of them changes it."""
        items = self.zones[zone]
        if zone not in self.owned:
            items = self.zones[zone] = list(items)
            self.owned.add(zone)
        return items

    def _forget_near(self, near: tuple, *places: str) -> None:
        """Forget the values of near slots (memo.py) for spaces near the board spaces among `places`.

        A slot shared with a copy is copied first: what the other state holds stays valid for it.
        An empty one too (replaced by an empty dict of its own): values computed from now on hold
        for this state only, and filled into a shared dict they would be served to the other.
        """
        memo = self.memo
        private = self.private
        within = self.game.board.within
        spaces = self.setup.spaces
        for slot, index, radius in near:
            values = memo[slot]
            if slot not in private:
                values = memo[slot] = dict(values) if values else {}
                private.add(slot)
            if not values:
                continue
            gone = set()
            for place in places:
                if place in spaces:
                    gone |= within(place, radius)
            if index is None:
                for key in gone:
                    values.pop(key, None)
            else:
                for key in [k for k in values if k[index] in gone]:
                    del values[key]

    def moved(self, types, on_spaces: bool) -> None:
        """Components of these types moved or were reordered (on the board too, if `on_spaces`)."""
        memo = self.memo
        table = self.game.place_slots
        for t in types:
            slots = table[t]
            for i in slots[on_spaces]:
                memo[i] = {}
            if on_spaces:
                for i, _, _ in slots[2]:
                    memo[i] = {}

    def changed(self, key: int) -> None:
        """Something other than a component's place changed (a variable, a property, the turn):
        the memoised functions that read it forget their values (`key`: the id of its read key,
        lang/optimise/memo.py; `game.var_ids` and the like give them)."""
        memo = self.memo
        for i in self.game.key_slots[key]:
            memo[i] = {}

    def set_space_prop(self, space: str, name: str, value: Any) -> None:
        """A rule sets a changing property of a board space: functions reading it forget their values
        (those reading it only near a space, only for spaces near this one)."""
        self.changed(self.game.sprop_ids[name])
        near = self.game.prop_near_slots.get(name)
        if near:
            self._forget_near(near, space)
        self.sprops.setdefault(space, {})[name] = value

    def forget_cached(self, identities_changed: bool = False) -> None:
        """Forget every memoised value (after the state was changed from outside the rules); values of
        functions that read nothing changing are kept, shared by all states of the game — unless
        components traded identities (a resampled world): then even those may differ here."""
        shared = {} if identities_changed else self.game.shared_slots(self.n)
        self.memo = [shared[i] if i in shared else {} for i in range(self.game.memo_size)]
        self.private = set(range(self.game.memo_size))

    def grow_memo(self) -> None:
        """The memo grown to the game's size: expressions compiled since this state began (a
        scenario's, an explanation's) may call functions no rule had called with such arguments."""
        size = self.game.memo_size
        if len(self.memo) < size:
            self.private.update(range(len(self.memo), size))
            self.memo.extend({} for _ in range(size - len(self.memo)))

    def forget_redealt(self, keys: frozenset[Read] | None) -> None:
        """After a re-deal (engine/resample.py) that changed what `keys` name (memo.py's read keys;
        None: it cannot say), forget the values of the functions reading any of it. The others are
        the same in this world as in the one it was drawn from, and stay shared with it."""
        if keys is None:
            self.forget_cached(identities_changed=True)
            return
        memo, private = self.memo, self.private
        for i in self.game.slots_reading(keys):
            memo[i] = {}
            private.add(i)

    def drop_out(self, player: int) -> None:
        """The player takes no more turns in the current phase (`drop out`)."""
        if player.__class__ is not int or not 0 <= player < self.n:
            raise TypeError("not a player")
        if player not in self.dropped:
            self.changed(TURN_ID)
            self.dropped = self.dropped + [player]

    def set_cprop(self, c: int, name: str, value: Any) -> None:
        self.changed(self.game.cprop_ids[name])
        self.cprops.setdefault(c, {})[name] = value

    # --------------------------------------------------------------- randomness
    def rand_below(self, n: int) -> int:
        self.rng, value = R.below(self.rng, n)
        return value

    def random_item(self, fr: list, key: str, items: list, saved: Any, fmt=None):
        """A uniformly random item: sampled now, or (explicit chance) a chance decision first."""
        if not self.explicit_chance:
            return items[self.rand_below(len(items))]
        env = fr[2]
        answer = env.pop("$chance", MISSING)
        if answer is not MISSING:
            return answer
        if saved is not None:
            env[key] = saved
        self.suspend(CHANCE, "chance", self._chance_options(items, fmt))
        return MISSING

    def _chance_options(self, items: list, fmt=None) -> list:
        label = fmt or (lambda st, v: st.setup.clabel[v])
        groups: dict[str, list] = {}
        for item in items:
            text = label(self, item)
            if text in groups:
                groups[text][4] += 1
            else:
                groups[text] = [f"chance {text}", "$chance", {"value": item}, {}, 1]
        total = len(items)
        return [(o[0], o[1], o[2], o[3], o[4] / total) for o in groups.values()]

    def shuffle_range(self, fr: list, key: str, zone: str, lo: int, hi: int) -> bool:
        """Shuffle positions lo..hi-1 of a zone. False when waiting for an explicit chance outcome."""
        items = self.writable(zone)
        # the order of these types' items changes
        self.moved({self.setup.ctype[c] for c in items[lo:hi]}, zone in self.setup.spaces)
        self.changed(self.setup.zone_ids[zone])
        if not self.explicit_chance:
            for i in range(hi - 1, lo, -1):
                j = lo + self.rand_below(i - lo + 1)
                items[i], items[j] = items[j], items[i]
            return True
        env = fr[2]
        i = env.pop(key, hi - 1)
        answer = env.pop("$chance", MISSING)
        while i > lo:
            if answer is MISSING:
                env[key] = i
                self.suspend(CHANCE, "chance", self._chance_options(items[lo:i + 1]))
                return False
            j = items.index(answer, lo, i + 1)
            items[i], items[j] = items[j], items[i]
            answer = MISSING
            i -= 1
        return True

    # ------------------------------------------------------------------ events
    def fire(self, event: str, args: dict, me: Any) -> bool:
        """Push the frames of the triggers listening to `event` whose condition holds."""
        self.fired.append(event)
        triggers = self.game.listeners.get(event)
        if not triggers:
            return False
        matched = []
        for trigger in triggers:
            env = dict(args)
            env["me"] = me
            if trigger.condition is None or trigger.condition(self, env):
                matched.append([trigger.code_id, 0, env])
        for frame in reversed(matched):
            self.frames.append(frame)
        return bool(matched)

    def suspend(self, player: int, kind: str, options: list) -> None:
        self.pending = Pending(player, kind, options)

    def log_line(self, text: str) -> None:
        self.log.append(text)
        if len(self.log) > LOG_LIMIT:
            del self.log[: len(self.log) - LOG_LIMIT]

    def reveal(self, text: str, components: tuple) -> None:
        """`reveal`: a log line that shows these components to every player. A method of its own so
        that the leak check (leaks.py) can tell news the rules announce from a line that leaks."""
        self.log_line(text)

    # ------------------------------------------------------------ flow control
    def goto(self, phase: str) -> None:
        self._not_in_setup("goto")
        self.frames.clear()
        self.next_phase = phase
        if self.flow != "end":
            self.game.flow.end_phase(self)

    def end(self, what: str) -> None:
        if what == "game":
            self.frames.clear()
            self.game.flow.finish(self)
        elif what == "phase":
            self._not_in_setup("end phase")
            self.frames.clear()
            if self.flow != "end":
                self.game.flow.end_phase(self)
        else:
            if self.flow != "turn":
                raise RuleMisuse("`end turn` used outside a turn",
                                 "end turn belongs in a phase's turn, or in what runs during one (an action, a trigger)")
            self.frames.clear()

    def _not_in_setup(self, statement: str) -> None:
        if self.flow == "setup":
            raise RuleMisuse(f"`{statement}` used in setup, before the first phase began",
                             "setup prepares the game; the phases follow it in the order declared")

    # ----------------------------------------------------------- serialisation
    copy = copy_state  # generated from the fields' table (state_data.py): as fast as written by hand

    def __deepcopy__(self, memo) -> "State":  # copy.deepcopy (OpenSpiel clones a wrapped state so): the game is shared
        return self.copy()

    def to_dict(self) -> dict:
        return saved_dict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, game, data: dict) -> "State":
        """The state `data` holds (checked before: engine/saved_state.py)."""
        s = State.__new__(State)
        s.game = game
        load_saved(s, data)
        s.setup = game.setup_for(s.n)
        s.where = [""] * len(s.setup.ctype)
        for key, items in s.zones.items():
            for c in items:
                s.where[c] = key
        s.aboard = board_index(s)
        s.budget, s.spent = game.budget, [0, 0.0]  # what a game spent is not saved: it begins afresh
        s.seen_by = None  # read off the history again when asked (engine/seen.py)
        s.forget_cached()
        return s
