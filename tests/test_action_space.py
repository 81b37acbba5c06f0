"""The fixed action space (engine/action_space.py): every action a ruleset can offer, numbered once."""
from __future__ import annotations

import random

import leges
import pytest
from leges.engine.action_space import ActionSpace, Domain, ListDomain
from leges.engine.constants import CHANCE
from leges.text.errors import LegesError

ALEXANDER = {"march.armies": {"length": 15, "values": 3}, "march.from_temples": 4}


@pytest.fixture(scope="module")
def games():
    return {name: leges.load(name) for name in ("tictactoe", "pompeii", "attika", "alexander")}


def test_tictactoe_has_nine_actions(games):
    space = ActionSpace(games["tictactoe"], 2)
    assert space.size == 9
    assert [space.text(i) for i in range(9)] == [f"place square=r{r}c{c}" for r in range(3) for c in range(3)]
    assert space.describe() == [{"site": "place", "offset": 0, "size": 9,
                                 "params": [{"name": "square", "size": 9, "domain": "a space of the board"}]}]


@pytest.mark.parametrize("name, players", [("pompeii", 3), ("attika", 2), ("alexander", 3)])
def test_every_legal_action_has_one_id_everywhere(games, name, players):
    """Playing at random with two seeds: each legal option's id is below the size, names one text
    wherever it appears, and the text gives the id back (chance outcomes in their own space)."""
    game = games[name]
    space = ActionSpace(game, players, bounds=ALEXANDER if name == "alexander" else None)
    assert space.size == ActionSpace(game, players, bounds=ALEXANDER if name == "alexander" else None).size
    names: dict[tuple, str] = {}
    for seed in (1, 2):
        st = game.new_initial_state(players=players, seed=seed, explicit_chance=True, forced_moves=True)
        rng = random.Random(seed)
        steps = 0
        while not st.is_terminal() and steps < 300:
            player = st.current_player()
            legal = space.legal(st, player)
            for k, (i, text) in enumerate(legal.items()):
                assert 0 <= i < (space.chance_size if player == CHANCE else space.size)
                assert names.setdefault((player == CHANCE, i), text) == text
                if k % max(1, len(legal) // 8) == 0:  # a sample: id() lists the legal actions itself
                    assert space.id(st, player, text) == i
                if player != CHANCE and "[" not in text:
                    assert space.text(i) == text  # the canonical text is the text (lists: items in domain order)
            st.apply_option(rng.randrange(len(st.pending)))
            steps += 1


def test_a_list_is_numbered_as_a_multiset():
    domain = ListDomain(Domain(["a", "b", "c"], "letters"), 4, "lists")
    texts = [domain.text(i) for i in range(domain.size)]
    assert domain.size == 35 and len(set(texts)) == 35  # C(4 + 3, 3) multisets of at most 4 of 3 values
    assert texts[:5] == ["[]", "[a]", "[b]", "[c]", "[a,a]"]
    fmt = type("F", (), {"item": lambda self, st, v: v})()
    for i in range(domain.size):
        assert domain.encode(None, domain.text(i)[1:-1].split(",") if i else [], fmt) == i


def test_a_value_outside_its_domain_names_the_parameter_and_the_bound(games):
    game = games["alexander"]
    space = ActionSpace(game, 3, bounds=dict(ALEXANDER, **{"share.order": 4}))
    st = game.new_initial_state(players=3, seed=0, forced_moves=True)
    while not any(o.action == "share" for o in st.pending.options):
        st.apply_option(0)
    with pytest.raises(LegesError, match=r"'order' \(share\) is outside its domain.*\n.*share\.order"):
        space.legal(st, st.current_player())


def test_a_space_too_large_is_refused_at_once(games):
    with pytest.raises(LegesError, match="largest is 'march'"):
        ActionSpace(games["alexander"], 3)
