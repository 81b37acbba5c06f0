"""Random play-outs per second and applied actions per second, for the bundled games.

    python benchmarks/playouts.py            # all cases, two to three minutes
    python benchmarks/playouts.py --quick    # fewer games per run
    python benchmarks/playouts.py --json     # machine-readable
    python benchmarks/playouts.py --ratios   # ratios to hand-written games, interleaved (benchmarks/ratios.py)

Fixed seeds, one warm-up run, then the median of several timed runs, on one core (this
process). Times are the process's CPU time, so other work on the machine distorts them less. For
scale: straightforward hand-written Python plays about 930 random three-player Pompeii games per
second on one core of our reference machine; OpenSpiel's pure-Python Tic-Tac-Toe runs about
58,000 steps per second. Such figures from another machine say little; `--ratios` measures the
hand-written games (benchmarks/reference/) side by side with Leges, in the same run.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "interpreter"))

import leges  # noqa: E402
from leges.agents.seeding import agent_rng  # noqa: E402

CASES = [("pompeii", 2, 40), ("pompeii", 3, 40), ("pompeii", 4, 40), ("attika", 2, 5), ("attika", 4, 2),
         ("alexander", 3, 30), ("alexander", 5, 15), ("tictactoe", 2, 4000)]


def run(game, players: int, games: int, first_seed: int) -> tuple[float, int]:
    """Play `games` random games; return (seconds, actions applied)."""
    actions = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        st = game.new_initial_state(players=players, seed=seed)
        rng = agent_rng(seed)
        while not st.terminal:
            st.apply_option(rng.randrange(len(st.pending)))
            actions += 1
    return time.process_time() - start, actions


def measure(name: str, players: int, games: int, repeats: int) -> dict:
    game = leges.load(str(ROOT / "rulesets" / name))
    run(game, players, max(1, games // 4), 10_000)  # warm-up: caches, first compilations
    playouts, steps = [], []
    for r in range(repeats):
        seconds, actions = run(game, players, games, r * games)
        playouts.append(games / seconds)
        steps.append(actions / seconds)
    return {"ruleset": name, "players": players, "games_per_run": games, "runs": repeats,
            "playouts_per_second": statistics.median(playouts), "actions_per_second": statistics.median(steps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the games per run, three runs")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ratios", action="store_true",
                        help="run benchmarks/ratios.py instead (with --quick and --json passed on)")
    args = parser.parse_args()
    if args.ratios:
        import runpy
        ratios = runpy.run_path(str(ROOT / "benchmarks" / "ratios.py"))
        ratios["main"](["--quick"] * args.quick + ["--json"] * args.json)
        return
    results = []
    for name, players, games in CASES:
        if args.quick:
            games = max(2, games // 4)
        result = measure(name, players, games, 3 if args.quick else 5)
        results.append(result)
        if not args.json:
            print(f"{name:10} {players}p  {result['playouts_per_second']:9.1f} play-outs/s"
                  f"  {result['actions_per_second']:10.0f} actions/s", flush=True)
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
