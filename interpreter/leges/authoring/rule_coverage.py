"""Rule-execution coverage: which rules of a game ran while it was played (by a test suite, say).

`Recorder.instrument(game)` wraps what runs a loaded game's rules, from the outside: the first
instruction of each compiled program (`game.codes`: code ids name their rule — `action:ID`,
`trigger:ID`, `procedure:ID(...)`, `phase:ID:turn`, `setup:ID`), the generated functions of
the game's compiler (one per user function and kind of arguments), the flow's `enter` (a phase
entered) and the scoring. The first time one of them runs its rule is noted and the original is
put back, so an instrumented game costs nothing once its rules have run. Nothing of the
interpreter is changed, and a game is instrumented only when asked.

A rule is named `RULESET:KIND:ID` — KIND one of setup, phase, action, trigger, procedure,
function, scoring, reading. A reading has run when a rule citing it ran. A rule brought or
changed by a variant is told apart from the base one: `RULESET+VARIANT:KIND:ID`.
"""
from __future__ import annotations

import dataclasses
import re
import weakref
from pathlib import Path

from ..model.sections import citations

# section of the ruleset → kind of rule
KINDS = {"setup": "setup", "phases": "phase", "actions": "action", "triggers": "trigger",
         "procedures": "procedure", "functions": "function"}
# the keys of each kind that hold rule-language text
TEXT_KEYS = {"setup": ("effect",), "phase": ("first", "order", "on_begin", "turn", "end_if", "on_end"),
             "action": ("params", "require", "effect"), "trigger": ("condition", "effect"),
             "procedure": ("body",), "function": ("body",), "scoring": ("score", "tiebreak")}


def rule_texts(rs):
    """Every rule of a ruleset with its texts: (kind, declaration, [(key, Text)]), in section order."""
    for section, kind in KINDS.items():
        for decl in getattr(rs, section):
            yield kind, decl, _texts(kind, decl)
    if rs.scoring is not None:
        yield "scoring", rs.scoring, _texts("scoring", rs.scoring)


def _texts(kind: str, decl) -> list:
    found = []
    for key in TEXT_KEYS[kind]:
        value = getattr(decl, key, None)
        if key == "params" and isinstance(value, list):
            found += [(f"params.{name}", text) for name, text in value if text is not None]
        elif key == "tiebreak" and isinstance(value, list):
            found += [(f"tiebreak.{i}", text) for i, text in enumerate(value) if text is not None]
        elif value is not None and hasattr(value, "text"):
            found.append((key, value))
    return found


def _variant_ids(rs) -> dict[str, str]:
    """The file of each variant of the ruleset's folder → the variant's id."""
    from ..text.errors import Collector
    from ..model.variants.catalogue import find_variants
    try:
        found = find_variants(Path(rs.root).resolve(), Collector())
    except Exception:  # a folder without readable variants: files are named after their variants
        return {}
    return {v.doc.file: vid for vid, v in found.items()}


def rule_names(rs) -> dict[tuple[str, str], str]:
    """(kind, id) → the rule's name, for the rules and readings of a (possibly patched) ruleset."""
    base = {doc.file for doc in rs.docs}
    variants = None

    def label(files: set) -> str:
        nonlocal variants
        others = sorted(f for f in files if f not in base)
        if not others:
            return rs.id
        if variants is None:
            variants = _variant_ids(rs)
        return "+".join([rs.id] + sorted({variants.get(f, Path(f).stem) for f in others}))

    names = {}
    for kind, decl, texts in rule_texts(rs):
        files = {text.at.file for _, text in texts} or {decl.at.file}
        names[(kind, decl.id)] = f"{label(files)}:{kind}:{decl.id}"
    for reading in rs.readings:
        names[("reading", reading.id)] = f"{label({reading.at.file})}:reading:{reading.id}"
    return names


def rules_of(rs) -> set[str]:
    """The names of a ruleset's rules, and of the readings some rule cites (the others cannot run)."""
    names = rule_names(rs)
    found = {name for (kind, _), name in names.items() if kind != "reading"}
    for _, decl, _ in rule_texts(rs):
        found |= {names[("reading", c["reading"])] for _, c in citations(decl) if ("reading", c.get("reading")) in names}
    return found


def expected_rules(folder: str) -> set[str]:
    """Every rule a ruleset folder declares: its own, and those each of its variants brings or changes."""
    from ..text.errors import Collector
    from ..model.loader import load_declarations
    from ..model.variants.catalogue import find_variants
    rs, _, _ = load_declarations(folder)
    found = rules_of(rs)
    variants = find_variants(Path(rs.root).resolve(), Collector())
    for vid, variant in variants.items():
        wanted: list[str] = []
        queue = [vid]
        while queue:  # the variant with those it requires
            v = queue.pop()
            if v not in wanted and v in variants:
                wanted.insert(0, v)
                queue += variants[v].data.get("requires", [])
        patched, _, _ = load_declarations(folder, wanted)
        found |= {name for name in rules_of(patched) if vid in name.split(":")[0].split("+")[1:]}
    return found


_CODE = re.compile(r"^(action|trigger|setup):(\w+)$|^procedure:(\w+)\(|^phase:(\w+):")


def _rule_of_code(code_id: str) -> tuple[str, str] | None:
    m = _CODE.match(code_id)
    if m is None:
        return None
    if m.group(1):
        return m.group(1), m.group(2)
    if m.group(3):
        return "procedure", m.group(3)
    return "phase", m.group(4)


class Recorder:
    """Notes the rules of instrumented games as they run."""

    def __init__(self):
        self.ran: set[str] = set()
        self.loaded: set[str] = set()  # the rulesets (with variants) instrumented
        self._seen: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game → codes and functions done

    # ------------------------------------------------------------------ instrumenting
    def instrument(self, game):
        """Wrap the game's rules so that each notes, the first time it runs, that it ran. Returns the game."""
        rs = game.ruleset
        names = rule_names(rs)
        hits: dict[tuple[str, str], frozenset] = {}
        for kind, decl, _ in rule_texts(rs):
            readings = {names[("reading", c["reading"])] for _, c in citations(decl)
                        if ("reading", c.get("reading")) in names}
            hits[(kind, decl.id)] = frozenset({names[(kind, decl.id)]} | readings)
        self.loaded.add(rs.id + "".join(f"+{v}" for v in game.variants))
        self._seen[game] = (hits, set())
        self._instrument_codes(game)
        self._instrument_functions(game)
        self._instrument_flow(game, hits)
        self._instrument_scoring(game, hits.get(("scoring", "scoring"), frozenset()))
        for method in ("compile_expression", "compile_program"):  # scenarios compile more rules later
            self._after(game, method)
        return game

    def _after(self, game, method: str) -> None:
        original = getattr(game, method)

        def compiled(*args, **kwargs):
            result = original(*args, **kwargs)
            self._instrument_codes(game)
            self._instrument_functions(game)
            return result
        setattr(game, method, compiled)

    def _instrument_codes(self, game) -> None:
        hits, done = self._seen[game]
        for code_id, program in list(game.codes.items()):
            rule = _rule_of_code(code_id)
            if rule is None or rule not in hits or ("code", code_id) in done:
                continue
            done.add(("code", code_id))
            game.codes[code_id] = self._noting_program(game.codes, program, hits[rule])

    def _noting_program(self, codes: dict, program, names: frozenset):
        """The program, noting the first time it runs that its rules ran."""
        ran = self.ran

        def noted(st, fr, steps, limit):
            ran.update(names)
            codes[program.id] = program
            return program.run(st, fr, steps, limit)
        return dataclasses.replace(program, run=noted)

    def _instrument_functions(self, game) -> None:
        hits, done = self._seen[game]
        namespace = game.compiler.namespace
        inlined = game.compiler.functions.inlined  # functions compiled into another's body run with it
        for fname, fid in _generated_functions(game).items():
            if ("fn", fname) in done or fname not in namespace or ("function", fid) not in hits:
                continue
            done.add(("fn", fname))
            names = hits[("function", fid)].union(*(hits.get(("function", f), ()) for f in inlined.get(fname, ())))
            namespace[fname] = self._noting(namespace, fname, namespace[fname], names)

    def _noting(self, namespace: dict, fname: str, original, names: frozenset):
        ran = self.ran

        def noted(*args):
            ran.update(names)
            namespace[fname] = original
            return original(*args)
        return noted

    def _instrument_flow(self, game, hits: dict) -> None:
        enter = game.flow.enter
        ran = self.ran

        def noted_enter(st, phase_id):
            ran.update(hits.get(("phase", phase_id), ()))
            return enter(st, phase_id)
        game.flow.enter = noted_enter

    def _instrument_scoring(self, game, names: frozenset) -> None:
        score = game.score_fn
        if score is None or not names:
            return
        ran = self.ran

        def noted(st, env):
            ran.update(names)
            game.score_fn = score
            return score(st, env)
        game.score_fn = noted

    # ------------------------------------------------------------------ reporting
    def missing(self, expected: set[str]) -> list[str]:
        return sorted(expected - self.ran)

    def summary(self, expected: set[str]) -> list[str]:
        """One line per ruleset: how many of its rules ran."""
        by_ruleset: dict[str, list[int]] = {}
        for name in expected:
            counts = by_ruleset.setdefault(name.split(":")[0], [0, 0])
            counts[0] += name in self.ran
            counts[1] += 1
        return [f"{r}: {ran}/{total} rules ran ({100 * ran / total:.0f} %)"
                for r, (ran, total) in sorted(by_ruleset.items())]


def _generated_functions(game) -> dict[str, str]:
    """Name in the compiler's namespace → id of the user function it computes (`F<n>_<function id>`)."""
    cache = getattr(game.compiler, "function_cache", None)
    if isinstance(cache, dict):
        found = {}
        for key, value in cache.items():
            if isinstance(key, tuple) and key and isinstance(value, tuple) and len(value) == 2:
                found[value[1]] = key[0]
        if found:
            return found
    ids = {f.id for f in game.ruleset.functions}
    found = {}
    for name in list(game.compiler.namespace):
        m = re.match(r"^F\d+_(\w+)$", name)
        if m and m.group(1) in ids:
            found[name] = m.group(1)
    return found
