"""MCTS iterations per second, for each bundled game.

    python benchmarks/mcts.py            # every case, a minute or two
    python benchmarks/mcts.py --quick    # fewer iterations
    python benchmarks/mcts.py --json

Each case searches one decision of a fixed position (a seeded random game played some moves in)
with `mcts:iterations=N`: the default (the new leaf scored by the ruleset's heuristic at once),
with MAST play-outs to the end (`heuristic=none`) and with play-outs cut at depth 10 and scored by
the heuristic; an iteration includes drawing the determinisation (for hidden
information: re-dealing what the player cannot see). Times are the process's CPU time, on one
core. The figure is what an MCTS budget costs: seconds per decision = iterations / this.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "interpreter"))

import leges  # noqa: E402
from leges.agents import MCTSAgent, View  # noqa: E402
from leges.agents.seeding import agent_rng  # noqa: E402

# (ruleset, players, random moves before the position, iterations)
CASES = [("tictactoe", 2, 2, 2000), ("pompeii", 3, 30, 100), ("pompeii", 3, 120, 100), ("attika", 2, 30, 20),
         ("alexander", 3, 40, 60)]


def position(game, players: int, moves: int, seed: int = 1):
    st = game.new_initial_state(players=players, seed=seed)
    rng = agent_rng(seed)
    for _ in range(moves):
        if st.is_terminal():
            break
        st.apply_option(rng.randrange(len(st.pending)))
    return st


def measure(name: str, players: int, moves: int, iterations: int, depth: int | str) -> dict:
    """`depth`: moves played before the heuristic scores the position, or "end" (no heuristic)."""
    game = leges.load(str(ROOT / "rulesets" / name))
    st = position(game, players, moves)
    agent = MCTSAgent(iterations=iterations, depth=depth if depth != "end" else None,
                      heuristic="none" if depth == "end" else None)
    agent.start(game, st.current_player(), random.Random(0))
    agent.search(View(st, st.current_player()))  # warm-up
    start = time.process_time()
    agent.search(View(st, st.current_player()))
    seconds = time.process_time() - start
    return {"ruleset": name, "players": players, "phase": st.phase, "after_moves": moves, "depth": depth,
            "iterations": iterations, "iterations_per_second": iterations / seconds if seconds else float("inf")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the iterations")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for name, players, moves, iterations in CASES:
        n = max(5, iterations // 4) if args.quick else iterations
        for depth in (0, "end", 10):
            row = measure(name, players, moves, n, depth)
            rows.append(row)
            if not args.json:
                cut = "to the end" if depth == "end" else f"cut at {depth}"
                print(f"{name:<10} {players}p  {row['phase'] or '-':<10} roll-outs {cut:<11} "
                      f"{row['iterations_per_second']:8.1f} iterations/s")
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
