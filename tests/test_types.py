"""mypy on the package (issue #25): the count of its errors may only go down.

Runs `mypy --ignore-missing-imports interpreter/leges` in a subprocess (its own process: its imports
stay out of this one; its cache is kept between runs, `_cache` below) and fails when it reports more errors than MAX_ERRORS, or any
"has no attribute" error on State or Game. Lower MAX_ERRORS when a change removes errors.
Skipped when mypy is not installed (it is in the `test` extra).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[1]
MAX_ERRORS = 6  # the count after issue #25; only ever lowered


def _cache() -> Path:
    """mypy's incremental cache, kept between runs (a cold run is most of this test's time; mypy checks
    each module's source against its cache entry, so a changed module is checked again): a folder of
    this user's own in the temporary directory, one per checkout."""
    import hashlib
    key = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    cache = Path(tempfile.gettempdir()) / f"leges-mypy-{os.getuid()}-{key}"
    cache.mkdir(mode=0o700, exist_ok=True)
    if cache.is_symlink() or cache.stat().st_uid != os.getuid() or cache.stat().st_mode & 0o022:
        return Path(tempfile.mkdtemp(prefix="leges-mypy-"))  # not ours alone: a cold cache instead
    return cache


def _mypy() -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"))
    done = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-error-summary",
                           "--cache-dir", str(_cache()), "interpreter/leges"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode not in (0, 1):  # 2: mypy itself failed (a crash, a bad option), not the code
        pytest.fail(f"mypy did not run: {done.stderr or done.stdout}")
    return [line for line in done.stdout.splitlines() if re.search(r": error: ", line)]


def test_mypy_errors_do_not_grow():
    errors = _mypy()
    on_state_or_game = [e for e in errors if "has no attribute" in e
                        and re.search(r'"(State|StateAPI|StateData|Game)"|of "(State|Game)', e)]
    assert not on_state_or_game, "mypy: attributes State or Game do not declare:\n" + "\n".join(on_state_or_game)
    assert len(errors) <= MAX_ERRORS, (f"mypy reports {len(errors)} errors, more than {MAX_ERRORS}:\n"
                                       + "\n".join(errors))
