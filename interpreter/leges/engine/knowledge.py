"""What each seat has seen of the components, step by step: for the leak check (leaks.py), for the
memories of whoever plays a real game (`SeatMemories`), and for `state.resample`, which reads it
off the state's own history (engine/seen.py).

A seat legitimately learns a component's identity when the rules put it where the seat can see
it — into a zone visible to it, onto the top of a `top` zone, into a `reveal` — or when an action
whose text is public names it. It may learn it for a moment only: a card drawn face up and taken
into a hidden hand in one step was seen, and a log line or a variable naming it afterwards is no
leak. So what a seat was shown is traced through each step (`run`), not read off the state at its
end, and remembered over the game (`Knowledge`): the worlds the leak check compares are drawn
keeping what the seat has seen (engine/resample.py `Pins`).

Remembering errs on the side of keeping: a seen component keeps its place until a shuffle of the
zone it lies in, and its identity for the rest of the game. So a leak about a component the seat
has once seen is not sought; no false alarm comes of what it remembers.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from ..text.errors import LegesError
from .action import Action
from .decision import Option
from .readable import read_components
from .resample import Pins

# A game state (engine/state.py), named but not imported: `state.resample` reads what each seat has
# seen off the state's history through this module (engine/seen.py), so importing the state back
# would close a cycle. The tracing class is made from the state's own class when first needed.
State = Any

# One traced event: ("to", c, zone, source, top) c was put from source (off its top, if top) into
# zone; ("top", c, zone) c lies on top of a `top` zone; ("shuffle", zone, items) these items of
# zone were shuffled; ("reveal", text, components) a `reveal` line showing these components.
Event = tuple


class _Sink(threading.local):
    """Where the traced events of the step running in this thread go: a step traced while another
    is (a world read off a history while a real step is traced, engine/seen.py) or in another
    thread (tables of the page) gets a list of its own."""
    events: list[Event] | None = None


_sink = _Sink()


def _note(event: Event) -> None:
    events = _sink.events
    if events is not None:
        events.append(event)


_TRACED: dict[type, type] = {}  # a state's class → its tracing subclass


def _traced_class(base: Any) -> type:
    """A subclass of the state's class `base` that notes where its components go while its rules
    run (the events above); a state's class is swapped for it for one step, so play that nobody
    traces (a search's play-outs) pays nothing."""
    found = _TRACED.get(base)
    if found is not None:
        return found

    def place(self, c: int, zone: str, index: int | None) -> None:
        source = self.where[c]
        top = self.zones[source][-1] == c
        base.place(self, c, zone, index)
        _note(("to", c, zone, source, top))
        tops(self, source, zone)

    def stack(self, source: str, dest: str, bottom: bool) -> None:
        if source == dest:
            return
        items = list(self.zones[source])
        base.stack(self, source, dest, bottom)
        for i, c in enumerate(items):
            _note(("to", c, dest, source, i == len(items) - 1))
        tops(self, source, dest)

    def shuffle_range(self, fr: list, key: str, zone: str, lo: int, hi: int) -> bool:
        done = base.shuffle_range(self, fr, key, zone, lo, hi)
        _note(("shuffle", zone, tuple(self.zones[zone][lo:hi])))
        tops(self, zone)
        return done

    def reveal(self, text: str, components: tuple) -> None:
        base.reveal(self, text, components)
        _note(("reveal", text, components))

    def tops(self, *zones: str) -> None:
        visibility = self.setup.zone_visibility
        for zone in zones:
            items = self.zones[zone]
            if items and visibility.get(zone) == "top":
                _note(("top", items[-1], zone))

    found = _TRACED[base] = type("_Traced", (base,), {
        "__slots__": (), "place": place, "stack": stack, "shuffle_range": shuffle_range, "reveal": reveal})
    return found


def run(st: State, action: Action | None) -> tuple[State | None, list[Event]]:
    """A copy of `st` after `action` (None: after its set-up), and the events of that step; the
    copy is None when the action is not legal there."""
    after = st.copy()

    def apply() -> None:
        if action is None:
            after.game.flow.run(after)
        else:
            after.apply_action(action)
    try:
        events = traced(after, apply)
    except LegesError:
        return None, []
    return after, events


def visible(st: State, zone: str, player: int) -> bool:
    """Whether `player` sees what is put into `zone` (a `top` zone: only its top, traced apart)."""
    vis = st.setup.zone_visibility.get(zone, "all")
    return vis == "all" or (vis == "owner" and st.setup.zone_owner.get(zone) == player)


def _shows(st: State, event: Event, player: int) -> bool:
    """Whether the event shows `player` a component (one going into or out of its view, a reveal)."""
    kind = event[0]
    if kind == "to":
        return (visible(st, event[2], player) or visible(st, event[3], player)
                or event[4] and st.setup.zone_visibility.get(event[3]) == "top")
    return kind == "reveal" or kind == "top"


def _components(event: Event) -> tuple:
    return event[2] if event[0] == "reveal" else (event[1],)


def seen(st: State, events: list[Event], player: int) -> set[int]:
    """The components `player` was shown in these events."""
    return {c for event in events if _shows(st, event, player) for c in _components(event)}


def named(st: State, action: Action, option: Option | None) -> set[int]:
    """The components a public action's text names (its chosen options' values that are components)."""
    if option is None or (st.game.actions.get(option.action) is not None and st.game.actions[option.action].secret):
        return set()
    labels = st.setup.clabel
    values = []
    for value in option.params.values():
        values.extend(value if isinstance(value, list) else [value])
    return {v for v in values if v.__class__ is int and 0 <= v < len(labels) and labels[v] in action.text}


def learned(before: State, after: State, events: list[Event], player: int) -> tuple:
    """What `player` learned in a step, as it can be compared between two worlds: what it was shown
    (components by place and label, `reveal`ed lines), the zones it sees at the end and the sealed
    choices of others that were unsealed."""
    labels = after.setup.clabel
    shown = tuple(event[1] if event[0] == "reveal" else (event[2], labels[event[1]])
                  for event in events if _shows(after, event, player))
    still = set(after.sealed)
    unsealed = tuple(after.history[i] for i in before.sealed if i not in still)
    return shown, after.observation(player)["zones"], unsealed


@dataclass
class Knowledge:
    """The components one seat has seen: `fixed` where they are, `known` what they are.

    `forgets`: a component moved where the seat sees neither whence nor whither is forgotten
    (`_lose_sight`) — an agent's memory (`SeatMemories`) must, or the worlds it searches would put
    it where it really went. The leak check keeps it (`forgets=False`): a
    memory that errs on the side of keeping raises no false alarm there."""
    player: int
    fixed: set[int] = field(default_factory=set)
    known: set[int] = field(default_factory=set)
    forgets: bool = False

    def pins(self, also: frozenset[int] | set[int] = frozenset(), secrets: bool = False, rng: bool = True,
             read: bool = True) -> Pins:
        """The pins of a world this seat cannot tell from the real one, where it will also see `also`
        (`rng`: the random generator kept — the leak check's worlds — or drawn afresh — an agent's;
        `read`: the components named by variables the seat sees kept too — an agent's worlds, not the
        leak check's, which tests whether a variable may name them)."""
        return Pins(fixed=frozenset(self.fixed | also), known=frozenset(self.known), secrets=secrets, rng=rng,
                    read=read)

    def learn(self, st: State, events: list[Event], action: Action | None = None, option: Option | None = None) -> None:
        """Take in a step of the real game (`st` the state after it)."""
        for event in events:
            if event[0] == "shuffle":
                moved = self.fixed.intersection(event[2])
                self.fixed -= moved
                self.known |= moved
            elif _shows(st, event, self.player):
                self.fixed.update(_components(event))
            elif self.forgets and event[0] == "to":
                self._lose_sight(st, event[1], event[3], event[4])
        if action is not None:
            self.fixed |= named(st, action, option)
        self.known -= self.fixed

    def _lose_sight(self, st: State, c: int, source: str, top: bool) -> None:
        """`c` went from `source` to a place, neither of which the seat sees: it no longer knows
        where `c` is, nor — unless `c` came off the top of a stack (a deck or pile, drawn from the
        top) — which of the components it had placed in `source` left, so all of them are forgotten.

        Why not keep what they are: a world keeps a known component in the zone it really lies in
        (only its hidden stretch is reordered), so the worlds would show where it really went; and
        a component never seen that became known by moving unseen would keep its identity in every
        world — every card dealt face down to an opponent, every hidden pile dealt from a deck.
        Forgetting errs towards worlds the seat might rule out, never towards showing it the truth."""
        gone = {c}
        if not (top and st.setup.zone_kind.get(source) in ("deck", "pile")):
            gone |= (self.fixed | self.known).intersection(st.zones[source])
        self.fixed -= gone
        self.known -= gone


def traced(st: State, apply: Callable[[], None]) -> list[Event]:
    """Run `apply()` on `st` itself, tracing where its components go: the events of the step."""
    before = st.__class__
    outer = _sink.events
    events: list[Event] = []
    st.__class__ = _traced_class(before)
    _sink.events = events
    try:
        apply()
    finally:
        st.__class__ = before
        _sink.events = outer
    return events


class SeatMemories:
    """What every seat of a real game has seen, kept along the game by whoever plays it (the
    simulator, the page's server), so that the worlds an agent searches keep every fact its seat
    has observed: a card it watched go under the top of a pile is still there, a card it saw an
    opponent take is in that opponent's hand (`View(..., knowledge=)`, `Knowledge.pins`)."""

    def __init__(self, players: int):
        self.seats = [Knowledge(p, forgets=True) for p in range(players)]

    def set_up(self, st: State) -> None:
        """Run the set-up of `st` (made with run=False), taking in what each seat was shown."""
        self._learn(st, traced(st, lambda: st.game.flow.run(st)))

    def step(self, st: State, apply, action: Action | None = None) -> None:
        """Run `apply()` — one step of `st`: `action`, or a chance outcome — each seat taking it in."""
        pending = st.pending
        option = next((o for o in pending.options if o.text == action.text), None) \
            if action is not None and pending is not None and pending.player == action.player else None
        self._learn(st, traced(st, apply), action, option)

    def _learn(self, st: State, events: list[Event], action=None, option=None) -> None:
        for memory in self.seats:
            memory.learn(st, events, action, option)
            # a component a variable it sees names is one it knows, even once the variable names
            # another (readable.py); not in the leak check's memory, which tests those variables
            memory.known |= read_components(st, memory.player) - memory.fixed
