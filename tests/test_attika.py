"""Attika: one test (at least) per rule, named after the rule's id; the worked examples are scenarios."""
from __future__ import annotations

from collections import Counter

import pytest

import leges
from helpers import expr, maps_dir, position, ruleset_dir, texts
from leges.simulate import random_playout

ATTIKA = str(ruleset_dir("attika"))


@pytest.fixture(scope="module")
def attika():
    return leges.load(ATTIKA)


def names(st, zone):
    return sorted(st.setup.cstatic[c]["name"] for c in st.zones[zone])


def test_components_thirty_buildings_sixty_cards_fifteen_amphorae(attika):
    st = attika.new_initial_state(players=4, seed=0)
    for p in range(4):
        groups = Counter(st.setup.cstatic[c]["group"] for c in st.setup.by_owner[("building", p)])
        assert groups == {"supply": 4, "defence": 4, "wine": 2, "coinage": 2, "streets": 4, "seafaring": 4, "city": 10}
        assert sum(st.setup.cstatic[c]["main"] for c in st.setup.by_owner[("building", p)]) == 6
    assert Counter(st.setup.cstatic[c]["kind"] for c in st.setup.by_type["card"]) == {
        "mountain": 15, "hill": 15, "forest": 15, "water": 15}
    assert len(st.setup.by_type["amphora"]) == 15 and len(st.setup.by_type["tile"]) == 22


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_start_map_shrines_stacks_and_hands(attika, players):
    """start_map, shrines, building_stacks, reveal_tops, landscape_cards."""
    st = attika.new_initial_state(players=players, seed=players)
    assert expr(attika, st, "count(map_hexes())") == 7 * 2 * players
    assert expr(attika, st, "count(shrine_spaces())") == players
    assert len(st.zones["tile_stack"]) == 22 - 2 * players
    for p, seat in enumerate(st.setup.seat_names):
        assert len(st.zones[f"main_stack.{seat}"]) == 5 and len(st.zones[f"board.{seat}"]) == 4
        assert [len(st.zones[f"stack_{x}.{seat}"]) for x in "abc"] == [7, 7, 7]
        assert sum(st.setup.cstatic[c]["main"] for c in st.zones[f"main_stack.{seat}"]) == 5
        assert len(st.zones[f"hand.{seat}"]) == 4 + p
    assert len(st.zones["draw_pile"]) == 60 - sum(4 + p for p in range(players))


def test_play_either_reveals_or_builds_never_both(attika):
    """play, begin_action: the first action fixes the turn's kind."""
    st = position(attika, 2, "play", "athens", """
    for h in flower(h10_10):
      set h.land = "blank"
    move [b for b in components("building", athens) if b.group == "city"] to stack_a(athens)
    move first([b for b in components("building", athens) if b.name == "square"]) to board(athens)
    move take([c for c in draw_pile if c.kind == "hill"], 4) to hand(athens)
    move take([c for c in draw_pile if c.kind == "forest"], 4) to hand(athens)
    """)
    assert any(t.startswith("reveal") for t in texts(st)) and any(t.startswith("build") for t in texts(st))
    st.apply_action("reveal stack=stack_a.athens")
    if st.pending and any(t.startswith("build_revealed") for t in texts(st)):
        st.apply_action("keep_revealed")
    assert not any(t.startswith("build building") for t in texts(st))


def test_free_hex_never_a_shrine_or_an_occupied_hex(attika):
    st = position(attika, 2, "play", "athens", """
    for h in flower(h10_10):
      set h.land = "blank"
    move first(components("shrine")) to h9_10
    move first([b for b in components("building", corinth) if b.name == "well"]) to h11_10
    """)
    assert expr(attika, st, "free_hex(h10_10) and not free_hex(h11_10) and not free_hex(h9_10) and not free_hex(h5_5)")


def test_expand_map_after_the_last_building_of_a_stack(attika):
    """expand_map, place_tile, tile_fits, lay_tile: a tile touching the map, turned as the player likes."""
    st = position(attika, 2, "play", "athens", """
    for h in flower(h10_10):
      set h.land = "blank"
    move first([b for b in components("building", athens) if b.name == "temple"]) to stack_a(athens)
    move first([b for b in components("building", athens) if b.name == "oracle"]) to stack_b(athens)
    move take(tile_stack, 1) to tile_stack
    """)
    assert expr(attika, st, "count(tile_stack) == 22")
    st.apply_action("reveal stack=stack_a.athens")
    options = texts(st)
    assert options and all(t.startswith("place_tile centre=") for t in options)
    assert len(options) % 6 == 0  # every fitting place, in six turns
    st.apply_action(options[0])
    assert expr(attika, st, "count(map_hexes()) == 14 and count(tile_stack) == 21")
    assert expr(attika, st, "all(map_hexes(), h => h.land != none)")


def test_draw_card_refills_from_the_discards(attika):
    st = position(attika, 2, "play", "athens", """
    stack draw_pile onto discards
    move [b for b in components("building", athens) if b.group == "city"] to stack_a(athens)
    """)
    assert expr(attika, st, "count(draw_pile) == 0 and count(discards) == 60")
    st.apply_action("pass")
    # the empty draw pile was refilled from the discards; corinth, with nothing to do, drew three too
    assert expr(attika, st, "count(hand(athens)) == 3 and count(discards) == 0 and count(draw_pile) == 54")


def test_forgone_whole_turn_draws_three(attika):
    """finish_turn: giving up the whole turn draws three cards."""
    st = position(attika, 2, "play", "athens", """
    move [b for b in components("building", athens) if b.group == "city"] to stack_a(athens)
    """)
    st.apply_action("pass")
    assert expr(attika, st, "count(hand(athens)) == 3")


def test_check_victory_with_all_thirty_buildings(attika):
    st = position(attika, 2, "play", "athens", """
    for centre in [h9_7, h11_8, h8_10, h10_11, h13_9]:
      for h in flower(centre):
        set h.land = "blank"
    let sites = [h for h in spaces if h.land != none]
    let mine = [b for b in components("building", athens) if b.name != "temple"]
    for i in range(29):
      move mine[i] to sites[i]
    move first([b for b in components("building", athens) if b.name == "temple"]) to board(athens)
    move take([c for c in draw_pile if c.kind == "hill"], 8) to hand(athens)
    move take([c for c in draw_pile if c.kind == "water"], 8) to hand(athens)
    """)
    site = next(t for t in texts(st) if t.startswith("build building=temple"))
    st.apply_action(site)
    while not st.is_terminal():
        st.apply_action(texts(st)[0])
    assert st.is_terminal() and st.scores() == [1, 0]


def test_turn_cap_reports_unfinished(attika, tmp_path):
    """turn_cap: a game that reaches the cap is unfinished, never a win."""
    import shutil
    shutil.copytree(ruleset_dir("attika"), tmp_path / "attika")
    shutil.copytree(maps_dir(), tmp_path / "maps")
    text = (tmp_path / "attika" / "ruleset.yaml").read_text().replace("max_turns: 600", "max_turns: 3")
    (tmp_path / "attika" / "ruleset.yaml").write_text(text)
    game = leges.load(str(tmp_path / "attika"))
    result = random_playout(game, 2, 0)
    assert result.unfinished and result.scores == [0, 0]


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_keep_every_building_card_and_amphora(attika, players):
    result = random_playout(attika, players, seed=1, check=True)
    assert not result.unfinished



def test_finish_turn_after_reveals_draws_one_card_per_reveal_given_up(attika):
    """finish_turn, amphora_actions: one reveal made, one given up — one card; two made — none."""
    arrange = """
    move [b for b in components("building", athens) if b.group == "city"] to stack_a(athens)
    """
    st = position(attika, 2, "play", "athens", arrange)
    st.apply_action("reveal stack=stack_a.athens")
    assert expr(attika, st, "count(hand(athens)) == 0 and count(board(athens)) == 1")
    st.apply_action("pass")
    assert expr(attika, st, "count(hand(athens)) == 1")
    st = position(attika, 2, "play", "athens", arrange)
    st.apply_action("reveal stack=stack_a.athens")
    st.apply_action("reveal stack=stack_a.athens")
    # the turn is over (and corinth's, with nothing to do, gave it three cards): athens drew none
    assert expr(attika, st, "count(hand(athens)) == 0 and count(board(athens)) == 2 and count(hand(corinth)) == 3")


def test_seat_colours_are_marked_as_approximations_but_thebes_red(attika):
    """Only "A piros (thébai) játékos" is in the rulebook: the other colours are this encoding's, marked so."""
    from leges.cli.check import _approximations
    seats = {s["name"]: s.get("colour") for s in attika.ruleset.seats}
    assert seats["thebes"] == "red"
    marked = [note for where, note in _approximations(attika) if where.endswith("players/source")]
    assert marked and "Thebes' red" in marked[0]


def test_the_table_edge_is_a_marked_approximation_with_room_around_the_start_map(attika):
    """The rulebook's table has no edge: this one is marked as an approximation (its note says how often it
    binds), and the start map lies well inside it — every hex within 8 of it (nearly three tiles) is table."""
    board = attika.board
    assert board.provenance["status"] == "approximation" and "no edge" in board.provenance["note"]
    for players in (2, 3, 4):
        st = attika.new_initial_state(players=players, seed=0)
        for hex_ in expr(attika, st, "map_hexes() + shrine_spaces()"):
            assert len(board.within(hex_, 8)) == 1 + 3 * 8 * 9, hex_  # the whole hexagon of radius 8 is table
