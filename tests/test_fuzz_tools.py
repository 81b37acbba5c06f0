"""A bounded sample of the fuzz cases of the tools (tests/fuzz/tools.py): strangers' mods through `leges
mutate`, `--dask` and the cache — no planted Python runs, no copy leaves the ruleset's folder, no planted
cache entry changes what is said, every refusal is located.

Two cases a tool from a fixed seed, one of the cache (`QUICK`; four each with LEGES_SLOW=1; a local
Dask cluster is left to the campaign: it takes seconds to start); LEGES_FUZZ_TOOL_CASES sets how many a
tool, LEGES_FUZZ_SEED another seed. The campaign: `python -m tests.fuzz.tools --cases 200`.
"""
from __future__ import annotations

import os

import pytest

from fuzz.runner import report
from fuzz.tools import SECRET, ToolCase, ToolRunner, fuzz_tools


# Hypothesis draws the simplest case first (for mutate: nothing planted), so mutate and dask keep two.
# A cache case is four runs of `leges` in fresh processes: one by default (a planted pickle), the damages
# themselves are tests/test_cache.py's.
QUICK = {"mutate": 2, "dask": 2, "cache": 1}


@pytest.mark.parametrize("tool, cases", list(QUICK.items())
                         + [pytest.param(tool, 4, marks=pytest.mark.slow) for tool in QUICK])
def test_a_sample_of_strangers_mods(tmp_path, tool, cases):
    count = int(os.environ.get("LEGES_FUZZ_TOOL_CASES", cases))
    seed = int(os.environ.get("LEGES_FUZZ_SEED", "20240"))
    summary = fuzz_tools(count, tmp_path, tmp_path / "findings", seed=seed, tools=(tool,), local_dask=False)
    assert summary.cases == count
    assert not summary.findings, report(summary, 0)


def test_the_judge_of_tool_cases(tmp_path, monkeypatch):
    """Each thing a tool must not do is a finding of its kind; a clean run is none."""
    from fuzz import tools
    behaviour = {}

    def fake(argv, folder, cap):
        calls = behaviour.setdefault("calls", [])
        calls.append(argv)
        out = behaviour.get("out", "{}")
        if behaviour.get("mark"):
            (folder / "marks" / "x").touch()
        if behaviour.get("leave"):
            (folder / "tmp" / "leges-mutate-x").mkdir()
        if behaviour.get("differ") and len(calls) == 4:  # the second simulate
            out = '{"results": "otherwise"}'
        return {"status": behaviour.get("status", 0), "out": out, "err": "", "seconds": 0.1}

    monkeypatch.setattr(tools, "command", fake)
    for case, how, kind in [(ToolCase("mutate"), {}, None),
                            (ToolCase("mutate", python=[f"{tools.RULESET}/conftest.py"]), {"mark": 1}, "ran python"),
                            (ToolCase("mutate", traps=["zero"]), {}, "copied out"),
                            (ToolCase("mutate", traps=["same.yaml"]), {}, None),
                            (ToolCase("dask", address="x", traps=["fifo"]), {}, "copied out"),
                            (ToolCase("mutate"), {"out": SECRET}, "read outside"),
                            (ToolCase("mutate"), {"leave": 1}, "left in TMPDIR"),
                            (ToolCase("cache", plant="pickle"), {"differ": 1}, "planted used"),
                            (ToolCase("mutate"), {"status": 70}, "internal")]:
        behaviour.clear()
        behaviour.update(how)
        found = ToolRunner(tmp_path).run(case)
        assert [f.kind for f in found] == ([kind] if kind else []), (case.mutations, how)
