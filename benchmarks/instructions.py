"""Machine instructions per random play-out action, counted by valgrind: a figure load cannot move.

    python benchmarks/instructions.py pompeii -p 3 -g 20
    python benchmarks/instructions.py pompeii -p 3 -g 20 --against /tmp/before   # and a worktree of an older commit

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


def counted(tree: Path, name: str, players: int, games: int) -> tuple[int, int]:
    """(instructions, actions) of one process playing `games` play-outs in `tree`."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", CHILD,
                           str(tree), name, str(players), str(games)], capture_output=True, text=True, check=True)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    actions = re.search(r"actions (\d+)", done.stdout)
    if collected is None or actions is None:
        raise SystemExit(f"valgrind said:\n{done.stderr[-2000:]}")
    return int(collected.group(1)), int(actions.group(1))


def per_action(tree: Path, name: str, players: int, games: int) -> float:
    base, _ = counted(tree, name, players, 0)
    total, actions = counted(tree, name, players, games)
    return (total - base) / actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", help="a bundled game: tictactoe, pompeii, attika, alexander")
    parser.add_argument("--players", "-p", type=int, default=2)
    parser.add_argument("--games", "-g", type=int, default=20, help="seeded play-outs, seeds 0 to N-1 (default 20)")
    parser.add_argument("--against", type=Path, help="another checkout to count too (a worktree of an older commit)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    now = per_action(ROOT, args.ruleset, args.players, args.games)
    print(f"{args.ruleset} {args.players}p, {args.games} games: {now:,.0f} instructions an action")
    if args.against is not None:
        before = per_action(args.against.resolve(), args.ruleset, args.players, args.games)
        print(f"  {args.against}: {before:,.0f}; this checkout does {now / before:.4f} of its work")


if __name__ == "__main__":
    main()
