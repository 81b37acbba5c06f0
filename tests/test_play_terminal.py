"""leges play at the terminal: the board as text (by the map's own labels), compact zones and variables, the phase's name,
what the game did by itself, words that pick out an action, did-you-mean, the score breakdown,
colour only when asked for (or on a terminal) — and the screen still shows only what its seat may see."""
from __future__ import annotations

import random
import re

import pytest

import leges
from helpers import play_random, ruleset_dir
from leges.cli import main
from leges.cli.play import score_lines
from leges.cli.play_answers import match_answer, named_action, why_not
from leges.render.screen import screen


@pytest.fixture(scope="module")
def games():
    return {name: leges.load(str(ruleset_dir(name))) for name in ("tictactoe", "pompeii", "attika", "alexander")}


def answers(monkeypatch, *lines):
    feed = iter(lines)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(feed))


def test_the_tictactoe_board(games):
    st = games["tictactoe"].new_initial_state(players=2, seed=0)
    for text in ("place square=r0c0", "place square=r1c1", "place square=r2c2"):
        st.apply_action(text)
    lines = screen(st, 1)
    board = "\n".join(lines[1:5])
    assert lines[1].split() == ["c0", "c1", "c2"]
    assert re.search(r"r0 X +\. +\.", board) and re.search(r"r1 \. +O +\.", board) and re.search(r"r2 \. +\. +X", board)
    assert "phase play" in lines[0] and "you are o" in lines[0]
    assert "   o (you): supply 4" in lines and "   x: supply 3" in lines


def test_the_pompeii_board_and_compact_zones(games):
    st = play_random(games["pompeii"], 3, 4, until=lambda s: s.phase == "settle" and len(s.history) > 12)
    lines = screen(st, 0)
    text = "\n".join(lines)
    assert lines[0].startswith("-- The Downfall of Pompeii · phase settle")
    assert "None" not in lines[0]
    rows = [line for line in lines if re.match(r"^\s+r\d ", line)]
    assert len(rows) == 7 and "c10" in lines[1]
    assert re.search(r"\b[RBY]\d?\b", "\n".join(rows))  # pieces by their owner's initial
    assert "red red" not in text and "supply " in text  # counts, not repeated names
    own = next(line for line in lines if line.startswith("   red (you): "))
    assert re.search(r"hand \d: \S+", own)
    other = next(line for line in lines if line.startswith("   black"))
    assert re.search(r"hand \d hidden", other)
    assert re.search(r"^   table: deck \d+ hidden", text, re.M)


def test_the_phase_of_the_set_up_is_named(games):
    st = games["pompeii"].new_initial_state(players=3, seed=0)
    assert st.phase is None and "phase set-up" in screen(st, st.current_player())[0]


def test_a_hex_board_and_a_graph(games):
    st = play_random(games["attika"], 2, 3, until=lambda s: len(s.history) > 10)
    lines = screen(st, 0)
    board = [line for line in lines if re.match(r"^\s+\d+ ", line)]
    assert len(board) >= 6 and any("^" in b or "~" in b or "T" in b or "n" in b for b in board)
    st = play_random(games["alexander"], 3, 3, until=lambda s: len(s.history) > 40)
    lines = screen(st, 0)
    assert any(re.match(r"^   \w+ \(.+\): \d+ \w+ \w+", line) for line in lines)  # `thracia (Thrace): 2 red cube`


def joined(lines: list[str]) -> list[str]:
    """The screen's lines with a long line's continuations (wrapped to the screen's width) put back."""
    out = []
    for line in lines:
        if line.startswith("      ") and out and not re.match(r"^\s+r\d ", line):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def test_the_seats_own_variables_are_shown(games):
    st = play_random(games["alexander"], 3, 3, until=lambda s: s.vars.get("shares") and s.vars["shares"][0] not in (None, []))
    lines = joined(screen(st, 0))
    mine = next(line for line in lines if line.startswith("   red (you): "))
    others = [line for line in lines if line.startswith("   blue") or line.startswith("   green")]
    assert "shares [" in mine and all("shares ?" in line for line in others)


def test_words_pick_out_an_action_and_typos_get_a_suggestion(games):
    st = games["tictactoe"].new_initial_state(players=2, seed=0)
    actions = st.legal_actions()
    assert match_answer("3", actions)[0].text == "place square=r0c2"
    assert match_answer("r1c1", actions)[0].text == "place square=r1c1"
    assert match_answer("place square=r2c0", actions)[0].text == "place square=r2c0"
    choice, problem = match_answer("place squar=r1c1", actions)
    assert choice is None and "did you mean 'place square=r1c1'" in problem
    choice, problem = match_answer("place", actions)
    assert choice is None and "9 actions fit 'place'" in problem
    choice, problem = match_answer("12", actions)
    assert choice is None and "1 to 9" in problem


def test_an_action_named_gets_why_it_is_not_legal(games):
    """With or without `=`, or its values alone: explain's reason, the values, the citation."""
    game = games["tictactoe"]
    st = game.new_initial_state(players=2, seed=0)
    st.apply_action("place square=r1c1")
    source = game.actions["place"].decl.source
    for answer in ("r1c1", "place r1c1", "place square=r1c1", "square=r1c1"):
        assert named_action(st, answer, 1) == "place square=r1c1"
        why = why_not(st, answer, 1)
        assert "not legal: square=r1c1 is not among the options of 'square'" in why, answer
        assert why.endswith(f"— {source['book']} § {source['section']}: «{source['quote']}»")
    assert why_not(st, "r1c1", 1).startswith("place square=r1c1: not legal: ")  # what was read, when not as typed
    assert why_not(st, "place square=r1c1", 1).startswith("not legal: ")
    assert why_not(st, "place squar=r1c1", 1) == why_not(st, "place r1c1 r2c2", 1)
    assert why_not(st, "place squar=r1c1", 1).startswith("not legal: an action 'place' is written `place square=...`")
    for answer in ("place", "r2c2", "3", "plase squre=r0c0", "fly r1c1"):  # several fit, legal, a number, no action named
        assert why_not(st, answer, 1) is None, answer


def test_why_with_several_parameters_and_a_choice(games):
    game = games["pompeii"]
    st = game.new_initial_state(players=3, seed=1)
    assert why_not(st, "take_pile 9", 0) == why_not(st, "take_pile k=9", 0)
    assert "not legal: k=9 is not among the options of 'take_pile'" in why_not(st, "take_pile 9", 0)
    st = play_random(game, 3, 1, until=lambda s: any(a.text.startswith("play ") for a in s.legal_actions()))
    me = st.current_player()
    legal = [a.text for a in st.legal_actions(me)]
    card, building = (w.split("=")[1] for w in legal[0].split()[1:3])
    near = {t.rsplit("=", 1)[1] for t in legal if t.startswith(f"play card={card} building={building} ")}
    far = next(s for s in sorted(st.setup.spaces) if s.startswith("r") and s not in near)
    why = why_not(st, f"play {card} {building} {far}", me)  # bare values, in the parameters' order
    assert why.startswith(f"play card={card} building={building} square={far}: not legal: square={far} is not among")
    why = why_not(st, f"play square={far} building={building} card={card}", me)  # named, in any order
    assert why.startswith(f"play card={card} building={building} square={far}: not legal: square={far}")
    assert "is written `play card=... building=... square=...`" in why_not(st, f"play {card} {far}", me)
    assert "'move_citizen' is not asked for now" in why_not(st, f"move_citizen {far} to={far}", me)


def test_why_tells_only_what_the_seat_may_see(tmp_path):
    """A `require` reading the hidden deck: the values that would show it are left out."""
    import shutil
    from helpers import ROOT
    shutil.copytree(ROOT / "docs" / "examples" / "sample", tmp_path / "sample")
    rules = tmp_path / "sample" / "ruleset.yaml"
    rules.write_text(rules.read_text().replace("require: count(supply(me)) > 0 and",
                                               "require: top(deck).number > 6 and count(supply(me)) > 0 and"))
    st = leges.load(str(tmp_path / "sample")).new_initial_state(players=2, seed=0)
    card = st.setup.clabel[st.zones["hand.x"][0]]
    deck = [st.setup.clabel[c] for c in st.zones["deck"]]
    assert any(label in str(st.explain(f"place card={card} square=r0c0", 0)) for label in deck)
    why = why_not(st, f"place {card} r0c0", 0)
    assert "the action's condition is false: top(deck).number > 6" in why and f"card = {card}" in why
    assert not any(label in why for label in deck) and "top(deck) =" not in why


def test_a_game_at_the_terminal_prints_the_news_and_the_scores(monkeypatch, capsys):
    answers(monkeypatch, "r1c1", "plase squre=r0c0", "r1c1", "1", "1", "1", "1")
    assert main(["play", str(ruleset_dir("tictactoe")), "--seed", "1", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "→ place square=r1c1" in out and "did you mean" in out
    assert "  place square=r1c1: not legal: square=r1c1 is not among the options of 'square'" in out
    assert re.search(r"^  O: Put a mark on r\dc\d$", out, re.M)  # the opponent's moves, in words (the seat by its display name)
    assert re.search(r"^  changed: supply\.o 5→4 · r\dc\d -→o$", out, re.M)  # what changed since
    assert "game over:" in out and re.search(r"^\s+place\s+seat\s+score", out, re.M)
    assert "(score: if winner == p then 1 else 0)" in out
    assert "\x1b[" not in out


def test_the_score_breakdown_shows_the_tie_breaks(games):
    st = play_random(games["pompeii"], 3, 2)
    lines = score_lines(st)
    assert lines[0].startswith("game over: ")
    assert any("tie-break 1" in line for line in lines)
    assert "-count(volcano, c => c.owner == p)" in lines[-1]
    rows = [line for line in lines if re.match(r"^\s+\d+\s+(red|black|yellow)\s", line)]
    assert len(rows) == 3


def test_colour_when_asked(monkeypatch, capsys):
    import io
    import sys
    raw = io.StringIO()
    monkeypatch.setattr(sys, "stdout", raw)
    answers(monkeypatch, "q")
    assert main(["play", str(ruleset_dir("pompeii")), "-p", "3", "--colour", "always"]) == 0
    out = raw.getvalue()
    assert "\x1b[48;" in out and "\x1b[0m" in out  # spaces painted
    monkeypatch.setenv("NO_COLOR", "1")
    raw.truncate(0)
    answers(monkeypatch, "q")
    assert main(["play", str(ruleset_dir("pompeii")), "-p", "3"]) == 0
    assert "\x1b[" not in raw.getvalue()


def test_colour_never_lets_a_ruleset_write_control_characters(games):
    from leges.render.board_text import paint
    painted = paint("a\x1b[2Jb", fg="red")
    assert "\x1b[2J" not in painted and "a\\u001b[2Jb" in painted


def test_the_screen_is_the_same_in_worlds_the_seat_cannot_tell_apart(games):
    """As `leges check-leaks` checks it: with colour too."""
    from leges.engine.saved_state import recompute_pending
    rng = random.Random(3)
    for name, players in (("pompeii", 3), ("attika", 2)):
        count = iter(range(1000))
        st = play_random(games[name], players, 5, until=lambda s: next(count) >= 30)
        for p in range(players):
            other = st.resample(p, rng)
            other.forget_cached()
            if other.pending is not None:
                other.pending = recompute_pending(other) or other.pending
            assert screen(other, p, colour=True) == screen(st, p, colour=True)


# ------------------------------------------------------------- issue 23, item 6: the terminal
def test_help_and_the_question_mark_are_commands_not_moves(monkeypatch, capsys):
    answers(monkeypatch, "help", "?", "q")
    assert main(["play", str(ruleset_dir("tictactoe")), "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert out.count("  commands:") == 2 and "not one of the" not in out
    assert "why N" in out and "more" in out and "texts" in out
    assert "    place square=...  (Put a mark on {square})" in out  # how a move is written, with its words


def test_why_shows_the_citation_of_an_option_on_request(monkeypatch, capsys):
    answers(monkeypatch, "why 1", "why 99", "q")
    assert main(["play", str(ruleset_dir("tictactoe")), "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert "  place square=r0c0 — action place" in out
    assert "“put one of your marks on an empty square”" in out and "written at rulesets/tictactoe/ruleset.yaml:" in out
    assert "not one of the 9 options; `why N` with N from 1 to 9" in out
    assert out.count("“put one of your marks") == 1  # not under every option


def test_the_options_in_words_or_as_typed(monkeypatch, capsys):
    answers(monkeypatch, "texts", "q")
    assert main(["play", str(ruleset_dir("tictactoe")), "--colour", "never"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"1\. Put a mark on r0c0", out) and re.search(r"1\. place square=r0c0", out)


def test_a_forced_decision_is_announced_with_what_it_did(games):
    from leges.cli.play import News
    game = games["tictactoe"]
    st = game.new_initial_state(players=2, seed=0)
    news = News(0, "en")
    for square in ("r0c0", "r0c1", "r0c2", "r1c1", "r1c0", "r1c2", "r2c1", "r2c0"):
        st.apply_action(f"place square={square}")
        news.note(st)
    assert st.is_terminal() and st.history[-1] == "o: place square=r2c0"  # x's last mark went by itself
    lines = news.lines(st)
    assert "  you, at once (the only choice): Put a mark on r2c2" in lines
    assert "  O: Put a mark on r2c0" in lines
    assert news.lines(st) == []  # each told once


def test_the_board_shows_the_maps_own_labels(games):
    from leges.render.board_text import space_labels
    from leges.render.style import style_of
    game = games["pompeii"]
    labels = space_labels(game.board, style_of(game.board))
    assert labels["r1c0"] == labels["r1c1"] == "1" and labels["r5c8"] == "11"  # building numbers (its areas' labels)
    assert labels["r0c7"] == "scroll" and labels["r6c9"] == "helmet"  # the lava's start squares (a mark's text)
    st = game.new_initial_state(players=3, seed=0)
    rows = [line for line in screen(st, 0) if re.match(r"^\s+r\d ", line)]
    assert rows[1].split()[1:3] == ["1", "1"] and "scr" in rows[0] and "hel" in rows[6]
    assert "   signs: building number · vent in small letters · G: gate" in screen(st, 0)  # what the signs are
    st = play_random(game, 3, 4, until=lambda s: s.phase == "escape")
    board = "\n".join(line for line in screen(st, 0) if re.match(r"^\s+r\d ", line))
    assert re.search(r"\b(VAS|HEL|MAS|SCR|COL|COI)\b", board)  # a lava tile by its symbol


def test_a_seat_name_reads_on_a_dark_and_a_light_theme(games):
    from leges.render.board_text import badge
    chip = badge("black", "#2b2b2b")
    assert "\x1b[48;" in chip and ("38;2;255;255;255" in chip or "38;5;231" in chip)  # white ink on a black chip
    chip = badge("yellow", "#f1c40f")
    assert "38;2;17;17;17" in chip or "38;5;232" in chip  # black ink on a yellow chip
    st = games["pompeii"].new_initial_state(players=2, seed=0)
    line = next(line for line in screen(st, 1, colour=True) if "black (you)" in line)
    assert "\x1b[48;" in line.split("black (you)")[0]  # the seat's name on its chip


@pytest.mark.parametrize("name,players", [("pompeii", 4), ("attika", 4), ("alexander", 5)])
def test_the_screen_fits_fifty_lines(games, name, players):
    from leges.render.screen import option_lines
    rng = random.Random(5)
    st = games[name].new_initial_state(players=players, seed=5)
    for step in range(300):
        if st.is_terminal():
            break
        seat = st.current_player()
        if step % 5 == 0:
            lines = screen(st, seat, lang="en", height=50, width=100)
            assert len(lines) <= 48, (name, step)  # and the prompt below them
            assert max(len(line) for line in lines) <= 100, (name, step)
        st.apply_action(rng.choice(st.legal_actions(seat)))
    many = [f"Move a citizen from r{i}c0 to r{i}c1" for i in range(90)]
    paged = option_lines(many, 20, 100)
    assert len(paged) == 20 and "options 1-" in paged[-1] and "`more`" in paged[-1]
    assert option_lines(many, 20, 100, page=1)[0] != paged[0]
    assert len(option_lines(many[:10], 20, 100)) <= 10


def test_what_came_into_the_seats_own_zones_is_told(games):
    from leges.cli.play import Changes
    st = games["pompeii"].new_initial_state(players=2, seed=1)
    changes = Changes(0, lang="en")
    changes.lines(st)
    st.apply_action(st.legal_actions(0)[0])  # red takes a pile of four cards
    told = changes.lines(st)
    assert any(re.match(r"^  your hand: (\+\S+ ){3}\+\S+$", line) for line in told), told
    while st.current_player() != 0:
        st.apply_action(st.legal_actions(st.current_player())[0])
    changes.lines(st)
    played = st.legal_actions(0)[0].text.split()[1].split("=")[1]
    st.apply_action(st.legal_actions(0)[0])  # a card played, one drawn: "you drew"
    told = changes.lines(st)
    assert any(line.startswith("  your hand: +") and f"−{played}" in line for line in told), told


def test_the_winning_line_is_marked_on_the_last_board(games):
    st = games["tictactoe"].new_initial_state(players=2, seed=0)
    for square in ("r0c0", "r1c0", "r0c1", "r1c1", "r0c2"):  # x fills the top row
        st.apply_action(f"place square={square}")
    assert st.is_terminal()
    lines = screen(st, 1)
    assert re.search(r"^  r0 X\* +X\* +X\*$", "\n".join(lines), re.M)
    assert re.search(r"^  r1 O +O +\.$", "\n".join(lines), re.M)  # unmarked spaces have no star
    assert "   marked (*): winning_line r0c0 r0c1 r0c2" in lines
    from leges.render import seat_view
    from leges.render.board_text import _code
    mark = _code(seat_view(st, 1).highlights[0].colour, True)  # the mark's colour as a background
    painted = "\n".join(screen(st, 1, colour=True)).split("c2", 1)[1]
    rows = painted.split("\n")[1:4]
    assert rows[0].count(mark) >= 3 and mark not in rows[1] + rows[2]
    during = games["tictactoe"].new_initial_state(players=2, seed=0)
    during.apply_action("place square=r0c0")
    assert not any("marked" in line or "*" in line for line in screen(during, 1))


def test_a_game_at_the_terminal_ends_on_its_last_board(monkeypatch, capsys):
    answers(monkeypatch, *["1"] * 5)
    assert main(["play", str(ruleset_dir("tictactoe")), "--seed", "1", "--colour", "never"]) == 0
    out = capsys.readouterr().out
    last = out.rsplit("game over ·", 1)[1]  # the last screen: the position at the end, then the scores
    assert re.search(r"^  r0 ", last, re.M) and "game over:" in last
    if "winner none" not in last:
        assert "marked (*): winning_line" in last


def test_a_graph_marks_its_highlighted_nodes(games):
    from dataclasses import replace
    from leges.render.board_text import graph_lines
    from leges.render.highlights import Mark
    from leges.render.style import style_of
    from leges.render.view import seat_view
    game = games["alexander"]
    st = game.new_initial_state(players=3, seed=0)
    style = style_of(game.board)
    view = seat_view(st, 0, style)
    empty = next(s for s in game.board.spaces if not view.spaces.get(s) and not view.hidden_spaces.get(s))
    assert not any(line.lstrip().startswith(empty + ":") for line in graph_lines(game.board, view, style))
    marked = replace(view, highlights=[Mark("route", "line", (empty,), "#e8a317")])
    lines = graph_lines(game.board, marked, style)
    assert any(line.lstrip().startswith(empty + "*") and line.endswith(": -") for line in lines)  # listed though empty
    assert not any("*" in line for line in graph_lines(game.board, view, style))
