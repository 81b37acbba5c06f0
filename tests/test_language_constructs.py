"""The constructs of issue 12's first part: nested comprehensions, `let ... in`, tuples, tables, predicates
on first/last/index_of, payments and payable, components made by `each`, rows of zones sized by the
player count, variables of the turn or the phase, `act ... until pass` and `drop out`.

docs/language.md shows each with examples the tests run (test_docs_examples.py); these tests look at
what the examples do not: the corners, the errors, saved states, and that the compiled code is plain.
"""
from __future__ import annotations

import json
import logging
import textwrap

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import leges
from helpers import ROOT, expr, play_random
from leges.text.errors import LegesError
from leges.lang.codegen import payments, runtime
from leges.lang.optimise import memo
from leges.lang.syntax.parser import parse_expression, parse_program
from leges.text.origin import TextOrigin
from leges.lang.syntax.unparse import expression as unparse_expression, program as unparse_program

ORIGIN = TextOrigin("<test>", 1, 1)
SAMPLE = ROOT / "docs" / "examples" / "sample"


@pytest.fixture(scope="module")
def sample():
    return leges.load(str(SAMPLE))


def value(game, text: str, players: int = 2):
    return expr(game, game.new_initial_state(players=players, seed=0), text)


def error_of(game, text: str) -> str:
    with pytest.raises(LegesError) as err:
        value(game, text)
    d = err.value.diagnostics[0]
    return f"{d.message} | {d.hint}"


def write(tmp_path, text: str, name: str = "game"):
    folder = tmp_path / name
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(textwrap.dedent(text))
    return folder


# ------------------------------------------------------------------ the grammar
def test_the_grammar_has_no_conflicts():
    """LALR conflicts are resolved silently by Lark (shift wins): a new construct must add none, or
    some text would parse as something else than it says (`let x = a in b` as `let x = (a in b)`)."""
    from lark import Lark, logger
    from leges.lang.syntax.grammar import RuleIndenter, grammar_text
    messages = []

    class Catch(logging.Handler):
        def emit(self, record):
            messages.append(record.getMessage())
    handler, level = Catch(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        Lark(grammar_text(), parser="lalr", postlex=RuleIndenter(),
             start=["program", "expression"], debug=True)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert not [m for m in messages if "conflict" in m.lower()], messages


@pytest.mark.parametrize("text", [
    "[a + b for a in xs for b in ys if a < b]",
    "[a for a, b in pairs if b]",
    "let n = count(deck), h = n / 2 in h + n",
    "let held = (c in deck) in not held",
    "let a = if b then 1 else 2 in a",
    "(1, x, \"a\")[0]",
    "f(let a = 1, b = 2 in a, 3)",
    "first(xs, x => x > 1) + index_of(xs, x => x > 2)",
    "[y for y in (let z = [1] in z)]",
])
def test_new_expressions_written_back_parse_to_the_same_tree(text):
    tree = parse_expression(text, ORIGIN)
    assert parse_expression(unparse_expression(tree), ORIGIN) == tree


def test_new_statements_written_back_parse_to_the_same_tree():
    text = "for a, b in pairs:\n  pass\ndrop out\ndrop out p\nact a, b(n=1) by p until pass at least 1 at most n + 1\n"
    tree = parse_program(text, ORIGIN)
    assert parse_program(unparse_program(tree) + "\n", ORIGIN) == tree
    assert "until pass at least 1 at most n + 1" in unparse_program(tree)


def test_a_let_value_ends_at_in():
    tree = parse_expression("let x = 1 in x in xs", ORIGIN)
    assert tree.bindings[0].value.value == 1 and tree.body.op == "in"


# ------------------------------------------------------------------ expressions
def test_let_names_are_local_and_inner_ones_hide_outer_ones(sample):
    assert value(sample, "let a = 1 in let b = a + 1 in (let a = 10 in a) + b + a") == 13
    assert value(sample, "[let d = n * 2 in d + 1 for n in [1, 2]] == [3, 5]")
    assert value(sample, "let k = 2 in count([1, 2, 3], x => x > k)") == 1  # a loop function is given k


def test_a_let_may_stand_where_python_takes_a_comprehension_s_items(sample):
    """Python refuses an assignment expression there (even inside a lambda): those items are computed
    by a generated function of their own."""
    assert value(sample, "[y for y in let z = [1, 2] in z]") == [1, 2]
    assert value(sample, "[a + b for a in [1, 2] for b in let c = a * 10 in [c, c + 1]]") == [11, 12, 22, 23]
    assert value(sample, "filter(let z = [1, 2] in z, x => x > 1)") == [2]
    assert value(sample, "table(let ps = players in ps, p => 1)") == [1, 1]


def test_let_refuses_a_game_name_and_a_name_bound_twice(sample):
    assert "already a game variable" in error_of(sample, "let score = 1 in score")
    assert "bound twice" in error_of(sample, "let a = 1, a = 2 in a")


def test_nested_comprehensions_nest_like_loops(sample):
    assert value(sample, "[(a, b) for a in [1, 2] for b in [1, 2] if a != b]") == [[1, 2], [2, 1]]
    # an earlier clause's name is seen by the later ones, and the condition of each clause filters there
    assert value(sample, "[b for a in [[1, 2], [3]] if count(a) > 1 for b in a]") == [1, 2]


def test_a_nested_for_was_a_syntax_error_and_now_works(sample):
    """The issue: `unexpected 'for'`, with the hint that a bracket was not closed."""
    assert value(sample, "count([s for r in [0, 1] for s in spaces if s.row == r])") == 6


def test_unpacking_needs_tuples_of_as_many(sample):
    assert "only tuples unpack" in error_of(sample, "[a for a, b in [1, 2]]")
    assert "cannot unpack (int, int) into 3 names" in error_of(sample, "[a for a, b, c in [(1, 2)]]")
    assert "given twice" in error_of(sample, "[a for a, a in [(1, 2)]]")


def test_tuples_are_lists_at_run_time_and_typed_by_item(sample):
    assert value(sample, "(x, 3)") == [0, 3]
    assert value(sample, "(x, 3)[0] == o") is False
    assert "comparing player with int" in error_of(sample, "(x, 3)[0] == 3")
    assert "no item 2" in error_of(sample, "(x, 3)[2]")
    assert value(sample, 'text((x, r0c0, "a"))') == "(x,r0c0,a)"


def test_tables_by_player_are_lists_by_seat(sample):
    assert value(sample, "table(players, p => p.seat + 1)") == [1, 2]
    assert value(sample, "table([o], p => 5)") == [None, 5]  # a table by player holds every player
    assert value(sample, "[p for p in table([o], p => 5)] == players")
    assert value(sample, 'table(["a"], k => k + "!")["b"]') is None
    assert "a table's keys are" in error_of(sample, "table([1, 2], k => k)")
    assert "indexed by a player, not int" in error_of(sample, "table(players, p => 1)[0]")


def test_predicates_of_first_last_and_index_of_nest_their_loops(sample):
    assert value(sample, "first(spaces, s => any(neighbors(s), n => n.bonus > 0))") == "r0c1"
    assert value(sample, "last(spaces, s => all(neighbors(s), n => n.bonus == 0))") == "r2c2"
    assert value(sample, "index_of(players, p => p == o)") == 1 and value(sample, "index_of([], x => true)") is None
    loop = next(src for src, name in sample.compiler.loops.by_source.items() if name.endswith("_first"))
    assert "    for v_s in " in loop and "for v_n in " in loop and "lambda" not in loop  # nested plain loops


def test_top_of_a_list_points_to_last_and_take(sample):
    message = error_of(sample, "top([1, 2], 1)")
    assert "top() needs a zone, not list of int" in message and "take(xs, n)" in message and "last(xs)" in message


# ------------------------------------------------------------------ payments
WAYS = hs.lists(hs.sampled_from("abcw"), max_size=6)
UNBOUNDED = SimpleNamespace(game=SimpleNamespace(work=10 ** 9, max_work=10 ** 9))  # a state, for its work budget


@settings(max_examples=300, deadline=None)
@given(pool=WAYS, need=hs.lists(hs.sampled_from("abcd*"), max_size=4), rate=hs.integers(0, 3),
       per_kind=hs.booleans(), wild=hs.booleans())
def test_payable_is_whether_payments_finds_a_way(pool, need, rate, per_kind, wild):
    substitute = (lambda k: {"a": rate, "b": 1, "c": 0}.get(k, 2)) if per_kind else rate
    w = "w" if wild else None
    assert payments.payable(UNBOUNDED, pool, need, "*", substitute, w) == bool(payments.payments(UNBOUNDED, pool, need, "*", substitute, w))


def test_payments_with_a_wild_item_and_a_rate_per_kind(sample):
    assert value(sample, 'payments(["w", "a"], ["b"], wild="w")') == [["w"]]
    assert value(sample, 'payments(["a", "a", "a"], ["b", "c"], substitute=k => if k == "b" then 1 else 2)') == [["a", "a", "a"]]
    assert "a number, not str" in error_of(sample, 'payments([1], [1], substitute=k => "two")')


def test_a_rule_that_ran_cards_needed_by_hand_agrees_with_payable():
    """Attika's former affordability test: one card per need, two for a need the hand cannot match."""
    cards_needed = lambda pool, need: len(need) + len(runtime.without(UNBOUNDED, [x for x in need if x != "any"], pool))
    for pool in (["hill"], ["hill", "water", "water"], ["forest"] * 5, []):
        for need in (["hill"], ["water", "water"], ["any"] * 5, ["hill", "mountain", "any"]):
            assert payments.payable(UNBOUNDED, pool, need, "any", 2) == (cards_needed(pool, need) <= len(pool))


# ------------------------------------------------------------------ declarations
def test_each_makes_one_kind_for_every_combination(tmp_path):
    folder = write(tmp_path, """\
        leges: 1
        id: t
        title: t
        rulebooks: [{id: r, file: r}]
        players: {min: 2, max: 3}
        components:
          - id: card
            source: {book: r, section: s}
            start: deck
            label: it.suit + text(it.rank)
            count: 12
            instances:
              - {each: {suit: [a, b], rank: {from: 1, to: 3}}, count: 2}
        zones:
          - {id: deck}
          - {id: row, count: {2: 1, 3: 4}}
        phases:
          - {id: p, source: {book: r, section: s}}
        """)
    game = leges.load(str(folder))
    st = game.new_initial_state(players=2, seed=0)
    assert st.setup.clabel == ["a1", "a1", "a2", "a2", "a3", "a3", "b1", "b1", "b2", "b2", "b3", "b3"]
    assert [k for k in st.zones if k.startswith("row.")] == ["row.0"]
    assert [k for k in game.new_initial_state(players=3, seed=0).zones if k.startswith("row.")] == \
        ["row.0", "row.1", "row.2", "row.3"]


def test_a_row_of_zones_needs_a_count_for_every_player_count(tmp_path):
    folder = write(tmp_path, """\
        leges: 1
        id: t
        title: t
        rulebooks: [{id: r, file: r}]
        players: {min: 2, max: 3}
        zones:
          - {id: row, count: {2: 1}}
        phases:
          - {id: p, source: {book: r, section: s}}
        """)
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    assert "zone 'row' has no count for 3 players" in str(err.value)


def test_too_many_kinds_is_a_located_error(tmp_path):
    folder = write(tmp_path, """\
        leges: 1
        id: t
        title: t
        rulebooks: [{id: r, file: r}]
        players: {min: 2, max: 2}
        components:
          - id: card
            source: {book: r, section: s}
            start: box
            each: {a: {from: 1, to: 1000}, b: {from: 1, to: 1000}}
        zones: [{id: box}]
        phases:
          - {id: p, source: {book: r, section: s}}
        """)
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    d = err.value.diagnostics[0]
    assert "more than 10,000 kinds" in d.message and d.position.line == 10


# ------------------------------------------------------------------ turns: until pass, drop out, scopes
AUCTION = """\
    leges: 1
    id: auction
    title: An auction
    rulebooks: [{id: r, file: r}]
    players: {min: 2, max: 4}
    zones: [{id: box}]
    variables:
      - {id: bid, initial: 0}
      - {id: high, type: player, initial: null}
      - {id: raises, initial: 0, scope: turn}
      - {id: bids, type: "list of (player, int)", initial: [], scope: phase}
      - {id: rounds, initial: 0}
    functions:
      - id: bidders
        params: [p]
        body: '[q for q in in_round if q != p and count([b for b in bids if b[0] == q]) >= 0]'
      - id: rivals
        params: [p]
        body: count([b for b in bids if b[0] != p and b[1] > raises])
    phases:
      - id: bidding
        source: {book: r, section: s}
        order: clockwise
        on_begin: |
          rounds += 1
        turn: |
          act raise, fold until pass at most 2
        end_if: count(in_round) <= 1
        next: again
      - id: again
        source: {book: r, section: s}
        on_begin: |
          if rounds < 3:
            goto bidding
    actions:
      - id: raise
        source: {book: r, section: s}
        params:
          to: '[b for b in range(bid + 1, bid + 3) if count(bidders(me)) + rivals(me) >= 0]'
        effect: |
          bid = to
          high = me
          raises += 1
          bids = bids + [(me, to)]
      - id: fold
        source: {book: r, section: s}
        require: raises == 0 and count(bidders(me)) > 0
        effect: |
          drop out
          end turn
    """


@pytest.fixture(scope="module")
def auction(tmp_path_factory):
    return leges.load(str(write(tmp_path_factory.mktemp("auction"), AUCTION)))


def test_until_pass_offers_again_until_the_player_passes_or_reaches_at_most(auction):
    st = auction.new_initial_state(players=3, seed=0)
    assert [a.text for a in st.legal_actions()] == ["raise to=1", "raise to=2", "fold", "pass"]
    st.apply_action("raise to=1")
    assert [a.text for a in st.legal_actions()] == ["raise to=2", "raise to=3", "pass"]  # raises == 1: no fold
    st.apply_action("raise to=3")  # the second: at most 2
    assert st.player_name(st.current_player()) == "p1" and st.vars["raises"] == 0  # a new turn, a new count


def test_dropped_players_are_passed_by_and_the_last_one_in_ends_the_phase(auction):
    st = auction.new_initial_state(players=3, seed=0)
    st.apply_action("fold")
    assert st.dropped == [0] and st.player_name(st.current_player()) == "p1"
    assert expr(auction, st, "in_round") == [1, 2]
    st.apply_action("pass")
    st.apply_action("pass")
    assert st.player_name(st.current_player()) == "p1"  # p0 is passed by
    st.apply_action("fold")
    assert st.dropped == [] and st.vars["rounds"] == 2 and st.vars["bids"] == []  # a new phase: all in again


def test_a_saved_state_keeps_who_dropped_out_and_the_count_of_actions(auction):
    st = auction.new_initial_state(players=3, seed=0)
    st.apply_action("fold")
    st.apply_action("raise to=2")
    data = json.loads(st.to_json())
    assert data["dropped"] == [0] and data["vars"]["bids"] == [[1, 2]]
    back = auction.state_from_json(st.to_json())
    assert back.dropped == [0] and [a.text for a in back.legal_actions()] == [a.text for a in st.legal_actions()]
    back.apply_action("raise to=3")
    assert back.player_name(back.current_player()) == "p2"  # at most 2: the count survived the JSON
    data["dropped"] = [7]
    with pytest.raises(LegesError) as err:
        auction.state_from_json(json.dumps(data))
    assert "player 7 in a game of 3" in str(err.value)


def test_a_state_saved_before_dropped_existed_loads(auction):
    st = auction.new_initial_state(players=2, seed=0)
    data = json.loads(st.to_json())
    del data["dropped"]
    assert auction.state_from_json(json.dumps(data)).dropped == []


def test_drop_out_and_scope_changes_forget_what_read_them(auction):
    st = auction.new_initial_state(players=3, seed=0)
    names = auction.compiler.memo.names
    reading_turn = [i for i, keys in enumerate(auction.compiler.memo.keys) if memo.TURN in keys]
    reading_raises = [i for i, keys in enumerate(auction.compiler.memo.keys) if memo.var("raises") in keys]
    assert reading_turn and reading_raises, names
    for i in reading_turn + reading_raises:
        st.memo[i] = {"probe": 1}
    st.drop_out(2)
    assert all(st.memo[i] == {} for i in reading_turn)
    for i in reading_raises:
        st.memo[i] = {"probe": 1}
    auction.flow.reset(st, auction.turn_vars)
    assert all(st.memo[i] == {} for i in reading_raises)


def test_no_cached_value_is_stale_in_random_auctions(auction):
    """As test_memoisation does for the bundled games, with drops, turn and phase variables and
    `until pass` (every assignment and reset forgets what reads it)."""
    from test_memoisation import _stale_values
    for seed in range(4):
        checked = 0

        def no_stale_value(st):
            nonlocal checked
            assert _stale_values(auction, st) == []
            checked += 1
            return checked >= 80
        play_random(auction, 3, seed=seed, until=no_stale_value)
        assert checked > 10


@pytest.mark.parametrize("text, message", [
    ("act raise at most 2", "`at least` and `at most` count the actions of `act ... until pass`"),
    ("act raise until pass optional", "offers `pass` already"),
])
def test_misused_act_modifiers_are_located_errors(tmp_path, text, message):
    folder = write(tmp_path, AUCTION.replace("act raise, fold until pass at most 2", text))
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    assert message in err.value.diagnostics[0].message and err.value.diagnostics[0].position.line > 0


def test_drop_out_where_no_player_acts_must_say_who(tmp_path):
    folder = write(tmp_path, AUCTION.replace("rounds += 1", "rounds += 1\n          drop out"))
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    assert "say who drops out with `drop out PLAYER`" in str(err.value)


def test_dropping_out_in_on_begin_passes_the_player_by(tmp_path):
    game = leges.load(str(write(tmp_path, AUCTION.replace("rounds += 1", "rounds += 1\n          drop out players[0]"))))
    st = game.new_initial_state(players=3, seed=0)
    assert st.player_name(st.current_player()) == "p1"


@pytest.mark.parametrize("text, hint", [
    ("count(let n = 1)", "a `let` inside an expression ends with `in`"),
    ("let gone = c not in deck in gone", "write a membership test in parentheses"),
])
def test_a_let_without_its_in_is_told_so(text, hint):
    with pytest.raises(LegesError) as err:
        parse_expression(text, ORIGIN)
    assert hint in err.value.diagnostics[0].hint


def test_a_let_statement_is_not_told_about_in():
    with pytest.raises(LegesError) as err:
        parse_program("let a = 1\nfor x y:\n  pass\n", ORIGIN)
    assert "`let`" not in (err.value.diagnostics[0].hint or "")


ROWS = """  - id: expedition
    per_player: true
    count: {2: 3, 3: 4}
    kind: pile
    source: {book: docs, section: Zones}
"""


def sample_with_rows(tmp_path, extra_components: str = ""):
    import shutil
    shutil.copytree(ROOT / "docs" / "examples" / "sample", tmp_path / "s")
    main_file = tmp_path / "s" / "ruleset.yaml"
    text = main_file.read_text().replace("zones:\n", "zones:\n" + ROWS, 1)
    if extra_components:
        text = text.replace("components:\n", "components:\n" + extra_components, 1)
    main_file.write_text(text)
    return leges.load(str(tmp_path / "s"))


def test_a_row_of_zones_for_each_player(tmp_path):
    game = sample_with_rows(tmp_path, """  - id: flag
    per_player: true
    count: 2
    start: expedition
    source: {book: docs, section: Zones}
""")
    st = game.new_initial_state(players=2, seed=0)
    assert [k for k in st.zones if k.startswith("expedition.")] == [f"expedition.{p}.{i}" for p in "xo" for i in range(3)]
    assert len(st.zones["expedition.o.0"]) == 2 and not st.zones["expedition.o.1"]  # a row's first zone
    value = game.compile_expression("expedition(o, 2).owner == o and text(expedition(x, 1)) == \"expedition.x.1\"")
    assert value(st, {"me": None})
    assert len([k for k in game.new_initial_state(players=3, seed=0).zones if k.startswith("expedition.z.")]) == 4
    with pytest.raises(IndexError, match="each player's row has 3 zones"):
        game.compile_expression("count(expedition(x, 3))")(st, {"me": None})


@pytest.mark.parametrize("text, message", [
    ("count(expedition(x))", "write expedition(p, i)"),
    ("count(expedition)", "write expedition(p, i)"),
    ("count(expedition(1, 1))", "takes a player first"),
    ("count(expedition(x, x))", "takes a number second"),
])
def test_a_row_for_each_player_is_written_with_both(tmp_path, text, message):
    import re
    game = sample_with_rows(tmp_path)
    with pytest.raises(LegesError, match=re.escape(message)):
        game.compile_expression(text)
