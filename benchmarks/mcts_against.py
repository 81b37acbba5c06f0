"""MCTS iterations per second, this checkout against another one (issue 21's search bar).

    git worktree add /tmp/before COMMIT
    python benchmarks/mcts_against.py /tmp/before            # 3 interleaved rounds (a few minutes)
    python benchmarks/mcts_against.py /tmp/before --rounds 5 --json

Each figure is the median of the rounds, in CPU time, of one search of `mcts:iterations=100` from a
mid-game position (a seeded random game played some moves in), each in a process of its own so
that the two checkouts never share a module or a cache. Two searches are timed:

- `default`: `mcts:iterations=100` as each checkout defines it (its own defaults). When the default
  changed what an iteration does (a leaf scored by the heuristic instead of a play-out), this
  ratio says what a budget costs now, not how much faster the engine plays;
- `to the end`: the same search in both, play-outs of random moves to the end of the game, UCB1's
  c = 1.4 (the defaults before the agents were tuned): the engine's own speed.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = [("pompeii", 3, 30), ("attika", 2, 30), ("alexander", 3, 40)]
SEARCHES = ("default", "to the end")

# Run in the child with the checkout's interpreter first on the path: prints iterations/s.
CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1] + "/interpreter")
import leges
from leges.agents import MCTSAgent, View
name, players, moves, search = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
game = leges.load(sys.argv[1] + "/rulesets/" + name)
st = game.new_initial_state(players=players, seed=1)
rng = random.Random(1)
for _ in range(moves):
    p = st.pending  # a dict in checkouts before engine/decision.py
    st.apply_option(rng.randrange(len(p["options"]) if isinstance(p, dict) else len(p)))
kw = {"iterations": 100}
if search == "to the end":  # only the settings this checkout knows; the others are its defaults already
    wanted = {"heuristic": "none", "rollout": "random", "c": 1.4, "normalise": 0, "depth": None}
    kw.update({k: v for k, v in wanted.items() if k in MCTSAgent.params})
agent = MCTSAgent(**kw)
agent.start(game, st.current_player(), random.Random(0))
agent.search(View(st, st.current_player()))  # warm-up: caches, compiled code
start = time.process_time()
agent.search(View(st, st.current_player()))
print(json.dumps(100 / (time.process_time() - start)))
"""


def measure(tree: Path, name: str, players: int, moves: int, search: str) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD, str(tree), name, str(players), str(moves), search],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the other checkout (a worktree of the commit to compare with)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the median is reported (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "now": ROOT}
    rates: dict[tuple[str, str, str], list[float]] = {}
    for r in range(args.rounds):
        for name, players, moves in CASES:
            for search in SEARCHES:
                for label, tree in trees.items():  # interleaved: load on the machine falls on both alike
                    rates.setdefault((name, search, label), []).append(measure(tree, name, players, moves, search))
        if not args.json:
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    rows = []
    for name, players, _ in CASES:
        for search in SEARCHES:
            before = statistics.median(rates[(name, search, "before")])
            now = statistics.median(rates[(name, search, "now")])
            rows.append({"ruleset": name, "players": players, "search": search, "before": before, "now": now,
                         "ratio": now / before})
    if args.json:
        print(json.dumps({"before": str(trees["before"]), "rows": rows}, indent=1))
        return
    print(f"mcts:iterations=100, iterations/s (CPU time, median of {args.rounds}); before: {trees['before']}")
    for row in rows:
        print(f"  {row['ruleset']:<10} {row['players']}p  {row['search']:<11} {row['before']:9.1f} -> "
              f"{row['now']:9.1f}   x{row['ratio']:.2f}")


if __name__ == "__main__":
    main()
