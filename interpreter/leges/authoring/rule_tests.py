"""Which rule tests `leges mutate` runs against a mutant, and how: Python runs only when it is Leges' own or asked for.

A ruleset may come from a stranger, and so may the Python beside it (a `tests/` folder, a
`conftest.py`, a `pytest.ini` loading a plugin). By default only Leges' own `tests/test_<id>.py`
of a bundled ruleset runs; test files named on the command line run because they were named; the
tests found beside any other ruleset run only with `--run-ruleset-python`. pytest's root and the
highest folder it takes a conftest.py from are the project's folder, so the copied ruleset's
Python is never collected. The tests find the mutant in the environment variable LEGES_RULESETS.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from ..text import files

ENV = "LEGES_RULESETS"


def first_failure(output: str) -> str:
    """What pytest says failed first: the line naming the test, or its last words."""
    for line in output.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return line.split(" - ")[0]
    lines = [line for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else "the tests failed"


# pytest stops at the first failure; plugins the tests do not need are not loaded
PYTEST_ARGS = ["-x", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-o", "addopts="]


def run_pytest(tests: list[str], project: str, rulesets: Path, out: Path, timeout: float) -> tuple[int | None, str]:
    """Run pytest on the tests with LEGES_RULESETS set: (its exit status or None on timeout, its output).

    pytest's root and the highest folder it takes a conftest.py from are the project's folder: never
    the copied ruleset's, nor a folder above. Where the system can fork, the tests run in a child of
    this (already warmed up) process, which saves starting Python and importing Leges and pytest for
    every mutant; elsewhere in a new process."""
    args = [*PYTEST_ARGS, f"--rootdir={project}", f"--confcutdir={project}", *tests]
    if not hasattr(os, "fork"):
        env = dict(os.environ, **{ENV: str(rulesets)}, PYTHONDONTWRITEBYTECODE="1")
        try:
            run = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=project, env=env,
                                 capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, ""
        return run.returncode, run.stdout + run.stderr
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: run the tests, exit with their status
        code = 3
        try:
            os.setsid()
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.environ[ENV] = str(rulesets)
            os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
            os.chdir(project)
            sys.path.insert(0, project)
            folders = {str(Path(t).resolve().parent) + os.sep for t in tests}
            clashing = {Path(t).stem for t in tests} | {"conftest"}  # names pytest imports the tests by
            for name, module in list(sys.modules.items()):  # the tests' own modules are read afresh
                where = getattr(module, "__file__", None) or ""
                if name in clashing or any(where.startswith(f) for f in folders):
                    del sys.modules[name]
            import pytest
            code = int(pytest.main(args))
        except BaseException:  # the child must never return into the caller
            code = 3
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, 9)
            except OSError:
                pass
            os.waitpid(pid, 0)
            return None, ""
        time.sleep(0.05)
    text = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""
    return os.waitstatus_to_exitcode(status), text


def leges_tests(folder: Path, ruleset_id: str) -> tuple[list[str], Path] | None:
    """Leges' own `tests/test_<id>.py` and its project folder, for a ruleset bundled with Leges: the project's
    own Python, the one kind of Python `leges mutate` runs unasked."""
    bundled = files.bundled("rulesets")
    if bundled is None or Path(os.path.realpath(folder)).parent != Path(os.path.realpath(bundled)):
        return None
    project = Path(os.path.realpath(bundled)).parent
    candidate = project / "tests" / f"test_{ruleset_id}.py"
    return ([str(candidate)], project) if candidate.is_file() else None


def ruleset_tests(folder: Path, ruleset_id: str) -> tuple[list[str], Path] | None:
    """`tests/test_<id>.py` of the nearest folder above the ruleset's (or the folder itself) that has one, and
    that folder: Python that came with the ruleset, which may be a stranger's — run only when asked."""
    for up in [folder, *folder.parents]:
        candidate = up / "tests" / f"test_{ruleset_id}.py"
        if candidate.is_file():
            return [str(candidate)], up
    return None


def tests_project(tests: list[str]) -> Path:
    """Where pytest runs for test files named on the command line: the folder holding their `tests/`."""
    common = Path(os.path.commonpath([Path(t).parent for t in tests]))
    return common.parent if common.name == "tests" else common
