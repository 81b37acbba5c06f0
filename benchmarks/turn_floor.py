"""The floor a generated turn would stand on: Tic-Tac-Toe's action written as one plain function
over Leges' own state, counted by valgrind against the engine's.

    python benchmarks/turn_floor.py --games 300        # needs valgrind (Debian's package)

What it keeps of the engine: the state as laid out and set up by the engine (`new_initial_state`),
its zones and `place` (with the memo's bookkeeping of what a move changes), the record as text.
What it leaves out: the flow and its frames, the pending decision and the options' records with
their texts, the meter, the turn's glue — everything between the rules' own work and the state.
The rules' work is written as the generated code writes it (the win test over `lines(3)`, the
squares still empty). So the instructions an action here, against `benchmarks/instructions.py`'s
for the engine, say how much of a decision those layers cost and how much the state's layout
itself (docs/design.md, issue 36). An instrument, not a game: the rules are the ruleset's.
"""
from __future__ import annotations

import argparse
import os
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
game = leges.load(sys.argv[1] + "/rulesets/tictactoe")


def play(games):  # (in a function: its names are locals, as in generated code)
    lines = [list(line) for line in game.board.lines(3)]
    squares = list(game.board.spaces)
    actions = 0
    for seed in range(games):
        st = game.new_initial_state(players=2, seed=seed)
        supply, cowner, names, history = st.setup.zkeys["supply"], st.setup.cowner, st.setup.seat_names, st.history
        rng = random.Random(seed)
        me = 0
        while True:
            zones = st.zones
            options = [s for s in squares if not zones[s]]
            if not options:
                break
            square = options[rng.randrange(len(options))]
            history.append(names[me] + ": place square=" + square)
            st.place(zones[supply[me]][-1], square, None)
            zones = st.zones
            actions += 1
            won = False
            for line in lines:  # as the generated win test goes: loops, not generators
                for s in line:
                    z = zones[s]
                    if not (z and cowner[z[-1]] == me):
                        break
                else:
                    won = True
                    break
            if won:
                break
            me = 1 - me
    return actions


print("actions", play(int(sys.argv[2])))
"""


def instructions(games: int) -> tuple[int, int]:
    """(instructions, actions) of `games` play-outs, valgrind's count of the whole process."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", CHILD, str(ROOT), str(games)],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="0"))
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    played = re.search(r"actions (\d+)", done.stdout)
    if done.returncode != 0 or refs is None or played is None:
        raise SystemExit(f"the play-outs failed:\n{done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(played.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", "-g", type=int, default=300, help="seeded play-outs (default 300)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (apt-get install valgrind)")
    subprocess.run([sys.executable, "-c", CHILD, str(ROOT), "0"], capture_output=True)  # the code cache filled first
    base, _ = instructions(0)
    total, actions = instructions(args.games)
    print(f"Tic-Tac-Toe as one plain function over Leges' state: {(total - base) / actions:,.0f} instructions an action "
          f"({actions} actions, {args.games} games; set-up of each game included, loading not)")


if __name__ == "__main__":
    main()
