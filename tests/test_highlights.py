"""Highlights (issue 23: "winning lines ... shown at the end"): a ruleset's `highlights:` names, in the
rule language, the spaces its pictures mark; Tic-Tac-Toe strikes its winning line through once the game
is won, and marks nothing during play or at a draw. A highlight that gives no spaces, or that fails, is
an error located at its expression; one in a ruleset without a map, or with a shape not known, too."""
from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest

import leges
from helpers import ROOT, ruleset_dir
from leges.cli import main
from leges.render import render_svg, seat_view
from leges.text.errors import LegesError

SVG = "{http://www.w3.org/2000/svg}"
TOP_ROW = ("r0c0", "r1c0", "r0c1", "r1c1", "r0c2")  # x fills the top row, o the middle one but for r1c2
DRAW = ("r1c1", "r0c0", "r0c2", "r2c0", "r1c0", "r1c2", "r0c1", "r2c1", "r2c2")


@pytest.fixture(scope="module")
def tictactoe():
    return leges.load(str(ruleset_dir("tictactoe")))


def played(game, squares):
    st = game.new_initial_state(players=2, seed=0)
    for square in squares:
        if st.is_terminal():
            break
        st.apply_action(f"place square={square}")
    return st


def marks(svg: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if "highlight" in (e.get("class") or "").split()]


def test_the_winning_line_is_struck_through_at_the_end(tictactoe):
    st = played(tictactoe, TOP_ROW)
    assert st.is_terminal()
    for seat in (None, 0, 1):
        found = marks(render_svg(st, seat))
        assert len(found) == 1, found
        line = found[0]
        assert line.tag == SVG + "polyline" and line.get("class") == "highlight line"
        assert line.get("data-highlight") == "winning_line" and line.get("data-spaces") == "r0c0 r0c1 r0c2"
        xs = [float(p.split(",")[0]) for p in line.get("points").split()]
        ys = {p.split(",")[1] for p in line.get("points").split()}
        assert len(ys) == 1 and xs == sorted(xs) and len(xs) == 3  # across the row, left to right
    assert [m.spaces for m in seat_view(st, 0).highlights] == [("r0c0", "r0c1", "r0c2")]


def test_nothing_is_marked_during_play_or_at_a_draw(tictactoe):
    assert not marks(render_svg(played(tictactoe, TOP_ROW[:4])))
    draw = played(tictactoe, DRAW)
    assert draw.is_terminal() and draw.scores() == [0, 0]
    assert not marks(render_svg(draw))


def _copy(tmp_path, old: str, new: str, ruleset: str = "tictactoe"):
    folder = tmp_path / "rulesets" / ruleset
    shutil.copytree(ROOT / "rulesets" / ruleset if ruleset == "tictactoe" else ROOT / "tests" / "rulesets" / ruleset, folder)
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    path = folder / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return folder, text.replace(old, new).splitlines()


SPACES = '    spaces: "[line for line in lines(3) if all(line, s => count(s) > 0 and top(s).owner == winner)]"'


def test_cells_are_outlined_and_take_their_colour(tmp_path):
    folder, _ = _copy(tmp_path, "    shape: line\n", "    colour: teal\n")
    st = played(leges.load(str(folder)), TOP_ROW)
    found = marks(render_svg(st))
    assert [g.get("data-space") for g in found] == ["r0c0", "r0c1", "r0c2"]
    assert all(g.get("class") == "highlight cells" and g[0].get("stroke") == "teal" for g in found)


def test_a_highlight_that_gives_no_spaces_is_located(tmp_path, capsys):
    folder, lines = _copy(tmp_path, SPACES, '    spaces: "count(spaces)"')
    with pytest.raises(LegesError) as err:
        leges.load(str(folder))
    d = err.value.diagnostics[0]
    assert "highlight 'winning_line' must give spaces" in d.message and "not int" in d.message
    assert (d.position.line, d.position.col) == (lines.index('    spaces: "count(spaces)"') + 1, 13)
    assert main(["validate", str(folder)]) != 0
    assert f"ruleset.yaml:{d.position.line}:13: error: highlight 'winning_line'" in capsys.readouterr().err


def test_a_highlight_that_fails_is_located_when_it_is_drawn(tmp_path):
    folder, lines = _copy(tmp_path, SPACES, '    when: always\n    spaces: "[s for s in spaces if top(s).owner == winner]"')
    game = leges.load(str(folder))  # it type-checks: it fails only where a square is empty
    with pytest.raises(LegesError) as err:
        render_svg(game.new_initial_state(players=2, seed=0))
    d = err.value.diagnostics[0]
    assert d.message.startswith("highlight 'winning_line' failed:")
    assert d.position.line == next(i for i, line in enumerate(lines, 1) if "top(s).owner == winner]" in line)


def test_a_highlight_needs_a_map_and_a_known_shape(tmp_path, capsys):
    folder, _ = _copy(tmp_path, "    shape: line\n", "    shape: zigzag\n")
    assert main(["validate", str(folder)]) != 0
    out = capsys.readouterr().err
    assert "ruleset.yaml:" in out and "zigzag" in out
    table, _ = _copy(tmp_path / "t", "\nzones:", '\nhighlights:\n  - {id: none_here, spaces: "[]"}\n\nzones:', "open_draw")
    with pytest.raises(LegesError) as err:
        leges.load(str(table))
    assert "highlight 'none_here' marks spaces, and this ruleset has no map" in err.value.diagnostics[0].message
