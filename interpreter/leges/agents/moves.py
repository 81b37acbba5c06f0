"""The one place where agents and the simulator reach into the engine's fast path.

Why one place: the pending decision's options (`state.pending`: its `texts()`, `len`, without making
the Options a play-out does not read) and `state.apply_option(i)` are internals that are being optimised; everything in `leges.agents` and `leges.lab.simulate` goes through the few
functions here, so only this file has to follow them. A decision's *moves* are the options of
the pending decision, then the deciding player's own out-of-turn (`anytime`) actions.
"""
from __future__ import annotations

from typing import NamedTuple

from ..engine.api import Action
from ..engine.constants import CHANCE


class Moves(NamedTuple):
    player: int  # who decides (CHANCE at an explicit chance node)
    count: int  # options of the pending decision
    extra: list  # then the player's own out-of-turn actions (Action)

    def __len__(self) -> int:  # type: ignore[override]
        return self.count + len(self.extra)


def moves(st) -> Moves:
    """The moves of the player deciding now (the state must not be terminal)."""
    pending = st.pending
    player = pending.player
    extra = st._anytime_as_actions(player) if st.game.anytime and player != CHANCE else []
    return Moves(player, len(pending), extra)


def texts(st, mv: Moves) -> list[str]:
    """The moves' texts, in order (the same texts as `legal_actions`)."""
    return st.pending.texts() + [a.text for a in mv.extra]


def play(st, mv: Moves, i: int) -> None:
    """Apply move number `i` of `mv` (computed on this very state)."""
    if i < mv.count:
        st.apply_option(i)
    else:
        st.apply_action(mv.extra[i - mv.count])


def play_chance(st, rng) -> None:
    """An explicit chance node's outcome, drawn by its probability."""
    pending = st.pending
    st.apply_option(rng.choices(range(len(pending)), pending.probabilities())[0])


def sealed(st, mv: Moves) -> bool:
    """Whether the decision is a secret one (`secret: true`): its choice stays sealed for the
    others until its phase ends, so nobody deciding after it may know it."""
    secret = st.game.secret_actions  # asked at every node of a search: most games have none
    return bool(secret) and not secret.isdisjoint(st.pending.actions()[:mv.count])


def everyone(st) -> tuple[int, list, list[Action]]:
    """What anybody may do now (a play-out's choice): the decider, the pending options' texts,
    and everybody's out-of-turn actions (the state must not be terminal nor at a chance node)."""
    player = st.pending.player
    names = st.pending.texts()
    if not st.game.anytime:
        return player, names, []
    return player, names, st.out_of_turn_actions() + st._anytime_as_actions(player)


def play_any(st, count: int, extra: list[Action], k: int) -> None:
    """Apply move number `k` of what `everyone` listed (`count` options, then `extra`)."""
    if k < count:
        st.apply_option(k)
    else:
        st.apply_action(extra[k - count])


def others_out_of_turn(st) -> list[Action]:
    """Out-of-turn actions that players other than the one deciding may take now."""
    return st.out_of_turn_actions() if st.game.anytime else []


def random_move(st, rng) -> None:
    """One uniformly random move among everything anybody may do now (the random play-out's step).

    At an explicit chance node, an outcome by its probability.
    """
    pending = st.pending
    count = len(pending)
    if pending.player == CHANCE:
        st.apply_option(rng.choices(range(count), pending.probabilities())[0])
        return
    if st.game.anytime:
        extra = st.out_of_turn_actions() + st._anytime_as_actions(pending.player)
        k = rng.randrange(count + len(extra))
        if k < count:
            st.apply_option(k)
        else:
            st.apply_action(extra[k - count])
    else:
        st.apply_option(rng.randrange(count))


def random_pick(st, rng) -> tuple[int, list[Action]]:
    """`random_move`'s draw, not applied (the same numbers drawn in the same order): the move's index
    among the pending options then `extra`, everybody's out-of-turn actions. Why: the simulator
    tallies what was chosen (lab/behaviour.py) before it applies it with `play_any`."""
    pending = st.pending
    if pending.player == CHANCE:
        return rng.choices(range(len(pending)), pending.probabilities())[0], []
    if st.game.anytime:
        extra = st.out_of_turn_actions() + st._anytime_as_actions(pending.player)
        return rng.randrange(len(pending) + len(extra)), extra
    return rng.randrange(len(pending)), []


def turn_number(st) -> int:
    """Turns completed so far (a new value means a new turn)."""
    return st.turn_count


def forced_moves(st) -> int:
    """Decisions the engine took by itself because they had one option."""
    return st.forced
