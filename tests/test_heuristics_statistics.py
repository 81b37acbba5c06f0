"""`heuristics:` (a player's estimated value) and `statistics:` (figures at the end of a game, or
measured along it: engine/measures.py)."""
from __future__ import annotations

import leges
import pytest
from helpers import ROOT
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
    import shutil

    from helpers import ROOT
    from leges.cli import main
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


ALONG = """
  - id: centre_free
    description: turns after which the centre is still empty
    when: turn
    value: count(r1c1) == 0
  - id: lead
    per_player: true
    description: p's marks on the board less the other's, after every placement
    when: after place
    aggregate: series
    value: count(components("mark", p), m => m.space != none) - count(components("mark"), m => m.owner != p and m.space != none)
  - id: most_marks
    when: round
    aggregate: max
    value: count(components("mark"), m => m.space != none)
"""


def along_the_game(tmp_path, extra: str = ALONG):
    import shutil
    shutil.copytree(ROOT / "rulesets" / "tictactoe", tmp_path / "t")
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    main_file = tmp_path / "t" / "ruleset.yaml"
    text = main_file.read_text()
    main_file.write_text(text.replace("    value: 5 - count(supply(p))\n", "    value: 5 - count(supply(p))\n" + extra.lstrip("\n"), 1))
    return tmp_path / "t"


def test_statistics_measured_along_the_game(tmp_path):
    from leges.lab.simulate import play_game
    game = leges.load(str(along_the_game(tmp_path)))
    r = play_game(game, 2, 3)
    placed = sum(1 for h in r.history if ": place " in h)
    lead = r.series["lead"]
    assert len(lead) == placed and all(row[0] == -row[1] for row in lead)
    assert lead[0] == [1, -1]  # after x's first mark, x leads by one
    assert r.statistics["lead"] == [sum(v[0] for v in lead) / placed, sum(v[1] for v in lead) / placed]
    assert r.history[0] == "x: place square=r1c1" and r.statistics["centre_free"] == 0  # taken at once
    assert r.turns == 7 and r.statistics["most_marks"] == 6  # after rounds of 2 turns: 2, 4, 6 marks
    r = play_game(game, 2, 0)
    first = next(i for i, h in enumerate(r.history) if h.endswith("square=r1c1")) if any(
        h.endswith("square=r1c1") for h in r.history) else len(r.history)
    assert r.statistics["centre_free"] == min(first, r.turns)  # turns after which the centre was empty


def test_a_measure_after_an_action_counts_each_time_it_is_taken(tmp_path):
    from leges.lab.simulate import play_game
    game = leges.load(str(along_the_game(tmp_path, """
  - id: placements
    when: after place
    value: "1"
""")))
    r = play_game(game, 2, 5)
    assert r.statistics["placements"] == sum(1 for h in r.history if ": place " in h)


@pytest.mark.parametrize("extra, message", [
    ("  - id: bad\n    when: after nothing\n    value: '1'\n", "no action 'nothing' to measure after"),
    ("  - id: bad\n    aggregate: max\n    value: '1'\n", "measured once, at the end"),
    ("  - id: bad\n    when: turn\n    aggregate: count\n    value: '1'\n", "counts how often it is true"),
])
def test_measures_that_cannot_be_taken_are_located_errors(tmp_path, extra, message):
    with pytest.raises(LegesError, match=message):
        leges.load(str(along_the_game(tmp_path, extra)))


def test_a_variant_adds_a_statistic_and_a_heuristic(tmp_path):
    folder = along_the_game(tmp_path, "")
    (folder / "variants").mkdir(exist_ok=True)
    (folder / "variants" / "count_centre.yaml").write_text("""leges_variant: 1
id: count_centre
title: Count the centre
kind: house_rule
description: A designer's figure and heuristic, added by a variant.
patch:
  - op: add
    section: statistics
    value: {id: centre_x, when: turn, value: "any(r1c1, m => m.owner == x)"}
  - op: add
    section: heuristics
    value: {id: centre, value: "10 * count(r1c1, m => m.owner == p)"}
""")
    game = leges.load(str(folder), variants=["count_centre"])
    assert "centre" in game.heuristics and [m.id for m in game.measures] == ["centre_x"]
    st = game.new_initial_state(players=2)
    st.apply_action("place square=r1c1")
    assert st.heuristic("centre") == [10.0, 0.0]
    assert "centre" not in leges.load(str(folder)).heuristics
