"""benchmarks/bytecodes.py is an exact instrument: the same play-outs count the same bytecodes, by
the functions that ran them (the generated ones by their file names), whatever the machine's load."""
from __future__ import annotations

import importlib.util

from helpers import ROOT


def test_two_runs_count_the_same_bytecodes_by_function():
    spec = importlib.util.spec_from_file_location("bytecodes", ROOT / "benchmarks" / "bytecodes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    first = module.counted(ROOT, "tictactoe", 2, 3)
    second = module.counted(ROOT, "tictactoe", 2, 3)
    assert first == second and first[0] > 0
    counts = first[1]
    assert any(key.startswith("<options:place>") for key in counts)  # a generated function, named
    assert any(key.endswith(":apply_option") for key in counts)  # the engine's entry point
    assert not any("random.py" in key for key in counts)  # the choosing is not counted, only the engine's work
