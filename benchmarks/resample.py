"""`state.resample(player, rng)` calls per second, in CPU time, on a mid-game position (issue 39, item 7).

Three figures per game: a state resampled again and again (what a script searching from one
position pays per world), the first world after each action along a whole game (what walking a
game and resampling at every step pays, the seat's memory read off the history included), and an
agent's path for comparison (`View(state, p, knowledge=...)`: one Resampler a decision, pins given).

    .venv/bin/python benchmarks/resample.py                 # Pompeii 3 players, seed 0, after 60 actions
    .venv/bin/python benchmarks/resample.py --game attika --players 2 --after 40
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "interpreter"))

import leges  # noqa: E402
from leges.agents import View  # noqa: E402
from leges.agents.moves import moves, play  # noqa: E402
from leges.engine.knowledge import SeatMemories  # noqa: E402
from leges.engine.resample import resample  # noqa: E402


def rate(fn, seconds: float = 2.0) -> float:
    """Calls of fn per CPU second."""
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        fn()
        n += 1
    return n / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="pompeii")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--after", type=int, default=60, help="random actions played before measuring")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = leges.load(str(ROOT / "rulesets" / args.game))
    st = game.new_initial_state(players=args.players, seed=args.seed, run=False)
    memories = SeatMemories(args.players)
    memories.set_up(st)
    rng = random.Random(args.seed)
    for _ in range(args.after):
        if st.terminal:
            break
        mv = moves(st)
        i = rng.randrange(len(mv))
        memories.step(st, lambda mv=mv, i=i: play(st, mv, i))
    p = st.current_player()
    print(f"{args.game}, {args.players} players, after {len(st.history)} actions; seat {p}")
    print(f"  state.resample, same position:   {rate(lambda: st.resample(p, rng)):9.0f} /s")
    print(f"  without the seat's memory:       {rate(lambda: resample(st, p, rng)):9.0f} /s"
          "  (resample(state, p, rng): state.resample before issue 39)")
    view = View(st, p, None, memories.seats[p])
    print(f"  View with the seat's memory:     {rate(lambda: view.resample(rng)):9.0f} /s")

    # a whole game, one world per seat after every action
    for name, draw in (("state.resample", lambda w, q, r: w.resample(q, r)),
                       ("without the memory", lambda w, q, r: resample(w, q, r))):
        walk = game.new_initial_state(players=args.players, seed=args.seed + 1)
        grng, wrng = random.Random(1), random.Random(2)  # the same game either way
        worlds, start = 0, time.process_time()
        while not walk.terminal and len(walk.history) < 4 * args.after:
            for q in range(walk.n):
                draw(walk, q, wrng)
                worlds += 1
            mv = moves(walk)
            play(walk, mv, grng.randrange(len(mv)))
        spent = time.process_time() - start
        print(f"  along a game ({len(walk.history)} actions), a world per seat after each, {name}: "
              f"{worlds / spent:6.0f} /s ({spent:.2f} s CPU)")


if __name__ == "__main__":
    main()
