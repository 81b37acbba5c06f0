"""Benchmark tools as instruments: benchmarks/bytecodes.py is exact (the same play-outs count the
same bytecodes, by the functions that ran them, whatever the machine's load); study_cost.py
extrapolates a study from the pairs it played."""
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


def test_a_memoised_function_s_reuse_is_its_wrapper_s_calls_less_its_body_s():
    import collections
    spec = importlib.util.spec_from_file_location("bytecodes", ROOT / "benchmarks" / "bytecodes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    calls = collections.Counter({"<f>:F3_f": 10, "<f>:F3_f_body": 4, "<g>:F4_g": 5, "<h>:L1_any": 9})
    counts = collections.Counter({"<f>:F3_f": 200, "<g>:F4_g": 50})
    assert module.memo_reuse(calls, counts) == [("<f>:F3_f", 10, 4, 200)]  # (F4_g has no body: not memoised)


def test_the_study_cost_is_extrapolated_from_the_pairs_played(capsys, monkeypatch):
    """benchmarks/study_cost.py: a fixed fraction of a 300-pair `leges compare`, its CPU a pair (less
    the command's start) times 300 over the cores, said as hours. (The command's runs are stood in
    for: a real one takes seconds a game; `python benchmarks/study_cost.py` makes them.)"""
    spec = importlib.util.spec_from_file_location("study_cost", ROOT / "benchmarks" / "study_cost.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    runs = []

    def run(name, players, pairs, agents, seed, b):
        runs.append((name, pairs, agents))
        return (2.0, 2.5) if agents == "random" else (2.0 + 36.0 * pairs, 99.0)
    monkeypatch.setattr(module, "_run", run)
    monkeypatch.setattr("sys.argv", ["study_cost.py", "--games", "pompeii", "--pairs", "4", "--cores", "3", "--json"])
    module.main()
    import json
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert runs == [("pompeii", 1, "random"), ("pompeii", 4, "mcts")]  # the start, then the study's pairs
    assert row["cpu_per_pair"] == 36.0 and row["study_hours"] == 1.0  # 36 s x 300 pairs / 3 cores = 1 h


def test_the_counted_search_runs_the_iterations_it_names():
    """instructions.py --search runs its child under valgrind; here without it: a search of the
    iterations named, from the position named, says so (and none at all for the run it subtracts)."""
    import subprocess
    import sys
    spec = importlib.util.spec_from_file_location("instructions", ROOT / "benchmarks" / "instructions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for iterations in ("5", "0"):
        done = subprocess.run([sys.executable, "-c", module.SEARCH, str(ROOT), "tictactoe", "2", iterations, "2"],
                              capture_output=True, text=True, check=True)
        assert done.stdout.split() == ["actions", iterations]
