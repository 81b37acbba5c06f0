"""The Downfall of Pompeii: one test (at least) per rule, named after the rule's id.

The rulebook's worked examples are scenarios (rulesets/pompeii/scenarios); these tests cover
the rules the examples do not, and the readings chosen where the rulebook is silent.
"""
from __future__ import annotations

from collections import Counter

import pytest

from helpers import expr, maps_dir, play_random, position, ruleset_dir, texts
from leges.lab.simulate import play_game

DEAL_HANDS = """
    for p in players:
      draw 4 - count(hand(p)) from deck to hand(p)
"""


FOUR_FOR_RED = """
    move take([c for c in deck if c.number == 9], 2) to hand(red)
    move take([c for c in deck if c.number == 1], 2) to hand(red)
"""
AD79_ON_TOP = """
    move [c for c in aside if c.type == "ad79"] to deck at top
"""


def first_lava_player(pompeii, st) -> int:
    """Who drew the opening's first tile: forced placements (a symbol's first tile) are taken automatically,
    so the turn may have moved on by `opening_tiles` seats."""
    return (st.turn_player - expr(pompeii, st, "opening_tiles")) % st.n


def labels(st, zone):
    return [st.setup.clabel[c] for c in st.zones[zone]]


# ----------------------------------------------------------------- components
@pytest.mark.parametrize("players, each", [(2, 36), (3, 30), (4, 25)])
def test_component_citizen_counts_by_player_count(pompeii, players, each):
    st = pompeii.new_initial_state(players=players, seed=0)
    for p in range(players):
        assert expr(pompeii, st, f"count(components(\"citizen\"), c => c.owner == players[{p}])") == each
    assert st.setup.seat_names == ["red", "black", "yellow", "blue"][:players]


def test_component_cards_omens_ad79_and_lava(pompeii):
    st = pompeii.new_initial_state(players=3, seed=0)
    assert expr(pompeii, st, 'count(components("card"))') == 53
    assert expr(pompeii, st, 'count(components("omen"))') == 7
    assert expr(pompeii, st, 'count(components("ad79"))') == 1
    symbols = Counter(st.setup.cstatic[c]["symbol"] for c in st.setup.by_type["lava"])
    assert symbols == {"vase": 7, "helmet": 7, "mask": 7, "scroll": 8, "column": 8, "coin": 8}


# -------------------------------------------------------------------- set-up
def test_setup_dealer_and_seven_piles_and_draw_pile(pompeii):
    """seven_piles, draw_pile, dealer: 2 piles of 4 on A.D. 79 on the 25 other cards and 7 omens."""
    st = pompeii.new_initial_state(players=3, seed=9)
    assert expr(pompeii, st, "dealer == blue or dealer == last(players)")
    deck = st.zones["deck"]
    assert len(deck) == 8 + 1 + 32
    types = [st.setup.ctype[c] for c in deck]  # bottom first
    assert types[32] == "ad79"
    assert all(t == "card" for t in types[33:])  # the two piles on top
    assert Counter(types[:32]) == {"card": 25, "omen": 7}


def test_setup_choose_piles_in_turn_order_and_unused_piles(pompeii):
    """choose_piles: from the dealer's left, each player takes one of the remaining piles; unused_piles go to the box."""
    for pick, unused in ((0, ["pile.5", "pile.6"]), (-1, ["pile.2", "pile.3"])):
        st = pompeii.new_initial_state(players=3, seed=9)
        assert sorted(texts(st)) == [f"take_pile k={k}" for k in range(2, 7)]  # the five piles left
        left = {z: labels(st, z) for z in unused}
        order = []
        while st.phase is None:
            order.append(st.player_name(st.current_player()))
            assert all(t.startswith("take_pile k=") for t in texts(st))
            st.apply_action(sorted(texts(st))[pick])
        assert order == ["red", "black", "yellow"]
        assert all(len(st.zones[f"hand.{p}"]) == 4 for p in ("red", "black", "yellow"))
        assert sorted(labels(st, "box")) == sorted(left[unused[0]] + left[unused[1]])
        assert all(not st.zones[f"pile.{i}"] for i in range(7))
        assert st.phase == "settle" and st.player_name(st.current_player()) == "red"


def test_seven_piles_are_dealt_from_a_shuffled_deck(pompeii):
    """seven_piles: the Pompeii cards are shuffled before the piles are dealt (other seeds, other piles)."""
    piles = {seed: [labels(pompeii.new_initial_state(players=3, seed=seed), f"pile.{i}") for i in range(2, 7)]
             for seed in (1, 2)}
    assert piles[1] != piles[2]
    assert all(len(p) == 4 for p in piles[1])


# ------------------------------------------------------------------- settling
def test_play_places_on_a_free_circle_of_the_numbered_building(pompeii):
    st = position(pompeii, 3, "settle", "red", """
    move take([c for c in deck if c.number == 2], 1) to hand(red)
    move take(supply(black), 2) to r0c4
    """ + DEAL_HANDS)
    legal = [t for t in texts(st) if t.startswith("play card=2")]
    assert legal == ["play card=2 building=2 square=r1c4"]  # r0c4's two circles are taken


def test_play_without_citizen_when_no_room_before_ad79(pompeii):
    """card_without_placement: before A.D. 79 a card whose buildings are full is no joker; it is played alone."""
    st = position(pompeii, 3, "settle", "red", """
    move take(supply(black), 4) to r2c8
    move take([c for c in deck if c.number == 5], 1) to hand(red)
    """ + DEAL_HANDS)
    assert "play_without_citizen card=5" in texts(st)
    assert not any(t.startswith("play card=5 ") for t in texts(st))
    st.apply_action("play_without_citizen card=5")
    assert expr(pompeii, st, "top(discard).number == 5 and count(supply(red)) == 30")


def test_play_without_citizen_when_the_supply_is_empty(pompeii):
    """play, play_without_citizen: the last citizen of the supply is still placed; then cards are played alone."""
    st = position(pompeii, 3, "settle", "red", "    stack supply(red) onto box\n" + FOUR_FOR_RED + DEAL_HANDS)
    assert sorted(texts(st)) == ["play_without_citizen card=1", "play_without_citizen card=9"]
    st = position(pompeii, 3, "settle", "red", "    move take(supply(red), 29) to box\n" + FOUR_FOR_RED + DEAL_HANDS)
    assert "play card=9 building=9 square=r5c4" in texts(st)
    assert not any(t.startswith("play_without_citizen") for t in texts(st))
    st.apply_action("play card=9 building=9 square=r5c4")
    assert expr(pompeii, st, "count(supply(red)) == 0 and count(r5c4) == 1")


def test_refill_draws_back_to_four(pompeii):
    st = position(pompeii, 3, "settle", "red", DEAL_HANDS)
    st.apply_action(texts(st)[0])
    assert len(st.zones["hand.red"]) == 4 and len(st.zones["deck"]) == 53 - 12 - 1


def test_relatives_only_after_ad79(pompeii):
    """place_relatives: before A.D. 79 joining a building with citizens brings no relative."""
    st = position(pompeii, 3, "settle", "red", """
    move top(supply(black)) to r2c8
    move take([c for c in deck if c.number == 5], 1) to hand(red)
    """ + DEAL_HANDS)
    st.apply_action("play card=5 building=5 square=r2c8")
    assert st.player_name(st.current_player()) == "black"


def test_relatives_are_optional_and_one_per_building(pompeii):
    """relatives_one_at_a_time, relative_squares: 'pass' ends them; never twice into one building."""
    st = position(pompeii, 3, "settle", "red", """
    ad79_drawn = 1
    move take(supply(black), 2) to r2c8
    move take([c for c in deck if c.number == 5], 1) to hand(red)
    """ + DEAL_HANDS)
    st.apply_action("play card=5 building=5 square=r2c8")
    assert "pass" in texts(st)
    st.apply_action("relative square=r4c5")  # building 7, purple
    assert "relative square=r4c5" not in texts(st) and "pass" in texts(st)
    st.apply_action("pass")
    assert st.player_name(st.current_player()) == "black"
    assert expr(pompeii, st, "count(r4c5, c => c.owner == red) == 1 and count(supply(red)) == 28")


def test_relatives_into_the_last_square_left(pompeii):
    """place_relatives: two relatives are due, one square is left for them — it is offered, and then no more."""
    st = position(pompeii, 3, "settle", "red", """
    ad79_drawn = 1
    move top(supply(black)) to r5c5
    move top(supply(yellow)) to r5c5
    let others = [s for s in spaces if s.building != none and s.building.colour in ["brown", "neutral"]
                  and s.building != area("10a") and s != r5c7]
    for s in others:
      move take([c for c in supply(black)] + [c for c in supply(yellow)], s.circles) to s
    move take([c for c in deck if c.number == 10], 1) to hand(red)
    """ + DEAL_HANDS)
    assert expr(pompeii, st, "[text(s) for s in relative_squares(area('10a'), [area('10a')])] == ['r5c7']")
    st.apply_action("play card=10 building=10a square=r5c5")
    assert sorted(texts(st)) == ["pass", "relative square=r5c7"]
    st.apply_action("relative square=r5c7")
    assert st.player_name(st.current_player()) == "black"
    assert expr(pompeii, st, "count(r5c7, c => c.owner == red) == 1 and count(supply(red)) == 28")


def test_relatives_stop_when_the_supply_runs_out(pompeii):
    """place_relatives: two relatives are due, but after the citizen placed one is left: one relative, then no more."""
    st = position(pompeii, 3, "settle", "red", """
    ad79_drawn = 1
    move take(supply(black), 2) to r2c8
    move take(supply(red), 28) to box
    move take([c for c in deck if c.number == 5], 1) to hand(red)
    """ + DEAL_HANDS)
    st.apply_action("play card=5 building=5 square=r2c8")
    assert "relative square=r4c5" in texts(st)
    st.apply_action("relative square=r4c5")
    assert st.player_name(st.current_player()) == "black"
    assert expr(pompeii, st, "count(supply(red)) == 0 and count(r4c5, c => c.owner == red) == 1")


def test_omen_sacrifice_throws_another_players_citizen_into_the_volcano(pompeii):
    """omen, sacrifice: the omen is discarded, the drawer picks another player's citizen, then draws again."""
    st = position(pompeii, 3, "settle", "red", """
    ad79_drawn = 1
    move take(supply(black), 1) to r2c8
    move take(supply(yellow), 1) to r2c8
    move take(supply(yellow), 1) to r5c5
    move take(supply(red), 1) to r5c4
    """ + FOUR_FOR_RED + DEAL_HANDS + """
    move take([c for c in aside if c.type == "omen"], 1) to deck
    """)
    st.apply_action("play card=1 building=1 square=r1c0")  # red plays; the draw is the omen
    assert sorted(texts(st)) == ["sacrifice square=r2c8 victim=black", "sacrifice square=r2c8 victim=yellow",
                                 "sacrifice square=r5c5 victim=yellow"]
    st.apply_action("sacrifice square=r2c8 victim=black")
    assert expr(pompeii, st, "count(volcano, c => c.owner == black) == 1 and count(r2c8) == 1")
    assert expr(pompeii, st, 'top(discard).type == "omen" and count(hand(red)) == 4')
    assert st.player_name(st.current_player()) == "black"


def test_omen_with_no_other_players_citizen_does_nothing_more(pompeii):
    """omen_cases: with no victim the omen is discarded and the player draws again."""
    st = position(pompeii, 3, "settle", "red", """
    ad79_drawn = 1
    move take([c for c in deck if c.number == 9], 2) to hand(red)
    move take([c for c in deck if c.number == 1], 2) to hand(red)
    """ + DEAL_HANDS + """
    move take([c for c in aside if c.type == "omen"], 1) to deck
    """)
    st.apply_action("play card=1 building=1 square=r1c0")
    assert st.player_name(st.current_player()) == "black"
    assert expr(pompeii, st, "count(volcano) == 0 and count(hand(red)) == 4")


def test_ad79_first_is_shown_replaced_and_shuffled_into_the_bottom_fifteen(pompeii):
    """ad79_first: shown, replaced by the next card, put among the bottom 15 of the deck."""
    for seed in range(12):
        st = position(pompeii, 3, "settle", "red", FOUR_FOR_RED + DEAL_HANDS + AD79_ON_TOP, seed=seed)
        before = len(st.zones["deck"])
        st.apply_action(texts(st)[0])
        deck = st.zones["deck"]
        assert expr(pompeii, st, "ad79_drawn == 1 and count(hand(red)) == 4")
        assert len(deck) == before - 1
        where = [st.setup.ctype[c] for c in deck].index("ad79")
        assert where < 16  # index 0 is the bottom
        assert any("shows ad79" in line or "ad79" in line for line in st.log)


def test_ad79_first_replacement_is_drawn_before_it_is_shuffled_back(pompeii):
    """ad79_first, omen: the card drawn in A.D. 79's place is the one under it, drawn before A.D. 79 goes back
    into the deck — which matters when the deck is short; an omen drawn so takes effect, its own
    replacement drawn at once too."""
    short = FOUR_FOR_RED + DEAL_HANDS + """
    move take(deck, count(deck) - 6) to box
    """
    st = position(pompeii, 3, "settle", "red", short + AD79_ON_TOP, explicit_chance=True)
    under = labels(st, "deck")[-2]  # the card under A.D. 79
    st.apply_action("play card=9 building=9 square=r5c4")
    assert st.is_chance_node()  # A.D. 79 is being shuffled back in with the rest of the (short) deck
    assert len(st.zones["hand.red"]) == 4 and under in labels(st, "hand.red")
    st = position(pompeii, 3, "settle", "red", short + """
    move take([c for c in aside if c.type == "omen"], 1) to deck at top
    move top(supply(black)) to r5c5
    """ + AD79_ON_TOP, explicit_chance=True)
    under = labels(st, "deck")[-3]  # the card under the omen under A.D. 79
    st.apply_action("play card=9 building=9 square=r5c4")  # the only sacrifice possible is made at once
    assert expr(pompeii, st, 'count(volcano) == 1 and top(discard).type == "omen"')
    assert st.is_chance_node() and len(st.zones["hand.red"]) == 4 and under in labels(st, "hand.red")


def test_refill_stops_when_the_deck_is_empty_and_takes_its_last_card(pompeii):
    """refill: drawn while the deck has a card — its last one too (here A.D. 79 the second time: the eruption)."""
    st = position(pompeii, 3, "settle", "red", FOUR_FOR_RED + DEAL_HANDS + """
    ad79_drawn = 1
    move [c for c in deck] to box
    move [c for c in aside if c.type == "ad79"] to deck
    """)
    st.apply_action("play card=9 building=9 square=r5c4")
    assert st.phase == "opening" and expr(pompeii, st, "ad79_drawn == 2 and erupter == red")
    st = position(pompeii, 3, "settle", "red", FOUR_FOR_RED + DEAL_HANDS + """
    ad79_drawn = 1
    move [c for c in deck] to box
    """)
    st.apply_action("play card=9 building=9 square=r5c4")
    assert expr(pompeii, st, "count(hand(red)) == 3") and st.player_name(st.current_player()) == "black"


def test_ad79_first_is_shuffled_with_exactly_the_fifteen_bottom_cards(pompeii):
    """ad79_first, ad79_depth: with every shuffle a chance decision, the first position shuffled is one of
    sixteen cards — A.D. 79 and the bottom fifteen — each as likely."""
    st = position(pompeii, 3, "settle", "red", FOUR_FOR_RED + DEAL_HANDS + AD79_ON_TOP, explicit_chance=True)
    bottom = labels(st, "deck")[:15]
    st.apply_action(texts(st)[0])
    assert st.is_chance_node()
    outcomes = {a.text.removeprefix("chance "): p for a, p in st.chance_outcomes()}
    assert outcomes["ad79"] == pytest.approx(1 / 16)
    counts = Counter(bottom + ["ad79"])
    assert outcomes == {label: pytest.approx(n / 16) for label, n in counts.items()}


def test_ad79_second_makes_vesuvius_erupt(pompeii):
    """ad79_second, eruption: hands go to the discards, unplaced citizens to the box; lava from the drawer's left."""
    st = position(pompeii, 3, "settle", "black", """
    ad79_drawn = 1
    move take(supply(black), 3) to r2c8
    move take([c for c in deck if c.number == 9], 2) to hand(black)
    move take([c for c in deck if c.number == 1], 2) to hand(black)
    """ + DEAL_HANDS + """
    move [c for c in aside if c.type == "ad79"] to deck at top
    """)
    logged = len(st.log)
    st.apply_action(texts(st)[0])
    assert st.phase == "opening"
    assert expr(pompeii, st, "erupter == black and ad79_drawn == 2")
    assert "black shows ad79" in st.log[logged:]
    # A.D. 79 goes onto the discards (on the card black played), then every hand on top of it
    assert [st.setup.ctype[c] for c in st.zones["discard"]][:2] == ["card", "ad79"]
    assert all(len(st.zones[f"hand.{p}"]) == 0 for p in ("red", "black", "yellow"))
    assert expr(pompeii, st, "count(supply(black)) == 0 and count(box, c => c.type == \"citizen\") > 60")
    assert first_lava_player(pompeii, st) == 2  # yellow, left of black, draws the first lava tile


def test_declare_eruption_out_of_turn_with_four_jokers(pompeii):
    """declare_eruption (anytime): a player holding four jokers may end the first phase even on another's turn."""
    st = position(pompeii, 3, "settle", "red", """
    ad79_drawn = 1
    move take(supply(red), 4) to r2c8
    move take(supply(red), 4) to r5c4
    move take([c for c in deck if c.number == 5], 2) to hand(yellow)
    move take([c for c in deck if c.number == 9], 2) to hand(yellow)
    """ + DEAL_HANDS)
    assert st.player_name(st.current_player()) == "red"
    assert "declare_eruption" in texts(st, 2)
    assert "declare_eruption" not in texts(st, 1)
    logged = len(st.log)
    st.apply_action("yellow: declare_eruption")
    assert st.log[logged] == "yellow shows [5,5,9,9]"  # the four jokers, shown as proof
    assert st.phase == "opening" and expr(pompeii, st, "erupter == yellow")
    assert first_lava_player(pompeii, st) == 0  # declared_eruption_first_tile: red, left of yellow


# ----------------------------------------------------------------------- lava
def test_opening_six_tiles_then_escape_from_the_left_of_the_last(pompeii):
    """opening, place_lava, lava_squares: six tiles, a symbol's first on its start square."""
    st = play_random(pompeii, 3, seed=21, until=lambda s: s.phase == "opening")
    while st.phase == "opening":
        st.apply_option(0)
    placed = [c for c in st.setup.by_type["lava"] if st.where[c] in pompeii.board.props]
    assert len(placed) == 6 or expr(pompeii, st, "count(box, c => c.type == \"lava\")") + len(placed) == 6
    for c in placed:
        symbol = st.setup.cstatic[c]["symbol"]
        same = [d for d in placed if st.setup.cstatic[d]["symbol"] == symbol]
        if len(same) == 1:
            assert pompeii.board.props[st.where[c]]["vent"] == symbol
    assert st.phase == "escape" and st.turn_player == (expr(pompeii, st, "last_lava") + 1) % 3


def test_place_lava_next_to_its_symbol_and_it_destroys_citizens(pompeii):
    """place_lava: later tiles touch a tile of the same symbol (sides only); citizens there go to the volcano."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "vase"] to box
    move take(bag, 1) to r2c10
    move take(supply(black), 2) to r3c10
    move top(supply(red)) to r5c5
    """)
    assert sorted(texts(st)) == ["place_lava square=r2c9", "place_lava square=r3c10"]
    st.apply_action("place_lava square=r3c10")
    assert expr(pompeii, st, "count(volcano, c => c.owner == black) == 2 and has_lava(r3c10)")


def test_citizens_under_the_lava_go_to_the_volcano_before_those_cut_off(pompeii):
    """place_lava, cut_off: the tile throws the citizens of its square into the volcano at once; the cut-off
    rule follows (its citizens after them)."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "vase"] to box
    move take(bag, 1) to r2c10
    move take([t for t in box if t.symbol == "coin"], 1) to r1c1
    move take([t for t in box if t.symbol == "coin"], 1) to r2c0
    move take([t for t in box if t.symbol == "coin"], 1) to r0c0
    move take(supply(yellow), 1) to r1c0
    move take(supply(black), 2) to r3c10
    move top(supply(red)) to r5c5
    """)
    # r1c0 is shut in already; the vase tile on r3c10 takes the two black citizens, then r1c0's is cut off
    st.apply_action("place_lava square=r3c10")
    assert [st.setup.cowner[c] for c in st.zones["volcano"]] == [1, 1, 2]


def test_a_lava_tile_goes_next_to_its_own_symbol_only(pompeii):
    """lava_squares, symbol_spaces: next to a tile of the same symbol — not next to another symbol's tile."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "vase"] to box
    move take(bag, 1) to r2c10
    move take([t for t in box if t.symbol == "helmet"], 1) to r6c9
    move top(supply(red)) to r5c5
    """)
    assert sorted(texts(st)) == ["place_lava square=r2c9", "place_lava square=r3c10"]  # not next to the helmet


def test_lava_tile_with_no_square_goes_to_the_box(pompeii):
    """lava_step, lava_on_any_free_square: the helmet start square under another symbol's lava: the helmet tile is set aside."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take([t for t in box if t.symbol == "vase"], 1) to r6c9
    move top(supply(red)) to r5c5
    """)
    assert expr(pompeii, st, 'count(box, c => c.type == "lava" and c.symbol == "helmet") == 1')


def test_cut_off_citizens_go_to_the_volcano(pompeii):
    """cut_off: a citizen with no lava-free way to an open gate is lost at once."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "coin"] to box
    move take([t for t in box if t.symbol == "vase"], 1) to r1c1
    move take([t for t in box if t.symbol == "vase"], 1) to r2c0
    move top(supply(black)) to r1c0
    move top(supply(red)) to r5c5
    move take([t for t in box if t.symbol == "vase"], 1) to r0c0
    move take([t for t in box if t.symbol == "vase"], 1) to r0c1
    """)
    # r1c0 is now shut in (r0c0, r1c1, r2c0 under lava): the first lava tile of the turn triggers the check
    assert expr(pompeii, st, "count(volcano, c => c.owner == black) == 1 and count(r1c0) == 0")


# --------------------------------------------------------------------- escape
def test_move_citizen_never_onto_lava_and_up_to_its_points(pompeii):
    """move_citizen, points, blocked_spaces: orthogonal steps around lava, at most as many as citizens on the square."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take([t for t in box if t.symbol == "vase"], 1) to r4c8
    move take(supply(red), 3) to r4c7
    """)
    legal = [t for t in texts(st) if t.startswith("move_citizen from=r4c7")]
    assert "move_citizen from=r4c7 to=r4c8" not in legal  # lava
    assert "move_citizen from=r4c7 to=r1c7" in legal  # three steps
    assert "move_citizen from=r4c7 to=r0c7" not in legal  # four


def test_escape_moves_mandatory_no_pass(pompeii):
    """escape_moves_mandatory: no 'pass' while a move is possible."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(supply(red), 2) to r4c7
    """)
    assert "pass" not in texts(st)


def test_player_with_one_citizen_moves_it_twice(pompeii):
    """may_move: a player with one citizen left in the city moves it twice."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move top(supply(red)) to r3c5
    move top(supply(black)) to r3c5
    """)
    st.apply_action("move_citizen from=r3c5 to=r2c5")
    assert st.player_name(st.current_player()) == "red"
    assert any(t.startswith("move_citizen from=r2c5") for t in texts(st))


def test_player_without_citizens_only_places_lava(pompeii):
    """escape: a player with no citizen in the city only draws and places a tile — one tile a turn."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move top(supply(black)) to r3c5
    """)
    assert st.player_name(st.current_player()) == "black"
    assert expr(pompeii, st, 'count(components("lava"), t => t.space == r6c9) == 1')
    # red drew one tile (it went on r6c9), black the one it is placing now: none went to the box
    assert expr(pompeii, st, 'count(bag) == 5 and count(drawn_tile) == 1 and count(box, t => t.type == "lava") == 38')


def test_each_escape_turn_starts_afresh(pompeii):
    """escape: moves_made and first_moved are reset each turn — the turn before (another player's, or the
    same player's when the others have no citizen left) does not hold a citizen back."""
    st = position(pompeii, 2, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(supply(red), 2) to r3c5
    move top(supply(red)) to r0c5
    move take(supply(black), 2) to r3c2
    """)
    st.apply_action("move_citizen from=r3c5 to=r3c6")  # red moves A first (not alone), then B
    assert expr(pompeii, st, "moves_made == 1")
    st.apply_action("move_citizen from=r3c5 to=r3c4")
    assert st.player_name(st.current_player()) == "black"
    st.apply_action(sorted(texts(st))[0])  # black places the tile
    st.apply_action("move_citizen from=r3c2 to=r3c3")  # X first, not alone: X may not move again
    assert not any(t.startswith("move_citizen from=r3c3") for t in texts(st))
    assert any(t.startswith("move_citizen from=r3c2") for t in texts(st))
    lone = position(pompeii, 2, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(supply(red), 2) to r3c5
    move top(supply(red)) to r0c5
    """)
    lone.apply_action("move_citizen from=r3c5 to=r3c6")  # A first
    lone.apply_action("move_citizen from=r3c5 to=r3c4")
    lone.apply_action(sorted(texts(lone))[0])  # black, with no citizen, places the tile; red again
    assert lone.player_name(lone.current_player()) == "red"
    lone.apply_action(sorted(texts(lone))[0])  # red's tile
    lone.apply_action("leave_city from=r0c5")  # C out first: A may move
    assert expr(pompeii, lone, "moves_made == 1 and first_moved == none")
    assert any(t.startswith("move_citizen from=r3c6") for t in texts(lone))


def test_escape_goes_on_while_one_gate_is_open(pompeii):
    """escape (end), nobody_can_escape: lava on every gate but one ends nothing while a citizen can reach it."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    for g in [r0c0, r1c9, r4c0, r4c10, r6c6, r6c8]:
      move take([t for t in box if t.type == "lava"], 1) to g
    move take(supply(red), 2) to r2c5
    """)
    assert expr(pompeii, st, "[text(g) for g in open_gates()] == ['r0c5'] and not nobody_can_escape()")
    st.apply_action("move_citizen from=r2c5 to=r1c5")
    st.apply_action(texts(st)[0])
    assert not st.is_terminal()


def test_escape_ends_with_the_last_tile_and_the_rest_go_to_the_volcano(pompeii):
    """escape (end): after the turn in which the last tile is drawn, citizens left are lost."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(bag, 6) to box
    move take(supply(red), 2) to r3c5
    move take(supply(black), 2) to r2c2
    """)
    assert expr(pompeii, st, "count(bag) == 0")
    while not st.is_terminal():
        st.apply_action(texts(st)[0])
    assert expr(pompeii, st, "all(spaces, s => count(citizens(s)) == 0)")
    assert expr(pompeii, st, 'count(volcano) + count(saved(red)) + count(saved(black)) == 4')


def test_escape_ends_when_no_citizen_is_left(pompeii):
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move top(supply(red)) to r0c5
    """)
    st.apply_action("leave_city from=r0c5")
    assert st.is_terminal() and st.scores() == [1, 0, 0]


# -------------------------------------------------------------------- scoring
def test_scoring_most_saved_then_fewest_in_the_volcano(pompeii):
    """scoring, shared_victory: ties on saved go to fewer in the volcano; a tie that remains is shared."""
    st = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(supply(red), 2) to saved(red)
    move take(supply(black), 2) to saved(black)
    move take(supply(yellow), 1) to saved(yellow)
    move take(supply(black), 1) to volcano
    move top(supply(red)) to r0c5
    """)
    st.apply_action("leave_city from=r0c5")
    assert st.is_terminal()
    assert st.scores() == [3, 2, 1]
    assert st.ranking() == [[0], [1], [2]]
    close = position(pompeii, 3, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(supply(red), 1) to saved(red)
    move take(supply(black), 2) to saved(black)
    move take(supply(red), 2) to volcano
    move take(supply(black), 1) to volcano
    move take(supply(yellow), 1) to volcano
    move top(supply(red)) to r0c5
    """)
    close.apply_action("leave_city from=r0c5")  # red and black 2 saved each; red has more in the volcano
    assert close.scores() == [2, 2, 0] and close.ranking() == [[1], [0], [2]]
    assert close.returns() == [0.0, 1.0, -1.0]
    tie = position(pompeii, 2, "escape", "red", """
    move [t for t in bag if t.symbol != "helmet"] to box
    move take(supply(black), 1) to saved(black)
    move top(supply(red)) to r0c5
    """)
    tie.apply_action("leave_city from=r0c5")
    assert tie.ranking() == [[0, 1]] and tie.returns() == [0.0, 0.0]


# ------------------------------------------------------------------ play-outs
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish_with_every_citizen_accounted_for(pompeii, players):
    """The invariants (citizens_accounted_for, ...) hold after every action of random games."""
    for seed in range(6):
        result = play_game(pompeii, players, seed, check=True)
        assert not result.unfinished
        assert 60 < result.length < 400



def test_checks_cards_against_the_circles_of_the_board(tmp_path):
    """cards_match_circles: a card count contradicting the board is reported with both places."""
    import shutil
    import leges
    shutil.copytree(ruleset_dir("pompeii"), tmp_path / "pompeii")
    shutil.copytree(maps_dir(), tmp_path / "maps")
    board = tmp_path / "maps" / "pompeii.yaml"
    board.write_text(board.read_text().replace("  r2c8: {circles: 4}", "  r2c8: {circles: 3}"))
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(tmp_path / "pompeii"))
    d = err.value.diagnostics[0]
    assert "consistency check 'cards_match_circles' fails" in d.message
    assert "components.yaml: card instances" in d.hint and "maps/pompeii.yaml: circles" in d.hint


def test_variant_dual_vent_tile_goes_as_either_symbol_and_then_counts_as_both():
    """dual_vent: lava_squares, squares_for, symbol_spaces (a guess, marked so in the variant)."""
    import leges
    game = leges.load(str(ruleset_dir("pompeii")), variants=["dual_vent"])
    st = position(game, 3, "escape", "red", """
    move [t for t in bag if t.symbol2 == none or t.symbol != "helmet"] to box
    move top(supply(red)) to r4c5
    """)
    assert sorted(texts(st)) == ["place_lava square=r6c3", "place_lava square=r6c9"]  # mask's start, helmet's
    st.apply_action("place_lava square=r6c3")
    assert expr(game, st, 'symbol_spaces("mask") == [r6c3] and symbol_spaces("helmet") == [r6c3]')
    assert expr(game, st, 'r5c3 in squares_for("helmet") and r6c9 not in squares_for("helmet")')
