"""The worlds an agent searches keep what its seat has seen (engine/knowledge.py SeatMemories):
a card it watched go under the top of a pile is still there, a card it saw an opponent take is in
that opponent's hand — along whole games of every bundled game and of a card game with `top` piles."""
from __future__ import annotations

import random

import leges
import pytest
from helpers import ROOT, ruleset_dir
from leges.agents.moves import moves, play
from leges.engine.knowledge import SeatMemories
from leges.engine.resample import resample
from leges.render.view import labelled

OPEN_DRAW = ROOT / "tests" / "rulesets" / "open_draw"


def shown_kept(real, world, memory) -> list[str]:
    """What differs in `world` from `real` among what the seat has been shown."""
    p = memory.player
    out = []
    if world.observation(p) != real.observation(p):
        out.append("its observation")
    ours = world.observation(p)["vars"]
    for name, value in real.observation(p)["vars"].items():
        if labelled(world, name, ours.get(name)) != labelled(real, name, value):  # components by label
            out.append(f"the variable {name}")
    for c in memory.fixed:
        if world.where[c] != real.where[c] or world.zones[world.where[c]].index(c) != real.zones[real.where[c]].index(c):
            out.append(f"the place of {real.setup.clabel[c]}")
        if world.setup.clabel[c] != real.setup.clabel[c]:
            out.append(f"what {real.setup.clabel[c]} is")
    for c in memory.known:
        if world.setup.clabel[c] != real.setup.clabel[c]:
            out.append(f"what {real.setup.clabel[c]} is")
    return out


def walk(game, players: int, seed: int, every: int = 3, samples: int = 2):
    """A random game played with every seat's memory kept; at every few steps, worlds for each seat."""
    rng = random.Random(seed)
    st = game.new_initial_state(players=players, seed=seed, run=False)
    memories = SeatMemories(players)
    memories.set_up(st)
    step = 0
    while not st.terminal:
        if step % every == 0:
            for memory in memories.seats:
                for _ in range(samples):
                    yield st, resample(st, memory.player, rng, memory.pins(rng=False)), memory
        mv = moves(st)
        i = rng.randrange(len(mv))
        memories.step(st, lambda mv=mv, i=i: play(st, mv, i))
        step += 1


@pytest.mark.parametrize("name, players", [("tictactoe", 2), ("pompeii", 3), ("attika", 2), ("alexander", 3)])
def test_worlds_keep_what_the_seat_was_shown_in_every_bundled_game(name, players):
    game = leges.load(str(ruleset_dir(name)))
    checked = 0
    for real, world, memory in walk(game, players, seed=7, every=6, samples=1):
        assert not shown_kept(real, world, memory), (memory.player, len(real.history))
        checked += 1
    assert checked >= 4


def test_worlds_keep_the_cards_under_the_top_of_a_pile():
    game = leges.load(str(OPEN_DRAW))
    buried = 0
    for seed in range(8):
        for real, world, memory in walk(game, 2, seed=seed, every=1, samples=3):
            assert not shown_kept(real, world, memory), (memory.player, real.history)
            buried += max(0, len(real.zones["discard"]) - 1)
    assert buried > 0  # cards lay under the top: the worlds kept them there


def test_without_the_memory_a_world_forgets_what_went_under_the_top():
    """The check can fail: worlds drawn without the seat's memory re-deal the buried discards."""
    game = leges.load(str(OPEN_DRAW))
    rng = random.Random(0)
    forgot = 0
    for seed in range(8):
        for real, _, memory in walk(game, 2, seed=seed, every=1, samples=1):
            world = resample(real, memory.player, rng)
            forgot += bool(shown_kept(real, world, memory))
    assert forgot > 0


def test_a_card_moved_out_of_sight_is_forgotten_where_it_was():
    from leges.engine.knowledge import Knowledge
    game = leges.load(str(OPEN_DRAW))
    st = game.new_initial_state(players=2, seed=0)
    memory = Knowledge(0, forgets=True)
    card = st.zones["deck"][0]
    memory.fixed.add(card)
    memory.learn(st, [("to", card, "hand.o", "deck", False)])  # from a hidden deck into o's hidden hand
    assert card not in memory.fixed and card not in memory.known  # kept known, it would stay in o's hand
    keeping = Knowledge(0)  # the leak check's memory keeps it
    keeping.fixed.add(card)
    keeping.learn(st, [("to", card, "hand.o", "deck", False)])
    assert card in keeping.fixed


def test_agents_in_the_simulator_search_worlds_that_keep_their_memory(monkeypatch):
    """simulate hands each agent's view its seat's memory (greedy resamples through it)."""
    from leges.agents import base
    from leges.lab.simulate import play_game
    seen = []
    original = base.View.resample

    def spy(self, rng):
        seen.append(self.knowledge)
        return original(self, rng)
    monkeypatch.setattr(base.View, "resample", spy)
    play_game(leges.load(str(OPEN_DRAW)), 2, 0, ["greedy", "random"])
    assert seen and all(k is not None and k.player == 0 for k in seen)


def test_the_pages_agents_keep_their_seats_memory_too():
    pytest.importorskip("starlette")
    from leges.web.match import Match
    game = leges.load(str(OPEN_DRAW))
    match = Match("m", 1, 2, 0, ["greedy", ""])
    match.start(game)
    match.run()
    assert match.memories is not None and match.knowledge(0).player == 0
    fresh = game.new_initial_state(players=2, seed=0)
    for entry in match.st.history:
        fresh.apply_action(entry)
    assert fresh.to_json() == match.st.to_json()  # played through the memories, the same game


def test_a_card_a_variable_once_named_stays_known_after_it_names_another(tmp_path):
    """`last_taken` names the card x drew unseen into its hand; once o has drawn and the variable
    names o's card, o's memory still knows what x's card is (its worlds keep it), and so does
    `state.resample`, which reads it off the history (engine/seen.py), where a world drawn from
    what the seat sees now has forgotten it."""
    import shutil
    shutil.copytree(OPEN_DRAW, tmp_path / "d")
    path = tmp_path / "d" / "ruleset.yaml"
    text = path.read_text()
    old = ("      draw 1 from deck to table\n      log text(top(table))\n      last_taken = top(table)\n"
           "      move top(table) to hand(me)\n")
    assert old in text
    path.write_text(text.replace(old, "      draw 1 from deck to hand(me)\n      last_taken = top(hand(me))\n"))
    game = leges.load(str(tmp_path / "d"))
    st = game.new_initial_state(players=2, seed=1, run=False)
    memories = SeatMemories(2)
    memories.set_up(st)
    memories.step(st, lambda: st.apply_action("take"))  # x
    card = st.vars["last_taken"]
    memories.step(st, lambda: st.apply_action("take"))  # o: the variable names o's card now
    assert st.vars["last_taken"] != card and st.where[card] == "hand.x"
    memory = memories.seats[1]
    assert card in memory.known
    label = st.setup.clabel[card]
    rng = random.Random(0)
    assert all(resample(st, 1, rng, memory.pins(rng=False)).setup.clabel[card] == label for _ in range(30))
    assert all(st.resample(1, rng).setup.clabel[card] == label for _ in range(30))
    assert len({resample(st, 1, rng).setup.clabel[card] for _ in range(30)}) > 1


@pytest.mark.parametrize("folder", [OPEN_DRAW, ruleset_dir("attika")])
def test_what_others_were_dealt_face_down_is_not_known(folder):
    """A card dealt unseen into another seat's hand is not in the seat's memory, and the worlds it
    searches re-deal those hands: a component that moved where the seat saw neither whence nor
    whither used to become `known`, so every world kept the opponents' real hands."""
    game = leges.load(str(folder))
    st = game.new_initial_state(players=2, seed=1, run=False)
    memories = SeatMemories(2)
    memories.set_up(st)
    rng = random.Random(0)
    for memory in memories.seats:
        p = memory.player
        theirs = [k for k in st.setup.zone_order if st.setup.zone_visibility.get(k) == "owner"
                  and st.setup.zone_owner.get(k) not in (None, p) and st.zones[k]]
        assert theirs
        dealt = {c for k in theirs for c in st.zones[k]}
        assert not dealt & (memory.fixed | memory.known)
        hands = {tuple(sorted(w.setup.clabel[c] for c in dealt))
                 for w in (resample(st, p, rng, memory.pins(rng=False)) for _ in range(10))}
        assert len(hands) > 1
