"""`leges mutate`: do a ruleset's tests fail when one of its rules is wrong?

Each mutant changes one rule of the ruleset in one place, on the rule's parsed text (mutants.py
finds them; operators.py makes the changes: comparisons, boundaries, numbers, dropped statements and
conjuncts, swapped arguments and built-ins, ...). The mutant is a copy of the
ruleset's folder (and of its map) in a temporary folder, made through the file gate, with the one
file changed. The ruleset's scenarios run against it first, then its rule tests (pytest on the
test files given, by default Leges' own `tests/test_<ruleset id>.py` for a bundled ruleset), which
are pointed at the copy by the environment variable LEGES_RULESETS (the folder holding the mutated
ruleset). Python that came with a ruleset (a `tests/` or `conftest.py` in or beside its folder) may
be a stranger's: it runs only when asked (`ruleset_python`, `--run-ruleset-python`). A mutant
the tests fail on is killed; one they pass survives — its rule has no test that fails when it
is wrong; one that no longer loads is stillborn (the checker caught it) and is not counted.
"""
from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

from ..text import files
from .mutants import Mutant, equivalents, find_mutants, matches_equivalent
from .rule_tests import first_failure, leges_tests, run_pytest, ruleset_tests, tests_project

@dataclass
class Result:
    mutant: Mutant
    status: str  # killed, survived, stillborn, timeout
    by: str = ""  # what killed it: a scenario, a test, the checker's first message
    seconds: float = 0.0


# ------------------------------------------------------------------ writing a mutant
def splice(file_text: str, doc, path: tuple, value) -> str:
    """The YAML file with the scalar at `path` replaced by `value` (a string is written double-quoted)."""
    node = doc.nodes[path]
    start, end = node.start_mark.index, node.end_mark.index
    segment = file_text[start:end]
    tail = segment[len(segment.rstrip()):]
    return file_text[:start] + json.dumps(value, ensure_ascii=False) + tail + file_text[end:]


def _write_copy(folder: Path, into: Path, mutant: Mutant | None) -> Path:
    """Copy the ruleset (and its map, when that lies outside its folder) into `into`/rulesets/NAME with the
    mutant's change: through the file gate (loader.ruleset_tree), so no link leads the copy out of the
    folder, no device is read and the copy is bounded in size."""
    from ..model.loader import ruleset_tree
    from ..text.yaml_source import load_yaml_file
    folder = folder.resolve()
    tree, _ = ruleset_tree(folder)
    if mutant is not None:
        name = f"{folder.name}/{mutant.file}"
        doc = load_yaml_file(str(folder / mutant.file))
        tree[name] = splice(tree[name].decode("utf-8"), doc, mutant.path, mutant.text).encode("utf-8")
    maps = {name: data for name, data in tree.items() if name.startswith("maps/")}  # beside rulesets/, as in Leges
    files.write_tree({name: data for name, data in tree.items() if name not in maps}, into / "rulesets")
    files.write_tree(maps, into)
    return into / "rulesets" / folder.name


# ------------------------------------------------------------------ running one mutant
def _scenarios(target: Path) -> str | None:
    """Run the copy's scenarios (the game loaded once per set of variants); what failed, or None."""
    from . import scenario
    from ..text.errors import LegesError
    games: dict = {}
    loader = scenario._load_game

    def cached(doc, *rest):
        key = ((Path(doc.file).parent / doc.data["ruleset"]).resolve(), tuple(doc.data.get("variants", ())))
        if key not in games:
            games[key] = loader(doc, *rest)
        return games[key]

    scenario._load_game = cached
    try:
        for path in scenario.find_scenarios([str(target)]):
            name = Path(path).relative_to(target).as_posix()
            try:
                outcome = scenario.run_file(path)
            except LegesError as exc:
                return f"scenario {name}: {exc.diagnostics[0].message}"
            except Exception as exc:  # a mutant may make a rule fail in any way
                return f"scenario {name}: {type(exc).__name__}"
            if not outcome.passed:
                return f"scenario {name}"
    finally:
        scenario._load_game = loader
    return None


def snapshot(folder: Path, into: Path) -> Path:
    """A copy of the ruleset (and its map) that the run's mutants are all made from: files
    edited while the run goes on change none of them."""
    return _write_copy(folder, into, None)


def evaluate(folder: str, mutant: Mutant | None, tests: list[str], project: str, timeout: float) -> Result:
    """Run the scenarios, then the tests, against one mutant of the ruleset at `folder` (None: as it is)."""
    from .. import load
    from ..text.errors import LegesError
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="leges-mutant-"))
    placeholder = mutant or Mutant(-1, "", "", "", (), "", "none", "", "")

    def done(status: str, by: str = "") -> Result:
        return Result(placeholder, status, by, round(time.monotonic() - started, 2))
    try:
        target = _write_copy(Path(folder), scratch, mutant)
        try:
            load(str(target))
        except LegesError as exc:
            errors = [d for d in exc.diagnostics if d.severity == "error"] or exc.diagnostics
            return done("stillborn", errors[0].message)
        except Exception as exc:
            return done("stillborn", type(exc).__name__)
        failed = _scenarios(target)
        if failed:
            return done("killed", failed)
        if not tests:
            return done("survived")
        code, output = run_pytest(tests, project, target.parent, scratch / "pytest.out", timeout)
        if code is None:
            return done("timeout", f"the tests ran longer than {timeout:.0f} s")
        if code == 0:
            return done("survived")
        if code == 5:
            return done("survived", "no tests ran")
        return done("killed", first_failure(output))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _job(args):
    return evaluate(*args)


# ------------------------------------------------------------------ the whole run
OLD_OPERATORS = ("comparison", "constant", "statement", "and_or", "boolean", "count")  # those before operators.py


def select(mutants: list, rule: str | None = None, sample: int | None = None, seed: int = 0,
           operator: str | None = None) -> list:
    """The mutants of the rules whose id (or KIND:ID) matches `rule` and of the operators matching `operator`,
    or `sample` of them drawn with `seed`."""
    if rule:
        mutants = [m for m in mutants if re.fullmatch(rule, m.rule.split(":", 1)[1]) or re.fullmatch(rule, m.rule)]
    if operator:
        mutants = [m for m in mutants if re.fullmatch(operator, m.operator)]
    if sample is not None and sample < len(mutants):
        mutants = sorted(random.Random(seed).sample(mutants, sample), key=lambda m: m.index)
    return mutants


def lock_step_tests(folder: Path, ruleset_id: str) -> list[str]:
    """Leges' own lock-step check of a bundled ruleset against its hand-written reference
    (`tests/test_reference_<id>.py`, which plays benchmarks/reference/<id>.py beside it): slow, so
    not among the rule tests a run uses by default."""
    import ast as python
    own = leges_tests(folder, ruleset_id)
    if own is None:
        return []
    candidate = Path(own[1]) / "tests" / f"test_reference_{ruleset_id}.py"
    if not candidate.is_file():
        return []
    # the tests of this ruleset alone (those taking its fixture): the mutant's copy holds no other ruleset
    tree = python.parse(candidate.read_text(encoding="utf-8"))
    mine = [f"{candidate}::{f.name}" for f in tree.body if isinstance(f, python.FunctionDef)
            and f.name.startswith("test") and ruleset_id in [a.arg for a in f.args.args]]
    return mine or [str(candidate)]


def run(folder: str, tests: list[str] | None = None, project: str | None = None, sample: int | None = None,
        seed: int = 0, jobs: int = 1, rule: str | None = None, timeout: float = 900.0, progress=None,
        ruleset_python: bool = False, operator: str | None = None, lock_step: list[str] | None = None) -> dict:
    """Mutate every rule (or a sample), run the tests against each mutant; the results and the score.

    The tests are those given (`[]`: the scenarios alone), else Leges' own for a bundled ruleset, else
    (with `ruleset_python` only) the `tests/test_<id>.py` found beside the ruleset; one found but not
    run is named in the report's `not_run`. `lock_step` (test files; `["auto"]`: Leges' own lock-step
    check, lock_step_tests) run afterwards against the survivors alone: the report gives the score
    without them (`score_without_lock_step`) and with them (`score`)."""
    from ..model.loader import load_declarations
    path = Path(folder).resolve()
    if path.is_file():
        path = path.parent
    rs, _, _ = load_declarations(str(path))
    beside = ruleset_tests(path, rs.id)
    not_run: list[str] = []
    if tests is not None:
        tests = [str(Path(t).resolve()) for t in tests]
        found_project = tests_project(tests) if tests else path.parent
    elif (own := leges_tests(path, rs.id)) is not None:
        tests, found_project = own
    elif beside is not None and ruleset_python:
        tests, found_project = beside
    else:
        tests, found_project, not_run = [], path.parent, beside[0] if beside else []
    if lock_step == ["auto"]:
        lock_step = lock_step_tests(path, rs.id)
        if not lock_step:
            return {"ruleset": rs.id, "error": "no lock-step check for this ruleset (Leges' own "
                    f"tests/test_reference_{rs.id}.py; name one with --lock-step FILE)", "tests": tests}
    lock_step = [str(Path(t).resolve()) for t in lock_step or []]
    project = str(Path(project).resolve()) if project else str(found_project if tests or not lock_step
                                                               else tests_project(lock_step))
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="leges-mutate-"))
    try:
        pristine = snapshot(path, scratch)
        shown = str(folder) if not Path(folder).is_file() else str(Path(folder).parent)
        missing: list = []
        every = find_mutants(str(pristine), shown, missing)  # placed in the ruleset given, not in the snapshot
        total = len(select(every, rule, operator=operator))
        mutants = select(every, rule, sample, seed, operator)
        known = equivalents(pristine)
        equivalent = [m for m in mutants if any(matches_equivalent(e, m) for e in known)]
        stale = [e for e in known if not any(matches_equivalent(e, m) for m in every)]
        mutants = [m for m in mutants if m not in equivalent]
        report = _run_all(rs.id, pristine, mutants, total, tests, project, jobs, timeout, progress, started)
        report["not_run"] = not_run
        report["without_mutant"] = [f"{r}: {why}" for r, why in missing]
        if "error" not in report:
            if lock_step:
                _lock_step(report, pristine, lock_step, project, jobs, timeout, progress)
            why = {m.index: next(e["why"] for e in known if matches_equivalent(e, m)) for m in equivalent}
            report["results"] = sorted(report["results"] + [Result(m, "equivalent", " ".join(why[m.index].split()))
                                                             for m in equivalent], key=lambda r: r.mutant.index)
            report["equivalent"] = len(equivalent)
            report["run"] += len(equivalent)
            report["stale_equivalents"] = [f"{e['rule']}: {e['before']!r} → {e['after']!r}" for e in stale]
            report["by_operator"] = _by_operator(report["results"])
            report["without_live_mutant"] = _without_live(report["results"]) if report["run"] == total else []
            report["seconds"] = round(time.monotonic() - started, 1)
        return report
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _score(killed: int, survived: int) -> float:
    return round(100.0 * killed / (killed + survived), 1) if killed + survived else 100.0


def _by_operator(results: list) -> dict:
    """Per operator: killed, survived, stillborn, and the score; `old` and `new` the operators of mutate.py
    alone (before operators.py) and of operators.py."""
    out: dict = {}
    for r in results:
        for name in (r.mutant.operator, "old" if r.mutant.operator in OLD_OPERATORS else "new"):
            row = out.setdefault(name, {"killed": 0, "survived": 0, "stillborn": 0, "equivalent": 0})
            status = "killed" if r.status == "timeout" else r.status
            row[status] = row.get(status, 0) + 1
    for row in out.values():
        row["score"] = _score(row["killed"], row["survived"])
    return out


def _without_live(results: list) -> list[str]:
    """The rules every mutant of which the checker rejected: in effect without a mutant."""
    rules: dict = {}
    for r in results:
        rules.setdefault(r.mutant.rule, []).append(r.status)
    return sorted(rule for rule, statuses in rules.items() if all(s == "stillborn" for s in statuses))


def _evaluate_all(jobs_args: list, jobs: int, progress) -> list[Result]:
    results: list[Result] = []
    if jobs <= 1:
        for args in jobs_args:
            results.append(_job(args))
            if progress:
                progress(results[-1], len(results), len(jobs_args))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_job, args) for args in jobs_args]
            for future in as_completed(futures):
                results.append(future.result())
                if progress:
                    progress(results[-1], len(results), len(jobs_args))
    results.sort(key=lambda r: r.mutant.index)
    return results


def _run_all(ruleset_id, pristine: Path, mutants, total, tests, project, jobs, timeout, progress, started) -> dict:
    baseline = evaluate(str(pristine), None, tests, project, timeout)
    if baseline.status != "survived":
        return {"ruleset": ruleset_id, "error": f"the tests fail on the ruleset as it is: {baseline.by}", "tests": tests}
    results = _evaluate_all([(str(pristine), m, tests, project, timeout) for m in mutants], jobs, progress)
    killed = sum(r.status in ("killed", "timeout") for r in results)
    survived = sum(r.status == "survived" for r in results)
    return {"ruleset": ruleset_id, "tests": tests, "mutants": total, "run": len(results), "killed": killed,
            "survived": survived, "stillborn": sum(r.status == "stillborn" for r in results),
            "score": _score(killed, survived), "seconds": round(time.monotonic() - started, 1), "results": results}


def _lock_step(report: dict, pristine: Path, tests: list[str], project: str, jobs: int, timeout: float, progress) -> None:
    """Run the lock-step tests against the survivors: those they fail on are killed by them."""
    report["score_without_lock_step"] = report["score"]
    report["lock_step"] = {"tests": tests, "run": 0, "killed": 0}
    baseline = evaluate(str(pristine), None, tests, project, timeout)
    if baseline.status != "survived":
        report["lock_step"]["error"] = f"the lock-step tests fail on the ruleset as it is: {baseline.by}"
        return
    survivors = [r for r in report["results"] if r.status == "survived"]
    again = {r.mutant.index: r for r in _evaluate_all([(str(pristine), r.mutant, tests, project, timeout)
                                                        for r in survivors], jobs, progress)}
    for i, r in enumerate(report["results"]):
        redo = again.get(r.mutant.index)
        if redo is not None and redo.status in ("killed", "timeout"):
            report["results"][i] = Result(r.mutant, redo.status, f"lock-step: {redo.by}", r.seconds + redo.seconds)
    killed = sum(x.status in ("killed", "timeout") for x in again.values())
    report["lock_step"].update(run=len(survivors), killed=killed)
    report["killed"] += killed
    report["survived"] -= killed
    report["score"] = _score(report["killed"], report["survived"])


def as_json(report: dict) -> str:
    out = dict(report)
    if "results" in out:
        out["results"] = [dict(asdict(r.mutant), status=r.status, by=r.by, seconds=r.seconds) for r in out["results"]]
        for r in out["results"]:
            r.pop("text", None)
    return json.dumps(out, ensure_ascii=False)
