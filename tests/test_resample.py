"""`state.resample(player, rng)`: what the player sees stays, everything else is drawn afresh."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import leges
from helpers import ROOT

# A two-player game small enough to count its arrangements: four cards, one in each hand, two in
# a hidden deck; each player bids in secret (kept in an `owner` variable), then plays a card.
TINY = """\
leges: 1
id: tiny
title: Tiny secret game
version: "1"
rulebooks: [{id: t, file: none, title: the test}]
players:
  min: 2
  max: 2
  seats: [{name: x}, {name: o}]
components:
  - id: card
    source: {book: t, section: s}
    count: 4
    start: deck
    label: it.name
    instances: [{name: a}, {name: b}, {name: c}, {name: d}]
zones:
  - {id: deck, kind: deck, visibility: hidden}
  - {id: hand, per_player: true, visibility: owner}
  - {id: table, visibility: all}
variables:
  - {id: bid, per_player: true, initial: 0, visibility: owner, source: {book: t, section: s}}
setup:
  - id: deal
    source: {book: t, section: s}
    effect: |
      shuffle deck
      deal 1 from deck to [hand(p) for p in players]
phases:
  - id: bidding
    source: {book: t, section: s}
    order: players
    turn: |
      act bid
    next: playing
  - id: playing
    source: {book: t, section: s}
    order: players
    turn: |
      act play
    next: end
actions:
  - id: bid
    source: {book: t, section: s}
    secret: true
    params:
      amount: range(3)
    effect: |
      bid[me] = amount
  - id: play
    source: {book: t, section: s}
    params:
      card: hand(me)
    effect: |
      move card to table
scoring:
  source: {book: t, section: s}
  score: bid[p]
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "ruleset.yaml").write_text(TINY)
    return leges.load(str(folder))


def arrangement(st) -> tuple:
    label = st.setup.clabel
    return (tuple(label[c] for c in st.zones["hand.o"]), tuple(label[c] for c in st.zones["deck"]))


def test_every_consistent_arrangement_appears_and_nothing_else(tiny):
    st = tiny.new_initial_state(players=2, seed=3)
    mine = tiny.new_initial_state(players=2, seed=3).observation(0)["zones"]["hand.x"]
    rng = random.Random(1)
    seen = Counter(arrangement(st.resample(0, rng)) for _ in range(600))
    others = sorted({"a", "b", "c", "d"} - set(mine))
    assert len(seen) == 6  # o's card and the deck's order: 3! ways
    for (hand, deck), count in seen.items():
        assert sorted(hand + deck) == others and count > 50


def test_a_card_known_but_not_where_it_lies_is_dealt_to_every_place_it_may_lie(tiny):
    """A component whose identity a seat knows but not its place (pins.known) keeps its identity
    and is shuffled with the others of its zone: a world puts it where it really lies only by chance,
    even in a stretch of components alike (whose identities the re-deal draws without shuffling)."""
    from leges.engine.resample import Pins, _redeal
    st = tiny.new_initial_state(players=2, seed=3)
    known = st.zones["deck"][0]
    places = Counter()
    rng = random.Random(2)
    for _ in range(300):
        world = st.copy()
        _redeal(world, 0, rng, pins=Pins(known=frozenset({known})))
        places[world.zones["deck"].index(known)] += 1  # (within its zone: another's hand would not take it)
        assert world.setup.clabel[known] == st.setup.clabel[known]
    assert len(places) == 2 and min(places.values()) > 100


def test_sealed_secret_choices_are_drawn_again_and_own_ones_kept(tiny):
    st = tiny.new_initial_state(players=2, seed=0)
    st.apply_action("bid amount=2")  # x
    st.apply_action("bid amount=1")  # o, sealed for x until the phase ends... which it just did
    assert st.phase == "playing" and st.sealed == []
    st = tiny.new_initial_state(players=2, seed=0)
    st.apply_action("bid amount=2")
    assert st.sealed == [0] and st.record_view(1) == ["x: (sealed)"]
    rng = random.Random(0)
    drawn = Counter(st.resample(1, rng).vars["bid"][0] for _ in range(300))
    assert set(drawn) == {0, 1, 2}  # o cannot know x's bid
    assert {st.resample(0, rng).vars["bid"][0] for _ in range(20)} == {2}  # x knows its own
    det = st.resample(1, rng)
    assert det.observation(1) == st.observation(1) and det.record_view(1) == st.record_view(1)


def test_the_future_chance_is_drawn_afresh(tiny):
    st = tiny.new_initial_state(players=2, seed=0)
    assert len({st.resample(0, random.Random(i)).rng for i in range(10)}) == 10


def read(st, player: int) -> dict:
    """The variables `player` sees, as it reads them: a component by what it is, not by its id
    (a world keeps the ids and trades identities, so equal ids may name other cards)."""
    from leges.render.view import labelled
    return {name: labelled(st, name, value) for name, value in st.observation(player)["vars"].items()}


@pytest.mark.parametrize("name,players,seeds", [("pompeii", 3, [0]), ("attika", 2, [0]), ("alexander", 3, [1]),
                                                ("tictactoe", 2, [0, 1]), ("open_draw", 3, [0, 1, 2, 3])])
def test_a_players_observation_is_unchanged_by_resampling_at_every_step(name, players, seeds):
    """Also what it reads in the variables it sees: open_draw's `last_taken` names the card a seat
    watched go into an opponent's hidden hand; every world must keep that card there."""
    from leges.agents.seeding import agent_rng
    game = leges.load(str(ROOT / "tests" / "rulesets" / name if name == "open_draw" else ROOT / "rulesets" / name))
    rng = random.Random(7)
    for seed in seeds:
        st = game.new_initial_state(players=players, seed=seed)
        moves = agent_rng(seed)
        step = 0
        while not st.is_terminal():
            for p in range(players):
                det = st.resample(p, rng)
                assert det.observation(p) == st.observation(p), (name, seed, step, p)
                assert read(det, p) == read(st, p), (name, seed, step, p)
                assert det.record_view(p) == st.record_view(p)
                assert [a.text for a in det.legal_actions(p)] == [a.text for a in st.legal_actions(p)]
            st.apply_option(moves.randrange(len(st.pending)))
            step += 1


def test_a_card_a_visible_variable_names_keeps_its_identity_where_it_is():
    """Every seat watched x take the card `last_taken` names into its hand: in every world drawn for
    them it is that card, in that hand. The leak check's worlds (`read=False`) let it go, since
    whether a variable may name a card is what that check tests."""
    from leges.engine.readable import read_components
    from leges.engine.resample import Pins, resample
    game = leges.load(str(ROOT / "tests" / "rulesets" / "open_draw"))
    st = game.new_initial_state(players=3, seed=1)
    st.apply_action("take")
    card = st.vars["last_taken"]
    label = st.setup.clabel[card]
    assert st.where[card] == "hand.x" and read_components(st, 1) == {card}
    for p in (1, 2):
        worlds = [st.resample(p, random.Random(i)) for i in range(30)]
        assert all(w.setup.clabel[card] == label and w.where[card] == "hand.x" for w in worlds)
    loose = {resample(st, 1, random.Random(i), Pins(read=False)).setup.clabel[card] for i in range(30)}
    assert len(loose) > 1
