"""Memoised functions never give a stale value: what a function reads decides when its values are forgotten.

Every memoised function owns a slot of `state.memo`; a change of the state replaces the slots of
the functions that read what changed (lang/optimise/memo.py). A function that only looks at which spaces
hold components of a type keeps its values while such components move between zones off the
board; any move touching a space forgets them.
"""
from __future__ import annotations

import itertools
import random

import pytest

import leges
from leges.lang.codegen import runtime
from leges.lang.optimise import memo
from helpers import ROOT, expr, play_random


@pytest.fixture(scope="module")
def attika():
    return leges.load(str(ROOT / "rulesets" / "attika"))


SCANNING = {  # Attika's cost rules as first written: each building looks around the hex itself
    "arrow_free": """any(neighbors(s), n => any(n, x => x.type == "building" and x.owner == b.owner
          and (b.after != none and x.name == b.after or b.name == "street" and x.name == "street")))""",
    "founds": """not any(neighbors(s), n => any(n, x => x.type == "building" and x.owner == b.owner))""",
    "need": """(if arrow_free(b, s) then []
       else if b.name == "street" then drop(b.cost, count(discount(s)))
       else without(b.cost, discount(s)))
      + (if founds(b, s) then map(range(settlements(b.owner)), i => "any") else [])""",
}


@pytest.fixture(scope="module")
def attika_scanning(tmp_path_factory):
    """Attika with the cost rules written the first way: the shape of memoisation they gave
    (components keyed by their properties) is tested on them, and the bundled rules must list the
    same options at every decision."""
    import shutil
    import yaml
    folder = tmp_path_factory.mktemp("rulesets") / "attika"
    shutil.copytree(ROOT / "rulesets" / "attika", folder)
    path = folder / "building.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    for fn in doc["functions"]:
        if fn["id"] in SCANNING:
            fn["body"] = SCANNING[fn["id"]]
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return leges.load(str(folder))


def test_the_cost_rules_written_either_way_offer_the_same_options(attika, attika_scanning):
    rng = random.Random(4)
    for seed in range(3):
        st, other = attika.new_initial_state(players=2, seed=seed), attika_scanning.new_initial_state(players=2, seed=seed)
        while not st.is_terminal():
            options = [o.text for o in st.pending.options]
            assert options == [o.text for o in other.pending.options]
            i = rng.randrange(len(options))
            st.apply_option(i), other.apply_option(i)


def _reads(game, name: str) -> frozenset:
    """The read keys of the (first compiled) function `name`."""
    return next(keys for fname, keys in game.compiler.function_reads.items() if fname.split("_", 1)[1] == name)


def test_what_a_function_reads_comes_from_its_syntax_tree(attika):
    assert _reads(attika, "my_spaces") == {memo.on_spaces("building")}  # b.space of the player's buildings
    assert _reads(attika, "map_hexes") == {memo.sprop("land")}  # a property rules change (tiles laid)
    # a typed read of the contents of the function's own hex, and of the hexes around it
    assert _reads(attika, "free_hex") >= {memo.near("building", "s", 0), memo.near("shrine", "s", 0)}
    # and the fixed properties of the building it is given (a resampled world, which trades them
    # among hidden components, forgets its values)
    assert _reads(attika, "arrow_free") == {memo.near("building", "s", 1), memo.static("building")}
    # the hexes a user function gives around a hex (`flower(centre)`: [centre] + ring(centre)) are
    # near it too: a tile's fit looks two hexes around its centre at most, whatever else moves
    assert _reads(attika, "tile_fits") == {memo.near(None, "centre", 1), memo.near_prop("land", "centre", 1),
                                          memo.near_prop("land", "centre", 2), memo.near("shrine", "centre", 2)}
    # written out as they were when they were strings
    assert sorted(map(str, _reads(attika, "tile_fits"))) == ["near:*:centre:1", "near:@land:centre:1",
                                                              "near:@land:centre:2", "near:shrine:centre:2"]


def test_a_component_read_only_for_fixed_properties_is_keyed_by_them(attika_scanning):
    """founds(b, s) reads only whose b is: every building of a player shares its values; need(b, s)
    passes b on to functions that read only fixed properties of it, so it is keyed by all of those."""
    attika = attika_scanning
    slot = _slot(attika, "founds")
    assert attika.compiler.memo.projected[slot] == {"b": ("owner",)}
    assert attika.compiler.memo.projected[_slot(attika, "arrow_free")] == {"b": ("after", "name", "owner")}
    assert attika.compiler.memo.projected[_slot(attika, "need")] == {"b": ("after", "cost", "name", "owner")}
    st = attika.new_initial_state(players=2, seed=0)
    founds = attika.compiler.namespace[attika.compiler.memo.names[slot]]
    first, second = st.zones["board.athens"][-2:]
    founds(st, None, first, "h7_10")
    st.memo[slot]["h7_10"][0] = "served"  # (athens is seat 0)
    assert founds(st, None, second, "h7_10") == "served"


@pytest.mark.parametrize("text, uses", [
    ("b.owner == p and b.name != 'x'", {"owner", "name"}),
    ("any(xs, b => b == 1) and b.owner == 0", {"owner"}),  # the lambda's b is another
    ("[b for b in xs] + [b.cost]", {"cost"}),
    ("let b = 1 in b + 1", set()),
    ("b == c", None), ("f(b)", None), ("b.space != none", None), ("[x for x in b]", None)])
def test_which_properties_of_a_component_a_body_reads(text, uses):
    from leges.lang.codegen.functions import component_uses
    from leges.lang.syntax.parser import parse_expression
    from leges.text.yaml_source import TextOrigin
    assert component_uses(parse_expression(text, TextOrigin("<test>", 1, 1)), "b") == uses


@pytest.mark.parametrize("text, uses", [
    ("f(b) and b.owner == 0", {"cost", "owner"}),  # f reads b.cost of its first parameter
    ("g(1, b)", {"name"}),
    ("g(b, b)", None),  # g compares its first parameter
    ("f(b) == b", None), ("count(b)", None)])  # a built-in may do anything with it
def test_what_a_function_reads_of_a_component_it_passes_on(text, uses):
    from leges.lang.codegen.functions import component_uses
    from leges.lang.syntax.parser import parse_expression
    from leges.text.yaml_source import TextOrigin
    callees = {("f", 0): {"cost"}, ("g", 1): {"name"}, ("g", 0): None}
    through = lambda name, i: callees.get((name, i))  # noqa: E731
    assert component_uses(parse_expression(text, TextOrigin("<test>", 1, 1)), "b", through) == uses


def test_what_a_key_holds_a_resampled_world_does_not_forget(attika):
    """A projected parameter's fixed properties are in the function's key, and those of components
    on board spaces are the same in every world: neither is among what the slot forgets at a
    re-deal (`static:building`), though callers passing any other building still depend on them."""
    keys = attika.compiler.memo.keys
    building = memo.static("building")
    assert building in _reads(attika, "arrow_free") and building in _reads(attika, "base_need")  # (for callers)
    assert attika.compiler.memo.projected[_slot(attika, "base_need")] == {"b": ("after", "cost", "name", "owner")}
    for name in ("base_need", "built_around"):  # built_around: the names of buildings on the map
        assert not any(k.kind == memo.STATIC for k in keys[_slot(attika, name)]), name
    assert building in keys[_slot(attika, "group_done")]  # a player's buildings wherever they are
    # what makes the board's components the same in every world: everyone sees every space (a
    # hidden space would have a re-deal trade what lies on it; resample.py would have to say so)
    setup = attika.setup_for(2)
    assert setup.spaces and not any(s in setup.zone_visibility for s in setup.spaces)


def test_a_move_forgets_near_values_only_around_it(attika):
    st = attika.new_initial_state(players=2, seed=0)
    slot = _slot(attika, "built_around")
    far, near = "h0_0", "h7_11"
    assert near in attika.board.neighbors["h7_10"] and far not in attika.board.within("h7_10", 1)
    assert attika.compiler.memo.by_space[slot] == "s"  # filed by hex: built_around(p, s) is memo[slot][s][p]
    st.memo[slot] = {far: {0: "kept"}, near: {0: "forgotten"}}
    st.place(st.zones["board.athens"][-1], "h7_10", None)
    assert st.memo[slot] == {far: {0: "kept"}}


def _slot(game, name: str) -> int:
    return next(i for i, fname in enumerate(game.compiler.memo.names) if fname.split("_", 1)[1] == name)


def test_a_move_off_the_board_keeps_values_that_only_look_at_the_board(attika):
    st = attika.new_initial_state(players=2, seed=0)
    slot = _slot(attika, "free_hexes")
    st.memo[slot]["probe"] = 1
    building = st.zones["board.athens"][-1]
    st.place(building, "discards", None)  # off the board to off the board
    assert "probe" in st.memo[slot]
    st.place(building, "h7_10", None)  # onto a hex
    assert st.memo[slot] == {}


def test_a_function_reading_a_named_zone_forgets_its_values_only_when_that_zone_changes(attika):
    """kinds(p) reads the hands: a building moving between a player's stacks and board keeps its
    values; a card entering or leaving any hand, or a hand shuffled, forgets them."""
    assert _reads(attika, "kinds") == {memo.zone("hand"), memo.static("card")}  # (and the cards' kinds)
    st = attika.new_initial_state(players=2, seed=0)
    slot = _slot(attika, "kinds")
    st.memo[slot] = {0: "probe"}
    st.place(st.zones["main_stack.athens"][-1], "board.athens", None)
    assert st.memo[slot] == {0: "probe"}
    st.place(st.zones["draw_pile"][-1], "hand.corinth", None)  # another player's hand
    assert st.memo[slot] == {}
    st.memo[slot] = {0: "probe"}
    st.place(st.zones["hand.corinth"][-1], "discards", None)
    assert st.memo[slot] == {}
    st.memo[slot] = {0: "probe"}
    st.stack("discards", "draw_pile", bottom=True)
    assert st.memo[slot] == {0: "probe"}
    st.shuffle_range([0, 0, {}], "k", "hand.athens", 0, len(st.zones["hand.athens"]))
    assert st.memo[slot] == {}


def test_an_assignment_forgets_the_functions_that_read_the_variable():
    pompeii = leges.load(str(ROOT / "rulesets" / "pompeii"))
    st = pompeii.new_initial_state(players=3, seed=0)
    reading = [i for i, keys in enumerate(pompeii.compiler.memo.keys) if memo.var("moves_made") in keys]
    others = [i for i, keys in enumerate(pompeii.compiler.memo.keys) if memo.var("moves_made") not in keys]
    assert reading and others
    for i in reading + others:
        st.memo[i] = {"probe": 1}
    st.changed(pompeii.var_ids["moves_made"])  # (the id of its read key: what an assignment names)
    assert all(st.memo[i] == {} for i in reading) and all(st.memo[i] == {"probe": 1} for i in others)


def test_a_copy_shares_values_until_either_changes(attika):
    st = attika.new_initial_state(players=2, seed=0)
    slot = _slot(attika, "free_hexes")
    copy = st.copy()
    copy.memo[slot]["probe"] = 1
    assert "probe" in st.memo[slot]  # computed in one, valid in both
    copy.place(copy.zones["board.athens"][-1], "h7_10", None)
    assert copy.memo[slot] == {} and "probe" in st.memo[slot]


def _stale_values(game, st, fresh=None) -> list[str]:
    """Every value the state's memo would serve now, compared with the function computed afresh
    (on `fresh`, the same state without cached values: by default read back from its JSON)."""
    fresh = fresh if fresh is not None else game.state_from_json(st.to_json())
    namespace = game.compiler.namespace
    wrong = []
    alike: dict = {}  # the components alike in some fixed properties, found once a state (_arguments)
    for slot, values in enumerate(st.memo):
        fname = game.compiler.memo.names[slot]
        body = namespace[f"{fname}_body"]
        layout = game.compiler.memo.layouts[slot]
        key_of = namespace.get(f"{fname}_key")  # with lists or components in the key: the key of given arguments
        if fname.endswith("_options"):  # an action's choices: keyed by the player and the action's arguments
            for key, value in values.items():
                me, args = (key[0], dict(key[1][1:])) if isinstance(key, tuple) else (key, {})
                if body(fresh, me, args) != value:
                    wrong.append(f"{fname}({me}, {args})")
            continue
        by_space = game.compiler.memo.by_space[slot]
        projected = game.compiler.memo.projected[slot]
        for space, key, value in _filed(values, by_space is not None):
            held = len(layout) - (by_space is not None)  # parts of the key (None: no arguments)
            full = list(key) if held > 1 else [key] if held else []
            if by_space is not None:  # filed by space: put the space back among the key's parts
                full.insert(layout.index(by_space), space)
            me = full.pop(0) if layout[:1] == ("me",) else None
            for args in _arguments(fresh, layout[(me is not None):], full, projected, alike):
                if key_of is not None and key_of(fresh, me, *args) != key:
                    continue  # not served for these arguments (a component of another kind)
                if body(fresh, me, *args) != value:
                    wrong.append(f"{fname}{tuple(args)}")
    return wrong


def _arguments(st, params, parts, projected, alike: dict) -> list[list]:
    """The arguments a cached key stands for: a component parameter keyed by its fixed properties
    stands for every component alike in them (a few are tried: each must give the cached value);
    one keyed by its kind (the key holds `st.setup.ckind[c]`) for every component of that kind.
    `alike`: props (or KIND) → projection → the components having it, filled as needed (one pass a state)."""
    if not projected:
        return [parts]
    choices = []
    for param, part in zip(params, parts):
        if param not in projected:
            choices.append([part])
            continue
        props = KIND if _kind_keyed(projected[param]) else projected[param]
        if props not in alike:
            alike[props] = {}
            for c in range(len(st.setup.ctype)):
                alike[props].setdefault(st.setup.ckind[c] if props is KIND else _projection(st, c, props), []).append(c)
        same = alike[props].get(part, [])
        choices.append(same[:1] + same[len(same) // 2:][:1] + same[-1:] if same else [])
    return [list(args) for args in itertools.product(*choices)]


KIND = "kind"  # (in `alike`: the components of each kind)


def _kind_keyed(props: tuple) -> bool:
    """A parameter reading a declared fixed property is keyed by the component's kind, not by the
    properties it reads (functions.py, _projections)."""
    return any(x not in ("owner", "type") for x in props)


def _projection(st, c: int, props: tuple):
    values = [st.setup.cowner[c] if x == "owner" else st.setup.ctype[c] if x == "type"
              else runtime.freeze(st.setup.cstatic[c].get(x)) for x in props]
    return values[0] if len(values) == 1 else tuple(values)


def _filed(values: dict, by_space: bool):
    """(space or None, key, value) of each value of a slot (filed by space, or not)."""
    if by_space:
        return [(space, key, value) for space, filed in values.items() for key, value in filed.items()]
    return [(None, key, value) for key, value in values.items()]


@pytest.mark.parametrize("ruleset, players, seed, actions", [
    ("attika", 2, 1, 60), ("alexander", 3, 2, 150), ("pompeii", 3, 3, 150),
    # breadth: longer games, other seeds and numbers of players (LEGES_SLOW=1; Attika's memo is the largest)
    *(pytest.param(*case, marks=pytest.mark.slow) for case in [
        ("attika", 2, 1, 400), ("attika", 3, 4, 400), ("attika", 4, 5, 400), ("alexander", 2, 6, 400),
        ("alexander", 5, 7, 400), ("pompeii", 2, 8, 400), ("pompeii", 4, 9, 400)])])
def test_cached_values_equal_freshly_computed_ones(ruleset, players, seed, actions):
    """After every action of a random game (its first `actions`), each value the memo would give
    equals the function computed on a copy of the state without cached values."""
    game = leges.load(str(ROOT / "rulesets" / ruleset))
    checked = 0
    served = 0

    def no_stale_value(st):
        nonlocal checked, served
        assert _stale_values(game, st) == []
        served += sum(len(values) for values in st.memo)
        checked += 1
        return checked >= actions

    play_random(game, players, seed=seed, until=no_stale_value)
    assert checked >= min(actions, 60) and served > min(actions, 100)  # the check looked at real values


@pytest.mark.parametrize("ruleset, players", [("attika", 2), ("pompeii", 3)])
def test_a_resampled_world_serves_no_value_of_the_real_one(ruleset, players):
    """Hidden components trade identities in a resampled world: a value cached in the real game (a
    hand's kinds, a card's number — even from a function reading nothing that changes) would be
    stale there, and would tell a searching agent what it may not know."""
    game = leges.load(str(ROOT / "rulesets" / ruleset))
    rng = random.Random(5)
    checked = 0

    def worlds_serve_fresh_values(st):
        nonlocal checked
        if st.pending is not None and len(st.history) % 4 == 0:
            for player in range(players):
                world = st.resample(player, rng)
                fresh = world.copy()
                fresh.memo, fresh.private = [{} for _ in fresh.memo], set(range(len(fresh.memo)))
                assert _stale_values(game, world, fresh) == []
                checked += 1
        return len(st.history) >= 80

    play_random(game, players, seed=2, until=worlds_serve_fresh_values)
    assert checked >= 20


def test_a_wrong_value_keyed_by_a_kind_is_found():
    """The check above can fail for a function keyed by its component's kind (Pompeii's
    numbered(card): the key is st.setup.ckind[card], not a card): a value planted for a kind is
    compared with the function computed for cards of that kind (issue 36)."""
    pompeii = leges.load(str(ROOT / "rulesets" / "pompeii"))
    slot = _slot(pompeii, "numbered")
    fname = pompeii.compiler.memo.names[slot]
    assert _kind_keyed(pompeii.compiler.memo.projected[slot]["card"])
    st = pompeii.new_initial_state(players=3, seed=3)
    card = next(c for c, t in enumerate(st.setup.ctype) if t == "card")
    right = pompeii.compiler.namespace[f"{fname}_body"](st, None, card)
    assert right  # (a wrong value: one building fewer)
    st.memo[slot] = {st.setup.ckind[card]: right}
    assert _stale_values(pompeii, st) == []
    st.memo[slot] = {st.setup.ckind[card]: right[:-1]}
    wrong = _stale_values(pompeii, st)
    assert f"{fname}({card},)" in wrong and all(w.startswith(f"{fname}(") for w in wrong)


def test_a_near_slot_shared_with_a_copy_is_copied_before_it_changes(attika):
    st = attika.new_initial_state(players=2, seed=0)
    slot = _slot(attika, "built_around")
    st.memo[slot] = {"h7_11": {0: "near"}, "h0_0": {0: "far"}}
    copy = st.copy()
    copy.place(copy.zones["board.athens"][-1], "h7_10", None)
    assert copy.memo[slot] == {"h0_0": {0: "far"}}
    assert st.memo[slot] == {"h7_11": {0: "near"}, "h0_0": {0: "far"}}  # the original keeps its values


def test_copies_sharing_an_empty_near_slot_keep_what_each_computes_after_a_move_apart():
    """A resampled world begins with every slot empty, and its copies share them: a move of one copy
    must take even an empty near slot for its own, or the values it computes next (true only for
    it) fill the dict the others still read."""
    game = leges.load(str(ROOT / "tests" / "rulesets" / "near_memo"))
    st = game.new_initial_state(players=2, seed=0)
    st.forget_cached()
    moved, other = st.copy(), st.copy()
    moved.place(moved.zones["supply.x"][-1], "r1c1", None)
    assert expr(game, moved, "crowd(r0c0)") == 1
    assert expr(game, other, "crowd(r0c0)") == 0 and expr(game, st, "crowd(r0c0)") == 0


def test_setting_a_space_property_forgets_values_only_around_it(attika):
    """A tile laid changes the land of a few hexes: the cost of building elsewhere is kept."""
    assert memo.near_prop("land", "s", 1) in attika.compiler.memo.keys[_slot(attika, "discount")]
    st = attika.new_initial_state(players=2, seed=0)
    slot = _slot(attika, "discount")
    st.memo[slot] = {"h0_0": ["far"], "h7_11": ["near"]}
    st.set_space_prop("h7_10", "land", "forest")
    assert st.memo[slot] == {"h0_0": ["far"]}


def test_functions_reading_nothing_that_changes_share_one_cache_across_states():
    alexander = leges.load(str(ROOT / "rulesets" / "alexander"))
    assert alexander.constant_slots  # e.g. the share-out's hundreds of splits, listed once a game object
    a = alexander.new_initial_state(players=3, seed=1)
    b = alexander.new_initial_state(players=3, seed=2)
    assert all(a.memo[i] is b.memo[i] for i in alexander.constant_slots)


def test_shared_caches_are_per_number_of_players():
    """Component ids depend on the number of players: a value cached for one card in a game of three
    must not be served for the component with that id in a game of two."""
    pompeii = leges.load(str(ROOT / "rulesets" / "pompeii"))
    slot = _slot(pompeii, "numbered")
    assert slot in pompeii.constant_slots
    three, two = (pompeii.new_initial_state(players=n, seed=0) for n in (3, 2))
    assert three.memo[slot] is not two.memo[slot]
