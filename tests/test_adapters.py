"""The OpenSpiel and PettingZoo adapters (leges/adapters/): each skipped when its framework is absent."""
from __future__ import annotations

import warnings

import pytest

from helpers import ROOT

GAMES = sorted(p.name for p in (ROOT / "rulesets").iterdir() if (p / "ruleset.yaml").exists())


# ------------------------------------------------------------------ OpenSpiel
@pytest.fixture(scope="module")
def spiel():
    pyspiel = pytest.importorskip("pyspiel")
    from leges.adapters.openspiel import register
    return pyspiel, register


def _play(pyspiel, game, bots, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_openspiel_mcts_and_random_bots_play_tictactoe(spiel):
    import numpy as np
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random
    pyspiel, register = spiel
    game = pyspiel.load_game(register(str(ROOT / "rulesets" / "tictactoe")))
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.num_players() == 2 and game.num_distinct_actions() == 4096
    rng = np.random.RandomState(0)
    wins = 0
    for seat in (0, 1):
        bots = [uniform_random.UniformRandomBot(p, rng) for p in range(2)]
        bots[seat] = mcts.MCTSBot(game, 2, 60, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = _play(pyspiel, game, bots, rng)
        assert sum(state.returns()) == 0
        wins += state.returns()[seat] >= 0
    assert wins == 2  # MCTS does not lose to a random player
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9)) and state.action_to_string(0, 4) == "place square=r1c1"
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_openspiel_mcts_and_random_bots_play_pompeii(spiel):
    import numpy as np
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random
    pyspiel, register = spiel
    name = register(str(ROOT / "rulesets" / "pompeii"))
    assert register(str(ROOT / "rulesets" / "pompeii")) == name == "leges_pompeii"  # registering again: no-op
    game = pyspiel.load_game(name, {"players": 3})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    rng = np.random.RandomState(1)
    bots = [mcts.MCTSBot(game, 2, 4, mcts.RandomRolloutEvaluator(1, rng, max_length=20), random_state=rng),
            uniform_random.UniformRandomBot(1, rng), uniform_random.UniformRandomBot(2, rng)]
    state = _play(pyspiel, game, bots, rng)
    assert abs(sum(state.returns())) < 1e-9 and state.leges_state.end_reason is not None
    first = game.new_initial_state()
    assert first.is_chance_node() and abs(sum(p for _, p in first.chance_outcomes()) - 1) < 1e-9
    assert "zones" in first.observation_string(0)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_refuses_a_name_taken_by_other_settings(spiel):
    _, register = spiel
    register(str(ROOT / "rulesets" / "tictactoe"), name="leges_ttt_small", num_distinct_actions=16)
    with pytest.raises(ValueError, match="already registered"):
        register(str(ROOT / "rulesets" / "tictactoe"), name="leges_ttt_small", num_distinct_actions=32)


def test_a_decision_above_the_bound_is_a_located_error(spiel):
    from leges.text.errors import LegesError
    pyspiel, register = spiel
    game = pyspiel.load_game(register(str(ROOT / "rulesets" / "tictactoe"), name="leges_ttt_tiny",
                                      num_distinct_actions=4))
    with pytest.raises(LegesError, match="more than the adapter's bound of 4"):
        game.new_initial_state().legal_actions()


# ------------------------------------------------------------------ PettingZoo
@pytest.fixture(scope="module")
def zoo():
    pytest.importorskip("pettingzoo")
    from leges.adapters.pettingzoo import env
    return env


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes(zoo, name):
    from pettingzoo.test import api_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice (Box spaces, agents named player_0) does not fit masked games
        api_test(zoo(str(ROOT / "rulesets" / name)), num_cycles=60)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_plays_a_whole_game_with_masks(zoo, name):
    import numpy as np
    e = zoo(str(ROOT / "rulesets" / name))
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0 and e.observation_space(agent).contains(observation)
        e.step(int(rng.choice(legal)))
        steps += 1
    assert not e.agents and steps > 0
    assert abs(sum(total.values())) < 1e-9


def test_pettingzoo_observation_hides_what_an_agent_may_not_see(zoo):
    e = zoo(str(ROOT / "rulesets" / "pompeii"), players=3)
    e.reset(seed=0)
    raw = e.unwrapped
    while not any(z.startswith("hand.") and raw.state.zones[z] for z in raw.state.setup.zone_order):
        e.step(0)
    st = raw.state
    hand = next(z for z in st.setup.zone_order if z.startswith("hand.") and st.zones[z])
    owner = st.setup.zone_owner[hand]
    seat, other = st.setup.seat_names[owner], st.setup.seat_names[(owner + 1) % 3]
    offset = len(raw._zones)
    card = st.zones[hand][0]
    assert e.observe(seat)["observation"][offset + card] == raw._zone_index[hand]
    assert e.observe(other)["observation"][offset + card] == 0
    assert e.observe(other)["observation"][st.setup.zone_order.index(hand)] == len(st.zones[hand])  # the count is public
    assert raw.action_text(0) == st.action_to_string(st.current_player(), 0)
