"""A resampled world keeps the memoised values the re-deal cannot change, and only those.

`state.resample` shuffles hidden stretches and trades the fixed properties of hidden components;
it forgets the values of the functions reading what it changed (engine/resample.py, memo.py's
`static:` reads) and keeps the rest shared with the state it was drawn from — a search draws a
world every iteration, and recomputing every board function after each draw was most of an
iteration's cost. This test plays each world on in lock-step with a copy of it that kept nothing:
a value kept that the re-deal made wrong shows as other options or another heuristic value.
"""
from __future__ import annotations

import random

import pytest

import leges
from helpers import ROOT

GAMES = [("rulesets/pompeii", 3), ("rulesets/attika", 2), ("rulesets/alexander", 3),
         ("tests/rulesets/open_draw", 2), ("tests/rulesets/auction", 3)]


def _seen(st) -> tuple:
    heuristics = tuple(tuple(st.heuristic(name)) for name in st.game.heuristics)
    options = tuple(o.text for o in st.pending.options) if st.pending else ()
    return st.phase, options, heuristics


def _lock_step(world, rng: random.Random, steps: int) -> None:
    fresh = world.copy()
    fresh.forget_cached(identities_changed=True)
    for _ in range(steps):
        assert _seen(world) == _seen(fresh)
        if world.is_terminal():
            return
        i = rng.randrange(len(world.pending))
        world.apply_option(i)
        fresh.apply_option(i)
    assert _seen(world) == _seen(fresh)


@pytest.mark.parametrize("path,players", GAMES, ids=[p.split("/")[-1] for p, _ in GAMES])
def test_a_resampled_world_serves_no_value_the_redeal_changed(path, players):
    game = leges.load(str(ROOT / path))
    rng = random.Random(7)
    for seed in range(2):
        st = game.new_initial_state(players=players, seed=seed)
        decision = 0
        while not st.is_terminal():
            if decision % 15 == 5 and st.pending is not None:
                for player in range(players):
                    # values computed in the real state first, so that the world has some to keep
                    _seen(st)
                    _lock_step(st.resample(player, rng), rng, 6)
            st.apply_option(rng.randrange(len(st.pending)))
            decision += 1


def test_a_redeal_keeps_the_board_functions_values():
    """In Attika a re-deal trades hidden cards and tiles: a function of the board alone keeps the
    values the real state computed (shared with it), one reading the hands forgets them."""
    game = leges.load(str(ROOT / "rulesets" / "attika"))
    st = game.new_initial_state(players=2, seed=1)
    rng = random.Random(1)
    for _ in range(30):
        st.apply_option(rng.randrange(len(st.pending)))
    _seen(st)
    names = game.compiler.memo.names
    board = next(i for i, n in enumerate(names) if n.endswith("_free_hexes"))
    hands = next(i for i, n in enumerate(names) if n.endswith("_kinds"))
    assert st.memo[board] and st.memo[hands]
    world = st.resample(st.current_player(), rng)
    assert world.memo[board] is st.memo[board]
    assert world.memo[hands] == {}


def test_the_redeal_shuffles_as_random_shuffle_does():
    """Its own shuffle (for speed) gives random.shuffle's order: seeded searches play as before."""
    from leges.engine.resample import shuffle
    for n in (0, 1, 2, 3, 7, 45, 200):
        a, b = list(range(n)), list(range(n))
        ra, rb = random.Random(n), random.Random(n)
        for _ in range(3):
            ra.shuffle(a)
            shuffle(rb, b)
            assert a == b and ra.random() == rb.random()


def _plain_redeal(st, player, rng, pins):
    """The re-deal written plainly, item by item (engine/resample.py's before its shortcuts): each
    hidden stretch shuffled — but one of two or more components alike in type and owner, none known,
    off the board, whose identities the trade draws anyway — then identities traded by type and
    owner, in the same order of draws."""
    from leges.engine.resample import hidden_places
    setup = st.setup
    classes: dict = {}
    for key, (lo, hi) in hidden_places(st, player).items():
        items = st.writable(key)
        free = [i for i in range(lo, hi) if items[i] not in pins.fixed]
        stretch = [items[i] for i in free]
        alike = len({(setup.ctype[c], setup.cowner[c]) for c in stretch}) == 1 and len(stretch) > 1
        if not (alike and not any(c in pins.known for c in stretch) and key not in setup.spaces):
            random.Random.shuffle(rng, stretch)
        for i, c in zip(free, stretch):
            items[i] = c
        for c in stretch:
            if c not in pins.known:
                classes.setdefault((setup.ctype[c], setup.cowner[c]), []).append(c)
    static, labels, kinds = list(setup.cstatic), list(setup.clabel), list(setup.ckind)
    for slots in classes.values():
        if len(slots) > 1:
            drawn = list(slots)
            random.Random.shuffle(rng, drawn)
            for slot, c in zip(slots, drawn):
                static[slot], labels[slot], kinds[slot] = setup.cstatic[c], setup.clabel[c], setup.ckind[c]
    return static, labels, kinds


@pytest.mark.parametrize("path, players, cuts", [("pompeii", 3, (5, 60, 150)), ("attika", 2, (5, 40)),
                                                 ("alexander", 3, (5, 40)), ("pompeii", 4, (30,))])
def test_the_redeal_draws_the_worlds_the_plain_redeal_draws(path, players, cuts):
    """Its shortcuts (a stretch no pin touches cut by slices, the identities traded by lists made at
    once) draw the same worlds from the same generator as the plain re-deal."""
    from leges.engine.resample import _redeal
    from leges.engine.seen import seen_pins
    game = leges.load(str(ROOT / "rulesets" / path))
    st = game.new_initial_state(players=players, seed=4)
    rng = random.Random(4)
    done = 0
    for cut in cuts:
        while done < cut and not st.terminal:
            st.apply_option(rng.randrange(len(st.pending)))
            done += 1
        for p in range(players):
            pins = seen_pins(st, p)
            for seed in range(4):
                fast, plain = st.copy(), st.copy()
                ra, rb = random.Random(seed), random.Random(seed)
                _redeal(fast, p, ra, pins=pins)
                expected = _plain_redeal(plain, p, rb, pins)
                assert fast.zones == plain.zones
                assert (fast.setup.cstatic, fast.setup.clabel, fast.setup.ckind) == expected
                assert ra.random() == rb.random()
