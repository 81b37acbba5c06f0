"""`leges mutate`: do a ruleset's tests fail when one of its rules is wrong?

Each mutant changes one rule of the ruleset in one place, on the rule's parsed text: a
comparison flipped (`<` → `<=`, `==` → `!=`, `in` → `not in`, ...), a number one more or one
less, a statement dropped (replaced by `pass`), `and` and `or` swapped, `true` and `false`
swapped, a count or depth that is not a plain number made one more. The mutant is a copy of the
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
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from ..text import files
from ..text.offsets import line_col
from .rule_tests import first_failure, leges_tests, run_pytest, ruleset_tests, tests_project

FLIP = {"==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">"}
COUNTED = {"draw_stmt": 0, "deal_stmt": 0, "shuffle_range": 0, "at_depth": 0, "repeat_stmt": 0}  # which of its expressions


@dataclass
class Mutant:
    index: int
    rule: str  # KIND:ID
    key: str  # the text changed: effect, require, params.NAME, body, ...
    file: str  # the YAML file, relative to the ruleset's folder
    path: tuple  # where the text is in that file
    where: str  # file:line:col of the change
    operator: str  # comparison, constant, statement, and_or, boolean, count
    before: str
    after: str
    text: object = field(repr=False, default="")  # the whole mutated text of the rule (a constant's new value)
    line: str = ""  # the line of the rule's text where the change is, as written (stripped)
    column: int = 0  # where on that line the change begins


    def describe(self) -> str:
        return f"{self.where}  {self.rule} {self.key}  {self.operator}: {self.before!r} → {self.after!r}"


@dataclass
class Result:
    mutant: Mutant
    status: str  # killed, survived, stillborn, timeout
    by: str = ""  # what killed it: a scenario, a test, the checker's first message
    seconds: float = 0.0


# ------------------------------------------------------------------ finding mutants
@lru_cache(maxsize=1)
def _parser():
    from lark import Lark
    from ..lang.syntax.grammar import RuleIndenter, grammar_text
    return Lark(grammar_text(), parser="lalr", postlex=RuleIndenter(), start=["program", "expression"],
                propagate_positions=True, maybe_placeholders=False, keep_all_tokens=True)


def _flat(text: str) -> str:
    """An expression as the parser reads it: comments blanked, line breaks as spaces, every character in place."""
    from ..lang.syntax.grammar import without_comments
    return without_comments(text).replace("\r", " ").replace("\n", " ")


def _edits(text: str, program: bool, typing=None, key: tuple | None = None,
           last_resort: bool = False) -> list[tuple[str, int, int, str]]:
    """The single changes of a rule text: (operator, start, end, replacement), on the parsed text: this
    module's token changes, then operators.py's (those needing types have them from `typing`, for the
    text at `key`); with `last_resort`, only the change of the whole text into another value."""
    from lark import Token, Tree
    from . import operators
    source = text if not program or text.endswith("\n") else text + "\n"
    parsed = source if program else _flat(text.rstrip())
    tree = _parser().parse(parsed, start="program" if program else "expression")
    edits: list[tuple[str, int, int, str]] = []
    counts: set[int] = set()  # the number tokens that are a statement's count or depth

    def tokens(node):
        return [c for c in node.children if isinstance(c, Token)]

    def span(node) -> tuple[int, int] | None:
        if isinstance(node, Token):
            return (node.start_pos, node.end_pos) if node.start_pos is not None and node.end_pos is not None else None
        meta = node.meta
        if getattr(meta, "empty", True):
            return None
        start, end = meta.start_pos, meta.end_pos
        return start, start + len(source[start:end].rstrip())

    if last_resort:
        return operators.value_edit(tree, source, text, program, typing, key, span)
    for node in tree.iter_subtrees_topdown():
        data = node.data
        for tok in tokens(node):
            if tok.type == "COMP_OP":
                edits.append(("comparison", tok.start_pos, tok.end_pos, FLIP[str(tok)]))
            elif tok.type == "INT":
                label = "count" if id(tok) in counts else "constant"
                value = int(tok)
                edits.append((label, tok.start_pos, tok.end_pos, str(value + 1)))
                if value > 0:
                    edits.append((label, tok.start_pos, tok.end_pos, str(value - 1)))
        if data in ("and_", "or_"):
            word = next(t for t in tokens(node) if str(t) in ("and", "or"))
            edits.append(("and_or", word.start_pos, word.end_pos, "or" if str(word) == "and" else "and"))
        elif data == "in_":
            word = next(t for t in tokens(node) if str(t) == "in")
            edits.append(("comparison", word.start_pos, word.end_pos, "not in"))
        elif data == "not_in":
            words = [t for t in tokens(node) if str(t) in ("not", "in")]
            edits.append(("comparison", words[0].start_pos, words[-1].end_pos, "in"))
        elif data in ("true", "false"):
            tok = tokens(node)[0]
            edits.append(("boolean", tok.start_pos, tok.end_pos, "false" if data == "true" else "true"))
        if data in COUNTED:
            exprs = [c for c in node.children if isinstance(c, Tree) and c.data not in ("end_of", "position", "at_end", "at_depth")]
            counted = exprs[COUNTED[data]] if len(exprs) > COUNTED[data] else None
            where = span(counted) if counted is not None else None
            if isinstance(counted, Tree) and counted.data == "int_":
                counts.update(id(t) for t in tokens(counted))
            elif where is not None:
                start, end = where
                edits.append(("count", start, end, f"({source[start:end]}) + 1"))
        if program and (data.endswith("_stmt") or data in ("shuffle_all", "shuffle_range")) and data != "pass_stmt":
            where = span(node)
            if where is not None:
                edits.append(("statement", where[0], where[1], "pass"))
    return edits + operators.edits(tree, source, text, program, typing, key, span)


def _apply(text: str, program: bool, start: int, end: int, replacement: str) -> str:
    source = text if not program or text.endswith("\n") else text + "\n"
    changed = source[:start] + replacement + source[end:]
    if program and not text.endswith("\n") and changed.endswith("\n"):
        changed = changed[:-1]
    return changed


# operators whose mutants the checker may well reject (a sibling's or a name's type guessed): a rule with only
# these gets the last resort too
GUESSES = ("function", "argument")
PROGRAM_KEYS = ("effect", "body", "turn", "on_begin", "on_end")


def _meaning(text: str, program: bool) -> str | None:
    """A rule text as its syntax tree says it (lang/syntax/unparse.py): two edits that say the same are one mutant."""
    from ..lang.syntax.parser import parse_expression, parse_program
    from ..lang.syntax.unparse import expression, program as unparse_program
    from ..text.yaml_source import TextOrigin
    at = TextOrigin("<mutant>", 1, 1)
    try:
        return unparse_program(parse_program(text, at)) if program else expression(parse_expression(text, at))
    except Exception:  # a mutant the parser rejects is still one (stillborn when run)
        return None


def find_mutants(folder: str, shown: str | None = None, missing: list | None = None) -> list[Mutant]:
    """Every single-change mutant of the rules of the ruleset at `folder` (variants are not mutated); their
    places are given under `shown` (default: `folder`). Every rule with a text gets one at least: when no
    operator changes it, the last resort (operators.value_edit) does; a rule still without one is added
    to `missing` as (KIND:ID, why)."""
    from ..model.loader import load_declarations
    from .operators import Typing
    from .rule_coverage import rule_texts
    rs, _, _ = load_declarations(folder)
    typing = Typing.of(folder)
    root = Path(rs.root).resolve()
    base = {doc.file for doc in rs.docs}
    shown = (shown or folder).rstrip("/")
    found: list[Mutant] = []
    for kind, decl, texts in rule_texts(rs):
        if kind == "procedure" and decl.body is None:
            continue
        before = len(found)
        why = ""
        for last_resort in (False, True):
            for key, text in texts:
                if text.at.file not in base or not text.text.strip():
                    why = why or "its texts come from elsewhere (a variant), or are empty"
                    continue
                program = key in PROGRAM_KEYS and kind != "function"
                origin = text.at.origin()
                try:
                    edits = _edits(text.text, program, typing, (origin.file, origin.line, origin.col), last_resort)
                except Exception:  # a text the checker would reject anyway: nothing to mutate
                    why = "its text does not parse"
                    continue
                seen = {text.text}
                meanings = {_meaning(text.text, program)}
                for operator, start, end, replacement in edits:
                    mutated = _apply(text.text, program, start, end, replacement)
                    meaning = _meaning(mutated, program)
                    if mutated in seen or (meaning is not None and meaning in meanings):
                        continue
                    seen.add(mutated)
                    meanings.add(meaning)
                    line, col = line_col(text.text, start)
                    source_line = text.text.splitlines()[line - 1]
                    pos = origin.locate(line, col)
                    src = text.text if not program or text.text.endswith("\n") else text.text + "\n"
                    file = Path(text.at.file).resolve().relative_to(root).as_posix()
                    found.append(Mutant(len(found), f"{kind}:{decl.id}", key, file, tuple(text.at.path),
                                        f"{shown}/{file}:{pos.line}:{pos.col}", operator, " ".join(src[start:end].split()),
                                        replacement, mutated, source_line.strip(),
                                        col - 1 - (len(source_line) - len(source_line.lstrip()))))
            if any(m.operator not in GUESSES for m in found[before:]) or not texts:
                break
        if len(found) == before and texts and missing is not None:
            missing.append((f"{kind}:{decl.id}", why or "no operator changes what it says"))
    for const in rs.constants:  # a named number is a rule's number too
        value = const.value
        if const.at.file not in base or isinstance(value, bool) or not isinstance(value, int):
            continue
        pos = const.at.child("value").position()
        file = Path(const.at.file).resolve().relative_to(root).as_posix()
        for after in ([value + 1, value - 1] if value > 0 else [value + 1]):
            found.append(Mutant(len(found), f"constant:{const.id}", "value", file, tuple(const.at.path) + ("value",),
                                f"{shown}/{file}:{pos.line}:{pos.col}", "constant", str(value), str(after), after,
                                f"{const.id}: {value}"))
    return found


# ------------------------------------------------------------------ equivalent mutants
EQUIVALENTS = "equivalent_mutants.yaml"


def equivalents(folder: Path) -> list[dict]:
    """The ruleset's known equivalent mutants (`equivalent_mutants.yaml` in its folder): changes of a rule
    that no game the rules allow can tell from the rule itself, each with the reason. Each entry names the
    `rule` (KIND:ID), the text changed (`before`) and what it became (`after`), and may narrow it down by
    `key` (the rule's text: effect, body, ...) and `line` (a piece of the line the change is on)."""
    from ..text.errors import Diagnostic, LegesError
    from ..text.yaml_source import load_yaml_file
    path = folder / EQUIVALENTS
    if not path.is_file():
        return []
    doc = load_yaml_file(str(path))
    entries = (doc.data or {}).get("equivalent") if isinstance(doc.data, dict) else None
    if not isinstance(entries, list):
        raise LegesError(Diagnostic(doc.position(()), "expected `equivalent:`, a list of mutants"))
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) and e.get(k) for k in ("rule", "before", "after", "why")):
            raise LegesError(Diagnostic(doc.position(("equivalent", i)),
                                        "an equivalent mutant needs `rule`, `before`, `after` and `why`"))
    return entries


def _matches(entry: dict, m: Mutant) -> bool:
    if not (entry["rule"] == m.rule and entry["before"] == m.before and entry["after"] == m.after
            and entry.get("key", m.key) == m.key):
        return False
    piece = entry.get("line")
    if not piece:
        return True
    at = m.line.find(piece)  # the change lies inside that piece of its line
    return at >= 0 and at <= m.column < at + len(piece)


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
        equivalent = [m for m in mutants if any(_matches(e, m) for e in known)]
        stale = [e for e in known if not any(_matches(e, m) for m in every)]
        mutants = [m for m in mutants if m not in equivalent]
        report = _run_all(rs.id, pristine, mutants, total, tests, project, jobs, timeout, progress, started)
        report["not_run"] = not_run
        report["without_mutant"] = [f"{r}: {why}" for r, why in missing]
        if "error" not in report:
            if lock_step:
                _lock_step(report, pristine, lock_step, project, jobs, timeout, progress)
            why = {m.index: next(e["why"] for e in known if _matches(e, m)) for m in equivalent}
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
