"""The pass charging first-evaluated lists in place (lang/optimise/charges_in_place.py): what it
rewrites, what it must leave to `H.each`, and that values, charges and failing lines stay the same."""
from __future__ import annotations

import ast
import traceback
from types import SimpleNamespace

import pytest

from leges.lang.codegen import runtime
from leges.lang.optimise import python_passes
from leges.lang.optimise.charges_in_place import charge_in_place


class Meter:
    def __init__(self, game):
        self.game = game
        self.refills = 0

    def refill(self):
        self.refills += 1
        self.game.work += 100


def state(work: int = 1000) -> SimpleNamespace:
    game = SimpleNamespace(work=work)
    game.meter = Meter(game)
    return SimpleNamespace(game=game, zones={"a": [1, 2, 3], "b": [4]})


def both(source: str) -> tuple[dict, dict, str]:
    plain: dict = {"H": runtime, "K": [[7, 8]]}
    exec(compile(source, "<plain>", "exec"), plain)
    tree = charge_in_place(ast.parse(source))
    charged: dict = {"H": runtime, "K": [[7, 8]]}
    exec(compile(tree, "<charged>", "exec"), charged)
    return plain, charged, ast.unparse(tree)


NESTED = """
def f(st, s):
    return H.unique(st, H.each(st, [c * 2 for c in H.each(st, st.zones[s]) if c > 1]))
"""


@pytest.mark.parametrize("work", [1000, 3])
def test_nested_first_lists_are_charged_in_place_with_the_same_value_and_work(work):
    plain, charged, text = both(NESTED)
    assert "H.each" not in text and text.index("_each0 = st.zones[s]") < text.index("_each1 = [")
    a, b = state(work), state(work)
    assert plain["f"](a, "a") == charged["f"](b, "a") == [4, 6]
    assert (a.game.work, a.game.meter.refills) == (b.game.work, b.game.meter.refills)  # 3 then 2 items charged


def test_a_list_charged_in_a_branch_or_a_comprehensions_body_is_left_to_each():
    source = ("def f(st, s):\n    x = st.zones[s][0] if s else [c for c in H.each(st, st.zones['b'])]\n"
              "    return [[d for d in H.each(st, st.zones[t])] for t in 'ab']\n")
    _, _, text = both(source)
    assert text.count("H.each(st,") == 2


def test_what_is_evaluated_before_the_list_stops_the_rewrite():
    """`g(st.zones[s][5], H.each(...))`: the index fails first, before anything is charged."""
    source = "def f(st, s):\n    return g(st.zones[s][5], [c for c in H.each(st, st.zones['a'])])\n"
    _, _, text = both(source)
    assert "H.each" in text


def test_the_charge_keeps_the_failing_line():
    source = "def f(st, s):\n    n = 1\n    return [c for c in H.each(st, st.zones[s])]\n"
    _, charged, _ = both(source)
    try:
        charged["f"](state(), "nowhere")
    except KeyError as exc:
        assert traceback.extract_tb(exc.__traceback__)[-1].lineno == 3
    else:
        raise AssertionError("expected a KeyError")


def test_a_pass_switched_off_is_not_run_and_names_the_cache_key(monkeypatch):
    assert "charges_in_place" in python_passes.python_passes.cache_key
    monkeypatch.setattr(python_passes, "OFF", {"charges_in_place"})
    assert "charges_in_place" not in python_passes.python_passes.cache_key
    text = ast.unparse(python_passes.python_passes(ast.parse(NESTED)))
    assert "H.each" in text
