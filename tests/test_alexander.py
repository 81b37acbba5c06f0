"""Alexander the Great: one test (at least) per rule, named after the rule's id; examples are scenarios."""
from __future__ import annotations

import json
import shutil

import pytest

import leges
from helpers import expr, maps_dir, position, ruleset_dir, texts
from leges.lab.simulate import play_game

ALEXANDER = str(ruleset_dir("alexander"))


@pytest.fixture(scope="module")
def alexander():
    return leges.load(ALEXANDER)


def test_components_and_the_approximated_map(alexander):
    st = alexander.new_initial_state(players=5, seed=0)
    for p in range(5):
        assert len(st.setup.by_owner[("cube", p)]) == 15
        assert len(st.setup.by_owner[("temple", p)]) == 10 and len(st.setup.by_owner[("city", p)]) == 8
    board = alexander.board
    assert board.provenance["status"] == "approximation"
    assert "cappadocia" not in board.neighbors.get("cilicia", ()) and "cilicia" not in board.neighbors.get("cappadocia", ())
    assert board.props["media"]["symbol"] == "5" and board.props["karmania"]["symbol"] == "star"
    assert len(board.areas["region"]) == 6


def test_eight_cities_contradiction_is_flagged_when_put_back(tmp_path):
    """eight_cities: the component list's '5 per colour' contradicts the set-up's 8."""
    shutil.copytree(ruleset_dir("alexander"), tmp_path / "alexander")
    shutil.copytree(maps_dir(), tmp_path / "maps")
    path = tmp_path / "alexander" / "components.yaml"
    path.write_text(path.read_text().replace(
        'box: {total: 40, source:', 'box: {total: 40, per_seat: [5, 5, 5, 5, 5], source:'))
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(tmp_path / "alexander"))
    text = str(err.value)
    assert "the box holds 40 in all, but per seat 5 + 5 + 5 + 5 + 5 = 25" in text
    assert "each needs 8, but the box has 5" in text


def test_share_is_secret_until_the_screens_are_lifted(alexander):
    """share, simultaneous_in_seat_order: nobody sees another's share-out before every screen is lifted."""
    st = alexander.new_initial_state(players=3, seed=0)
    st.apply_action("share order=2 armies=5 temples=4")
    # red's commitment is hidden from blue's view and sealed in the record blue may see
    blue_view = st.observation(1)
    assert blue_view["vars"]["shares"][0] == "?" and "order_box.red" in blue_view["zones"]
    assert blue_view["zones"]["screen.red"] == {"count": 15}
    assert st.record_view(1) == ["red: (sealed)"] and st.record_view(0) == ["red: share order=2 armies=5 temples=4"]
    # blue's view is the same whatever red committed
    other = alexander.new_initial_state(players=3, seed=0)
    other.apply_action("share order=0 armies=15 temples=0")
    assert json.dumps(other.observation(1), sort_keys=True) == json.dumps(blue_view, sort_keys=True)
    st.apply_action("share order=0 armies=5 temples=5")
    st.apply_action("share order=1 armies=7 temples=7")
    # screens lifted together
    assert st.record_view(1)[0] == "red: share order=2 armies=5 temples=4"
    assert st.observation(1)["zones"]["army_box.red"] == ["red"] * 5


def test_march_pays_from_the_chosen_boxes_once_for_armies_moving_together(alexander):
    """enter, march, payments_for, fresh_armies, arrive, entering_the_region, entry_cost."""
    st = position(alexander, 2, "march", "red", """
    campaign = 1
    round = 1
    region = area("r1")
    turn_order = [red, blue]
    move take(screen(red), 3) to army_box(red)
    move take(screen(red), 1) to temple_box(red)
    move take(screen(red), 2) to city_box(red)
    move take(screen(blue), 1) to army_box(blue)
    """)
    assert texts(st) == ["enter armies=1 from_temples=0", "enter armies=2 from_temples=0", "enter armies=3 from_temples=0",
                         "pass"]  # the campaign arrow into Thessaly has a hollow head: free
    st.apply_action("enter armies=3 from_temples=0")
    assert expr(alexander, st, "count(armies_at(thessalia, red)) == 3 and count(spent(red)) == 0")
    legal = texts(st)
    assert "march source=thessalia to=boeotia armies=[1,1,1] from_temples=0" in legal
    assert "march source=thessalia to=boeotia armies=[1,1,1] from_temples=1" in legal
    st.apply_action("march source=thessalia to=boeotia armies=[1,1] from_temples=1")  # cost 1, paid once
    assert expr(alexander, st, "count(temple_box(red)) == 0 and count(city_box(red)) == 2 and count(spent(red)) == 1")
    st.apply_action("march source=boeotia to=attica armies=[2,2] from_temples=0")  # a hollow arrow: free
    # third province reached: these armies are spent for the round
    assert not any(t.startswith("march source=attica") for t in texts(st))
    assert expr(alexander, st, "count(spent(red)) == 1")


def test_enter_pays_the_cost_printed_beside_the_campaign_arrow(tmp_path):
    """entry_cost, campaign_symbol: the arrow from the campaign symbol costs what the map says, like every arrow."""
    shutil.copytree(ruleset_dir("alexander"), tmp_path / "alexander")
    shutil.copytree(maps_dir(), tmp_path / "maps")
    path = tmp_path / "maps" / "alexander.yaml"
    text = path.read_text()
    assert "{from: thracia, to: troas, cost: 0, kind: campaign" in text
    path.write_text(text.replace("{from: thracia, to: troas, cost: 0, kind: campaign", "{from: thracia, to: troas, cost: 2, kind: campaign"))
    game = leges.load(str(tmp_path / "alexander"))
    st = position(game, 2, "march", "red", """
    campaign = 2
    round = 1
    region = area("r2")
    turn_order = [red, blue]
    move take(screen(red), 2) to army_box(red)
    move take(screen(red), 1) to temple_box(red)
    move take(screen(red), 3) to city_box(red)
    """)
    assert expr(game, st, "campaign_symbol() == thracia and entry() == troas and entry_cost() == 2")
    assert texts(st) == ["enter armies=1 from_temples=0", "enter armies=1 from_temples=1",
                         "enter armies=2 from_temples=0", "enter armies=2 from_temples=1", "pass"]
    st.apply_action("enter armies=2 from_temples=1")
    assert expr(game, st, "count(spent(red)) == 2 and count(temple_box(red)) == 0 and count(city_box(red)) == 2")
    assert expr(game, st, "count(armies_at(troas, red)) == 2")


def test_march_chooses_which_armies_by_the_provinces_they_counted(alexander):
    """army_choices: in one province, armies that moved different distances this round are told apart."""
    st = position(alexander, 2, "march", "red", """
    campaign = 1
    round = 1
    region = area("r1")
    turn_order = [red, blue]
    move take(screen(red), 1) to army_box(red)
    move take(screen(red), 1) to city_box(red)
    let old = take(screen(red), 2)
    move old to boeotia
    """)
    st.apply_action("enter armies=1 from_temples=0")
    st.apply_action("march source=thessalia to=boeotia armies=[1] from_temples=0")  # it has counted two now
    legal = [t for t in texts(st) if t.startswith("march source=boeotia to=attica")]
    assert legal == ["march source=boeotia to=attica armies=[2] from_temples=0",
                     "march source=boeotia to=attica armies=[0] from_temples=0",
                     "march source=boeotia to=attica armies=[0,2] from_temples=0",
                     "march source=boeotia to=attica armies=[0,0] from_temples=0",
                     "march source=boeotia to=attica armies=[0,0,2] from_temples=0"]
    st.apply_action("march source=boeotia to=attica armies=[0] from_temples=0")  # one that had not moved
    assert expr(alexander, st, "sort([c.steps for c in armies_at(boeotia, red)]) == [0, 2]")
    assert expr(alexander, st, "[c.steps for c in armies_at(attica, red)] == [1]")
    st.apply_action("march source=boeotia to=attica armies=[2] from_temples=0")  # the one that came from Thessaly
    assert expr(alexander, st, "sort([c.steps for c in armies_at(attica, red)]) == [1, 3]")
    assert not any(t.startswith("march source=attica") and "3" in t.split("armies=")[1].split()[0] for t in texts(st))


def test_attempt_temple_and_attempt_city(alexander):
    """attempt_temple, attempt_city, one_attempt_per_province: where one's army stands and the symbol is."""
    st = position(alexander, 2, "march", "red", """
    campaign = 1
    round = 1
    region = area("r1")
    turn_order = [red, blue]
    move top(screen(red)) to attica
    move top(screen(red)) to thracia
    let c = components("city", blue)
    move c[0] to thracia
    set c[0].built = true
    """)
    st.apply_action("pass")  # no march: on to the attempts
    legal = texts(st)
    assert "attempt_temple province=attica" in legal and "attempt_city province=attica" in legal
    assert "attempt_city province=thracia" not in legal  # a city stands there already
    assert not any("boeotia" in t for t in legal)  # no army of red's there
    st.apply_action("attempt_temple province=attica")
    assert "attempt_temple province=attica" not in texts(st) and "attempt_city province=attica" in texts(st)


def test_campaign_ends_when_the_target_is_reached_and_all_cubes_return(alexander):
    """campaign_start, round_scoring: an army in the symbol's province ends the campaign after the round."""
    st = position(alexander, 2, "round_scoring", None, """
    campaign = 1
    round = 1
    region = area("r1")
    target_reached = true
    move take(screen(red), 2) to thracia
    move take(screen(red), 4) to spent(red)
    """)
    assert expr(alexander, st, "campaign == 2 and round == 1 and region == area('r2')")
    assert expr(alexander, st, "count(screen(red)) == 15 and count(thracia) == 0 and vp[red] == 2")


def test_third_round_ends_the_campaign(alexander):
    st = position(alexander, 2, "round_scoring", None, """
    campaign = 1
    round = 3
    region = area("r1")
    """)
    assert expr(alexander, st, "campaign == 2 and round == 1")


def test_reshare_moves_only_temple_and_city_cubes(alexander):
    """reshare: rounds 2 and 3 share out again only the temple and city boxes."""
    st = position(alexander, 2, "share_out", "red", """
    campaign = 2
    round = 2
    region = area("r2")
    move take(screen(red), 3) to temple_box(red)
    move take(screen(red), 1) to city_box(red)
    move take(screen(red), 4) to army_box(red)
    move take(screen(blue), 2) to city_box(blue)
    for p in players:
      stack screen(p) onto spent(p)
    """)
    assert texts(st) == [f"reshare temples={i}" for i in range(5)]
    st.apply_action("reshare temples=0")
    st.apply_action("reshare temples=2")
    assert expr(alexander, st, "count(temple_box(red)) == 0 and count(city_box(red)) == 4 and count(army_box(red)) == 4")
    assert expr(alexander, st, "count(temple_box(blue)) == 2 and count(city_box(blue)) == 0")


def test_later_campaign_order_bidder_chooses_then_victory_points(alexander):
    """later_campaign_order, nobody_bids."""
    st = position(alexander, 3, "turn_order", None, """
    campaign = 2
    round = 1
    region = area("r2")
    vp[red] = 5
    vp[blue] = 9
    vp[green] = 1
    move take(screen(green), 2) to order_box(green)
    """)
    assert texts(st) == ["place place=1", "place place=2", "place place=3"] and st.current_player() == 2
    st.apply_action("place place=2")
    assert expr(alexander, st, "turn_order == [blue, green, red]")
    nobody = position(alexander, 3, "turn_order", None, """
    campaign = 2
    round = 1
    region = area("r2")
    vp[red] = 5
    vp[blue] = 9
    vp[green] = 1
    """)
    assert expr(alexander, nobody, "turn_order == [blue, red, green]")


def test_first_campaign_with_no_bid_starts_with_the_oldest(alexander):
    """oldest_player."""
    st = alexander.new_initial_state(players=3, seed=0)
    for _ in range(3):
        st.apply_action("share order=0 armies=5 temples=5")
    assert expr(alexander, st, "turn_order == [red, blue, green]")


def test_final_scoring_majorities_and_ties(alexander):
    """final_scoring, award_sole, built_of."""
    st = position(alexander, 2, "final_scoring", None, """
    let t = components("temple", red)
    move t[0] to attica
    move t[1] to troas
    set t[0].built = true
    set t[1].built = true
    let c = components("city", blue)
    move c[0] to attica
    set c[0].built = true
    let c2 = components("city", red)
    move c2[0] to troas
    set c2[0].built = true
    """)
    # cities 1-1 (tie: nothing); temples red 2 (15); r1: city blue (5), temple red (5); r2: city red (5), temple red (5)
    assert st.is_terminal()
    assert st.scores() == [15 + 5 + 5 + 5, 5]


def test_variant_final_scoring_by_region(alexander):
    """final_scoring_by_region (6.1.1): per region temples and cities together, 5 to the sole leader."""
    game = leges.load(ALEXANDER, variants=["final_scoring_by_region"])
    st = position(game, 2, "final_scoring", None, """
    let t = components("temple", red)
    move t[0] to attica
    set t[0].built = true
    let c = components("city", blue)
    move c[0] to attica
    set c[0].built = true
    move c[1] to boeotia
    set c[1].built = true
    """)
    assert st.scores() == [15, 10 + 5]


def test_variant_short_game_and_both_together():
    """short_game (7.0), variants_combined, short_game_order: campaigns 2-4, halved final scoring."""
    game = leges.load(ALEXANDER, variants=["short_game"])
    st = game.new_initial_state(players=2, seed=0)
    assert expr(game, st, "campaign == 2 and region == area('r2') and final_points == [5, 7, 2, 2]")
    both = leges.load(ALEXANDER, variants=["short_game", "final_scoring_by_region"])
    assert both.variants == ("short_game", "final_scoring_by_region")
    result = play_game(both, 3, seed=2, check=True)
    assert not result.unfinished


@pytest.mark.parametrize("players", [2, 5])
def test_random_games_account_for_every_cube_temple_and_city(alexander, players):
    result = play_game(alexander, players, seed=3, check=True)
    assert not result.unfinished



ROUND_ONE = """
    campaign = 1
    round = 1
    region = area("r1")
    turn_order = [red, blue]
"""


def test_a_new_campaign_starts_afresh_and_the_last_one_ends_the_game(alexander):
    """campaign_start, round_scoring, last_campaign: target_reached is cleared for the new campaign, whose
    first share-out waits for the players; after the last campaign comes the final scoring."""
    st = position(alexander, 2, "round_scoring", None, """
    campaign = 5
    round = 2
    region = area("r5")
    target_reached = true
    """)
    assert expr(alexander, st, "campaign == 6 and round == 1 and not target_reached and region == area('r6')")
    assert st.current_player() == 0 and texts(st)[0].startswith("share ")
    last = position(alexander, 2, "round_scoring", None, """
    campaign = 6
    round = 2
    region = area("r6")
    target_reached = true
    """)
    assert last.is_terminal()


def test_the_third_round_ends_the_campaign_not_the_second(alexander):
    """round_scoring, rounds_per_campaign: after round 2 the players share out again; after round 3 a new campaign."""
    arrange = """
    campaign = 1
    region = area("r1")
    move take(screen(red), 2) to temple_box(red)
    """
    st = position(alexander, 2, "round_scoring", None, "    round = 2\n" + arrange)
    assert expr(alexander, st, "campaign == 1 and round == 3") and texts(st)[0].startswith("reshare ")
    st = position(alexander, 2, "round_scoring", None, "    round = 3\n" + arrange)
    assert expr(alexander, st, "campaign == 2 and round == 1") and texts(st)[0].startswith("share ")


def test_share_and_reshare_commit_their_counts(alexander):
    """share, reshare: what a player commits (order, armies, temples; the rest cities), bounded by the 15 cubes."""
    st = alexander.new_initial_state(players=2, seed=0)
    legal = texts(st)
    assert "share order=15 armies=0 temples=0" in legal and "share order=0 armies=0 temples=15" in legal
    assert "share order=0 armies=0 temples=16" not in legal and "share order=16 armies=0 temples=0" not in legal
    st.apply_action("share order=2 armies=5 temples=4")
    assert expr(alexander, st, "shares[red] == [2, 5, 4, 4]")
    st = position(alexander, 2, "share_out", "red", """
    campaign = 2
    round = 2
    region = area("r2")
    move take(screen(red), 3) to temple_box(red)
    move take(screen(red), 1) to city_box(red)
    """)
    st.apply_action("reshare temples=1")
    assert expr(alexander, st, "shares[red] == [0, 0, 1, 3]")


def test_each_round_and_turn_of_marching_starts_afresh(alexander):
    """march (phase): every army may move three provinces again each round; each player's attempts are their own."""
    st = position(alexander, 2, "share_out", "red", ROUND_ONE + """
    round = 2
    for c in take(screen(red), 2):
      set c.steps = 3
      move c to attica
    move take(screen(red), 2) to temple_box(red)
    move top(screen(blue)) to attica
    move take(screen(blue), 2) to temple_box(blue)
    """)
    st.apply_action("reshare temples=2")
    st.apply_action("reshare temples=2")
    assert expr(alexander, st, "phase == 'march' and all(components('cube'), c => c.steps == 0)")
    assert "march source=attica to=boeotia armies=[0,0] from_temples=0" in texts(st)
    st.apply_action("pass")  # no march
    st.apply_action("attempt_temple province=attica")
    st.apply_action("pass")
    assert st.player_name(st.current_player()) == "blue"
    st.apply_action("pass")  # no march
    assert "attempt_temple province=attica" in texts(st)  # red's attempt does not count against blue


def test_marching_pays_from_the_city_box_and_reaching_the_symbol_ends_the_campaign(alexander):
    """march, arrive: the rest of the cost from the city box; an army in the province of the campaign symbol."""
    st = position(alexander, 2, "march", "red", ROUND_ONE + """
    move take(screen(red), 1) to army_box(red)
    move take(screen(red), 2) to city_box(red)
    """)
    st.apply_action("enter armies=1 from_temples=0")
    st.apply_action("march source=thessalia to=thracia armies=[1] from_temples=0")  # cost 1, from the city box
    assert expr(alexander, st, "count(city_box(red)) == 1 and count(spent(red)) == 1 and target_reached")
    st = position(alexander, 2, "march", "red", ROUND_ONE + """
    move take(screen(red), 1) to army_box(red)
    move take(screen(red), 2) to city_box(red)
    """)
    st.apply_action("enter armies=1 from_temples=0")
    st.apply_action("march source=thessalia to=boeotia armies=[1] from_temples=0")
    assert expr(alexander, st, "not target_reached")


def test_attempts_need_a_piece_left_and_leave_it_on_the_province(alexander):
    """attempt_temple, attempt_city: one of one's temples or cities goes onto the province (not built yet); with
    none left, no attempt of that kind; after an attempt the player may go on trying."""
    st = position(alexander, 2, "march", "red", ROUND_ONE + """
    move top(screen(red)) to attica
    move top(screen(red)) to boeotia
    move take(temples(red), 8) to spent(red)
    move take(cities(red), 7) to spent(red)
    """)
    st.apply_action("pass")  # no march
    assert sorted(texts(st)) == ["attempt_city province=attica", "attempt_temple province=attica",
                                 "attempt_temple province=boeotia", "pass"]
    st.apply_action("attempt_city province=attica")
    assert expr(alexander, st, 'count(attica, c => c.type == "city" and not c.built and c.owner == red) == 1')
    assert expr(alexander, st, "count(cities(red)) == 0") and expr(alexander, st, "count(attempted)") == 1
    assert sorted(texts(st)) == ["attempt_temple province=attica", "attempt_temple province=boeotia", "pass"]
    st.apply_action("attempt_temple province=attica")
    assert expr(alexander, st, 'count(attica, c => c.type == "temple" and not c.built) == 1 and count(temples(red)) == 1')
    assert sorted(texts(st)) == ["attempt_temple province=boeotia", "pass"]


def test_a_city_is_tried_only_where_one_s_army_is_and_none_stands(alexander):
    """attempt_city: a city symbol, no city built yet, and an army of one's own."""
    st = position(alexander, 2, "march", "red", ROUND_ONE + """
    move top(screen(red)) to thracia
    move top(screen(blue)) to attica
    """)
    assert sorted(texts(st)) == ["attempt_city province=thracia", "pass"]  # not attica: blue's army, not red's


def test_turn_order_places(alexander):
    """first_campaign_order, later_campaign_order, free_places: with no bid, the oldest first and then clockwise
    (places 1, 2, 3); a bid of a single cube is a bid."""
    st = alexander.new_initial_state(players=3, seed=0)
    for _ in range(3):
        st.apply_action("share order=0 armies=5 temples=5")
    assert expr(alexander, st, "position == [1, 2, 3]")
    one = position(alexander, 3, "turn_order", None, """
    campaign = 2
    round = 1
    region = area("r2")
    vp[red] = 5
    vp[blue] = 9
    move take(screen(green), 1) to order_box(green)
    """)
    assert texts(one) == ["place place=1", "place place=2", "place place=3"] and one.current_player() == 2


def test_a_lone_army_scores_and_a_lone_city_with_its_price_is_built(alexander):
    """score_armies, settle_attempts, city_price: one army alone holds a province; a lone city attempt with the two
    cubes in the city box is founded, paying them."""
    st = position(alexander, 2, "round_scoring", None, """
    campaign = 1
    round = 1
    region = area("r1")
    move top(screen(red)) to boeotia
    move take(screen(blue), 2) to city_box(blue)
    move top(screen(blue)) to attica
    move top(cities(blue)) to attica
    move take(screen(red), 2) to temple_box(red)
    """)
    assert texts(st)[0].startswith("reshare ")  # round 1 scored; the next share-out waits for red
    assert expr(alexander, st, "vp[red] == 2 and vp[blue] == 2 + 5")
    assert expr(alexander, st, 'count(attica, c => c.type == "city" and c.built) == 1 and count(city_box(blue)) == 0')


def test_no_attempt_of_a_kind_with_none_of_its_pieces_left(alexander):
    """attempt_temple, attempt_city: the attempt puts one of one's temples or cities onto the province — with
    none left of a kind, no attempt of that kind is offered, wherever one's army stands."""
    st = position(alexander, 2, "march", "red", ROUND_ONE + """
    move top(screen(red)) to attica
    move top(screen(red)) to boeotia
    move take(temples(red), 10) to spent(red)
    move take(cities(red), 7) to spent(red)
    """)
    st.apply_action("pass")  # no march
    assert expr(alexander, st, "count(temples(red)) == 0 and count(cities(red)) == 1")
    assert sorted(texts(st)) == ["attempt_city province=attica", "pass"]
    st = position(alexander, 2, "march", "red", ROUND_ONE + """
    move top(screen(red)) to attica
    move take(cities(red), 8) to spent(red)
    move take(temples(red), 9) to spent(red)
    """)
    st.apply_action("pass")
    assert expr(alexander, st, "count(cities(red)) == 0 and count(temples(red)) == 1")
    assert sorted(texts(st)) == ["attempt_temple province=attica", "pass"]


def test_several_players_may_try_a_city_in_one_province(alexander):
    """attempt_city: "Ugyanabban a provinciában több játékos is megpróbálkozhat városalapítással" — another
    player's city attempt (not built yet) does not stop one's own, nor does a built temple; only a city built does."""
    st = position(alexander, 2, "march", "red", ROUND_ONE + """
    move top(screen(red)) to attica
    move top(cities(blue)) to attica
    let t = components("temple", blue)
    move t[0] to attica
    set t[0].built = true
    """)
    st.apply_action("pass")  # no march
    assert "attempt_city province=attica" in texts(st)
    st.apply_action("attempt_city province=attica")
    assert expr(alexander, st, 'count(attica, c => c.type == "city" and not c.built) == 2')
