"""No dead definitions in the package (issue 38, the suite): every function and class of
interpreter/leges is named somewhere in the package (or benchmarks/) besides its own `def` — not
only by the tests. Compiler.define_function and files.is_regular were called by nobody, and
Board.adjacent and lab.simulate.random_playout only by tests, until 26e0cfe removed them.

A name counts as used wherever it occurs as a word (code, a comment, the grammar, the page's
script): the check finds what nobody mentions, not every unreachable line. Definitions reached by
their name being built at run time, or called by another program, are listed below with why.
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from helpers import ROOT

PACKAGE = ROOT / "interpreter" / "leges"
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DISPATCHED = re.compile(r"_[se]_[A-Z]|visit_|test")  # the compilers' _e_Node/_s_Node, tree visitors
CALLED_FROM_OUTSIDE = {
    # called by OpenSpiel (pyspiel's Python game and observer protocols)
    "observation_tensor_shape": "pyspiel", "information_state_tensor_shape": "pyspiel",
    "observation_tensor_size": "pyspiel", "information_state_tensor_size": "pyspiel",
    "make_py_observer": "pyspiel", "_action_to_string": "pyspiel", "set_from": "pyspiel's observer",
    "string_from": "pyspiel's observer",
    # called by PettingZoo (the AEC and Parallel environments' protocol)
    "observation_space": "PettingZoo", "action_space": "PettingZoo",
    # the conformance harness's line kinds, run by getattr(self, "_" + kind)
    "_copies": "conformance", "_look_ahead": "conformance", "_search": "conformance", "_saved": "conformance",
    # kept for programs and the tests that check them (documented API, or test support by its doc)
    "Background": "the app served in a thread, for tests (web/server.py)",
    "required_keys": "the keys every saved state has (state_data)",
    "watch_actions": "a record's behaviour tally, for games played elsewhere (lab/behaviour.py)",
    "expected_rules": "the rules a coverage run must reach (authoring/rule_coverage.py)",
    "heading_places": "the rulebook citation check (authoring/rulebook_coverage.py)",
    "within_section": "the rulebook citation check", "sections_of_quote": "the rulebook citation check",
}
TEXT = {".py", ".lark", ".js", ".html", ".css", ".json", ".yaml", ".toml"}


def unmentioned(package: Path, elsewhere: list[Path]) -> list[str]:
    """`file:line: name` of each def or class of `package` whose name no file mentions but its own def."""
    words: Counter = Counter()
    for path in [p for p in package.rglob("*") if p.suffix in TEXT and p.is_file()] + elsewhere:
        words.update(WORD.findall(path.read_text(encoding="utf-8", errors="replace")))
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            name = node.name
            if name.startswith("__") or node.decorator_list or DISPATCHED.match(name) or name in CALLED_FROM_OUTSIDE:
                continue
            if words[name] <= 1:
                found.append(f"{path.relative_to(package.parent)}:{node.lineno}: {name}")
    return found


def _elsewhere(root: Path) -> list[Path]:
    return [*(root / "benchmarks").rglob("*.py"), root / "pyproject.toml"]


def test_every_definition_is_named_outside_its_def():
    found = unmentioned(PACKAGE, _elsewhere(ROOT))
    assert not found, ("defined, and named nowhere else in the package (only tests call it, or nobody):\n"
                       + "\n".join(found) + "\nremove it, or say in tests/test_dead_code.py who calls it")


def test_the_check_finds_a_definition_nobody_names(tmp_path):
    package = tmp_path / "leges"
    package.mkdir()
    (package / "a.py").write_text("def used():\n    return 1\n\ndef unused():\n    return used()\n\n"
                                  "class K:\n    def adjacent(self):\n        pass\n", encoding="utf-8")
    assert unmentioned(package, []) == ["leges/a.py:4: unused", "leges/a.py:7: K", "leges/a.py:8: adjacent"]
