"""`state.resample(player, rng)` called alone — no memory kept beside the state, as a researcher's
script calls it — keeps everything the seat has seen (issue 39, item 7): what it was shown is read
off the state's own seed and history (engine/seen.py). Checked along random games of every
bundled game and of a card game with a `top` discard pile, against the memory a player of the
real game keeps step by step (engine/knowledge.py `SeatMemories`)."""
from __future__ import annotations

import json
import random

import pytest

import leges
from helpers import ROOT, ruleset_dir
from leges.agents import View
from leges.agents.moves import moves, play
from leges.engine.knowledge import SeatMemories
from leges.engine.resample import resample

OPEN_DRAW = ROOT / "tests" / "rulesets" / "open_draw"  # a `top` discard pile everybody watches
CARD_TABLE = ROOT / "tests" / "rulesets" / "card_table"  # cards drawn off a `top` discard pile's top too


def forgotten(real, world, memory) -> list[str]:
    """What `world` changed of what the seat has seen: the components it saw, in place and
    identity (`fixed`), the ones it knows in identity (`known`), and its observation."""
    out = []
    if world.observation(memory.player) != real.observation(memory.player):
        out.append("its observation")
    label = real.setup.clabel
    for c in memory.fixed:
        zone = real.where[c]
        if world.where[c] != zone or world.zones[zone].index(c) != real.zones[zone].index(c):
            out.append(f"the place of {label[c]}")
    for c in memory.fixed | memory.known:
        if world.setup.clabel[c] != label[c]:
            out.append(f"what {label[c]} is")
    return out


def walk(game, players: int, seed: int, every: int = 1, explicit_chance: bool = False):
    """A random game played with every seat's memory kept beside it; at every `every`-th step, the
    state and the memories (the state itself knows nothing of them)."""
    rng = random.Random(seed)
    st = game.new_initial_state(players=players, seed=seed, run=False, explicit_chance=explicit_chance)
    memories = SeatMemories(players)
    memories.set_up(st)
    step = 0
    while not st.terminal:
        if step % every == 0:
            yield st, memories
        mv = moves(st)
        i = rng.randrange(len(mv))
        memories.step(st, lambda mv=mv, i=i: play(st, mv, i))
        step += 1


def top_pile_game():
    return leges.load(str(OPEN_DRAW))


@pytest.mark.parametrize("folder, players, every", [
    (ruleset_dir("tictactoe"), 2, 1), (ruleset_dir("pompeii"), 3, 4), (ruleset_dir("attika"), 2, 8),
    (ruleset_dir("alexander"), 3, 8), (OPEN_DRAW, 2, 1), (OPEN_DRAW, 3, 1), (CARD_TABLE, 2, 1),
    (CARD_TABLE, 3, 1)])
def test_resample_alone_keeps_every_card_the_seat_saw(folder, players, every):
    game = leges.load(str(folder))
    rng = random.Random(11)
    worlds = 0
    for seed in range(3 if folder in (OPEN_DRAW, CARD_TABLE) else 1):
        for st, memories in walk(game, players, seed=seed, every=every):
            for memory in memories.seats:
                for _ in range(3):
                    world = st.resample(memory.player, rng)
                    assert not forgotten(st, world, memory), (folder.name, seed, memory.player, st.history)
                    worlds += 1
                if worlds % 7 == 0:  # read afresh, not continued: a copy with nothing cached
                    fresh = st.copy()
                    fresh.seen_by = None
                    assert fresh.resample(memory.player, rng) is not None
                    assert fresh.seen_by.pins == st.seen_by.pins
    assert worlds >= 30


@pytest.mark.parametrize("folder", [OPEN_DRAW, CARD_TABLE])
def test_a_watched_top_pile_is_kept_in_every_world(folder):
    """The symptom: worlds drawn from what the seat sees now re-deal the cards under the top of the
    discard pile it watched being played; `state.resample` keeps them, in their order."""
    game = leges.load(str(folder))
    changed = kept = 0
    rng = random.Random(0)
    for seed in range(6):
        for st, memories in walk(game, 2, seed=seed):
            pile = st.zones["discard"]
            if len(pile) < 2:
                continue
            labels = [st.setup.clabel[c] for c in pile]
            for p in range(2):
                for _ in range(5):
                    world = st.resample(p, rng)
                    assert [world.setup.clabel[c] for c in world.zones["discard"]] == labels
                    kept += 1
                    loose = resample(st, p, rng)  # only what it sees now: the top
                    changed += [loose.setup.clabel[c] for c in loose.zones["discard"]] != labels
    assert kept >= 30 and changed > 0  # the check can fail: without the history, the pile is re-dealt


def test_a_saved_state_loaded_again_keeps_what_its_history_showed():
    """Nothing beside the state: a state written to JSON and read back (a fresh object, its seed
    and history only) draws the same pins as the one played."""
    game = top_pile_game()
    for st, memories in walk(game, 3, seed=2, every=2):
        loaded = game.state_from_json(st.to_json())
        assert loaded.seen_by is None
        for memory in memories.seats:
            world = loaded.resample(memory.player, random.Random(len(st.history)))
            assert not forgotten(st, world, memory)
        st.resample(0, random.Random(0))
        assert loaded.seen_by.pins == st.seen_by.pins


def test_explicit_chance_is_replayed_too():
    """With explicit chance the outcomes are in the history (`chance: ...`): replayed as actions."""
    game = top_pile_game()
    rng = random.Random(5)
    checked = 0
    chance = 0
    for seed in range(3):
        for st, memories in walk(game, 2, seed=seed, explicit_chance=True):
            if st.is_chance_node():
                continue
            chance += any(h.startswith("chance: ") for h in st.history)
            for memory in memories.seats:
                assert not forgotten(st, st.resample(memory.player, rng), memory)
                checked += 1
    assert checked >= 20 and chance


def test_a_world_drawn_keeps_the_seats_memory_for_its_own_worlds():
    """A world has no seed to replay (resample.py sets it to -1): it carries what the seats had seen,
    so a world drawn from it for the same seat keeps what the real one kept."""
    game = top_pile_game()
    rng = random.Random(1)
    for st, memories in walk(game, 2, seed=3):
        for memory in memories.seats:
            world = st.resample(memory.player, rng)
            again = world.resample(memory.player, rng)
            assert not forgotten(world, again, memory)


def test_an_agents_view_without_a_memory_keeps_what_the_seat_saw():
    """`View(state, p)` with no `knowledge` (a script driving an agent itself) reads the history too."""
    game = top_pile_game()
    rng = random.Random(2)
    for st, memories in walk(game, 2, seed=1):
        for memory in memories.seats:
            view = View(st, memory.player)
            for _ in range(3):
                assert not forgotten(st, view.resample(rng), memory)


def test_a_position_its_history_does_not_give_keeps_only_what_the_seat_sees():
    """A position set up by a program (`edited=True`): its history would give another state, so
    nothing is read off it; its worlds still keep what the seat sees now."""
    game = top_pile_game()
    st = game.new_initial_state(players=2, seed=0)
    st.apply_action("take")
    data = json.loads(st.to_json())
    zones = data["zones"]
    zones["deck"][0], zones["hand.o"][0] = zones["hand.o"][0], zones["deck"][0]  # not what the seed dealt
    data["pending"]["options"] = []  # (the rules' own, for o's new hand)
    edited = game.state_from_json(json.dumps(data), edited=True)
    world = edited.resample(0, random.Random(0))
    assert world.observation(0) == edited.observation(0)
    assert all(pins.fixed == frozenset() and pins.known == frozenset() for pins in edited.seen_by.pins)


@pytest.mark.parametrize("folder, players", [(OPEN_DRAW, 2), (ruleset_dir("tictactoe"), 2)])
def test_a_world_carries_nothing_of_the_real_game(folder, players):
    """What the state read off its history holds the replayed game, the real one: no world an agent
    or a script is handed may carry it (`seen_by.replay`), whichever way it was drawn."""
    game = leges.load(str(folder))
    st = game.new_initial_state(players=players, seed=0)
    st.apply_action(st.legal_actions()[0])
    rng = random.Random(0)
    st.resample(0, rng)
    assert st.seen_by.replay is not None
    for world in (st.resample(1, rng), View(st, 1).resample(rng), st.resample(1, rng).resample(1, rng)):
        assert world.seen_by is None or (world.seen_by.replay is None and world.seen_by.memories is None)
