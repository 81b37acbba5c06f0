"""A bounded sample of the fuzzing campaign (tests/fuzz/): mutated bundled rulesets through
`leges validate` and a short `leges simulate` end with status 0, or 2 and a located message —
never a traceback, never past the time and memory caps.

The sample is drawn from a fixed seed, so every run checks the same cases; LEGES_FUZZ_CASES
sets how many (24 by default; 200 more of another seed with LEGES_SLOW=1), LEGES_FUZZ_SEED
another seed. The full campaign:
`python -m tests.fuzz --cases 10000`.
"""
from __future__ import annotations

import os

import pytest

from fuzz.runner import fuzz, report


@pytest.mark.parametrize("count, seed", [(None, None), pytest.param(200, 20241, marks=pytest.mark.slow)],
                         ids=["sample", "breadth"])
def test_a_sample_of_mutated_rulesets(tmp_path, count, seed):
    """24 cases by default; a larger sample of another seed is a check of breadth (LEGES_SLOW=1)."""
    count = count or int(os.environ.get("LEGES_FUZZ_CASES", "24"))
    seed = seed or int(os.environ.get("LEGES_FUZZ_SEED", "20240"))
    summary = fuzz(count, tmp_path, tmp_path / "findings", seed=seed)
    assert summary.cases == count
    # a load past its promised processor seconds is the campaign's to find (python -m tests.fuzz), not
    # the suite's: no test depends on how busy the machine is
    summary.findings = [f for f in summary.findings if f.kind != "slow"]
    assert not summary.findings, report(summary, 0)


def test_the_judge_tells_located_messages_from_the_rest(tmp_path):
    from fuzz.mutate import Case
    from fuzz.runner import Runner
    judge = Runner(tmp_path).judge
    case = Case("tictactoe", {})
    ok = {"status": 2, "out": "", "err": "rulesets/t/ruleset.yaml:3:7: error: bad\n", "seconds": 0.1}
    assert judge(case, ["validate", "x"], ok) is None
    assert judge(case, ["validate", "x"], {**ok, "status": 0, "err": "", "seconds": 5.0, "cpu": 5.0}) is None
    for answer, kind in [({**ok, "err": "error: bad\n"}, "unlocated"),
                         ({**ok, "status": 70, "err": "leges: internal error: KeyError"}, "internal"),
                         ({**ok, "err": 'Traceback (most recent call last):\n  File "x"'}, "traceback"),
                         ({**ok, "status": 0, "err": "", "seconds": 3.0}, "slow"),
                         ({**ok, "err": "r.yaml:5:7: error: rule failed: MemoryError"}, "memory"),
                         ("time cap", "time cap")]:
        assert judge(case, ["load", "x"], answer).kind == kind


def test_the_campaign_command(tmp_path, capsys):
    from fuzz.__main__ import main
    assert main(["--cases", "3", "--seed", "1", "--rulesets", "tictactoe", "--out", str(tmp_path)]) == 0
    assert "3 cases" in capsys.readouterr().out


def test_a_sample_of_hostile_requests_to_the_server(tmp_path):
    """tests/fuzz/server.py: no request runs planted Python, gets a 500 or a refusal that is not a JSON error."""
    pytest.importorskip("starlette")
    from fuzz.server import campaign
    found = campaign(int(os.environ.get("LEGES_FUZZ_REQUESTS", "150")), None, tmp_path, max_seconds=None)  # speed: the campaign's
    assert found.cases > 0 and not found.found, "\n".join(found.found[:20])


def test_a_sample_of_strict_cases_is_refused_where_each_is_written(tmp_path):
    """tests/fuzz/mutate.py's strict cases (issue 35, item 6): a plain value of a file validate reads
    replaced by an explicit YAML tag, a number too long or past 2^53 - 1, a non-finite float; each is
    refused at its place (LEGES_FUZZ_STRICT sets how many, 8 by default)."""
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from fuzz.mutate import cases
    from fuzz.runner import Runner
    runner = Runner(tmp_path)
    drawn: list = []

    @seed(int(os.environ.get("LEGES_FUZZ_SEED", "20240")))
    @settings(max_examples=int(os.environ.get("LEGES_FUZZ_STRICT", "8")), deadline=None, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=cases(("tictactoe", "pompeii"), strict=True))
    def one(case):
        drawn.append(case.refuse_at)
        runner.run(case)
    try:
        one()
    finally:
        runner.close()
    assert drawn and all(drawn)
    found = [f for f in runner.summary.findings if f.kind != "slow"]
    assert not found, "\n".join(f.format() for f in found)


def test_the_judge_finds_a_strict_input_accepted_or_refused_elsewhere(tmp_path):
    from fuzz.mutate import Case
    from fuzz.runner import Runner
    judge = Runner(tmp_path).judge
    case = Case("tictactoe", {}, refuse_at="rulesets/tictactoe/ruleset.yaml:3:8")
    at = {"status": 2, "out": "", "err": "rulesets/tictactoe/ruleset.yaml:3:8: error: YAML tag '!!str' is not allowed\n",
          "seconds": 0.1}
    assert judge(case, ["validate", "x"], at) is None
    assert judge(case, ["validate", "x"], {**at, "status": 0, "err": ""}).kind == "accepted"
    assert judge(case, ["validate", "x"], {**at, "err": "rulesets/tictactoe/ruleset.yaml:9:1: error: x\n"}).kind == "misplaced"
