"""The parts of an OpenSpiel state that are not OpenSpiel's: what it holds (`Inner`, shared copy on
write between clones), how that is pickled and read back, and the observer. Apart from
adapters/openspiel.py so that each module stays small enough to read in one sitting.
"""
from __future__ import annotations

import copy
import json

import numpy as np

from ..engine.knowledge import SeatMemories
from ..engine.pending import recompute_pending
from ..text.errors import Diagnostic, LegesError, Position

new_inner = object.__new__

class Inner:
    """What an OpenSpiel state holds: its whole `__dict__` is one of these, `_s`.

    Copy on write: OpenSpiel's `clone()` of a Python state makes a new state (`new_initial_state`)
    and sets into it `copy.deepcopy` of each entry of the old one's `__dict__`. The deep copy of an
    `Inner` is the `Inner` itself, marked not owned: the two states share it, and the first of them
    to change copies the Leges state into an `Inner` of its own (`LegesState._own`). A clone thus
    costs OpenSpiel's fixed cost of cloning a Python state and no copy; the copy comes with the
    first action applied to either state (benchmarks/adapter_clone.py measures both). What a shared
    `Inner` may still change is the same for every state sharing it: the legal-ids cache (keyed by
    the position) and the flags `owned` and `shared`, which only ever make a later change copy."""

    __slots__ = ("game", "legal", "memories", "owned", "shared", "st", "world")
    legal: tuple[tuple[int, int, bool], dict[int, str]] | None  # (history length, player, over), the ids then legal

    def __init__(self, game, st, memories, owned: bool = True, world: bool = False):
        self.game, self.st, self.memories, self.legal = game, st, memories, None
        # a world drawn by resample_from_infostate: its hidden items were drawn again, so its history
        # replayed from its seed gives another state (restored with `edited=True`, see __reduce__)
        self.world = world
        self.shared = memories is not None and not owned  # the memories are another's too: copied before a step
        self.owned = owned  # False: `st` may be another state's too, copied before it changes

    def __deepcopy__(self, memo=None):
        self.owned = False
        return self

    def __reduce__(self):
        memories = [(k.player, sorted(k.fixed), sorted(k.known)) for k in self.memories.seats] \
            if self.memories is not None else None
        st = self.st
        redeal = None
        if self.world and st.setup is not self.game.leges.setup_for(st.n):
            # the re-deal lives in the world's setup (which hidden component carries which label:
            # engine/resample.py), which a state's JSON does not hold
            redeal = (list(st.setup.cstatic), list(st.setup.clabel), list(st.setup.ckind))
        return _restore_inner, (self.game, st.to_json(), memories, self.world, redeal)


def _share(inner: Inner, memo=None) -> Inner:
    inner.owned = False
    return inner


# `copy.deepcopy` looks a type up in this table before it looks for `__deepcopy__`: the same result,
# sooner (CPython's table, private; without it, `__deepcopy__` does the same)
_dispatch = getattr(copy, "_deepcopy_dispatch", None)
if isinstance(_dispatch, dict):
    _dispatch[Inner] = _share


def _restore_inner(game, text, memories, world: bool = False, redeal=None):
    """An `Inner` unpickled. A world drawn by `resample_from_infostate` cannot pass the replay of its
    history from its seed (its hidden items were drawn again, not dealt by that seed), so it is read
    with `edited=True`, every other check holding, and its re-deal put back (see `Inner.__reduce__`).
    Only this adapter's own pickles (a trusted source: its own process) say `world`; a saved state
    from elsewhere goes through `state_from_json` and its replay like any other."""
    if not world:
        st = game.leges.state_from_json(text)
    else:
        st = restore_world(game, text, redeal)
    seats = None
    if memories is not None:
        seats = SeatMemories(game.players)
        for k, (_, fixed, known) in zip(seats.seats, memories):
            k.fixed, k.known = set(fixed), set(known)
    return Inner(game, st, seats, world=world)


def restore_world(game, text: str, redeal):
    """A resampled world read back: its options are taken from the rules once its re-deal is back
    (read with the game's own labels they would differ), and must be the ones pickled."""
    data = json.loads(text)
    pending = data.get("pending")
    if pending is not None:
        pending["options"] = []
    st = game.leges.state_from_json(json.dumps(data), edited=True)
    if redeal is not None:
        setup = copy.copy(st.setup)
        setup.cstatic, setup.clabel, setup.ckind = redeal
        st.setup = setup
        st.forget_redealt(None)
    if pending is not None:
        st.pending = recompute_pending(st)
        saved = json.loads(text)["pending"]["options"]
        if st.pending is None or json.loads(json.dumps(st.pending.to_data()["options"])) != saved:
            raise LegesError(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                        "a resampled world read back asks for other options than it held",
                                        "a bug of the adapter or of engine/resample.py: please report it"))
    st.seed = -1  # as resample leaves it: the real seed would replay the real hidden state
    return st



def copy_memories(memories: SeatMemories) -> SeatMemories:
    out = SeatMemories.__new__(SeatMemories)
    out.seats = [type(k)(k.player, set(k.fixed), set(k.known), k.forgets) for k in memories.seats]
    return out


class Observer:
    """OpenSpiel's observer: the seat's vector (adapters/encoding.py; with perfect recall, what it
    remembers too) and its strings."""

    def __init__(self, game, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.encoding.size
        self.tensor = np.zeros(size + (game.encoding.memory_size if perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["memory"] = self.tensor[size:]

    def set_from(self, state, player):
        inner = state._s
        self.game.encoding.encode(inner.st, player, self.dict["observation"])
        if self.perfect_recall:
            knowledge = inner.memories.seats[player] if inner.memories is not None else None
            self.game.encoding.encode_memory(inner.st, knowledge, self.dict["memory"])

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)
