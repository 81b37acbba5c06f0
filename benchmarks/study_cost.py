"""What a designer's study costs: a 300-pair `leges compare` with default agents, per game, extrapolated.

    python benchmarks/study_cost.py                          # every bundled game, 2 pairs each (tens of minutes)
    python benchmarks/study_cost.py --games pompeii --pairs 4 --players 3
    python benchmarks/study_cost.py --agents greedy --json

A study of 300 pairs takes hours, so this plays a fixed fraction of one — `--pairs` pairs (each pair a
seed under A and under B, as `leges compare` plays them) with the study's agents in every seat,
through the real command (`leges compare ... --jobs 1`) — and says what the whole would cost: its
CPU seconds per pair (of the command's process and its children, `resource.getrusage`, so the
machine's load moves it little; less the command's start, measured as one pair of random play),
times 300, divided by the cores a study runs on (`--cores`,
default: this machine's). A and B are the game's own rules (`--b VARIANTS` to play a variant as
B): what a study costs is its games, not what differs between its sides. An extrapolation from a
few pairs, said as such: games of one seed differ in length, so the figure is rough; `--pairs`
narrows it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GAMES = ("tictactoe", "pompeii", "attika", "alexander")
STUDY_PAIRS = 300


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(name: str, players: int | None, pairs: int, agents: str, seed: int, b: str) -> dict:
    """Play `pairs` pairs of the study through `leges compare`: its CPU seconds and wall seconds,
    less the command's start (Python, loading and compiling the game: one pair of random play)."""
    start = _run(name, players, 1, "random", seed, b)[0]
    cpu, wall = _run(name, players, pairs, agents, seed, b)
    cpu = max(cpu - start, 0.0)
    return {"game": name, "players": players, "b": b or "(as A)", "agents": agents, "pairs": pairs,
            "cpu_seconds": round(cpu, 2), "wall_seconds": round(wall, 2), "start_cpu_seconds": round(start, 2),
            "cpu_per_pair": round(cpu / pairs, 2)}


def _run(name: str, players: int | None, pairs: int, agents: str, seed: int, b: str) -> tuple[float, float]:
    path = ROOT / "rulesets" / name
    command = [sys.executable, "-m", "leges", "compare", str(path), "--b", b, "--games", str(pairs),
               "--agents", agents, "--jobs", "1", "--seed", str(seed), "--json", "--quiet"]
    if players is not None:
        command += ["--players", str(players)]
    before, started = children_cpu(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "interpreter")})
    cpu, wall = children_cpu() - before, time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"leges compare failed on {name}:\n{done.stderr[-2000:]}")
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="bundled games, comma-separated (default: all four)")
    parser.add_argument("--players", "-p", type=int, help="players (default: each game's least)")
    parser.add_argument("--pairs", type=int, default=2, help="pairs played of the study's 300 (default 2)")
    parser.add_argument("--agents", "-a", default="mcts", help="the study's agents, as `leges compare --agents` (default mcts)")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="cores the whole study would run on (default: this machine's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--b", default="", help="B's variants, as `leges compare --b` (default: none, B as A)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game, one a line")
    args = parser.parse_args()
    if args.pairs < 1 or args.cores < 1:
        parser.error("--pairs and --cores are at least 1")
    if not args.json:
        print(f"a {STUDY_PAIRS}-pair study on {args.cores} cores, extrapolated from {args.pairs} pairs "
              f"(rough: a few seeds) — agents {args.agents}", flush=True)
    for name in [g.strip() for g in args.games.split(",") if g.strip()]:
        row = measure(name, args.players, args.pairs, args.agents, args.seed, args.b)
        row["study_hours"] = round(row["cpu_per_pair"] * STUDY_PAIRS / args.cores / 3600, 2)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"  {name:10} {row['cpu_per_pair']:8.1f} CPU s a pair   a study: {row['study_hours']:6.2f} h "
                  f"on {args.cores} cores   (B: {row['b']})", flush=True)


if __name__ == "__main__":
    main()
