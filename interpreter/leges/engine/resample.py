"""Determinisation: a state consistent with what one player has seen, everything else drawn afresh.

Why: an agent for a game with hidden information must never read what its player cannot see,
yet search needs whole states to play on. Information-Set MCTS and a determinised greedy player
therefore search states in which whatever the player cannot see has been re-drawn. This module
draws them, for any ruleset, from the visibility the ruleset declares — it knows no game:

- Components in places the player cannot see (zones declared `hidden`, other players' `owner`
  zones, everything under the top of a `top` zone) trade identities within their type and owner:
  each such place keeps its component id — so its dynamic properties and every rule that refers
  to it (a running program's locals, variables) stay coherent — and takes another hidden
  component's static properties and label. Which types a hidden zone holds, and how many of each,
  is kept: the rules fix which kinds of things go where (a hand holds cards, a bag tiles).
- The order of every hidden stretch of a zone is reshuffled (a deck's order, a discard pile's
  unseen part).
- Other players' sealed secret actions (`secret: true`, still sealed in `state.sealed`) are
  chosen again among the options they had: the game is replayed from its seed to the first of
  them, and from there the public actions are re-applied while each sealed one is re-drawn.
- The random generator is re-seeded, so that the future chance is not the real one either.
- A decision pending for another player is recomputed from the re-drawn state (its options
  could show that player's hidden hand).

A per-player variable declared `owner` or `hidden` that no sealed action sets is kept: the rules
say nothing of how it would be re-drawn. A component whose id the player reads in a variable it
sees (`last_taken`, a card it saw go into an opponent's hand) keeps its identity where it is, so
the variable names the same card in every world (readable.py says why it is kept, not remapped).

What the player remembers can be kept too (`Pins`: the leak check, leaks.py, draws only worlds
that agree with everything its seat has seen; `state.resample` reads it off the state's own seed
and history, engine/seen.py): components `fixed` keep their place and identity,
components `known` their identity (they may move within their hidden stretch), the sealed
choices and the random generator may be kept as they are. The leak check asks for the components
read in variables not to be kept (`read=False`): whether a variable may show them is what it tests.

A resampled state carries its re-drawn identities in its own copy of the components' table (`state.setup`), so it is for searching, not for saving:
`to_json()` does not keep them.
"""
from __future__ import annotations

import copy
import dataclasses
import random
from itertools import filterfalse
from typing import Any

from ..text.errors import Diagnostic, LegesError, Position
from ..lang.optimise import memo
from . import rng as R
from .action import Action
from .readable import read_components

# A game state (engine/state.py), named but not imported: the state calls into this module
# (`state.resample`), so importing it back, even for typing, would close a cycle.
State = Any

ATTEMPTS = 20  # re-drawn secret choices that make a later public action illegal are drawn again


@dataclasses.dataclass(frozen=True)
class Pins:
    """What a world drawn for a player keeps of the real state besides what the player sees now."""
    fixed: frozenset = frozenset()  # components that keep their place and identity
    known: frozenset = frozenset()  # components that keep their identity (not their place in a hidden stretch)
    secrets: bool = False  # other players' sealed choices are kept, not drawn again
    rng: bool = False  # the random generator is kept, not re-seeded
    read: bool = True  # components named by variables the player sees keep their identity (readable.py)


NO_PINS = Pins()


def resample(state: "State", player: int, rng: random.Random, pins: Pins = NO_PINS) -> "State":
    """A state `player` cannot tell from `state`, with everything it cannot see drawn afresh, keeping
    what `pins` say besides what it sees now (`state.resample` gives the pins of what it has seen)."""
    return Resampler(state, player, pins).sample(rng)


def has_hidden_information(game) -> bool:
    """Whether anything in this game can be hidden from a player (else a determinisation is a copy)."""
    if any(v != "all" for v in game.variable_visibility.values()):
        return True
    if any(a.secret for a in game.actions.values()):
        return True
    return any(v != "all" for n in range(game.min_players, game.max_players + 1)
               for v in game.setup_for(n).zone_visibility.values())


class Resampler:
    """Draws determinisations of one state for one player; what can be prepared once, is.

    An agent deciding once and sampling many times (IS-MCTS) builds one Resampler per decision:
    the replay up to the first sealed secret action happens here, not at every sample.
    """

    def __init__(self, state: "State", player: int, pins: Pins = NO_PINS, canonical: bool = False):
        self.state = state
        self.player = player
        self.canonical = canonical  # the hidden stretches put in a canonical order before each re-deal
        if pins.read:
            read = read_components(state, player) - pins.fixed - pins.known
            if read:
                pins = dataclasses.replace(pins, known=pins.known | read)
        self.pins = pins
        name = state.player_name(player)
        self.sealed = [] if pins.secrets else sorted(
            i for i in state.sealed if not state.history[i].startswith(name + ": "))
        self.base: State = None
        self.seen: dict | None = None  # the player's observation, once it is needed
        if self.sealed:
            self.base = _replay(state, self.sealed[0])

    def sample(self, rng: random.Random) -> "State":
        """One determinisation.

        A decision pending for another player is recomputed; when the re-drawn state cannot give
        it (that player is half-way through a rule that relied on what it holds — paying for a
        building it chose, say), another re-deal is drawn; after ATTEMPTS of them, that player's
        own zones are left as they are, and at the very last its pending options too.
        """
        for attempt in range(2 * ATTEMPTS + 1):
            st = self._rechoose_secrets(rng) if self.base is not None else self.state.copy()
            other = st.pending is not None and st.pending.player != self.player
            if self.canonical:
                canonicalise(st, self.player, self.pins)
            changed = _redeal(st, self.player, rng, st.pending.player if other and attempt >= ATTEMPTS else None,
                              self.pins)
            if not self.pins.rng:
                st.rng = R.seed_state(rng.getrandbits(63))
            st.forget_redealt(None if self.canonical else changed)  # values computed before the re-deal may not hold
            st.seed = -1  # the real seed would let the real hidden state be replayed
            st.seen_by = None  # and what the state read off its history holds that replay (engine/seen.py)
            if not other or attempt == 2 * ATTEMPTS:
                return st
            st.pending = None  # the options of another player's decision may show its hidden hand
            try:
                st.game.flow.run(st)
            except LegesError:
                continue
            if self.seen is None:
                self.seen = self.state.observation(self.player)
            if st.observation(self.player) == self.seen:
                return st
        raise AssertionError("unreachable")

    def _rechoose_secrets(self, rng: random.Random) -> "State":
        history = self.state.history
        sealed = set(self.sealed)
        for _ in range(ATTEMPTS):
            st = self.base.copy()
            try:
                for i in range(self.sealed[0], len(history)):
                    who, text = history[i].split(": ", 1)
                    p = st.player_index(who)
                    if i in sealed and st.pending is not None and st.pending.player == p:
                        st.apply_option(rng.randrange(len(st.pending)))
                    else:
                        st.apply_action(_action(p, text))
                return st
            except LegesError:
                continue
        raise LegesError(Diagnostic(Position(self.state.game.ruleset_file),
                                    "the sealed secret choices of other players could not be drawn again",
                                    f"no choice of them in {ATTEMPTS} tries let the public actions after them be played"))


def _action(player: int, text: str):
    return Action(player, text)


def _replay(state: "State", upto: int) -> "State":
    """The game replayed from its seed, its first `upto` actions applied (as it was then)."""
    game = state.game
    try:
        st = game.new_initial_state(players=state.n, seed=state.seed, explicit_chance=state.explicit_chance,
                                    forced_moves=state.forced_moves)
        for entry in state.history[:upto]:
            who, text = entry.split(": ", 1)
            st.apply_action(_action(st.player_index(who), text))
    except LegesError:
        st = None
    if st is None or st.history != state.history[:upto]:
        raise LegesError(Diagnostic(Position(game.ruleset_file),
                                    "this state cannot be replayed from its seed and history, so the sealed "
                                    "secret choices of other players cannot be drawn again",
                                    "resample states that were reached by play from new_initial_state"))
    return st


def hidden_places(st: "State", player: int) -> dict[str, tuple[int, int]]:
    """Zone → (lo, hi): the stretch of its items `player` cannot see (as `observation` shows them)."""
    out = {}
    zones = st.zones
    for key, top in _unseen_zones(st.setup, player):
        items = zones[key]
        hi = len(items) - 1 if top else len(items)
        if hi > 0:
            out[key] = (0, hi)
    return out


def _unseen_zones(setup, player: int) -> tuple[tuple[str, bool], ...]:
    """The zones whose items `player` may not all see, in the zones' order, each with whether its top
    is shown: read off the declarations once per player (a board of thousands of spaces, every one a
    zone everybody sees, made each resample walk them all)."""
    found = setup.unseen.get(player)
    if found is None:
        found = setup.unseen[player] = tuple(
            (key, vis == "top") for key in setup.zone_order
            if (vis := setup.zone_visibility.get(key, "all")) != "all"
            and not (vis == "owner" and setup.zone_owner.get(key) == player))
    return found


def shuffle(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)`, the same order from the same generator, at a third of the cost: a search
    re-deals every iteration, and the method calls inside `random.shuffle` were a third of it. Each
    index is drawn as `random` draws it below i + 1 (bits of i + 1's length, again while too large);
    that length is kept as i comes down rather than asked of every i."""
    bits = rng.getrandbits
    top = len(items) - 1
    if top < 1:
        return
    k = (top + 1).bit_length()
    edge = (1 << (k - 1)) - 1  # below this i, i + 1 has a bit fewer
    for i in range(top, 0, -1):
        j = bits(k)
        while j > i:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
        if i == edge:
            k -= 1
            edge >>= 1


def canonicalise(st: "State", player: int, pins: Pins = NO_PINS) -> None:
    """Put what `player` cannot see in an order that depends only on what it can: each hidden
    stretch's components sorted by id, and the identities of each type and owner (those not
    `known`) handed out over them in a fixed order.

    Why: a re-deal permutes the real hidden order, so a world drawn from it, even by a generator
    seeded from public facts, depends on the real cards. Two states a player cannot tell apart
    that hold the same components in each hidden zone (a state and its re-deals) are made the same
    here, and any two get the same identities in the same places; re-dealt from here with the same
    generator, they give the same worlds (seat_explanation.py). Off the search's path: an agent's
    worlds need not be a function of what it sees, only consistent with it.
    """
    setup = st.setup
    known = pins.known | pins.fixed
    ctype, cowner, ckind, clabel = setup.ctype, setup.cowner, setup.ckind, setup.clabel
    classes: dict[tuple, list[int]] = {}
    for key, (lo, hi) in hidden_places(st, player).items():
        items = st.writable(key)
        free = [i for i in range(lo, hi) if items[i] not in pins.fixed]
        stretch = sorted(items[i] for i in free)
        for i, c in zip(free, stretch):
            items[i] = c
        for c in stretch:
            if c not in known:
                classes.setdefault((ctype[c], cowner[c]), []).append(c)
    if not any(len(slots) > 1 for slots in classes.values()):
        return
    was_static, was_label, was_kind = setup.cstatic, setup.clabel, setup.ckind
    cstatic, labels, kinds = list(was_static), list(was_label), list(was_kind)
    for slots in classes.values():
        for slot, c in zip(slots, sorted(slots, key=lambda c: (ckind[c], clabel[c], c))):
            cstatic[slot], labels[slot], kinds[slot] = was_static[c], was_label[c], was_kind[c]
    canonical = copy.copy(setup)
    canonical.cstatic, canonical.clabel, canonical.ckind = cstatic, labels, kinds
    st.setup = canonical


def _redeal(st: "State", player: int, rng: random.Random, keep: int | None = None,
            pins: Pins = NO_PINS) -> frozenset[memo.Read] | None:
    """Shuffle the hidden stretches, then let the hidden components trade identities by type and owner.

    The zones of player `keep`, if given, are left as they are; pinned components stay as `pins` say.
    Returns what it may have changed, as memo.py's read keys (the order within the shuffled zones,
    the fixed properties of the traded types), or None for anything: a shuffled board space.
    A search re-deals at every iteration (docs/design.md, "A world is re-dealt for what it
    changes"): a stretch of components alike, none known, off the board, is not shuffled (their
    traded identities draw where each lies); the lists are cut and joined by slices where no
    component is pinned.
    """
    setup = st.setup
    places = hidden_places(st, player)
    if keep is not None:
        places = {k: v for k, v in places.items() if setup.zone_owner.get(k) != keep}
    ctype, cowner = setup.ctype, setup.cowner
    fixed, known = pins.fixed, pins.known
    classes: dict[tuple, list[int]] = {}
    changed: set[memo.Read] = set()
    on_board = False  # (the board's reads are by type and near places: not worth telling apart here)
    for key, (lo, hi) in places.items():
        items = st.zones[key]  # (this world's own once it is written: State.writable below)
        stretch = items[lo:hi]
        pinned = fixed and not fixed.isdisjoint(stretch)
        if pinned:  # (the free ones' places found only if they are shuffled: below)
            stretch = list(filterfalse(fixed.__contains__, stretch))
        types = set(map(ctype.__getitem__, stretch))
        some_known = bool(known) and not known.isdisjoint(stretch)
        if (len(stretch) > 1 and len(types) == 1 and not some_known and key not in setup.spaces
                and len(owners := set(map(cowner.__getitem__, stretch))) == 1):
            # Components all alike in type and owner, none known, off the board (identities traded
            # over a board space: shuffled, all forgotten): the identities they trade below are drawn
            # over all of them, so which identity lies where is drawn already, and a shuffle of their
            # places would draw nothing more (a deck in a search: a fifth of a world).
            kind = (*types, *owners)
            slots = classes.get(kind)
            if slots is None:
                classes[kind] = list(stretch)
            else:
                slots.extend(stretch)
            continue
        if len(stretch) > 1:
            if pinned:
                free = [i for i in range(lo, hi) if items[i] not in fixed]
            shuffle(rng, stretch)
            items = st.writable(key)
            if pinned:
                for i, c in zip(free, stretch):
                    items[i] = c
            else:
                items[lo:hi] = stretch
            on_board = on_board or key in setup.spaces
            changed.update((memo.ZONES, memo.where(None), setup.zone_read.get(key, memo.ZONES)))
            changed.update(map(memo.where, types))
        for c in ([c for c in stretch if c not in known] if some_known else stretch):  # (a fixed one is in none)
            kind = (ctype[c], cowner[c])
            slots = classes.get(kind)
            if slots is None:
                classes[kind] = [c]
            else:
                slots.append(c)
    traded = {t for (t, _), slots in classes.items() if len(slots) > 1}
    if not traded:
        return None if on_board else frozenset(changed)
    changed.update(memo.static(t) for t in (*traded, None))
    was_static, was_label, was_kind = setup.cstatic, setup.clabel, setup.ckind
    cstatic, clabel, ckind = list(was_static), list(was_label), list(was_kind)
    for slots in classes.values():
        if len(slots) < 2:
            continue
        drawn = list(slots)
        shuffle(rng, drawn)
        for slot, c in zip(slots, drawn):
            cstatic[slot] = was_static[c]
            clabel[slot] = was_label[c]
            ckind[slot] = was_kind[c]
    redealt = copy.copy(setup)  # a dataclass's replace() runs its __init__ again: a tenth of a re-deal
    redealt.cstatic, redealt.clabel, redealt.ckind = cstatic, clabel, ckind
    st.setup = redealt
    return None if on_board else frozenset(changed)
