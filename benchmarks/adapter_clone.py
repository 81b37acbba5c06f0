"""What the OpenSpiel adapter's `clone()` costs against Leges' own `State.copy()`.

    python benchmarks/adapter_clone.py            # every bundled game, a few seconds
    python benchmarks/adapter_clone.py --json

From a mid-game position (a few random actions in), each case is timed in CPU time, the cases
taking turns in short batches so that load on the machine falls on both alike: Leges' copy of the
state, and OpenSpiel's `state.clone()` of the adapter's state around it (which copies the Leges
state, shares the seats' memories until one changes, and keeps OpenSpiel's own history). The
ratio is clone ÷ copy; the issue's bar is 2.
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
    return state


def per_call(fn, rounds: int = 7, batch: float = 0.05) -> float:
    """Microseconds a call, the best of `rounds` batches of about `batch` seconds each."""
    n = 1
    while True:
        t = time.process_time()
        for _ in range(n):
            fn()
        spent = time.process_time() - t
        if spent > batch / 4:
            break
        n *= 4
    best = spent / n
    for _ in range(rounds):
        t = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t) / n)
    return best * 1e6


def measure(name: str, params: dict, steps: int) -> dict:
    state = position(name, params, steps)
    inner = state.leges_state
    copy = clone = float("inf")
    for _ in range(3):  # taking turns
        copy = min(copy, per_call(inner.copy))
        clone = min(clone, per_call(state.clone))
    return {"game": name, "copy_us": round(copy, 2), "clone_us": round(clone, 2), "ratio": round(clone / copy, 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure(*case) for case in CASES]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'game':<10} {'Leges copy':>12} {'adapter clone':>14} {'ratio':>6}")
        for r in rows:
            print(f"{r['game']:<10} {r['copy_us']:>10.2f}µs {r['clone_us']:>12.2f}µs {r['ratio']:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
