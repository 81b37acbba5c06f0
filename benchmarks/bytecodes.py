"""Python bytecodes run per random play-out action, by function: an exact count that names where the work is.

    python benchmarks/bytecodes.py tictactoe -g 100
    python benchmarks/bytecodes.py pompeii -p 3 -g 5 --top 30
    python benchmarks/bytecodes.py pompeii -p 3 -g 5 --against /tmp/before   # a worktree of an older commit

CPU times move with the machine's load, and valgrind's instruction counts (instructions.py) do not
say which function spent them. Python's tracer can count every bytecode the interpreter runs
(`frame.f_trace_opcodes`): the same on every run, in seconds rather than valgrind's minutes, and
per generated function (`<L1_any>`, `<options:place>`, a program) or engine function. A bytecode is
not a fixed cost — a call or a dict lookup costs more than a jump, and work done in C (`sorted`,
`dict(...)`) counts as one — so a change's worth is confirmed with instructions.py, but where a
decision's work goes, and whether a change removed it, shows here at once. Only `apply_option`
is counted (the engine's work for an action), not the random choice or the game's set-up.
"""
from __future__ import annotations

import argparse
import collections
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import collections, json, random, sys
sys.path.insert(0, sys.argv[1] + "/interpreter")
import leges
game = leges.load(sys.argv[1] + "/rulesets/" + sys.argv[2])
counts = collections.Counter()
calls = collections.Counter()

def tracer(frame, event, arg):
    frame.f_trace_opcodes = True
    frame.f_trace_lines = False
    code = frame.f_code
    key = code.co_filename.rsplit("/", 1)[-1] + ":" + code.co_name
    calls[key] += 1

    def local(frame, event, arg):
        if event == "opcode":
            counts[key] += 1
        return local
    return local

actions = 0
for seed in range(int(sys.argv[4])):
    st = game.new_initial_state(players=int(sys.argv[3]), seed=seed)
    rng = random.Random(seed)
    while not st.terminal:
        index = rng.randrange(len(st.pending))
        sys.settrace(tracer)
        st.apply_option(index)
        sys.settrace(None)
        actions += 1
print(json.dumps({"actions": actions, "counts": counts, "calls": calls}))
"""


def counted(tree: Path, name: str, players: int, games: int) -> tuple[int, collections.Counter, collections.Counter]:
    """(actions, bytecodes by function, calls by function) of `games` seeded play-outs in the checkout `tree`."""
    import json
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), name, str(players), str(games)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the play-outs failed:\n{done.stderr[-2000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return data["actions"], collections.Counter(data["counts"]), collections.Counter(data["calls"])


def memo_reuse(calls: collections.Counter, counts: collections.Counter) -> list[tuple[str, int, int, int]]:
    """(function, its wrapper's calls, its body's, the wrapper's bytecodes) of every memoised user
    function: generated as `F<n>_<id>` (the wrapper, looking its value up) and `F<n>_<id>_body`."""
    rows = []
    for key, n in calls.items():
        where, _, name = key.rpartition(":")
        body = calls.get(f"{where}:{name}_body")
        if name.startswith("F") and body is not None and n:
            rows.append((f"{where}:{name}", n, body, counts[key]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset", help="a bundled game: tictactoe, pompeii, attika, alexander")
    parser.add_argument("--players", "-p", type=int, default=2)
    parser.add_argument("--games", "-g", type=int, default=20, help="seeded play-outs, seeds 0 to N-1 (default 20)")
    parser.add_argument("--top", type=int, default=25, help="functions to list (default 25)")
    parser.add_argument("--against", type=Path, help="another checkout to count too (a worktree of an older commit)")
    parser.add_argument("--memo", action="store_true",
                        help="also each memoised function's reuse: calls of its wrapper, and how many computed its body")
    args = parser.parse_args()
    actions, counts, calls = counted(ROOT, args.ruleset, args.players, args.games)
    total = sum(counts.values())
    print(f"{args.ruleset} {args.players}p, {args.games} games, {actions} actions: {total / actions:,.0f} bytecodes an action")
    print(f"{'bytecodes':>10} {'share':>7}  {'calls':>6}  (each an action)")
    for key, value in counts.most_common(args.top):
        print(f"{value / actions:10.1f} {100 * value / total:5.1f} %  {calls[key] / actions:6.2f}  {key}")
    if args.memo:
        print("memoised functions: calls an action, computed, reused (the rest were looked up), wrapper bytecodes an action")
        for key, wrapper, body, spent in sorted(memo_reuse(calls, counts), key=lambda row: -row[3]):
            print(f"   {key:40s} {wrapper / actions:7.2f} {body / actions:7.2f} {1 - body / wrapper:6.1%} {spent / actions:8.1f}")
    if args.against is not None:
        before_actions, before, _ = counted(args.against.resolve(), args.ruleset, args.players, args.games)
        was = sum(before.values()) / before_actions
        print(f"  {args.against}: {was:,.0f}; this checkout runs {total / actions / was:.4f} of its bytecodes")


if __name__ == "__main__":
    main()
