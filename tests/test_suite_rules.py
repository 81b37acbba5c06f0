"""The suite stays honest on a loaded machine (issue 38, the suite).

- No test judges speed by the clock: an assertion on an elapsed time (`time.monotonic() - start < 2`)
  failed under load, so tests count work instead (items, bytes, decisions; a clock that ticks per
  reading where a budget of seconds is the subject). This check finds the 15 such limits that
  stood in test_board, test_bounds and test_safety before (4c85955^), and none in today's tests.
- Checks of breadth carry the `slow` marker: registered, and skipped unless LEGES_SLOW is set —
  skipped, not deselected, so that the default run is still the whole suite.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import conftest
from helpers import ROOT

CLOCKS = {"monotonic", "perf_counter", "process_time", "time", "monotonic_ns", "perf_counter_ns",
          "process_time_ns", "time_ns"}


def _reads_a_clock(node: ast.AST) -> bool:
    """`time.monotonic()`, `perf_counter()` and the like (a call to one of the clocks, by either name)."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr in CLOCKS and isinstance(f.value, ast.Name) and f.value.id == "time"
    return isinstance(f, ast.Name) and f.id in CLOCKS - {"time"}


def elapsed_time_limits(folder: Path) -> list[str]:
    """Every assertion in the Python files under `folder` that compares an elapsed time — a clock
    reading minus another value — with something: `assert time.process_time() - start < 5`. (A
    deadline a loop waits for, `time.monotonic() < deadline`, bounds a wait and is not one.)"""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assert):
                continue
            for part in ast.walk(node.test):
                if isinstance(part, ast.Compare) and any(
                        isinstance(side, ast.BinOp) and isinstance(side.op, ast.Sub) and _reads_a_clock(side.left)
                        for side in [part.left, *part.comparators]):
                    found.append(f"{path.relative_to(folder.parent)}:{node.lineno}: {ast.unparse(part)}")
    return found


def test_no_test_asserts_an_elapsed_time():
    found = elapsed_time_limits(ROOT / "tests")
    assert not found, "tests that judge speed by the clock (count work instead):\n" + "\n".join(found)


def test_the_check_finds_a_limit_on_elapsed_time(tmp_path):
    """It is not vacuous: the limits of before (seconds of CPU or of the clock) are found, a wait's
    deadline is not."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_x.py").write_text(
        "import time\nfrom time import perf_counter\n"
        "def test_a():\n    start = time.process_time()\n    assert time.process_time() - start < 5 and True\n"
        "def test_b():\n    s = perf_counter()\n    assert 2 > perf_counter() - s, 'too slow'\n"
        "def test_c(deadline):\n    assert time.monotonic() < deadline\n", encoding="utf-8")
    assert [f.split(":")[1] for f in elapsed_time_limits(tests)] == ["5", "8"]


class _Item:
    def __init__(self, name: str, slow: bool):
        self.path, self.slow, self.markers = Path(name), slow, []

    def get_closest_marker(self, name):
        return object() if name == "slow" and self.slow else None

    def add_marker(self, marker):
        self.markers.append(marker)


@pytest.mark.parametrize("asked", [False, True])
def test_slow_tests_are_skipped_unless_asked(monkeypatch, asked):
    monkeypatch.delenv(conftest.SLOW, raising=False)
    if asked:
        monkeypatch.setenv(conftest.SLOW, "1")
    items = [_Item("test_a.py", slow=True), _Item("test_b.py", slow=False)]
    kept = list(items)
    conftest.pytest_collection_modifyitems(None, None, items)
    assert items == kept  # skipped, never deselected: the default run is still the whole suite
    skipped = [[m.mark.kwargs.get("reason", "") for m in i.markers if m.mark.name == "skip"] for i in items]
    assert skipped == ([[], []] if asked else [["slow: run with LEGES_SLOW=1 (and -m slow for these alone)"], []])


def test_the_slow_marker_is_registered_and_used():
    import tomllib
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("slow:") for m in markers)
    used = [p.name for p in (ROOT / "tests").glob("test_*.py") if "pytest.mark.slow" in p.read_text(encoding="utf-8")]
    assert len(used) >= 3, used
