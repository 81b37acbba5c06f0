"""Leges installed from a built wheel (not `-e`) works on its own: schemas, grammar, the bundled games
and their maps come from the package; a bundled game is named without a path.

Slow (a wheel, a fresh virtual environment and its dependencies: about a minute), so it runs only
when LEGES_WHEEL_TEST=1 — `.ci/run` runs it so after the suite.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from helpers import HOUSE, ROOT

pytestmark = pytest.mark.skipif(not os.environ.get("LEGES_WHEEL_TEST"),
                                reason="slow: .ci/run runs it (LEGES_WHEEL_TEST=1)")

PROJECT_FILES = ["pyproject.toml", "README.md", "interpreter", "rulesets", "maps", "schemas"]


def run(argv, cwd, env=None) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(map(str, argv))} failed:\n{done.stdout}\n{done.stderr}"
    return done


def test_a_wheel_installed_in_a_fresh_environment_works_from_an_empty_folder(tmp_path):
    source = tmp_path / "source"  # the project's own files, copied: building leaves nothing in the checkout
    for name in PROJECT_FILES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "*.pyc"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(ROOT / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path / "dist")], tmp_path)
    wheel = next((tmp_path / "dist").glob("leges-*.whl"))
    run([sys.executable, "-m", "venv", str(tmp_path / "venv")], tmp_path)
    bin_dir = tmp_path / "venv" / "bin"
    run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    env = dict(os.environ, LEGES_CACHE=str(tmp_path / "cache"))
    env.pop("PYTHONPATH", None)
    leges = str(bin_dir / "leges")
    out = run([leges, "validate", "tictactoe", "pompeii"], empty, env).stdout
    assert "tictactoe: ok" in out and "pompeii: ok" in out
    out = run([leges, "simulate", "pompeii", "-g", "2"], empty, env).stdout
    assert "play-outs per second" in out
    out = run([leges, "eval", "tictactoe", "count(spaces)"], empty, env).stdout
    assert out == "9\n"
    # a house rule kept outside site-packages, on the installed copy of a bundled game (issue 38, modders)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "house.yaml").write_text(HOUSE, encoding="utf-8")
    out = run([leges, "diff", "pompeii", "--variant", str(mine / "house.yaml")], empty, env).stdout
    assert "B: pompeii [house_moves]" in out and "~ constants escape_moves: value" in out, out
    out = run([leges, "simulate", "pompeii", "--variant", str(mine / "house.yaml"), "-g", "2"], empty, env).stdout
    assert "play-outs per second" in out
    where = run([str(bin_dir / "python"), "-c", "import leges, leges.text.files as f; print(leges.__file__); "
                 "print(f.bundled('rulesets')); print(f.bundled('schemas'))"], empty, env).stdout.split()
    assert all(str(tmp_path / "venv") in line for line in where), where  # nothing read from the checkout
    installed = run([str(bin_dir / "python"), "-c", "import leges.text.files as f; "
                     "print(sorted(p.name for p in (f.bundled('rulesets') / 'pompeii' / 'variants').iterdir()))"],
                    empty, env).stdout
    assert "house.yaml" not in installed  # the game's own folder was not written to
    assert not list(empty.iterdir())
