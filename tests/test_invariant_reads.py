"""The pass binding invariant reads to locals (lang/optimise/invariant_reads.py): what it binds, what it
must leave alone, that values and the lines of the generated source do not change."""
from __future__ import annotations

import ast
import random
import traceback
from types import SimpleNamespace

import leges
from leges.lang.codegen import runtime
from leges.lang.optimise.invariant_reads import bind_invariant_reads

from conftest import BUNDLED as RULESETS


def both(source: str) -> tuple[dict, dict, str]:
    """The namespaces of `source` compiled as written and through the pass, and the pass's source."""
    plain: dict = {"H": runtime}
    exec(compile(source, "<plain>", "exec"), plain)
    tree = bind_invariant_reads(ast.parse(source))
    bound: dict = {"H": runtime}
    exec(compile(tree, "<bound>", "exec"), bound)
    return plain, bound, ast.unparse(tree)


def state(**zones) -> SimpleNamespace:
    return SimpleNamespace(zones=zones, setup=SimpleNamespace(cowner={1: 0, 2: 1, 3: 0}), vars={"v": 4})


LOOP = """
def f(st, env):
    n = 0
    for s in ['a', 'b', 'c']:
        if len(st.zones[s]) > 0 and st.setup.cowner[H.top(st.zones[s])] == env.get('me'):
            n += 1
    return n
"""


def test_reads_in_a_loop_are_bound_once_and_values_kept():
    plain, bound, text = both(LOOP)
    assert "_st_zones = st.zones" in text and "_st_setup_cowner = st.setup.cowner" in text
    assert "_env_me = env.get('me')" in text and "H.top" not in text  # top inlined
    assert text.count("st.zones") == 1  # the binding alone
    for zones in ({"a": [1], "b": [2], "c": [3, 1]}, {"a": [], "b": [], "c": []}, {"a": [2, 3], "b": [1], "c": [2]}):
        for me in (0, 1, None):
            assert plain["f"](state(**zones), {"me": me}) == bound["f"](state(**zones), {"me": me})


def test_a_read_made_once_outside_loops_is_left():
    _, _, text = both("def f(st, env):\n    return st.vars['v'] + len(env.get('me') or [])\n")
    assert "_st_" not in text and "_env_" not in text


def test_env_written_or_handed_on_is_not_bound():
    """Bound ahead, `env.get('a')` would keep its value from before the write: 1 + 1 instead of 1 + 2."""
    writes = "def f(st, env):\n    x = env.get('a')\n    env['a'] = 2\n    return x + env.get('a')\n"
    plain, bound, text = both(writes)
    assert "_env_" not in text and bound["f"](None, {"a": 1}) == plain["f"](None, {"a": 1}) == 3
    handed = ("def g(env):\n    env['a'] = 2\n"
              "def f(st, env):\n    x = env.get('a')\n    g(env)\n    return x + env.get('a')\n")
    plain, bound, text = both(handed)
    assert "_env_" not in text and bound["f"](None, {"a": 1}) == 3
    popped = "def f(st, env):\n    x = env.get('a')\n    env.pop('a')\n    return x + (env.get('a') or 0)\n"
    _, bound, text = both(popped)
    assert "_env_" not in text and bound["f"](None, {"a": 1}) == 1


def test_a_function_rebinding_st_is_left():
    source = "def f(st, env):\n    a = st.vars['v']\n    st = env\n    return a + st.vars['v']\n"
    _, bound, text = both(source)
    assert "_st_" not in text
    assert bound["f"](state(), SimpleNamespace(vars={"v": 1})) == 5


def test_lines_keep_their_numbers():
    """Where a rule failed is read from the line of the generated source in the traceback."""
    source = "def f(st, env):\n    n = 0\n    for s in 'ab':\n        n += st.zones[s][0]\n    return n\n"
    _, bound, _ = both(source)
    try:
        bound["f"](state(a=[1], b=[]), {})
    except IndexError as exc:
        assert traceback.extract_tb(exc.__traceback__)[-1].lineno == 4
    else:
        raise AssertionError("expected an IndexError")


def test_bundled_games_play_the_same_with_and_without_the_pass():
    """The optimised build (with the pass) against the reference build (without it) over seeded random games."""
    for name, players in (("tictactoe", 2), ("pompeii", 3)):
        fast = leges.load(RULESETS / name)
        plain = leges.load(RULESETS / name, optimise=False)
        for seed in range(3):
            a = fast.new_initial_state(players=players, seed=seed)
            b = plain.new_initial_state(players=players, seed=seed)
            rng = random.Random(seed)
            while not a.terminal:
                assert a.pending.texts() == b.pending.texts()
                i = rng.randrange(len(a.pending))
                a.apply_option(i)
                b.apply_option(i)
            assert b.terminal and a.returns() == b.returns() and a.history == b.history


def test_a_zones_truth_is_tested_without_len_where_only_truth_counts():
    source = ("def f(st, env):\n    n = 0\n    for s in 'abc':\n        if len(st.zones[s]) > 0 and not len(st.zones[s]) == 0:\n"
              "            n += 1\n    return [n, len(st.zones['a']) > 0, -(len(st.zones['b']) != 0)]\n")
    plain, bound, text = both(source)
    assert "if _st_zones[s] and (not not _st_zones[s]):" in text  # tests: the list's truth
    assert "len(_st_zones['a']) > 0" in text and "len(_st_zones['b']) != 0" in text  # values: kept as booleans
    for zones in ({"a": [1], "b": [], "c": [2]}, {"a": [], "b": [3], "c": []}):
        assert plain["f"](state(**zones), {}) == bound["f"](state(**zones), {})
    assert bound["f"](state(a=[1], b=[], c=[]), {}) == [1, True, 0]


def test_a_pass_switched_off_is_not_run_and_the_cache_key_says_so(monkeypatch):
    """python_passes.OFF switches a pass off (to measure it, or to find which one a difference
    comes from); the compiled code's cache key names the passes that ran."""
    from leges.lang.optimise import python_passes
    assert "invariant_reads" in python_passes.python_passes.cache_key
    assert "_st_zones" in ast.unparse(python_passes.python_passes(ast.parse(LOOP)))
    monkeypatch.setattr(python_passes, "OFF", {"invariant_reads"})
    assert "invariant_reads" not in python_passes.python_passes.cache_key
    assert "_st_zones" not in ast.unparse(python_passes.python_passes(ast.parse(LOOP)))
