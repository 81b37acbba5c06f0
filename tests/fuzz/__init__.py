"""A fuzzing harness for Leges: mutated bundled rulesets through `leges validate` and `leges simulate`.

`python -m tests.fuzz --cases 10000` runs a campaign; tests/test_fuzz.py runs a bounded sample
(LEGES_FUZZ_CASES cases, 24 by default) with every test run. tools.py fuzzes the tools that copy,
run or cache what a ruleset brings (`leges mutate`, `--dask`, the disk cache):
`python -m tests.fuzz.tools --cases 200`, sampled by tests/test_fuzz_tools.py.
"""
