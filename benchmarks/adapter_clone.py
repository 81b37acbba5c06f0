"""What the OpenSpiel adapter's `clone()` costs against Leges' own `State.copy()`.

    python benchmarks/adapter_clone.py            # every bundled game, a few seconds
    python benchmarks/adapter_clone.py --json

From a mid-game position (a few random actions in), each case is timed in CPU time, the cases
taking turns batch by batch so that load on the machine falls on all alike (the best of 15
batches of each is kept):

- `copy`: Leges' own copy of the state (`State.copy`);
- `clone`: OpenSpiel's `state.clone()` of the adapter's state, what MCTSBot, ISMCTSBot and
  alpha-beta call from Python (C++ callers such as `child` or `get_all_states` run the same
  `PyState::Clone`). The clone is copy on write: the two states share the Leges state until one
  of them changes (leges/adapters/openspiel.py, `_Inner`), so this is OpenSpiel's own work;
- `clone+copy`: the clone and the copy it puts off (`state.clone().leges_state`, which takes the
  copy), what a search pays before its first action on the clone;
- `floor` (once): OpenSpiel's clone of a Python state with nothing in it — a game of a few lines
  whose state has an empty `__dict__`. pyspiel's `PyState::Clone` calls the game's
  `new_initial_state()` from C++, then `copy.deepcopy` on each entry of the state's `__dict__`:
  no clone of a Python game costs less than this.

The issue's bar is clone ÷ copy at most 2; clone+copy ÷ copy is the honest figure for a search.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interpreter"))

import leges.adapters.openspiel  # noqa: F401  (registers the games)
import numpy as np
import pyspiel

CASES = [("tictactoe", {}, 3), ("pompeii", {"players": 3}, 40), ("attika", {}, 20),
         ("alexander", {"bounds": "march.armies:15:3 march.from_temples:4"}, 20)]


def position(name: str, params: dict, steps: int):
    game = pyspiel.load_game(f"leges_{name}", params)
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    state.leges_state  # noqa: B018  (its own Leges state, not one shared with a clone)
    return state


def _batch(fn, n: int) -> float:
    t = time.process_time()
    for _ in range(n):
        fn()
    return time.process_time() - t


def per_call(cases: dict, rounds: int = 15, batch: float = 0.03) -> dict:
    """Microseconds a call of each case, the best of `rounds` batches of about `batch` seconds each,
    the cases taking turns batch by batch."""
    sizes = {}
    for key, fn in cases.items():
        n = 1
        while _batch(fn, n) < batch / 4:
            n *= 4
        sizes[key] = n * 4
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(rounds):
        for key, fn in cases.items():
            best[key] = min(best[key], _batch(fn, sizes[key]) / sizes[key])
    return {key: value * 1e6 for key, value in best.items()}


def _floor_state():
    """A state of the smallest Python game OpenSpiel can clone: nothing in its `__dict__`."""
    kind = pyspiel.GameType(
        short_name="adapter_clone_floor", long_name="the floor of a Python state's clone",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION, utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=0, num_players=2, min_utility=-1.0,
                            max_utility=1.0, utility_sum=0.0, max_game_length=9)
    new, init = pyspiel.State.__new__, pyspiel.State.__init__

    class Game(pyspiel.Game):
        def __init__(self):
            super().__init__(kind, info, {})

        def new_initial_state(self):
            state = new(State)
            init(state, self)
            return state

    class State(pyspiel.State):
        def current_player(self):
            return 0

        def _legal_actions(self, player):
            return [0, 1]

        def _apply_action(self, action):
            pass

        def is_terminal(self):
            return False

        def returns(self):
            return [0.0, 0.0]

        def __str__(self):
            return ""

    state = Game().new_initial_state()
    for _ in range(3):
        state.apply_action(0)
    return state


def measure(name: str, params: dict, steps: int, floor_state) -> dict:
    state = position(name, params, steps)
    inner = state.leges_state
    cases = {"copy": inner.copy, "clone": state.clone,
             "clone_copy": lambda: state.clone().leges_state, "floor": floor_state.clone}
    best = per_call(cases)
    row = {"game": name, **{f"{k}_us": round(v, 2) for k, v in best.items()}}
    row["ratio"] = round(best["clone"] / best["copy"], 2)
    row["ratio_with_copy"] = round(best["clone_copy"] / best["copy"], 2)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    floor_state = _floor_state()
    rows = [measure(*case, floor_state) for case in CASES]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'game':<10} {'Leges copy':>11} {'clone':>9} {'clone+copy':>11} {'ratio':>6} {'with copy':>10}")
        for r in rows:
            print(f"{r['game']:<10} {r['copy_us']:>9.2f}µs {r['clone_us']:>7.2f}µs {r['clone_copy_us']:>9.2f}µs "
                  f"{r['ratio']:>6.2f} {r['ratio_with_copy']:>10.2f}")
        floor = min(r["floor_us"] for r in rows)
        print(f"OpenSpiel's clone of an empty Python state (the floor): {floor:.2f}µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
