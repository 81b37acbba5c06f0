"""A value one expression asks for twice, computed once (lang/optimise/shared.py): the same values,
failures and games as the reference build, with the function called once."""
from __future__ import annotations

import textwrap

import pytest

import leges
from helpers import counting_calls, expr

GAME = """\
    leges: 1
    id: t
    title: t
    rulebooks: [{id: r, file: r}]
    players: {min: 2, max: 2}
    variables:
      - {id: xs, type: list of int, initial: [1, 2, 3, 4, 5]}
      - {id: zero, initial: 0}
    functions:
      - id: table
        description: loops, hence memoised
        params: []
        body: 'map(xs, x => x * x)'
      - id: at
        params: [i]
        body: 'if i < count(xs) then table()[i] else none'
      - id: cost
        description: asks at(i) in its condition and again in a branch
        params: [i]
        body: 'if at(i) == none then none else at(i) + 1'
      - id: ratio
        params: [n]
        body: 10 / n
      - id: near
        params: [n]
        body: 'n > 0 and n < 4'
    phases:
      - {id: p, source: {book: r, section: s}}
    """


def _load(tmp_path, optimise: bool = True):
    folder = tmp_path / "t"
    folder.mkdir(exist_ok=True)
    (folder / "ruleset.yaml").write_text(textwrap.dedent(GAME))
    return leges.load(str(folder), optimise=optimise)


@pytest.fixture
def both(tmp_path):
    return _load(tmp_path), _load(tmp_path, optimise=False)


EXPRESSIONS = [
    "cost(2)", "cost(7)", "map(range(8), i => cost(i))",
    "[i for i in range(8) if at(i) != none and at(i) > 4]",
    "[i for i in range(8) if at(i) == none or at(i) > 4]",
    "sum(range(8), i => if cost(i) == none then 0 else cost(i) * 2)",
    # the inner i is the function's own: never taken for the outer one
    "if at(1) == 1 then map(range(3), i => at(i)) else []",
    "if at(1) == 1 then [at(i) for i in range(3)] else []",
    "if at(1) == 1 then (let i = 2 in at(i)) else 0",
    # inside a comprehension whose items share nothing with it
    "[x for x in xs if x > (if at(1) == none then 0 else at(1))]",
    "[x for x in xs if near(if at(0) == 1 then at(0) else x)]",
    "not (at(2) == 9) and at(2) > 0",
]


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_values_are_the_reference_builds(both, text):
    fast, plain = both
    a, b = fast.new_initial_state(players=2, seed=0), plain.new_initial_state(players=2, seed=0)
    assert expr(fast, a, text) == expr(plain, b, text)


def test_a_value_asked_in_the_condition_and_a_branch_is_computed_once(both):
    fast, plain = both
    st = fast.new_initial_state(players=2, seed=0)
    expr(fast, st, "cost(0)")  # compiled
    calls = counting_calls(fast, "at")
    assert expr(fast, st, "cost(2)") == 10
    assert calls == [(2,)]  # asked by the condition and the `else`: once
    calls.clear()
    assert expr(fast, st, "[i for i in range(8) if at(i) != none and at(i) > 4]") == [2, 3, 4]
    assert calls == [(i,) for i in range(8)]  # once an item, the `and` reading what its left side took
    st = plain.new_initial_state(players=2, seed=0)
    expr(plain, st, "cost(0)")
    calls = counting_calls(plain, "at")
    expr(plain, st, "cost(2)")
    assert calls == [(2,), (2,)]  # the reference build asks twice


def test_a_rule_that_fails_fails_at_the_same_place(both):
    fast, plain = both
    failures = []
    for game in both:
        st = game.new_initial_state(players=2, seed=0)
        with pytest.raises(Exception) as caught:
            expr(game, st, "if ratio(zero) > 1 then ratio(zero) else 0")
        failures.append(str(caught.value))
    assert failures[0] == failures[1]


def test_nothing_but_what_is_evaluated_first_is_taken_ahead(both):
    """`at(9) == none or ratio(zero) ...`: ratio(zero), behind `or`, never runs; had it been
    taken ahead because the branch asks it too, the rule would fail."""
    fast, _ = both
    st = fast.new_initial_state(players=2, seed=0)
    assert expr(fast, st, "if at(9) == none or ratio(zero) > 1 then 1 else ratio(zero)") == 1
    assert expr(fast, st, "if zero != 0 and ratio(zero) > 0 then ratio(zero) else 0") == 0
