"""PettingZoo's own checks of the Parallel environment (adapters/pettingzoo_parallel.py), with the
mask in the observation (`mask_in_observation=True`, issue 38).

`pettingzoo.test.parallel_api_test` samples each agent's action with a mask only when its
observation is a dict holding "action_mask" (PettingZoo's classic convention); Leges' default
observation is the plain array, its mask in `infos`, so the option is what lets the test pick legal
actions. Alexander's secret share-out (every seat in one step) is the case a turn-based game does
not reach; its mask has 4,002,855 entries, and the test's own sampling (gymnasium scans each mask
several times, about 11 ms an agent) is most of the time, so its cycles are few.
"""
from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from gymnasium import spaces  # noqa: E402

from leges.adapters.pettingzoo import env, raw_env  # noqa: E402
from leges.adapters.pettingzoo_parallel import parallel_env  # noqa: E402

# (game, keywords, cycles): Tic-Tac-Toe's games end within the cycles (terminations checked);
# Alexander's first step is its share-out of all three seats, and 20 cycles a reset keep it to about 2 s.
CASES = [("tictactoe", {}, 30), ("alexander", {"players": 3}, 20)]


@pytest.mark.parametrize("name, kwargs, cycles", CASES, ids=[c[0] for c in CASES])
def test_parallel_api_test_passes_with_the_mask_in_the_observation(name, kwargs, cycles):
    from pettingzoo.test import parallel_api_test
    e = parallel_env(name, mask_in_observation=True, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(e, num_cycles=cycles)


def test_the_masks_are_each_steps_legal_ids_and_the_observation_is_the_default_array():
    """Step by step on Alexander, the same seed and actions with and without the option: the dict's
    "observation" is the default's array, its "action_mask" marks exactly infos' legal ids (all three
    seats at the share-out, zeros for the seats not deciding), and both fit the Dict space."""
    masked = parallel_env("alexander", players=3, mask_in_observation=True)
    plain = parallel_env("alexander", players=3)
    space = masked.observation_space("player_0")
    assert isinstance(space, spaces.Dict) and set(space) == {"observation", "action_mask"}
    assert space["observation"] == plain.observation_space("player_0")
    assert space["action_mask"].shape == (masked.space.size,) and space["action_mask"].dtype == np.int8
    assert all(masked.observation_space(a) is space for a in masked.possible_agents)
    rng = random.Random(0)
    observations, infos = masked.reset(seed=2)
    bare, _ = plain.reset(seed=2)
    for step in range(12):
        acting = [a for a in masked.agents if infos[a]["acting"]]
        if step == 0:
            assert len(acting) == 3  # the secret share-out: every seat's mask at once
        for a in masked.agents:
            obs = observations[a]
            assert isinstance(bare[a], np.ndarray) and np.array_equal(obs["observation"], bare[a])
            assert np.flatnonzero(obs["action_mask"]).tolist() == infos[a]["legal_actions"]
            assert bool(infos[a]["legal_actions"]) == (a in acting)
            if step < 2:
                assert space.contains(obs)
        actions = {a: rng.choice(infos[a]["legal_actions"]) for a in acting}
        observations, _, _, _, infos = masked.step(actions)
        bare, *_ = plain.step(actions)


def test_the_default_observation_is_still_the_plain_array():
    """Without the option nothing changes: a Box and arrays; and parallel_api_test, finding no mask
    there, samples from all of Alexander's 4,002,855 ids and the step refuses an illegal one."""
    from pettingzoo.test import parallel_api_test
    e = parallel_env("alexander", players=3)
    assert isinstance(e.observation_space("player_0"), spaces.Box)
    observations, infos = e.reset(seed=0)
    assert all(isinstance(observations[a], np.ndarray) for a in e.agents)
    assert all(isinstance(infos[a]["legal_actions"], list) for a in e.agents)
    with pytest.raises(ValueError, match=r"is not one of player_\d's legal actions"):
        parallel_api_test(e, num_cycles=2)
    aec = raw_env("tictactoe")
    aec.reset(seed=0)
    assert isinstance(aec.observation_space("player_0"), spaces.Box) and isinstance(aec.observe("player_0"), np.ndarray)


def test_the_aec_environment_takes_the_option_too():
    """The AEC environment's dict: the agent to move's mask (zeros for the other); api_test passes,
    warning only what it warns of any dict observation outside PettingZoo's own classic games."""
    from pettingzoo.test import api_test
    e = raw_env("tictactoe", mask_in_observation=True)
    e.reset(seed=0)
    e.step(4)
    mine, theirs = e.observe("player_1"), e.observe("player_0")
    assert np.flatnonzero(mine["action_mask"]).tolist() == e.infos["player_1"]["legal_actions"] == [0, 1, 2, 3, 5, 6, 7, 8]
    assert not theirs["action_mask"].any() and e.observation_space("player_1").contains(mine)
    assert np.array_equal(e.state(), np.concatenate([theirs["observation"], mine["observation"]]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env("tictactoe", mask_in_observation=True), num_cycles=60)
    assert {str(w.message) for w in caught} <= {
        "Observation is not a NumPy array",
        "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete"}
