"""The OpenSpiel and PettingZoo adapters (leges/adapters/): each skipped when its framework is absent.

The slow one (a whole Attika game through OpenSpiel's checks, with serialization at every step:
about 25 s) runs with LEGES_SLOW=1:

    LEGES_SLOW=1 .venv/bin/python -m pytest tests/test_adapters.py -k "random_sim_test and attika"
"""
from __future__ import annotations

import os
import pickle
import sys
import warnings

import pytest
from helpers import ROOT

GAMES = sorted(p.name for p in (ROOT / "rulesets").iterdir() if (p / "ruleset.yaml").exists())
# Alexander's march: the armies chosen are a list of the steps each has taken (0, 1 or 2: three
# values) of at most 15 cubes, and its payment from temples at most the dearest arrow's cost, 3.
ALEXANDER = {"march.armies": {"length": 15, "values": 3}, "march.from_temples": 4}
BOUNDS = {"alexander": ALEXANDER}
slow = pytest.mark.skipif(not os.environ.get("LEGES_SLOW"), reason="slow: run with LEGES_SLOW=1")


# ------------------------------------------------------------------ OpenSpiel
@pytest.fixture(scope="module")
def spiel():
    pyspiel = pytest.importorskip("pyspiel")
    from leges.adapters import openspiel
    return pyspiel, openspiel


def _load(spiel, name, **params):
    pyspiel, openspiel = spiel
    if name in BOUNDS:
        params["bounds"] = openspiel.bounds_param(BOUNDS[name])
    return pyspiel.load_game(f"leges_{name}", params)


def _play(game, bots, rng, moves=None):
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal() and (moves is None or played < moves):
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
            played += 1
    return state


def test_tictactoe_is_a_deterministic_perfect_information_game_of_nine_actions(spiel):
    pyspiel, _ = spiel
    game = pyspiel.load_game("leges", {"ruleset": "tictactoe"})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2 and game.num_distinct_actions() == 9
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9)) and state.action_to_string(0, 4) == "place square=r1c1"
    assert state.string_to_action("place square=r2c2") == 8
    state.apply_action(4)
    assert state.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]  # ids are fixed: 4 is gone, 8 is still r2c2
    assert state.action_to_string(1, 8) == "place square=r2c2"
    assert game.observation_tensor_shape() == [len(state.observation_tensor(0))]


def test_alpha_beta_solves_tictactoe(spiel):
    from open_spiel.python.algorithms import minimax
    pyspiel, _ = spiel
    value, _ = minimax.alpha_beta_search(pyspiel.load_game("leges_tictactoe"), maximizing_player_id=0)
    assert value == 0


def test_mcts_does_not_lose_tictactoe_to_a_random_player(spiel):
    import numpy as np
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random
    game = _load(spiel, "tictactoe")
    rng = np.random.RandomState(0)
    for seat in (0, 1):
        bots = [uniform_random.UniformRandomBot(p, rng) for p in range(2)]
        bots[seat] = mcts.MCTSBot(game, 2, 60, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = _play(game, bots, rng)
        assert sum(state.returns()) == 0 and state.returns()[seat] >= 0


@pytest.mark.parametrize("name", [pytest.param(g, marks=slow if g == "attika" else ()) for g in GAMES])
def test_random_sim_test_with_serialization(spiel, name):
    pyspiel, _ = spiel
    pyspiel.random_sim_test(_load(spiel, name), num_sims=1, serialize=True, verbose=False)


def test_game_types_are_read_from_the_rulesets(spiel):
    pyspiel, _ = spiel
    for name in ("pompeii", "attika", "alexander"):
        kind = _load(spiel, name).get_type()
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_every_registered_name_loads_with_defaults_and_is_described_by_its_ruleset(spiel):
    """`registered_games()` tells the games apart; each name loads with no parameter (Alexander too,
    by the bounds its ruleset declares); a deterministic game has no chance outcome; the length is
    the ruleset's stated bound (tic-tac-toe: 9) or its decision limit, never a guess."""
    pyspiel, _ = spiel
    import leges
    kinds = {t.short_name: t for t in pyspiel.registered_games() if t.short_name.startswith("leges_")}
    assert set(kinds) >= {f"leges_{g}" for g in GAMES}
    for name in GAMES:
        game = pyspiel.load_game(f"leges_{name}")
        registered, own = kinds[f"leges_{name}"], game.get_type()
        assert (registered.chance_mode, registered.information) == (own.chance_mode, own.information)
        if name == "tictactoe":
            assert own.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
            assert own.information == pyspiel.GameType.Information.PERFECT_INFORMATION
            assert (game.max_game_length(), game.max_chance_outcomes()) == (9, 0)
        else:
            assert own.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            assert own.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
            assert game.max_chance_outcomes() > 0
            # each ruleset states its bound (limits.max_game_length), far below the decision limit
            stated = leges.load(name).ruleset.limits["max_game_length"]["value"]
            assert game.max_game_length() == stated < leges.load(name).max_decisions
    assert pyspiel.load_game("leges_alexander").num_distinct_actions() == 4_002_855


def test_a_stated_game_length_that_a_game_passes_is_an_error(spiel, monkeypatch):
    from leges.text.errors import LegesError
    pyspiel, _ = spiel
    game = pyspiel.load_game("leges_tictactoe")
    monkeypatch.setattr(game, "stated_length", 3)
    state = game.new_initial_state()
    for action in (0, 1, 2):
        state.apply_action(action)
    with pytest.raises(LegesError, match=r"more than the 3 its ruleset states \(limits.max_game_length\)"):
        state.apply_action(3)


def test_a_resampled_world_has_the_real_history_and_pickles(spiel):
    """The world has the state's OpenSpiel history (not an empty one), and pickling or serializing it
    gives the world back — its re-dealt hidden cards included — though its history, replayed from
    its seed, gives the real state (the adapter's own pickle reads it with edited=True)."""
    import numpy as np
    pyspiel, _ = spiel
    game = _load(spiel, "pompeii", players=3)
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    while len(state.history()) < 30 or state.is_chance_node():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for player in range(3):
        world = state.resample_from_infostate(player, rng.rand)
        assert world.history() == state.history() and world.history()
        again = pickle.loads(pickle.dumps(world))
        assert str(again) == str(world) and again.legal_actions() == world.legal_actions()
        assert again.history() == world.history()
        _, copied = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))
        assert str(copied) == str(world)
    assert any(str(state.resample_from_infostate(0, rng.rand)) != str(state) for _ in range(5))


def test_pickle_and_serialization_round_trip_a_mid_game_state(spiel):
    import numpy as np
    from open_spiel.python.bots import uniform_random
    pyspiel, _ = spiel
    game = _load(spiel, "pompeii", players=3)
    rng = np.random.RandomState(2)
    state = _play(game, [uniform_random.UniformRandomBot(p, rng) for p in range(3)], rng, moves=12)
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    assert again.information_state_string(1) == state.information_state_string(1)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(game2) == str(game) and state2.history() == state.history() and str(state2) == str(state)


def _view(state):
    return (state.history(), str(state), state.legal_actions(), list(state.information_state_tensor(1)))


def test_a_clone_shares_the_state_until_either_changes(spiel):
    """Copy on write (adapters/openspiel.py, _Inner): a clone holds what the state holds; an action
    on either leaves the other, its seats' memories and the game's first state as they were."""
    import numpy as np
    from open_spiel.python.bots import uniform_random
    game = _load(spiel, "pompeii", players=3)
    first = _view(game.new_initial_state())
    rng = np.random.RandomState(3)
    state = _play(game, [uniform_random.UniformRandomBot(p, rng) for p in range(3)], rng, moves=10)
    before = _view(state)
    clone = state.clone()
    assert clone._s is state._s and _view(clone) == before
    state.apply_action(state.legal_actions()[0])
    assert clone._s is not state._s and _view(clone) == before
    after = _view(state)
    again = clone.clone()
    clone.apply_action(clone.legal_actions()[-1])
    assert _view(state) == after and _view(again) == before and _view(clone) != before
    assert again.child(again.legal_actions()[0]).history() == state.history()
    assert _view(again) == before and _view(game.new_initial_state()) == first
    fresh = game.new_initial_state()
    fresh.apply_action(fresh.legal_actions()[0] if not fresh.is_chance_node() else fresh.chance_outcomes()[0][0])
    assert _view(game.new_initial_state()) == first


def test_action_ids_are_the_same_across_states_and_seeds(spiel):
    """Every id names one action text wherever it is legal, in every game played."""
    import numpy as np
    game = _load(spiel, "pompeii", players=3)
    size = game.num_distinct_actions()
    assert _load(spiel, "pompeii", players=3).num_distinct_actions() == size
    seen: dict[int, str] = {}
    for seed in (0, 1):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 250:
            player = state.current_player()
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probabilities)))
                continue
            for a in state.legal_actions():
                assert 0 <= a < size
                text = state.action_to_string(player, a)
                assert seen.setdefault(a, text) == text
                assert state.string_to_action(player, text) == a
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(seen) > 50


def test_ismcts_plays_pompeii(spiel):
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.bots import uniform_random
    game = _load(spiel, "pompeii", players=3)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng,
                           max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES)
    state = _play(game, [bot, uniform_random.UniformRandomBot(1, rng), uniform_random.UniformRandomBot(2, rng)], rng,
                  moves=8)
    assert len([h for h in state.leges_state.history if h.startswith("red: ")]) >= 2


def test_resample_from_infostate_keeps_what_the_seat_sees(spiel):
    import numpy as np
    from open_spiel.python.bots import uniform_random
    pyspiel, _ = spiel
    game = _load(spiel, "pompeii", players=3)
    rng = np.random.RandomState(3)
    state = _play(game, [uniform_random.UniformRandomBot(p, rng) for p in range(3)], rng, moves=6)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    for world in worlds:
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == pytest.approx(state.observation_tensor(player))
        assert world.legal_actions() == state.legal_actions()
    decks = {tuple(w.leges_state.setup.clabel[c] for c in w.leges_state.zones["deck"]) for w in worlds}
    assert len(decks) > 1  # the hidden deck is drawn afresh


def test_the_observation_tensor_hides_other_hands(spiel):
    game = _load(spiel, "pompeii", players=3)
    state = game.new_initial_state()
    while not any(state.leges_state.zones[z] for z in ("hand.red", "hand.black")):
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node() else state.chance_outcomes()[0][0])
    encoding = game.encoding
    zone = encoding.zones.index("hand.red")
    stretch = slice(zone * encoding.stride, (zone + 1) * encoding.stride)
    mine, theirs = state.observation_tensor(0)[stretch], state.observation_tensor(1)[stretch]
    assert mine[0] == theirs[0] > 0  # the count is public
    assert sum(mine[1:]) == mine[0] and sum(theirs[1:]) == 0


def test_the_information_state_tensor_adds_what_the_seat_remembers(spiel):
    import numpy as np
    from open_spiel.python.bots import uniform_random
    game = _load(spiel, "pompeii", players=3)
    encoding = game.encoding
    assert game.information_state_tensor_shape() == [encoding.size + encoding.memory_size]
    rng = np.random.RandomState(0)
    state = _play(game, [uniform_random.UniformRandomBot(p, rng) for p in range(3)], rng, moves=30)
    remembered = 0.0
    for player in range(3):
        tensor = np.asarray(state.information_state_tensor(player))
        assert len(tensor) == encoding.size + encoding.memory_size
        assert np.array_equal(tensor[:encoding.size], state.observation_tensor(player))
        memory = tensor[encoding.size:].reshape(len(encoding.memory_zones), -1)
        for i, zone in enumerate(encoding.memory_zones):
            assert memory[i].sum() <= len(state.leges_state.zones[zone])
        remembered += memory.sum()
    assert remembered > 0


def test_a_ruleset_parameter_is_a_bundled_name_or_a_ruleset_folder(spiel, tmp_path):
    from leges.text.errors import LegesError
    pyspiel, _ = spiel
    for bad in ("os.path", "../../etc", str(tmp_path)):
        with pytest.raises((LegesError, pyspiel.SpielError, RuntimeError)):
            pyspiel.load_game("leges", {"ruleset": bad})
    game = pyspiel.load_game("leges", {"ruleset": str(ROOT / "rulesets" / "tictactoe")})
    assert game.num_distinct_actions() == 9


def test_register_names_a_ruleset_once(spiel):
    pyspiel, openspiel = spiel
    folder = str(ROOT / "rulesets" / "tictactoe")
    assert openspiel.register(folder) == "leges_tictactoe"  # the bundled game's own name
    assert openspiel.register(folder, name="leges_ttt_mine") == "leges_ttt_mine"
    assert openspiel.register(folder, name="leges_ttt_mine") == "leges_ttt_mine"  # again: nothing to do
    assert pyspiel.load_game("leges_ttt_mine").num_distinct_actions() == 9
    with pytest.raises(ValueError, match="already registered"):
        openspiel.register(str(ROOT / "rulesets" / "pompeii"), name="leges_ttt_mine")


def test_an_action_space_too_large_names_its_largest_action(spiel):
    """Alexander's declared bounds (limits.action_bounds) widened back to the defaults' lists."""
    from leges.text.errors import LegesError
    pyspiel, _ = spiel
    with pytest.raises((LegesError, pyspiel.SpielError, RuntimeError), match="march"):
        pyspiel.load_game("leges_alexander", {"bounds": "march.armies:8:16"})


def test_without_the_extra_the_error_names_the_install(monkeypatch):
    from leges.adapters import MissingExtra
    for module in ("pyspiel", "leges.adapters.openspiel"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(MissingExtra, match=r"pip install 'leges\[openspiel\]'"):
        import leges.adapters.openspiel
    monkeypatch.undo()
    for module in ("pettingzoo", "leges.adapters.pettingzoo"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(MissingExtra, match=r"pip install 'leges\[pettingzoo\]'"):
        import leges.adapters.pettingzoo  # noqa: F401
    monkeypatch.undo()


# ------------------------------------------------------------------ PettingZoo
@pytest.fixture(scope="module")
def zoo():
    pytest.importorskip("pettingzoo")
    from leges.adapters.pettingzoo import env
    return lambda name, **kw: env(name, bounds=BOUNDS.get(name), **kw)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes_without_warnings(zoo, name):
    from pettingzoo.test import api_test
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(zoo(name), num_cycles=60)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_plays_a_whole_game_with_masks(zoo, name):
    import numpy as np
    e = zoo(name)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = info["legal_actions"]  # the ids the mask marks, listed: no scan of the mask
        if steps < 5:
            assert legal == np.flatnonzero(info["action_mask"]).tolist()
            assert e.state_space.contains(e.state())  # the global state, a method again
        assert len(legal) > 0 and e.observation_space(agent).contains(observation)
        e.step(int(rng.choice(legal)))
        steps += 1
    assert not e.agents and steps > 0
    assert abs(sum(total.values())) < 1e-9


def test_pettingzoo_agents_are_numbered_and_keep_their_seats(zoo):
    e = zoo("tictactoe")
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.infos["player_0"]["seat"] == "x" and e.unwrapped.seat("player_1") == "o"
    assert e.action_space("player_0").n == 9
    raw = e.unwrapped
    assert raw.action_text(4) == "place square=r1c1" and raw.action_id("place square=r1c1") == 4
    e.step(4)
    assert e.infos["player_1"]["action_mask"][4] == 0 and e.infos["player_1"]["action_mask"].sum() == 8


def test_pettingzoo_observation_hides_what_an_agent_may_not_see(zoo):
    e = zoo("pompeii", players=3)
    e.reset(seed=0)
    raw = e.unwrapped
    while not raw.leges_state.zones["hand.red"]:
        e.step(int(e.infos[e.agent_selection]["action_mask"].nonzero()[0][0]))
    encoding = raw.encoding
    zone = encoding.zones.index("hand.red")
    stretch = slice(zone * encoding.stride, (zone + 1) * encoding.stride)
    mine, theirs = e.observe("player_0")[stretch], e.observe("player_1")[stretch]
    assert mine[0] == theirs[0] == len(raw.leges_state.zones["hand.red"])
    assert mine[1:].sum() == mine[0] and theirs[1:].sum() == 0


def test_pettingzoo_state_is_every_seats_view_and_others_have_no_legal_ids(zoo):
    import numpy as np
    e = zoo("tictactoe")
    e.reset(seed=0)
    e.step(4)
    raw = e.unwrapped
    assert e.state_space.shape == (2 * raw.encoding.size,)
    assert np.array_equal(e.state(), np.concatenate([raw.observe("player_0"), raw.observe("player_1")]))
    assert e.infos["player_0"]["legal_actions"] == [] and e.infos["player_1"]["legal_actions"] == [0, 1, 2, 3, 5, 6, 7, 8]


@pytest.fixture(scope="module")
def parallel():
    pytest.importorskip("pettingzoo")
    from leges.adapters.pettingzoo_parallel import parallel_env
    return parallel_env


def _play_parallel(e, seed):
    import random
    rng = random.Random(seed)
    observations, infos = e.reset(seed=seed)
    acting_counts, rewards = [], {}
    while e.agents:
        acting = [a for a in e.agents if infos[a]["acting"]]
        assert acting and all(infos[a]["legal_actions"] for a in acting)
        assert all(e.observation_space(a).contains(observations[a]) for a in e.agents)
        acting_counts.append(len(acting))
        observations, rewards, terminations, truncations, infos = e.step(
            {a: rng.choice(infos[a]["legal_actions"]) for a in acting})
    return acting_counts, rewards


def test_parallel_alexanders_secret_share_out_is_one_step_of_every_seat(parallel):
    """Alexander's share-out (`share`, secret: true) is one parallel step of all three seats; the
    game plays to its end through the Parallel API, and returns sum to zero."""
    e = parallel("alexander", players=3)
    counts, rewards = _play_parallel(e, seed=1)
    assert counts[0] == 3 and counts.count(3) >= 2 and set(counts) <= {1, 3}
    assert e.leges_state.is_terminal() and abs(sum(rewards.values())) < 1e-9


def test_parallel_tictactoe_is_one_seat_a_step(parallel):
    e = parallel("tictactoe")
    counts, rewards = _play_parallel(e, seed=0)
    assert set(counts) == {1} and 5 <= len(counts) <= 9
    assert e.state_space.contains(e.state())
    with pytest.raises(ValueError, match="given no action"):
        e.reset(seed=0)
        e.step({})


def test_pettingzoo_renders_text_and_says_what_rgb_needs(zoo, monkeypatch):
    from leges.text.errors import LegesError
    e = zoo("tictactoe", render_mode="ansi")
    e.reset(seed=0)
    assert "phase" in e.render()
    e = zoo("tictactoe", render_mode="rgb_array")
    e.reset(seed=0)
    for module in ("resvg_py", "cairosvg"):  # neither rasteriser importable
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(LegesError, match=r"pip install 'leges\[raster\]'"):
        e.render()


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_rgb_array_is_the_board_rasterised(zoo, name):
    """With the `raster` extra (resvg-py): the SVG renderer's picture as an RGB array of its size."""
    import re

    import numpy as np
    pytest.importorskip("resvg_py", reason="no SVG rasteriser: pip install 'leges[raster]'")
    from leges.render import render_svg
    e = zoo(name, render_mode="rgb_array")
    e.reset(seed=0)
    picture = e.render()
    width, height = (int(float(v)) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"',
                                                       render_svg(e.unwrapped.leges_state)).groups())
    assert picture.dtype == np.uint8 and picture.shape == (height, width, 3)
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 10  # a picture, not a blank canvas
