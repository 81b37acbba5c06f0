"""Shared fixtures: the bundled games, loaded once per test session; rule-execution coverage.

Every game of a bundled ruleset built while the tests run is instrumented
(leges/authoring/rule_coverage.py): the rules that ran are noted, and tests/test_rule_coverage.py — run
last — fails when a rule of a bundled game never ran in the whole suite. Under pytest-xdist (the
README's `-n auto`) each worker runs some of the files: each hands what ran to the controller, which
judges them all at the session's end and fails the session if a rule never ran (`pytest_sessionfinish`).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import leges
from leges.authoring.rule_coverage import Recorder

from helpers import ROOT, ruleset_dir

RECORDER = Recorder()


@pytest.fixture
def serving():
    """`serving(path, **create_app's options)`: the page's server on a free port of 127.0.0.1, in a
    thread of the test, told to stop after it (needs Starlette and uvicorn: the web tests skip without).
    uvicorn takes a fifth of a second to stop (a tick of its loop, then a grace for connections):
    it does so in its own thread while the next test runs, and is waited for at the session's end."""
    from leges.web.server import Background, create_app
    started = []

    def start(path, **kw):
        server = Background(create_app(str(path), **kw))
        started.append(server)
        return server
    yield start
    for server in started:
        server.server.should_exit = True
    STOPPING.extend(started)


STOPPING: list = []  # servers told to stop, each stopped (joined, its socket closed) at the session's end


def pytest_sessionfinish(session):
    for server in STOPPING:
        server.stop()
    STOPPING.clear()
    config = session.config
    if hasattr(config, "workeroutput"):  # a worker of pytest-xdist: what ran here goes to the controller
        config.workeroutput["rule_coverage"] = {"ran": sorted(RECORDER.ran), "whole": whole_suite(session)}
    elif config.rule_coverage["workers"]:  # the controller: judged on what every worker ran
        if all(w["whole"] for w in config.rule_coverage["workers"]):
            for worker in config.rule_coverage["workers"]:
                RECORDER.ran.update(worker["ran"])
            missing = judge_rule_coverage(config)
            if missing:
                config.rule_coverage["missing"] = missing
                session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's controller: a worker's records of the rules that ran (each worker runs
    some of the test files: only all of them together are the whole suite)."""
    record = getattr(node, "workeroutput", {}).get("rule_coverage") if error is None else None
    node.config.rule_coverage["workers"].append(record or {"ran": [], "whole": False})  # a worker lost: no judgement


def judge_rule_coverage(config) -> list[str]:
    """The rules of the bundled games (and their variants) that no test ran; the summary kept for the report."""
    from leges.authoring.rule_coverage import expected_rules
    expected = set().union(*(expected_rules(str(ROOT / "rulesets" / g)) for g in COVERED_GAMES))
    config.rule_coverage["summary"] = RECORDER.summary(expected)
    return RECORDER.missing(expected)


COVERED_GAMES = ("pompeii", "attika", "alexander", "tictactoe")


BUNDLED = (ROOT / "rulesets").resolve()
COVERAGE_TESTS = "test_rule_coverage.py"


def _instrumenting(build_game):
    def build(rs, board, errors, optimise=True):
        game = build_game(rs, board, errors, optimise)
        if not errors.errors and Path(rs.root).resolve().parent == BUNDLED:
            RECORDER.instrument(game)
        return game
    build.instrumenting = True
    return build


def pytest_configure(config):
    import leges.engine.builder as build
    if not getattr(build.build_game, "instrumenting", False):
        build.build_game = _instrumenting(build.build_game)
    config.rule_coverage = {"summary": None, "workers": [], "missing": []}


def pytest_deselected(items):
    DESELECTED[0] += len(items)


DESELECTED = [0]  # tests left out by -k, -m or --deselect: then the suite is not whole


SLOW = "LEGES_SLOW"  # set (LEGES_SLOW=1): the tests marked `slow` run too


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """The coverage check runs last (it judges only a run of the whole suite). Tests marked `slow`
    (checks of breadth: many games, seeds, players; a sample of each stays unmarked) are skipped
    unless LEGES_SLOW is set — skipped, not deselected, so that the default run is still the whole
    suite the coverage check judges, and every rule must run outside the slow tests."""
    last = [i for i in items if i.path.name == COVERAGE_TESTS]
    items[:] = [i for i in items if i.path.name != COVERAGE_TESTS] + last
    if not os.environ.get(SLOW):
        skip = pytest.mark.skip(reason=f"slow: run with {SLOW}=1 (and -m slow for these alone)")
        for item in items:
            if item.get_closest_marker("slow") is not None:
                item.add_marker(skip)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before each test, Python's cyclic garbage collector collects what the tests before it left
    and sets what is still alive aside (gc.freeze): never scanned again. The suite keeps much alive
    (games loaded for a session or a module, their compiled rules, parsed YAML: over two million
    objects by the end), and every automatic full collection scanned all of it — a second or more
    each, about a fifth of the suite's time — and each fork of this process (`leges mutate`'s test
    runs, worker pools) copied every page such a scan touched. A collection now scans what the
    running test made; nothing any test checks depends on when garbage is collected."""
    import gc
    gc.collect()
    gc.freeze()


def whole_suite(session) -> bool:
    """Every test file collected, no test left out."""
    every = {p.name for p in (ROOT / "tests").glob("test_*.py")}
    return not DESELECTED[0] and {i.path.name for i in session.items} >= every


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = config.rule_coverage.get("summary")
    if lines:
        terminalreporter.write_sep("-", "rule-execution coverage of the bundled games")
        for line in lines:
            terminalreporter.write_line(line)
    missing = config.rule_coverage["missing"]
    if missing:  # judged by pytest-xdist's controller (a single process fails the test itself)
        terminalreporter.write_sep("=", "FAILED: rules that no test ran", red=True)
        for name in missing:
            terminalreporter.write_line("  " + name)


@pytest.fixture(scope="session")
def pompeii():
    return leges.load(str(ruleset_dir("pompeii")))


@pytest.fixture(scope="session")
def tictactoe():
    return leges.load(str(ruleset_dir("tictactoe")))
