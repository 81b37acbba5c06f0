"""The pass binding a read an expression repeats (lang/optimise/common_reads.py): what it binds, where
it must not (a branch that may not run, a comprehension's list, a lambda), and unchanged values."""
from __future__ import annotations

import ast

import pytest

from leges.lang.optimise.common_reads import bind_common_reads


def both(source: str) -> tuple[dict, dict, str]:
    plain: dict = {"K": [{"a", "b"}]}
    exec(compile(source, "<plain>", "exec"), plain)
    tree = bind_common_reads(ast.parse(source))
    bound: dict = {"K": [{"a", "b"}]}
    exec(compile(tree, "<bound>", "exec"), bound)
    return plain, bound, ast.unparse(tree)


TOP = "def f(z, s, owner, me):\n    return bool(z[s] and owner[z[s][-1] if z[s] else None] == me)\n"


@pytest.mark.parametrize("zones,me", [({"a": [1]}, 0), ({"a": [2]}, 0), ({"a": []}, 0), ({"a": [2, 1]}, 0)])
def test_a_zone_read_thrice_is_read_once_and_its_known_items_need_no_test(zones, me):
    plain, bound, text = both(TOP)
    assert "(_r0 := z[s]) and owner[_r0[-1]] == me" in text  # bound first; `and` knows _r0 has items
    owner = {1: 0, 2: 1}
    assert plain["f"](zones, "a", owner, me) == bound["f"](zones, "a", owner, me)


def test_a_read_first_made_in_a_branch_is_not_bound():
    """`z[s]` first read in the `and`'s right side: it may not run, so nothing is bound there."""
    source = "def f(z, s, c):\n    return c and z[s] + z[s]\n"
    _, bound, text = both(source)
    assert ":=" not in text and bound["f"]({}, "a", False) is False  # (bound ahead, z[s] would fail)


def test_a_comprehension_body_is_an_expression_of_its_own_and_its_lists_bind_nothing():
    source = ("def f(where, cs, spaces):\n"
              "    return [where[c] if where[c] in spaces else None for c in cs if (where[c] if where[c] in spaces else None) != None]\n")
    plain, bound, text = both(source)
    assert text.count(":=") == 2  # one in the item, one in the condition: each its own expression
    where = {1: "a", 2: "hand", 3: "b"}
    assert plain["f"](where, [1, 2, 3], {"a", "b"}) == bound["f"](where, [1, 2, 3], {"a", "b"}) == ["a", "b"]
    listed = "def g(z, s):\n    return [x for x in z[s] if x in z[s]]\n"
    _, bound, text = both(listed)
    assert ":=" not in text.split(" for ")[1].split(" if ")[0]  # never in a comprehension's list
    assert bound["g"]({"a": [1, 2]}, "a") == [1, 2]


def test_a_lambda_is_left_alone():
    source = "def f(z, s):\n    g = lambda: z[s] + z[s]\n    return g()\n"
    _, bound, text = both(source)
    assert ":=" not in text and bound["f"]({"a": 2}, "a") == 4
