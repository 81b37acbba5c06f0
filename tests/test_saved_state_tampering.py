"""Saved states that are what they say (issue 35, item 5): a state is accepted only if it hangs
together — every component once, numbers within bounds, owners and seats in range, the phase's own
program running, a seat still in the turns — and, carrying a seed and a history, only if replaying
that history from that seed gives it. Each tampering below is a located error pointing into the
JSON text; every honest state along random games of the bundled games still loads."""
from __future__ import annotations

import json
import random

import pytest

import leges
from helpers import ROOT, ruleset_dir
from leges.engine.budget import GameBudget
from leges.lab.records import make_record, replay, write_record
from leges.text.errors import LegesError


@pytest.fixture(scope="module")
def games():
    return {name: leges.load(str(ruleset_dir(name))) for name in ("tictactoe", "pompeii", "alexander", "attika")}


def played(game, players: int, seed: int, steps: int, **options):
    """A game after `steps` random decisions (fewer if it ends), and the actions offered before the last."""
    st = game.new_initial_state(players=players, seed=seed, **options)
    rng = random.Random(seed)
    offered = []
    for _ in range(steps):
        if st.is_terminal():
            break
        offered = st.legal_actions()
        st.apply_action(rng.choice(offered))
    return st, offered


def data_of(st) -> dict:
    return json.loads(st.to_json())


def refused(game, data: dict, *words: str, edited: bool = False):
    """Loading the tampered `data` fails; the diagnostic with `words` is at a line and column of the
    text, returned with the line it points at."""
    text = json.dumps(data, indent=1)
    with pytest.raises(LegesError) as info:
        game.state_from_json(text, "s.json", edited=edited)
    messages = [d.format() for d in info.value.diagnostics]
    found = [d for d, m in zip(info.value.diagnostics, messages) if all(w in m for w in words)]
    assert found, "\n".join(messages)
    d = found[0]
    lines = text.split("\n")
    assert d.position.file == "s.json" and 1 <= d.position.line <= len(lines) and d.position.col >= 1, d.format()
    assert d.hint, d.format()
    return d, lines[d.position.line - 1]


# ------------------------------------------------------------------ the phase and the running rule
def test_a_phase_name_that_contradicts_the_running_rule(games):
    pompeii = games["pompeii"]
    st, _ = played(pompeii, 3, 1, 40)
    data = data_of(st)
    assert data["phase"] == "settle" and data["frames"][0][0] == "phase:settle:turn"
    data["phase"] = "escape"
    d, line = refused(pompeii, data, "phase 'escape'", "'phase:settle:turn'")
    assert '"phase": "escape"' in line
    refused(pompeii, data, "phase 'escape'", edited=True)  # a position set up by a program too


def test_a_turn_run_for_another_player(games):
    alexander = games["alexander"]
    st, _ = played(alexander, 3, 1, 12)
    data = data_of(st)
    assert data["flow"] == "turn"
    data["frames"][0][2]["me"] = (data["turn_player"] + 1) % 3
    d, line = refused(alexander, data, "the turn's program runs for", "the turn is player")
    assert '"me"' in line
    del data["frames"][0][2]["me"]
    refused(alexander, data, "'me' is missing", edited=True)


# ------------------------------------------------------------------ numbers and properties
def test_a_variable_at_ten_to_the_twenty(games):
    """10^20 (21 digits) is refused as the JSON is read (text/json_source.py bounds a number's digits);
    10^18, within the digits, past the language's bound 2^53 - 1 (engine/state_consistency.py)."""
    pompeii = games["pompeii"]
    data = data_of(played(pompeii, 3, 1, 40)[0])
    data["vars"]["ad79_drawn"] = 10 ** 20
    d, line = refused(pompeii, data)
    assert "100000000000000000000" in line and '"ad79_drawn"' in line
    data["vars"]["ad79_drawn"] = 10 ** 18
    d, line = refused(pompeii, data, "1000000000000000000 is past the bound of a number", "2^53 - 1")
    assert "1000000000000000000" in line and '"ad79_drawn"' in line


def test_a_per_player_variable_and_a_local_past_the_bound(games):
    alexander = games["alexander"]
    data = data_of(played(alexander, 3, 1, 12)[0])
    data["vars"]["vp"][1] = -(10 ** 18)
    d, line = refused(alexander, data, "past the bound of a number")
    assert "-1000000000000000000" in line
    data = data_of(played(alexander, 3, 1, 12)[0])
    data["frames"][0][2]["$a0"] = 2 ** 60
    d, line = refused(alexander, data, f"{2 ** 60} is past the bound")
    assert str(2 ** 60) in line


@pytest.mark.parametrize("owner", [99, -5])
def test_a_component_owner_out_of_range(games, owner):
    """A component's owner is fixed by the set-up: written into the state, it is refused (any value)."""
    pompeii = games["pompeii"]
    data = data_of(played(pompeii, 3, 1, 40)[0])
    data["cprops"]["5"] = {"owner": owner}
    d, line = refused(pompeii, data, "'owner' of component 5", "is fixed by the set-up")
    assert '"owner"' in line


def test_a_changing_property_of_the_wrong_type_or_past_the_bound(games):
    alexander = games["alexander"]
    data = data_of(played(alexander, 3, 1, 12)[0])
    data["cprops"]["0"]["steps"] = "far"
    d, line = refused(alexander, data, "'steps' of component 0 is declared int")
    assert '"far"' in line
    data["cprops"]["0"]["steps"] = 2 ** 53
    refused(alexander, data, "past the bound of a number")
    data["cprops"]["0"] = {"steps": 0, "colour": "red"}
    d, line = refused(alexander, data, "'colour' of component 0", "is no property")
    assert '"colour"' in line


# ------------------------------------------------------------------ seats
def test_every_seat_dropped_out(games):
    pompeii = games["pompeii"]
    data = data_of(played(pompeii, 3, 1, 40)[0])
    data["dropped"] = [0, 1, 2]
    d, line = refused(pompeii, data, "every seat (3) has dropped out")
    assert '"dropped"' in line
    refused(pompeii, data, "every seat (3) has dropped out", edited=True)


def test_a_seat_dropped_out_where_the_replay_has_none(games):
    alexander = games["alexander"]
    data = data_of(played(alexander, 3, 1, 12)[0])
    data["dropped"] = [2]
    d, line = refused(alexander, data, "replaying the history from seed 1 gives", "here, not [2]")
    assert '"dropped"' in line


# ------------------------------------------------------------------ components and counts
def test_a_component_duplicated_or_missing(games):
    pompeii = games["pompeii"]
    data = data_of(played(pompeii, 3, 1, 40)[0])
    card = data["zones"]["bag"][0]
    data["zones"]["box"].append(card)
    d, line = refused(pompeii, data, f"component {card}", "is in two places")
    assert str(card) in line
    data = data_of(played(pompeii, 3, 1, 40)[0])
    data["zones"]["bag"].pop()
    refused(pompeii, data, "components are nowhere")


def test_a_count_per_type_changed(games):
    """Components are numbered by the set-up, their types with them: one more (an extra card), one
    fewer, or one traded for another type's are each refused."""
    pompeii = games["pompeii"]
    st, _ = played(pompeii, 3, 1, 40)
    count = len(st.setup.ctype)
    data = data_of(st)
    data["zones"]["box"].append(count)
    d, line = refused(pompeii, data, f"no component {count}: the game has {count}")
    assert str(count) in line
    data = data_of(st)
    vase = data["zones"]["bag"][0]
    other = next(c for c in range(count) if st.setup.ctype[c] != st.setup.ctype[vase])
    data["zones"]["bag"][0] = other  # a vase becomes a second copy of another type's component
    refused(pompeii, data, f"component {other}", "is in two places")
    refused(pompeii, data, "components are nowhere")


def test_a_component_moved_where_play_did_not_put_it(games):
    """Each component still once, counts intact: only the replay tells the moved card."""
    pompeii = games["pompeii"]
    data = data_of(played(pompeii, 3, 1, 40)[0])
    hand = next(k for k, v in data["zones"].items() if k.startswith("hand.") and v)
    data["zones"][hand][0], data["zones"]["deck"][-1] = data["zones"]["deck"][-1], data["zones"][hand][0]
    d, line = refused(pompeii, data, "replaying the history from seed 1 gives")
    assert line.strip().rstrip(",") in (str(data["zones"][hand][0]), str(data["zones"]["deck"][-1]))


# ------------------------------------------------------------------ history
def test_a_rewritten_history_an_action_replaced(games):
    """The last action replaced by another that was legal there: the replay plays, and differs."""
    pompeii = games["pompeii"]
    st, offered = played(pompeii, 3, 1, 40)
    data = data_of(st)
    other = next(a for a in offered if a.text != data["history"][-1].split(": ", 1)[1])
    data["history"][-1] = f"{st.player_name(other.player)}: {other.text}"
    d, line = refused(pompeii, data, "replaying the history from seed 1 gives")
    assert d.position.line > 1


def test_a_rewritten_history_an_action_removed(games):
    pompeii = games["pompeii"]
    data = data_of(played(pompeii, 3, 1, 40)[0])
    removed = data["history"].pop(3)
    assert removed
    d, line = refused(pompeii, data, "of the history cannot be replayed from seed 1")
    assert line.strip().startswith('"') and ": " in line  # a history entry


def test_a_rewritten_history_cut_short_or_another_seed(games):
    tictactoe = games["tictactoe"]
    data = data_of(played(tictactoe, 2, 3, 4)[0])
    data["history"].pop()
    d, line = refused(tictactoe, data, "replaying the history from seed 3 gives")
    data = data_of(played(games["pompeii"], 3, 1, 40)[0])
    data["seed"] = 2
    refused(games["pompeii"], data, "seed 2")


def test_forged_counters_log_and_generator(games):
    pompeii = games["pompeii"]
    base = data_of(played(pompeii, 3, 1, 40)[0])
    for key, value in [("turn_count", 3), ("rng", 12345), ("log", ["a line no rule wrote"]), ("forced", 9),
                       ("fired", ["trigger:nothing"])]:
        data = json.loads(json.dumps(base))
        data[key] = value
        d, line = refused(pompeii, data, "replaying the history from seed 1 gives")
        assert f'"{key}"' in line or json.dumps(value)[1:-1] in line, (key, line)


def test_an_edited_position_is_not_replayed_but_still_checked(games):
    """`edited=True`: the caller takes a position set up by a program; its history is not replayed."""
    tictactoe = games["tictactoe"]
    st = tictactoe.new_initial_state(players=2)
    st.apply_action("place square=r0c0")
    data = data_of(st)
    data["zones"]["r2c2"], data["zones"]["r0c0"] = data["zones"]["r0c0"], []
    data["pending"]["options"] = []
    refused(tictactoe, data, "replaying the history from seed 0 gives")
    loaded = tictactoe.state_from_json(json.dumps(data), edited=True)
    assert loaded.zones["r2c2"] and not loaded.zones["r0c0"]
    data["vars"]["winner"] = -(2 ** 60)
    refused(tictactoe, data, "past the bound", edited=True)


# ------------------------------------------------------------------ honest states still load
@pytest.mark.parametrize("name, players, seed, options, every", [
    ("tictactoe", 2, 0, {}, 1), ("tictactoe", 2, 1, {"forced_moves": True}, 1),
    ("pompeii", 3, 2, {}, 1), ("pompeii", 2, 3, {"explicit_chance": True}, 1),
    ("alexander", 3, 4, {}, 1), ("attika", 2, 5, {}, 4),  # Attika's many zones: its schema check is the cost
])
def test_every_state_of_a_random_game_round_trips(games, name, players, seed, options, every):
    game = games[name]
    st = game.new_initial_state(players=players, seed=seed, **options)
    rng = random.Random(seed)
    loads = 0
    while True:
        if len(st.history) % every == 0 or st.is_terminal():
            text = st.to_json()
            back = game.state_from_json(text)
            assert back.to_json() == text
            loads += 1
        if st.is_terminal():
            break
        if st.is_chance_node():
            outcomes = st.chance_outcomes()
            st.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            actions = st.legal_actions()
            if back.history == st.history:
                assert [a.text for a in back.legal_actions()] == [a.text for a in actions]
            st.apply_action(rng.choice(actions))
    assert loads > 5 and st.is_terminal()


def test_a_game_cut_short_by_its_budget_is_replayed_under_that_budget(games):
    pompeii = games["pompeii"]
    st = pompeii.new_initial_state(players=3, seed=6, budget=GameBudget(work=20_000))
    rng = random.Random(6)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.unfinished and st.end_reason == {"kind": "budget", "spent": "work", "limit": 20_000}
    assert pompeii.state_from_json(st.to_json()).to_json() == st.to_json()
    data = data_of(st)
    data["history"].pop(2)
    refused(pompeii, data, "of the history cannot be replayed")
    data = data_of(st)
    data["vars"]["moves_made"] += 1  # a forged final position of a game cut short
    refused(pompeii, data, "replaying the history from seed 6 gives")


def test_a_game_cut_short_by_its_budget_of_seconds_loads_only_as_an_edited_position(games):
    tictactoe = games["tictactoe"]
    st = tictactoe.new_initial_state(players=2, seed=0, budget=GameBudget(seconds=1e-9))  # cut at once
    assert st.unfinished and st.end_reason["spent"] == "seconds"
    d, line = refused(tictactoe, data_of(st), "cut short by its budget of seconds", "edited=True")
    assert '"end_reason"' in line
    assert tictactoe.state_from_json(st.to_json(), edited=True).to_json() == st.to_json()


def test_an_older_state_takes_the_replays_value_of_a_key_it_lacks(games):
    tictactoe = games["tictactoe"]
    st = tictactoe.new_initial_state(players=2)
    for text in ["place square=r0c0", "place square=r0c1", "place square=r0c2", "place square=r1c1",
                 "place square=r1c0", "place square=r1c2", "place square=r2c1", "place square=r2c0"]:
        st.apply_action(text)
    assert st.forced == 1
    data = data_of(st)
    del data["forced"]
    assert tictactoe.state_from_json(json.dumps(data)).forced == 1


# ------------------------------------------------------------------ records
def test_a_record_whose_result_contradicts_its_replay(games, tmp_path):
    pompeii = games["pompeii"]
    st, _ = played(pompeii, 3, 7, 10_000)
    names = st.setup.seat_names
    ranking = [[names[p] for p in group] for group in st.ranking()]
    record = make_record(pompeii, str(ROOT / "rulesets" / "pompeii"), 3, 7, st.history,
                         {"ranking": ranking, "scores": st.scores()})
    path = tmp_path / "r.json"
    write_record(str(path), record)
    assert replay(pompeii, record, str(path)).to_json() == st.to_json()
    record["result"]["scores"] = [99] * 3
    write_record(str(path), record)
    with pytest.raises(LegesError, match="the record says scores") as info:
        replay(pompeii, record, str(path))
    d = info.value.diagnostics[0]
    assert path.read_text().split("\n")[d.position.line - 1].strip().startswith('"scores"')
    record["result"] = {"ranking": list(reversed(ranking)) if len(ranking) > 1 else [names[::-1], []]}
    write_record(str(path), record)
    with pytest.raises(LegesError, match="the record's ranking is") as info:
        replay(pompeii, record, str(path))
    assert info.value.diagnostics[0].position.line > 1


# ------------------------------------------------------------------ the state fuzzer
def test_a_sample_of_tampered_states(tmp_path):
    """tests/fuzz/states.py: no tampered state is accepted unless it is what its replay gives, and
    every refusal is located (a sample; the campaign: `python -m tests.fuzz.states --cases 2000`)."""
    from fuzz.states import campaign
    found = campaign(60, seed=35)
    assert found.cases == 60 and found.refused > 30
    assert not found.findings, "\n".join(found.findings[:10])


def test_a_sample_of_tampered_records(tmp_path):
    from fuzz.states import record_campaign
    found = record_campaign(24, tmp_path, seed=35)
    assert found.cases == 24 and found.refused > 12
    assert not found.findings, "\n".join(found.findings[:10])
