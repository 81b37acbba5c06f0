"""`heuristics:` (a player's estimated value) and `statistics:` (figures at the end of a game)."""
from __future__ import annotations

import pytest

from leges import LegesError


def play(state, *squares):
    for square in squares:
        state.apply_action(f"place square={square}")
    return state


def test_heuristic_counts_marks_in_lines_still_open(tictactoe):
    st = play(tictactoe.new_initial_state(players=2), "r1c1")
    # x in the centre: four open lines through it, one mark each; o has none yet
    assert st.heuristic() == [4.0, 0.0]
    play(st, "r0c0")  # o's corner closes x's diagonal and opens three lines for o... of which one is closed
    assert st.heuristic("open_lines") == [3.0, 2.0]


def test_a_won_game_outweighs_any_estimate(tictactoe):
    st = play(tictactoe.new_initial_state(players=2), "r0c0", "r1c0", "r0c1", "r1c1", "r0c2")
    assert st.is_terminal()
    x, o = st.heuristic()
    assert x > 1000 and o < -1000


def test_unknown_heuristic_is_a_located_error(tictactoe):
    st = tictactoe.new_initial_state(players=2)
    with pytest.raises(LegesError, match="no heuristic named 'open_line'.*"):
        st.heuristic("open_line")


def test_statistics_at_the_end(tictactoe):
    st = play(tictactoe.new_initial_state(players=2), "r0c0", "r1c0", "r0c1", "r1c1", "r0c2")
    assert st.statistics() == {"decided": 1, "marks_placed": [3, 2]}
    draw = play(tictactoe.new_initial_state(players=2),
                "r0c0", "r0c1", "r0c2", "r1c1", "r1c0", "r1c2", "r2c1", "r2c0")  # the last move is forced
    assert draw.is_terminal() and draw.statistics()["decided"] == 0


def test_a_statistic_that_gives_none_is_reported_not_a_crash(tmp_path, capsys):
    """Found by the fuzzer: a statistic of unknown type (here the winner's mark count through a
    table lookup) giving none in a drawn game stopped `simulate` with an internal error."""
    from helpers import ROOT
    from leges.cli import main
    import shutil
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "t")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    path = tmp_path / "t" / "ruleset.yaml"
    text = path.read_text()
    old = "    value: winner != none"
    assert old in text
    path.write_text(text.replace(old, "    value: index_of([1], 2)"))
    assert main(["simulate", str(tmp_path / "t"), "-g", "2", "-j", "1", "-q"]) == 2
    err = capsys.readouterr().err
    import re
    assert re.search(r"t/ruleset\.yaml:\d+:\d+: error: statistic 'decided' gave none, not a number", err), err
    assert "Traceback" not in err
