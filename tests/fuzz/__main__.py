"""`python -m tests.fuzz --cases 10000`: the fuzzing campaign (run from the repository's top folder).

Each case is a bundled ruleset mutated by Hypothesis (structure, rule-language text drawn from
the grammar, bytes; see mutate.py), run through `leges validate` and, when it validates, a short
`leges simulate`. A finding (a traceback, an internal error, an exit status other than 0 or 2,
a rejection without a located message, a command past its time cap or the memory cap, a
validation slower than 2 s) is printed and its files are kept under --out for running again.
Exit status: 0 without findings, 1 with.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from .runner import fuzz, report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=200, help="how many cases (default 200)")
    p.add_argument("--seed", type=int, help="Hypothesis seed, to draw the same cases again")
    p.add_argument("--rulesets", nargs="*", help="bundled rulesets to mutate (default: all, tictactoe most often)")
    p.add_argument("--out", type=Path, default=Path("fuzz-findings"), help="where findings are kept (default fuzz-findings/)")
    p.add_argument("--memory-mb", type=int, default=2048, help="memory cap of the worker process (default 2048)")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    last = [0.0]

    def progress(summary, seconds: float) -> None:
        if seconds - last[0] >= 30 or summary.cases == args.cases:
            last[0] = seconds
            print(f"  {summary.cases}/{args.cases} cases, {len(summary.findings)} findings, {seconds:.0f} s",
                  file=sys.stderr, flush=True)

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="leges-fuzz-") as work:
        summary = fuzz(args.cases, Path(work), args.out, args.seed,
                       tuple(args.rulesets) if args.rulesets else None, args.memory_mb, progress)
    print(report(summary, time.monotonic() - start))
    return 1 if summary.findings else 0


if __name__ == "__main__":
    sys.exit(main())
