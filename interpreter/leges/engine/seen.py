"""What each seat has seen, read off the state itself: its seed and its history.

Why: `state.resample(player, rng)` must draw only worlds the seat cannot rule out, for whoever
calls it — an agent, an adapter, a researcher's script — and not only for callers that kept a
memory beside the state (knowledge.py `SeatMemories`, kept by the simulator and the page): drawn
from what the seat sees now, a world re-dealt the cards it watched go under the top of a discard
pile. A state holds everything needed to know what each seat was shown: play is deterministic
from its seed (the game's own generator lives in the state), and its history holds every action
taken. So the game is replayed from the seed, each step traced as `SeatMemories` traces a real
game (the components put where a seat sees them, shown on the top of a `top` pile, revealed, named
by a public action's text; forgotten when they move out of its sight), and the state's worlds are
pinned as an agent's are (`Knowledge.pins`).

Replaying costs what playing did, and a caller may resample thousands of times a decision, so
what the replay found is kept on the state (`seen_by`: derived, never saved; a copy shares it),
with the replay itself: a longer history continues from the one it extends, so along a game each
action is replayed once. A world drawn from a state carries its seats' pins for its own history
(its seed is gone: it cannot be replayed, and its history would give the real game).

A state that its history does not give — a position set up by a program (`state_from_json(...,
edited=True)`), a world that has been played on — keeps only what the seat sees now.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..text.errors import LegesError
from .action import Action
from .knowledge import SeatMemories
from .resample import NO_PINS, Pins, resample

# A game state (engine/state.py), named but not imported: the state calls into this module.
State = Any


@dataclass(frozen=True, eq=False)
class SeenBy:
    """What every seat had seen when the state's history was `history` (a value: never changed)."""
    key: tuple | None  # (players, seed, explicit chance, forced moves, game) replayed; None: a drawn world's
    history: list[str]  # the history it was read off
    pins: tuple[Pins, ...]  # a seat's worlds keep these: what it has seen
    replay: Any = None  # the game replayed to `history`, to continue from (None: it cannot be)
    memories: SeatMemories | None = None  # what each seat had seen there, to continue from

    def fits(self, st: State) -> bool:
        """Whether this is what `st`'s seats have seen (a drawn world's: the world's own history)."""
        if self.key is None:
            return len(st.history) == len(self.history)
        return self.key == _key(st) and st.history == self.history


def seen_pins(st: State, player: int) -> Pins:
    """The pins of a world `player` cannot tell from `st`, read off `st`'s seed and history."""
    return seen_by(st).pins[player]


def resample_seen(st: State, player: int, rng: random.Random) -> State:
    """`state.resample`: a world keeping everything `player` has seen; the world carries its seats'
    pins for its own history (it cannot be replayed)."""
    record = seen_by(st)
    world = resample(st, player, rng, record.pins[player])
    world.seen_by = record if record.key is None else SeenBy(None, record.history, record.pins)
    return world


def seen_by(st: State) -> SeenBy:
    """What every seat of `st` has seen, kept on it (`st.seen_by`) until its history grows."""
    record = st.seen_by
    if record is not None and record.fits(st):
        return record
    record = _read(st, record)
    st.seen_by = record
    return record


def _key(st: State) -> tuple:
    return st.n, st.seed, st.explicit_chance, st.forced_moves, id(st.game)


def _read(st: State, before: SeenBy | None) -> SeenBy:
    """Replay `st`'s history from its seed, tracing what each seat is shown, continuing from
    `before` when `st`'s history extends the one it was read off; a state its history does not
    give gets no memory (only what its seats see now)."""
    key, history = _key(st), st.history
    if st.seed == -1:  # a drawn world (resample.py): its seed would not give it
        return _unknown(st, key)
    if (before is not None and before.replay is not None and before.key == key
            and len(before.history) <= len(history) and history[:len(before.history)] == before.history):
        replay, memories = before.replay.copy(), _copy_memories(before.memories)
        done = len(before.history)
    else:
        try:
            replay = st.game.new_initial_state(players=st.n, seed=st.seed, explicit_chance=st.explicit_chance,
                                               forced_moves=st.forced_moves, run=False, budget=st.budget)
            memories = SeatMemories(st.n)
            memories.set_up(replay)
        except LegesError:
            return _unknown(st, key)
        done = 0
    try:
        for entry in history[done:]:
            who, text = entry.split(": ", 1)
            action = Action(replay.player_index(who), text)
            memories.step(replay, lambda action=action: replay.apply_action(action), action)
    except (LegesError, ValueError):
        return _unknown(st, key)
    if not _same(replay, st):
        return _unknown(st, key)
    pins = tuple(memory.pins(rng=False) for memory in memories.seats)
    return SeenBy(key, list(history), pins, replay, memories)


def _same(replay: State, st: State) -> bool:
    """Whether the replay is the state (its history gives it), as far as where things are."""
    return (replay.history == st.history and replay.rng == st.rng and replay.zones == st.zones
            and replay.vars == st.vars and replay.terminal == st.terminal)


def _unknown(st: State, key: tuple) -> SeenBy:
    """A state its history does not give: its seats' worlds keep only what they see now."""
    return SeenBy(key, list(st.history), (NO_PINS,) * st.n)


def _copy_memories(memories: SeatMemories | None) -> SeatMemories:
    assert memories is not None  # (a record with a replay has its memories)
    out = SeatMemories(len(memories.seats))
    for mine, theirs in zip(out.seats, memories.seats):
        mine.fixed, mine.known = set(theirs.fixed), set(theirs.known)
    return out
