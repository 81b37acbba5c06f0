"""Machine instructions per random play-out action, counted by valgrind: a figure load cannot move.

    python benchmarks/instructions.py pompeii -p 3 -g 20
    python benchmarks/instructions.py pompeii -p 3 -g 20 --against /tmp/before   # and a worktree of an older commit
    python benchmarks/instructions.py pompeii -p 3 --search 300 --against /tmp/before   # an MCTS iteration

On a machine shared with other work, CPU times of one change's effect (a few per cent) drift by more
than that from run to run. Valgrind's callgrind counts the instructions the process executes, the same
on every run: the random play-outs of `-g` seeded games, less a run of no games (loading the
ruleset, Python's start), divided by the actions played. A count is not a time (a cache miss costs more
than an instruction), but a change that removes work shows exactly. About 50 times slower than
running the games; needs `valgrind` (Debian's package).
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import random, sys
sys.path.insert(0, sys.argv[1] + "/interpreter")
import leges
game = leges.load(sys.argv[1] + "/rulesets/" + sys.argv[2])
actions = 0
for seed in range(int(sys.argv[4])):
    st = game.new_initial_state(players=int(sys.argv[3]), seed=seed)
    rng = random.Random(seed)
    while not st.terminal:
        p = st.pending  # a dict in checkouts before engine/decision.py
        st.apply_option(rng.randrange(len(p["options"]) if isinstance(p, dict) else len(p)))
        actions += 1
print("actions", actions)
"""


# --search: one default `mcts` search of N iterations from a mid-game position (seed 3, AFTER random
# actions in), the world it plays in drawn once before (the seat's memory read off the history).
SEARCH = r"""
import random, sys
sys.path.insert(0, sys.argv[1] + "/interpreter")
import leges
from leges.agents import make, start
from leges.agents.base import View
game = leges.load(sys.argv[1] + "/rulesets/" + sys.argv[2])
st = game.new_initial_state(players=int(sys.argv[3]), seed=3)
rng = random.Random(0)
for _ in range(int(sys.argv[5])):
    st.apply_option(rng.randrange(len(st.pending)))
iterations = int(sys.argv[4])
agent = make(f"mcts:iterations={max(iterations, 1)}")
start(agent, game, st.current_player(), random.Random(1))
view = View(st, st.current_player())
view.resample(random.Random(9))
root = agent.search(view) if iterations else None
print("actions", root.visits if root else 0)  # (the iterations searched: the most visited may settle it early)
"""


def counted(tree: Path, name: str, players: int, games: int, after: int | None = None) -> tuple[int, int]:
    """(instructions, actions) of one process playing `games` play-outs in `tree` (or, `after` given,
    searching `games` MCTS iterations AFTER actions into a game: (instructions, iterations))."""
    child, more = (CHILD, []) if after is None else (SEARCH, [str(after)])
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", child,
                           str(tree), name, str(players), str(games), *more], capture_output=True, text=True, check=True)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    actions = re.search(r"actions (\d+)", done.stdout)
    if collected is None or actions is None:
        raise SystemExit(f"valgrind said:\n{done.stderr[-2000:]}")
    return int(collected.group(1)), int(actions.group(1))


def per_action(tree: Path, name: str, players: int, games: int, after: int | None = None) -> float:
    base, _ = counted(tree, name, players, 0, after)
    total, actions = counted(tree, name, players, games, after)
    return (total - base) / actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", help="a bundled game: tictactoe, pompeii, attika, alexander")
    parser.add_argument("--players", "-p", type=int, default=2)
    parser.add_argument("--games", "-g", type=int, default=20, help="seeded play-outs, seeds 0 to N-1 (default 20)")
    parser.add_argument("--against", type=Path, help="another checkout to count too (a worktree of an older commit)")
    parser.add_argument("--search", type=int, metavar="N",
                        help="count instead an iteration of a default mcts search of N iterations, from seed 3 "
                             "--after actions in (its first world drawn before counting)")
    parser.add_argument("--after", type=int, default=40, help="random actions before the search (default 40)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    after = args.after if args.search else None
    count, unit = (args.search, "iteration") if args.search else (args.games, "action")
    what = f"an mcts search of {count} iterations {args.after} actions in" if args.search else f"{count} games"
    now = per_action(ROOT, args.ruleset, args.players, count, after)
    print(f"{args.ruleset} {args.players}p, {what}: {now:,.0f} instructions an {unit}")
    if args.against is not None:
        before = per_action(args.against.resolve(), args.ruleset, args.players, count, after)
        print(f"  {args.against}: {before:,.0f}; this checkout does {now / before:.4f} of its work")


if __name__ == "__main__":
    main()
