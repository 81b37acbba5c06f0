"""`leges play` takes a cell of the board for an action whose choice the map relates to spaces (issue 38:
the page took a click on a Connect Four cell, the terminal did not): `r3c2` drops into column 2, a
cell of a full column says which choice it is and why no action takes it, and a cell that is no
space, or a game whose actions name their spaces themselves, is read as before."""
from __future__ import annotations

import leges
from helpers import ROOT, ruleset_dir
from leges.cli import main
from leges.cli.play_answers import cell_choice

CONNECT_FOUR = ROOT / "tests" / "rulesets" / "connect_four"


def answers(monkeypatch, *lines: str) -> None:
    feed = iter(lines)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(feed))


def fill_column_three(st) -> None:
    for _ in range(6):  # red and yellow in turn: column 3 full, nobody four in a row
        st.apply_action(next(a for a in st.legal_actions() if a.text == "drop column=3"))


def test_a_cell_picks_the_action_whose_choice_it_belongs_to():
    st = leges.load(str(CONNECT_FOUR)).new_initial_state(players=2, seed=0)
    actions = st.legal_actions(0)
    for answer in ("r3c2", "r0c2", "drop r5c2"):
        choice, said = cell_choice(st, 0, answer, actions)
        assert choice is not None and choice.text == "drop column=2" and said is None, answer


def test_a_cell_of_a_full_column_says_which_choice_and_why_not():
    st = leges.load(str(CONNECT_FOUR)).new_initial_state(players=2, seed=0)
    fill_column_three(st)
    seat = st.current_player()
    choice, said = cell_choice(st, seat, "r2c3", st.legal_actions(seat))
    assert choice is None
    assert said.startswith("r2c3 is column=3: no legal action now takes column=3 (not legal: ")
    assert "folk § Play" in said  # the rule that refuses it, cited


def test_what_is_not_a_cell_is_read_as_before():
    st = leges.load(str(CONNECT_FOUR)).new_initial_state(players=2, seed=0)
    actions = st.legal_actions(0)
    for answer in ("r9c9", "3", "drop column=3", "column=3"):
        assert cell_choice(st, 0, answer, actions) == (None, None), answer
    # tic-tac-toe's actions name their squares: `r1c1` is their text, read by match_answer
    ttt = leges.load(str(ruleset_dir("tictactoe"))).new_initial_state(players=2, seed=0)
    assert cell_choice(ttt, 0, "r1c1", ttt.legal_actions(0)) == (None, None)


def test_at_the_terminal(monkeypatch, capsys):
    answers(monkeypatch, "r3c2", "q")
    assert main(["play", str(CONNECT_FOUR), "--seed", "1", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "  → drop column=2" in out
    answers(monkeypatch, *(["r0c3"] * 3), "r5c3", "q")  # red, then the random yellow, fill column 3 or not
    assert main(["play", str(CONNECT_FOUR), "--seed", "1", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert out.count("  → drop column=3") >= 1
    if "no legal action now takes column=3" in out:  # column 3 filled up before the answers ran out
        assert "r5c3 is column=3" in out or "r0c3 is column=3" in out
