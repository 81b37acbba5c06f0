"""`leges mutate`: single-rule mutants of a ruleset, run against its scenarios and rule tests."""
from __future__ import annotations

import sys

from .common import EXIT_FAIL, EXIT_INPUT, EXIT_OK


def cmd_mutate(args) -> int:
    from ..authoring.mutants import find_mutants
    from ..authoring.mutate import as_json, run, select
    if args.list:
        missing: list = []
        for m in select(find_mutants(args.ruleset, missing=missing), args.rule, args.sample, args.seed, args.operator):
            print(f"{m.index:4d}  {m.describe()}")
        for rule, why in missing:
            print(f"note: {rule} has no mutant: {why}", file=sys.stderr)
        return EXIT_OK

    def progress(result, done: int, total: int) -> None:
        if args.quiet:
            return
        m = result.mutant
        by = f"  ({result.by})" if result.by and result.status != "killed" or args.verbose and result.by else ""
        print(f"[{done:>{len(str(total))}}/{total}] {result.status:<9} {m.describe()}{by}", file=sys.stderr, flush=True)

    report = run(args.ruleset, tests=[] if args.no_tests else args.tests, project=args.project, sample=args.sample, seed=args.seed,
                 jobs=args.jobs, rule=args.rule, timeout=args.timeout, progress=progress,
                 ruleset_python=args.run_ruleset_python, operator=args.operator,
                 lock_step=None if args.lock_step is None else [args.lock_step])
    for path in report.get("not_run", []):
        print(f"note: {path} was not run: it is Python that came with the ruleset; --run-ruleset-python runs it "
              "(only for a ruleset you trust)", file=sys.stderr)
    if "error" in report:
        print(f"leges mutate: {report['error']}", file=sys.stderr)
        return EXIT_INPUT
    if args.json:
        print(as_json(report))
    else:
        survivors = [r for r in report["results"] if r.status == "survived"]
        if survivors:
            print(f"survivors ({len(survivors)}): no test fails when these rules are so changed")
            for r in survivors:
                m = r.mutant
                print(f"  {m.describe()}")
                text = m.text if isinstance(m.text, str) else ""  # a named constant's is its number
                changed = [line.strip() for line in text.splitlines() if m.after and m.after in line][:1]
                if changed:
                    print(f"      {changed[0]}")
        sampled = f" (a sample of {report['run']} of {report['mutants']})" if report["run"] < report["mutants"] else ""
        for text in report.get("stale_equivalents", []):
            print(f"warning: {text} is listed in equivalent_mutants.yaml but is no mutant of the ruleset any more",
                  file=sys.stderr)
        equivalent = f", {report['equivalent']} equivalent (listed, not run)" if report.get("equivalent") else ""
        print(f"{report['ruleset']}: {report['run']} mutants{sampled} — {report['killed']} killed, "
              f"{report['survived']} survived, {report['stillborn']} stillborn (rejected by the checker)"
              f"{equivalent}; score {report['score']:.1f} % killed, in {report['seconds']:.0f} s")
        print("tests: the ruleset's scenarios" + (f", then {' '.join(report['tests'])}" if report["tests"] else " alone"))
        if "lock_step" in report:
            step = report["lock_step"]
            if step.get("error"):
                print(f"lock-step: {step['error']}", file=sys.stderr)
            print(f"lock-step ({' '.join(step['tests'])}) against the {step['run']} survivors: {step['killed']} more "
                  f"killed; score {report['score_without_lock_step']:.1f} % without it, {report['score']:.1f} % with it")
        rows = report.get("by_operator", {})
        if rows:
            print("by operator (killed / survived / stillborn, score):")
            for name in sorted(rows, key=lambda k: (k in ("old", "new"), k)):
                row = rows[name]
                label = {"old": "all of mutate.py's", "new": "all of operators.py's"}.get(name, name)
                print(f"  {label:<22} {row['killed']:4d} / {row['survived']:4d} / {row['stillborn']:4d}  {row['score']:5.1f} %")
        for text in report.get("without_mutant", []):
            print(f"no mutant: {text}")
        for rule in report.get("without_live_mutant", []):
            print(f"no live mutant: {rule} (the checker rejected every mutant of it)")
    if args.fail_under is not None and report["score"] < args.fail_under:
        return EXIT_FAIL
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("mutate", help="change each rule in turn and check that the scenarios and tests fail")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--tests", action="append", metavar="FILE",
                   help="a pytest file to run against each mutant, which runs its Python (repeatable; default: "
                        "Leges' own tests/test_<ruleset id>.py for a bundled ruleset, none for another); it finds "
                        "the mutated ruleset's folder in $LEGES_RULESETS")
    p.add_argument("--run-ruleset-python", action="store_true",
                   help="also run tests/test_<ruleset id>.py found in or above the ruleset's folder, and the "
                        "conftest.py beside it: this RUNS PYTHON THAT CAME WITH THE RULESET, as you (only for a "
                        "ruleset you trust)")
    p.add_argument("--no-tests", action="store_true", help="run the scenarios alone against each mutant")
    p.add_argument("--project", metavar="DIR", help="where pytest runs, its root and the highest folder it takes a "
                   "conftest.py from (default: the folder holding the tests' tests/)")
    p.add_argument("--sample", type=int, metavar="N", help="run N mutants chosen at random (see --seed)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", "-j", type=int, default=1, help="mutants run at once")
    p.add_argument("--rule", metavar="REGEX", help="only the rules whose id (or KIND:ID) matches")
    p.add_argument("--operator", metavar="REGEX", help="only the mutants of the operators whose name matches "
                   "(comparison, constant, statement, and_or, boolean, count, conjunct, argument, function, "
                   "boundary, arithmetic, filter, branch, value)")
    p.add_argument("--lock-step", nargs="?", const="auto", metavar="FILE",
                   help="then run the lock-step check against the survivors (default: Leges' own "
                        "tests/test_reference_<ruleset id>.py, the hand-written reference played in lock-step; "
                        "slow) and give the score without and with it")
    p.add_argument("--timeout", type=float, default=900.0, metavar="S", help="seconds the tests may run per mutant")
    p.add_argument("--fail-under", type=float, metavar="PCT", help="exit status 1 when fewer are killed")
    p.add_argument("--list", action="store_true", help="only list the mutants")
    p.add_argument("--json", action="store_true", help="the report as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    p.add_argument("--verbose", "-v", action="store_true", help="say what killed each mutant")
    p.set_defaults(run=cmd_mutate)
