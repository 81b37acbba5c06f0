"""The interpreter's promises, independent of any one game: plain-data state, replay, chance, views."""
from __future__ import annotations

import json
import shutil

import pytest

import leges
from helpers import ROOT, expr, play_random
from leges.lab.records import make_record, replay
from leges.lab.simulate import play_game


def test_state_round_trips_through_json_mid_game(pompeii):
    st = play_random(pompeii, 3, seed=5, until=lambda s: len(s.history) >= 60)
    text = st.to_json()
    back = pompeii.state_from_json(text)
    assert back.to_json() == text
    # both continue identically
    for _ in range(40):
        option = st.pending.options[0].text
        st.apply_action(option)
        back.apply_action(option)
    assert back.to_json() == st.to_json()


def test_pending_decision_is_explicit_plain_data(pompeii):
    st = pompeii.new_initial_state(players=3, seed=1)
    data = json.loads(st.to_json())
    assert data["pending"]["player"] == st.current_player()
    assert [o[0] for o in data["pending"]["options"]] == [a.text for a in st.legal_actions()]
    assert all(isinstance(f[0], str) and isinstance(f[1], int) for f in data["frames"])


def test_copy_is_independent(pompeii):
    st = play_random(pompeii, 3, seed=2, until=lambda s: len(s.history) >= 20)
    before = st.to_json()
    other = st.copy()
    other.apply_action(other.legal_actions()[0])
    assert st.to_json() == before
    assert other.to_json() != before


def test_same_seed_same_game(pompeii):
    a = play_game(pompeii, 3, seed=11)
    b = play_game(pompeii, 3, seed=11)
    assert a.history == b.history and a.scores == b.scores


def test_record_replays_to_the_identical_state(pompeii):
    st = play_random(pompeii, 4, seed=3)
    record = make_record(pompeii, str(ROOT / "rulesets" / "pompeii"), 4, 3, st.history)
    again = replay(pompeii, json.loads(json.dumps(record)))
    assert again.to_json() == st.to_json()


def test_replay_rejects_an_illegal_action(pompeii):
    st = play_random(pompeii, 3, seed=3, until=lambda s: len(s.history) >= 10)
    record = make_record(pompeii, str(ROOT / "rulesets" / "pompeii"), 3, 3, st.history[:-1] + ["red: play card=99"])
    with pytest.raises(leges.LegesError) as err:
        replay(pompeii, record)
    assert "not a legal action" in str(err.value)


def test_chance_points_have_outcome_probabilities(pompeii):
    st = pompeii.new_initial_state(players=3, seed=0, explicit_chance=True)
    assert st.is_chance_node()
    outcomes = st.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    # the first shuffle picks among the 53 cards, grouped by what they show (11 numbers)
    assert len(outcomes) == 11
    assert dict((a.text, p) for a, p in outcomes)["chance 6"] == pytest.approx(7 / 53)


def test_a_game_with_explicit_chance_runs_to_the_end(pompeii):
    import random
    st = pompeii.new_initial_state(players=3, seed=0, explicit_chance=True)
    rng = random.Random(4)
    chance_points = 0
    while not st.is_terminal():
        if st.is_chance_node():
            chance_points += 1
            actions, weights = zip(*st.chance_outcomes())
            st.apply_action(rng.choices(actions, weights)[0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    assert chance_points > 53  # the set-up shuffles, the A.D. 79 shuffle and every lava tile drawn
    assert sum(st.scores()) >= 0


def test_observation_hides_other_hands_the_deck_and_the_bag(pompeii):
    st = play_random(pompeii, 3, seed=4, until=lambda s: s.phase == "settle")
    assert st.current_player() == 0
    view = st.observation(0)
    assert isinstance(view["zones"]["hand.red"], list) and len(view["zones"]["hand.red"]) == 4
    assert view["zones"]["hand.black"] == {"count": 4}
    assert view["zones"]["deck"] == {"count": 41}
    assert view["zones"]["bag"] == {"count": 45}
    assert "options" in view
    assert "options" not in st.observation(1)
    # nothing of another player's hand leaks into the text of the view
    hidden = {st.setup.clabel[c] for c in st.zones["hand.black"]} - {st.setup.clabel[c] for c in st.zones["hand.red"]}
    text = json.dumps(st.observation(0)["zones"]["hand.black"])
    assert not any(label in text for label in hidden)


def test_returns_follow_the_ranking(tictactoe):
    st = tictactoe.new_initial_state(players=2, seed=0)
    for move in ["r0c0", "r1c0", "r0c1", "r1c1", "r0c2"]:
        st.apply_action(f"place square={move}")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    draw = tictactoe.new_initial_state(players=2, seed=0)
    for move in ["r0c0", "r0c1", "r0c2", "r1c1", "r1c0", "r1c2", "r2c1", "r2c0"]:
        draw.apply_action(f"place square={move}")
    assert draw.is_terminal() and draw.returns() == [0.0, 0.0]


def test_a_decision_with_one_option_is_taken_automatically(tictactoe):
    st = tictactoe.new_initial_state(players=2, seed=0)
    for move in ["r0c0", "r0c1", "r0c2", "r1c1", "r1c0", "r1c2", "r2c1", "r2c0"]:
        st.apply_action(f"place square={move}")
    assert expr(tictactoe, st, "count(r2c2)") == 1  # x's only move was made for it


def test_illegal_action_is_refused_with_a_hint(tictactoe):
    st = tictactoe.new_initial_state(players=2, seed=0)
    with pytest.raises(leges.IllegalAction) as err:
        st.apply_action("place square=r9c9")
    assert "did you mean" in err.value.diagnostics[0].hint or "legal now" in err.value.diagnostics[0].hint


def _tiny(tmp_path, turn: str, extra: str = ""):
    """Tic-Tac-Toe with another turn program (and extra YAML appended)."""
    folder = tmp_path / "game"
    folder.mkdir()
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    text = (ROOT / "rulesets" / "tictactoe" / "ruleset.yaml").read_text()
    text = text.replace("    turn: |\n      act place\n", "    turn: |\n" + "".join("      " + line + "\n" for line in turn.splitlines()))
    (folder / "ruleset.yaml").write_text(text + extra)
    return leges.load(str(folder))


def test_a_loop_that_never_ends_stops_with_a_located_error(tmp_path):
    game = _tiny(tmp_path, "while true:\n  pass")
    with pytest.raises(leges.RuleError) as err:
        game.new_initial_state(players=2, seed=0)
    d = err.value.diagnostics[0]
    assert "while loop ran more than" in d.message and d.position.line > 0


def test_a_procedure_that_calls_itself_forever_stops(tmp_path):
    game = _tiny(tmp_path, "again()", "\nprocedures:\n  - id: again\n    body: |\n      again()\n")
    with pytest.raises(leges.RuleError) as err:
        game.new_initial_state(players=2, seed=0)
    assert "nested more than" in err.value.diagnostics[0].message


def test_interpreter_names_no_game():
    import re
    words = re.compile(r"\b(pompeii|pompeji|vesuv\w*|citizens?|lava|omens?|volcano|eruption|jokers?|ad79|attika|"
                       r"amphora\w*|shrines?|alexander|provinces?|temples?|campaigns?|landscape|settlements?)\b", re.I)
    offenders = []
    for path in (ROOT / "interpreter").rglob("*"):
        if path.suffix in (".py", ".lark"):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if words.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def _tictactoe_with(tmp_path, old: str, new: str):
    import shutil
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "t")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    path = tmp_path / "t" / "ruleset.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return leges.load(str(tmp_path / "t"))


def test_a_require_that_names_no_parameter_is_tested_before_the_options(tmp_path):
    """`require: turn_number < 3 and ...`: from the third turn nothing is offered, and the domain
    (which would fail there: the 9th square of an 8-long list) is not even computed."""
    game = _tictactoe_with(tmp_path, '      square: "[s for s in spaces if count(s) == 0]"\n',
                           '      square: "[s for s in spaces if count(s) == 0 and [1, 2][turn_number] > 0]"\n'
                           '    require: turn_number < 2 and square != none\n')
    st = game.new_initial_state(players=2)
    st.apply_action("place square=r0c0")
    st.apply_action("place square=r1c1")
    assert st.is_terminal()  # no option: the game ends, and no rule failed on [1, 2][2]


def test_an_early_test_that_fails_to_evaluate_changes_nothing(tmp_path):
    """The part of `require` naming no parameter cannot be evaluated (the top of an empty square
    has no owner) where there are no options either: as before, no error, no option."""
    game = _tictactoe_with(tmp_path, '      square: "[s for s in spaces if count(s) == 0]"\n',
                           '      square: "[s for s in spaces if count(s) == 0 and count(r2c2) > 0]"\n'
                           '    require: top(r2c2).owner != none\n')
    st = game.new_initial_state(players=2)
    assert st.is_terminal() and not st.history
