"""Loop-invariant code of comprehensions (lang/optimise/hoist.py): computed once per list, and only where
computing it per item would have computed it too."""
from __future__ import annotations

import random
import textwrap

import pytest

import leges
from helpers import counting_calls, expr, same_as_the_reference_build
from leges.lang.codegen import payments

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
      - id: base
        description: loops, hence memoised
        params: [n]
        body: sum([x for x in xs if x <= n])
      - id: over
        description: plain, small, binds nothing — inlined into a comprehension
        params: [limit, x]
        body: x > base(limit)
      - id: ratio
        params: [n]
        body: 10 / n
      - id: pays
        params: [pool, x]
        body: payable(pool, [x, x], substitute=2)
      - id: upto
        params: [n]
        body: '[x for x in xs if x <= n]'
      - id: listed
        body: '[x for x in xs + xs if over(2, x)]'
      - id: per_item
        body: '[x for x in xs if over(x, 9)]'
      - id: nested
        body: '[[x for x in xs if over(x, 4)] for x in [1]]'
      - id: let_bound
        body: 'let n = 3 in [x for x in xs if over(n, x)]'
      - id: paid
        body: '[x for x in xs if pays(range(100), x)]'
      - id: paid_more
        description: a cost and what is added to it, checked without joining them
        body: '[x for x in xs if payable([1, 2], [x] + (if x > 2 then [1] else []), substitute=2)]'
    phases:
      - {id: p, source: {book: r, section: s}}
    """


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(textwrap.dedent(GAME))
    return leges.load(str(folder))


def test_a_call_that_does_not_depend_on_the_item_is_computed_once(game):
    st = game.new_initial_state(players=2, seed=0)
    expr(game, st, "count(listed()) + count(per_item())")  # compiled
    st = game.new_initial_state(players=2, seed=0)
    calls = counting_calls(game, "base")
    assert expr(game, st, "listed()") == [4, 5, 4, 5]  # over(2, x) compiled inline: base(2) seen
    assert calls == [(2,)]  # once, where each of the ten items asked it before
    calls.clear()
    assert expr(game, st, "per_item()") == [1, 2, 3]  # base(x) depends on the item
    assert calls == [(1,), (3,), (4,), (5,)]  # each item's own; base(2), cached, looked up in place


def test_nothing_is_hoisted_that_an_item_might_not_have_computed(game):
    st = game.new_initial_state(players=2, seed=0)
    assert expr(game, st, "[x for x in [] if ratio(zero) > x]") == []  # no item: never computed
    with pytest.raises(Exception):
        expr(game, st, "[x for x in xs if ratio(zero) > x]")
    # behind `and`, `or`, `if`, or in a function given to a built-in: computed only when reached
    assert expr(game, st, "[x for x in xs if x > 9 and ratio(zero) > x]") == []
    assert expr(game, st, "[x for x in xs if x < 9 or ratio(zero) > x]") == [1, 2, 3, 4, 5]
    assert expr(game, st, "[x for x in xs if (if x > 9 then ratio(zero) > 0 else true)]") == [1, 2, 3, 4, 5]
    assert expr(game, st, "[x for x in xs if any([], y => ratio(zero) > y)] + [1]") == [1]
    # a cached value is looked up once, behind `and` too: a key that fails there is no value
    assert expr(game, st, "[x for x in xs if x > 9 and base(ratio(zero)) > x]") == []


def test_what_a_built_in_goes_through_may_be_a_function_of_its_own(game):
    """`any(upto(3), ...)` runs as a generated loop: a value taken once for the comprehension
    would not be seen there, so nothing is taken once inside a built-in that loops."""
    st = game.new_initial_state(players=2, seed=0)
    expr(game, st, "upto(3)")
    assert expr(game, st, "[x for x in xs if x > 0 and any(upto(3), y => y == x)]") == [1, 2, 3]
    assert expr(game, st, "[x for x in xs if count(upto(x), y => y > 1) > 0]") == [2, 3, 4, 5]


def test_a_value_cached_already_is_looked_up_once_for_the_list(game):
    st = game.new_initial_state(players=2, seed=0)
    assert expr(game, st, "[x for x in xs if x > 0 and base(3) > x]") == [1, 2, 3, 4, 5]
    calls = counting_calls(game, "base")
    assert expr(game, st, "[x for x in xs if x > 0 and base(3) > x]") == [1, 2, 3, 4, 5]
    assert calls == []  # base(3) was cached: taken before the first item, not asked by each
    st.vars["xs"] = [1, 2]
    st.changed(game.var_ids["xs"])
    assert expr(game, st, "[x for x in xs if x > 0 and base(3) > x]") == [1, 2]
    assert calls == [(3,), (3,)]  # forgotten: each item asks (the first computes it)


def test_a_name_the_comprehension_binds_is_never_taken_for_an_outer_one(game):
    st = game.new_initial_state(players=2, seed=0)
    # the inner x shadows the outer: over(x, 4) depends on the inner one
    assert expr(game, st, "nested()") == [[1, 2]]
    assert expr(game, st, "let_bound()") == []


def test_payable_from_one_pool_answers_as_payable_does():
    rng = random.Random(5)
    kinds = ["a", "b", "c", "any"]
    for _ in range(300):
        pool = [rng.choice(kinds[:3]) for _ in range(rng.randrange(7))]
        check = payments.payable_from(pool, "any", 2)
        for _ in range(5):
            need = [rng.choice(kinds) for _ in range(rng.randrange(5))]
            answer = payments.payable(UNBOUNDED, pool, need, "any", 2)
            assert check(UNBOUNDED, need) == answer
            cut = rng.randrange(len(need) + 1)  # a cost and what is added to it
            assert check.joined(UNBOUNDED, need[:cut], need[cut:]) == answer


def test_a_cost_and_what_is_added_to_it_are_charged_and_bounded_as_joined(game):
    from leges.lang.codegen.runtime import MAX_ITEMS, LimitExceeded, concat
    st = game.new_initial_state(players=2, seed=0)
    check = payments.payable_from(["a"], None, 0)
    for first, then in (([1] * 40, [2] * 40), ([1] * 70, []), ([1] * 30, [2] * 30), ([1], [2])):
        spent = []
        for run in (lambda: check(st, concat(st, first, then)), lambda: check.joined(st, first, then)):
            st.game.work = 10**9
            run()
            spent.append(10**9 - st.game.work)
        assert spent[0] == spent[1]
    with pytest.raises(LimitExceeded):
        check.joined(st, [1] * MAX_ITEMS, [2])


def test_a_comprehension_checks_a_cost_and_its_addition_unjoined(game, tmp_path, monkeypatch):
    asked = []
    prepared = payments.payable_from

    def spied(*args):
        check = prepared(*args)
        joined = check.joined
        check.joined = lambda st, first, then: asked.append((first, then)) or joined(st, first, then)
        return check
    monkeypatch.setattr(payments, "payable_from", spied)
    plain = leges.load(str(tmp_path / "t"), optimise=False)
    st = game.new_initial_state(players=2, seed=0)
    assert expr(game, st, "paid_more()") == expr(plain, plain.new_initial_state(players=2, seed=0), "paid_more()") == [1, 2]
    assert asked == [([1], []), ([2], []), ([3], [1]), ([4], [1]), ([5], [1])]


def test_the_answers_kept_by_value_stay_bounded():
    """A mod asking payable() of ever new pools and needs must not grow memory without end."""
    pool = ["a"] * 3
    for n in range(payments._PAYABLE_NEEDS + 10):
        payments.payable(UNBOUNDED, pool, [f"k{n}"], None, 0)
    assert 0 < len(payments._answers(tuple(pool), None, 0, None)) <= payments._PAYABLE_NEEDS
    check = payments.payable_from(["b"], None, 0)
    for n in range(payments._PAYABLE_NEEDS + 10):
        check(UNBOUNDED, [f"k{n}"])
    assert len(payments._answers(("b",), None, 0, None)) <= payments._PAYABLE_NEEDS
    for n in range(payments._PAYABLE_POOLS + 10):
        payments.payable(UNBOUNDED, [f"p{n}"], [], None, 0)
    assert len(payments._PAYABLE) <= payments._PAYABLE_POOLS


def test_a_hoisted_pool_is_still_charged_for_long_lists(game):
    st = game.new_initial_state(players=2, seed=0)
    st.game.work = 10**9
    before = st.game.work
    expr(game, st, "paid()")
    assert before - st.game.work >= 5 * 100  # each item's payable went through the long pool


def test_a_function_compiled_inline_counts_as_run_when_its_caller_runs(tmp_path):
    from leges.authoring.rule_coverage import Recorder
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(textwrap.dedent(GAME))
    recorder = Recorder()
    game = recorder.instrument(leges.load(str(folder)))
    expr(game, game.new_initial_state(players=2, seed=0), "listed()")
    assert "over" in game.compiler.functions.inlined[next(f for f in game.compiler.functions.inlined if f.endswith("_listed"))]
    assert {"t:function:listed", "t:function:over", "t:function:base"} <= recorder.ran


class _Unbounded:
    class game:
        work = 10**12
        max_work = 10**12


UNBOUNDED = _Unbounded()


@pytest.mark.parametrize("ruleset, players", [("alexander", 3), ("attika", 2), ("pompeii", 3)])
def test_every_bundled_heuristic_evaluates_along_a_game(ruleset, players):
    """A function given to a built-in inside a comprehension becomes a function of its own: nothing
    computed once for the comprehension may be used there (Alexander's heuristic does this)."""
    from helpers import ROOT, play_random
    game = leges.load(str(ROOT / "rulesets" / ruleset))
    seen = []

    def evaluate(st):
        seen.append(st.heuristic())
        return len(st.history) >= 40
    play_random(game, players, seed=1, until=evaluate)
    assert len(seen) >= 40 and all(len(values) == players for values in seen)


def test_a_key_that_cannot_be_computed_fails_only_where_an_item_computes_it():
    """`built_around(p, s)` is filed by hex: a comprehension over hexes looks it up in place, its
    key (the owner of a building in an empty zone: none has none) taken once if it can be."""
    from helpers import ROOT
    attika = leges.load(str(ROOT / "rulesets" / "attika"))
    st = attika.new_initial_state(players=2, seed=0)
    owner_of_nothing = "top(revealing(first(players))).owner"
    assert expr(attika, st, f"[s for s in free_hexes() if count(s) > 0 and built_around({owner_of_nothing}, s) == []]") == []
    with pytest.raises(Exception):
        expr(attika, st, f"[s for s in free_hexes() if count(s) == 0 and built_around({owner_of_nothing}, s) == []]")
    mine = "first(players)"
    assert expr(attika, st, f"[s for s in free_hexes() if count(s) == 0 and built_around({mine}, s) == []]") == \
        expr(attika, st, "free_hexes()")


def test_spaces_filtered_by_a_property_go_through_only_those_that_may_hold_it():
    """`[s for s in spaces if s.P != none ...]` goes through the spaces the map gives P and those a
    rule set it on (runtime.spaces_with): the same spaces in the board's order, a property set to
    none or set far off included, and the same work charged."""
    game = leges.load("attika")
    plain = leges.load("attika", optimise=False)
    rng = random.Random(3)
    st = game.new_initial_state(players=2, seed=3)
    for _ in range(40):
        st.apply_option(rng.randrange(len(st.pending)))
    spaces = list(game.board.spaces)
    first_map_hex = expr(game, st, "[s for s in spaces if s.land != none]")[0]
    st.set_space_prop(first_map_hex, "land", None)  # a hex taken off the map again
    st.set_space_prop(spaces[0], "land", "olive")  # and one far off, first in the board's order
    want = [s for s in spaces
            if (land := st.sprops.get(s, {}).get("land", game.board.props[s].get("land"))) is not None and land != "blank"]
    assert same_as_the_reference_build(game, plain, st, '[s for s in spaces if s.land != none and s.land != "blank"]') == want
    assert want[0] == spaces[0] and first_map_hex not in want
    assert same_as_the_reference_build(game, plain, st, '[s for s in spaces if s.land == "olive"]')[0] == spaces[0]
    assert "spaces_with" in _names(game, "map_hexes")  # (else this test tests nothing)


def test_spaces_filtered_by_a_fixed_property_or_area_go_through_only_those_it_keeps():
    """A property no rule sets, or an area, decides the spaces to go through when the module compiles
    (runtime.spaces_among): truthy, not none, equal to a literal; in the board's order."""
    game = leges.load("pompeii")
    plain = leges.load("pompeii", optimise=False)
    st = game.new_initial_state(players=3, seed=1)
    board = game.board
    assert same_as_the_reference_build(game, plain, st, "[s for s in spaces if s.gate]") == \
        [s for s in board.spaces if board.props[s]["gate"]]
    assert same_as_the_reference_build(game, plain, st, "[s for s in spaces if s.building != none and s.circles > 1]") == \
        [s for s in board.spaces if board.area_of["building"].get(s) is not None and board.props[s]["circles"] > 1]
    assert same_as_the_reference_build(game, plain, st, '[s for s in spaces if s.vent == "vase" or s.gate]') == \
        [s for s in board.spaces if board.props[s]["vent"] == "vase" or board.props[s]["gate"]]  # (an `or`: all spaces)
    assert same_as_the_reference_build(game, plain, st, '[s.row for s in spaces if "mask" == s.vent]') == \
        [board.props[s]["row"] for s in board.spaces if board.props[s]["vent"] == "mask"]
    assert "spaces_among" in _names(game, "open_gates")


def _names(game, function: str) -> set[str]:
    """The names a user function's generated body uses (its comprehensions' too)."""
    ns = game.compiler.namespace
    code = ns[next(k for k in ns if k.startswith("F") and k.endswith("_" + function + "_body"))].__code__
    names: set[str] = set()
    todo = [code]
    while todo:
        code = todo.pop()
        names.update(code.co_names)
        todo += [c for c in code.co_consts if hasattr(c, "co_names")]
    return names
