"""Attika's payments stay inside the fixed action space of the OpenSpiel adapter.

Random play once paid 9 cards for a building (a settlement founded when the player already had a
few: one card more for each), and the generic bound of a list, 8 items, stopped the game with an
error mid-play. The ruleset now declares the bound its rules give (`limits.action_bounds`,
`pay.pay`: at most 60 cards of the 4 kinds); these tests derive that figure again from the
components, play random games of 2, 3 and 4 players through OpenSpiel, and build a position whose
payments run to 40 cards.
"""
from __future__ import annotations

import random

import pytest

import leges
from helpers import expr, position, ruleset_dir
from leges.adapters import declared_bounds
from leges.text.errors import LegesError

ATTIKA = str(ruleset_dir("attika"))
OLD_DEFAULT = 8  # the generic list length, which random play outgrew
SEEDS = range(15)  # among them, for each number of players, games that pay 9 cards or more


@pytest.fixture(scope="module")
def spiel():
    pyspiel = pytest.importorskip("pyspiel")
    from leges.adapters import openspiel
    return pyspiel, openspiel


@pytest.fixture(scope="module")
def attika():
    return leges.load(ATTIKA)


def _payment_lengths(st) -> list[int]:
    """The numbers of cards of the payments offered now (none when no payment is asked)."""
    return [len(o.params["pay"]) for o in st.pending.options
            if isinstance(o.params, dict) and isinstance(o.params.get("pay"), list)] if st.pending else []


def test_the_declared_payment_bound_is_the_one_the_rules_give(attika):
    """Needed: a building's base cost (5 cards of any kind for a street, at most 4 symbols for any
    other) plus a card per settlement already on the map when it founds one (at most 29: the 30th
    building is the one placed); each needed card payable with two; all out of one hand of at most
    the game's 60 cards."""
    st = attika.new_initial_state(players=2, seed=0)
    setup = st.setup
    mine = setup.by_owner[("building", 0)]
    cards = setup.by_type["card"]
    dearest = max(len(setup.cstatic[b]["cost"]) for b in mine)
    needed = dearest + len(mine) - 1
    bound = declared_bounds(attika)["pay.pay"]
    assert (dearest, needed) == (5, 34)
    assert bound["length"] == min(len(cards), 2 * needed) == 60
    assert bound["values"] == sorted({setup.cstatic[c]["kind"] for c in cards})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_through_openspiel_stay_inside_the_action_space(spiel, players):
    pyspiel, _ = spiel
    game = pyspiel.load_game("leges_attika", {"players": players})
    size = game.num_distinct_actions()
    longest = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
                continue
            legal = state.legal_actions()  # an option outside the space raises here
            st = state.leges_state
            assert all(0 <= a < size for a in legal)
            assert len(legal) == len(st.pending.options), "two options share an id"
            longest = max([longest, *_payment_lengths(st)])
            state.apply_action(rng.choice(legal))
    assert OLD_DEFAULT < longest <= 60, f"the seeds reached payments of {longest} cards at most"


def _many_settlements(attika, settlements: int, cards: int):
    """Athens, to move, with `settlements` buildings each alone on a blank hex (a settlement each),
    a street on its board and `cards` cards in hand; hexes three apart in both coordinates touch no
    other, so the street founds one more settlement wherever it goes among them."""
    sites = [f"h{3 * i}_{3 * j}" for i in range(3, 10) for j in range(3, 9)]
    lines = [f"for h in [{', '.join(sites)}]:", '  set h.land = "blank"']
    lines += [f'move first([b for b in components("building", athens) if b.space == none and b.name != "street"]) to {s}'
              for s in sites[:settlements]]
    lines += ['move first([b for b in components("building", athens) if b.name == "street"]) to board(athens)',
              f'move take(components("card"), {cards}) to hand(athens)']
    st = position(attika, 2, "play", "athens", "\n".join(lines), explicit_chance=True)
    assert expr(attika, st, "settlements(athens)") == settlements
    return st, f"build building=street square={sites[settlements]}"


def test_a_forty_card_payment_has_an_id(spiel, attika):
    """15 settlements: a street founding the 16th needs 5 + 15 cards, 20 to 40 when paid two for one."""
    pyspiel, openspiel = spiel
    st, build = _many_settlements(attika, 15, 40)
    st.apply_action(build)
    assert (min(_payment_lengths(st)), max(_payment_lengths(st))) == (20, 40)
    game = pyspiel.load_game("leges_attika", {"players": 2})
    legal = openspiel.LegesState(game, st).legal_actions()
    assert len(legal) == len(st.pending.options) and max(legal) < game.num_distinct_actions()
    longest = max(st.pending.options, key=lambda o: len(o.params["pay"]))
    assert game.space.text(game.space.option_id(st, 0, longest)) == longest.text


def test_a_bound_too_short_is_a_located_error_naming_the_key_to_widen(spiel, attika):
    """The adapter's error names `pay.pay` as the ruleset's limits.action_bounds and the adapter's
    `bounds` spell it (it once said `pay.pay.pay`, a key both refuse)."""
    pyspiel, openspiel = spiel
    st, build = _many_settlements(attika, 4, 20)
    st.apply_action(build)
    assert max(_payment_lengths(st)) == 18
    short = openspiel.bounds_param({"pay.pay": {"length": OLD_DEFAULT, "values": ["forest", "hill", "mountain", "water"]}})
    game = pyspiel.load_game("leges_attika", {"players": 2, "bounds": short})
    with pytest.raises(LegesError, match=r"a list of (9|1[0-8]) items of 'pay' \(pay\.pay\) is outside its domain"
                                         r"(.|\n)*limits\.action_bounds \(bounds: \{pay\.pay: ") as caught:
        openspiel.LegesState(game, st).legal_actions()
    assert "pay.pay.pay" not in str(caught.value)


def test_bounds_of_texts_survive_the_game_string(spiel):
    """A list's values given as texts go through OpenSpiel's game string and back, so a registered
    name whose ruleset declares them loads, pickles and serializes; a text the string cannot hold is
    refused by name."""
    pyspiel, openspiel = spiel
    from leges.adapters.spiel_info import parse_bounds
    bounds = {"pay.pay": {"length": 60, "values": ["forest", "hill", "mountain", "water"]}, "a.b": 4,
              "c.d": {"length": 3, "values": 5}}
    assert parse_bounds(openspiel.bounds_param(bounds)) == bounds
    game = pyspiel.load_game(str(pyspiel.load_game("leges_attika", {"players": 3})))
    assert game.space.by_key["pay.pay"].size == 635_376
    with pytest.raises(LegesError, match="'a b'"):
        openspiel.bounds_param({"x.y": {"length": 2, "values": ["a b"]}})
    with pytest.raises(LegesError, match=r"'pay\.pay:2:\[\]' is not a bound"):
        parse_bounds("pay.pay:2:[]")


def test_a_misspelt_value_of_a_bound_is_refused_at_once(attika):
    from leges.engine.action_space import ActionSpace
    with pytest.raises(LegesError, match=r"lists 'hil'(.|\n)*did you mean 'hill'"):
        ActionSpace(attika, 2, bounds={"pay.pay": {"length": 9, "values": ["forest", "hil"]}})
