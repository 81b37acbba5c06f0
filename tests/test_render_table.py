"""leges render of a ruleset without a map: the zones laid out as a table (render/svg_table.py) —
shared zones in the middle, each player's in an area of its own, cards face up only where the seat
may see them; the last action's zones and spaces marked (from dashed, to solid); the end shown."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import leges
from helpers import ruleset_dir
from leges.cli import main
from leges.render import render_svg, seat_view
from leges.render.view import last_changes

from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
RULESETS = Path(__file__).parent / "rulesets"


@pytest.fixture(scope="module")
def open_draw():
    return leges.load(str(RULESETS / "open_draw"))


@pytest.fixture(scope="module")
def auction():
    return leges.load(str(RULESETS / "auction"))


def zones_drawn(root) -> dict[str, ET.Element]:
    return {g.get("data-zone"): g for g in root.iter(SVG + "g") if (g.get("class") or "").split()[:1] == ["zone"]}


def faces(group) -> list[str]:
    return [g.get("data-label") for g in group.iter(SVG + "g") if g.get("class") == "card face"]


def backs(group) -> int:
    return sum(1 for r in group.iter(SVG + "rect") if r.get("class") == "card back")


def test_a_table_holds_a_group_per_zone(auction):
    st = auction.new_initial_state(players=3, seed=1)
    root = ET.fromstring(render_svg(st))
    drawn = zones_drawn(root)
    assert set(drawn) == {z.key for z in seat_view(st).zones if z.key != "out_of_game"}
    areas = [g.get("data-player") for g in root.iter(SVG + "g") if g.get("class") == "area player"]
    assert sorted(areas) == ["o", "x", "z"]
    block = drawn["block"]  # a visible pile: its top face up, with its number
    (label,) = faces(block)
    top = st.zones["block"][-1]
    assert label == st.setup.clabel[top]
    value = str(st.setup.cstatic[top]["value"])
    assert value in "".join("".join(t.itertext()) for t in block.iter(SVG + "text"))
    assert faces(drawn["deck"]) == [] and backs(drawn["deck"]) >= 1  # a hidden deck: backs and its count
    assert "7" in "".join(drawn["deck"].itertext())


def test_a_hand_is_face_up_only_for_its_owner(open_draw):
    st = open_draw.new_initial_state(players=3, seed=2)  # each hand dealt a card, nothing logged yet
    labels = {key: [st.setup.clabel[c] for c in st.zones[key]] for key in ("hand.x", "hand.o", "hand.z")}
    svg = render_svg(st, 0)
    drawn = zones_drawn(ET.fromstring(svg))
    assert faces(drawn["hand.x"]) == labels["hand.x"]
    for key in ("hand.o", "hand.z"):
        assert faces(drawn[key]) == [] and backs(drawn[key]) == 1
        for label in labels[key]:
            if label not in labels["hand.x"]:
                assert label not in svg  # hidden information: nowhere in the picture
    public = render_svg(st)
    for key, cards in labels.items():
        assert faces(zones_drawn(ET.fromstring(public))[key]) == []
        assert not any(label in public for label in cards)


def table_part(svg: str) -> str:
    return svg[svg.index('<g class="table">'):svg.index('<g class="panel">')]


def test_the_table_shows_nothing_a_seat_cannot_tell_apart(open_draw):
    """The whole picture as the seat sees it (the panel too: open_draw's `last_taken`, a card a
    variable names, keeps its identity in every world), and the public table."""
    rng = random.Random(3)
    for seed in (1, 2, 3):
        st = open_draw.new_initial_state(players=3, seed=seed)
        for _ in range(2):
            st.apply_action(rng.choice(st.legal_actions()))
        for p in range(3):
            other = st.resample(p, rng)
            assert render_svg(other, p) == render_svg(st, p)
            assert table_part(render_svg(other)) == table_part(render_svg(st))


def test_the_last_move_is_marked_from_and_to(open_draw):
    st = open_draw.new_initial_state(players=3, seed=1)
    before = st.copy()
    st.apply_action("take")  # the deck's top card, drawn face up, into x's hand
    view = seat_view(st, 1, before=before)
    assert view.last == {"deck": "from", "hand.x": "to"}  # the table it passed over ends as it began
    drawn = zones_drawn(ET.fromstring(render_svg(st, 1, before=before)))
    assert drawn["deck"].get("class") == "zone last from" and drawn["hand.x"].get("class") == "zone last to"
    marks = {r.get("class"): r.get("stroke-dasharray") for g in drawn.values() for r in g.iter(SVG + "rect")
             if (r.get("class") or "").startswith("mark")}
    assert marks == {"mark from": "7 4", "mark to": None}  # the source dashed, the target solid
    assert "last" not in drawn["table"].get("class")
    assert seat_view(st, 1).last == {}  # without the state before: nothing marked


def test_marks_compare_only_what_the_seat_sees(open_draw):
    st = open_draw.new_initial_state(players=3, seed=1)
    st.apply_action("take")
    old, new = seat_view(st, 2), seat_view(st, 2)
    assert last_changes(old, new) == {}
    with pytest.raises(ValueError):
        last_changes(seat_view(st, 0), seat_view(st, 1))


def test_a_map_marks_the_last_move():
    game = leges.load(str(ruleset_dir("tictactoe")))
    st = game.new_initial_state(players=2, seed=0)
    before = st.copy()
    action = st.legal_actions()[0]
    st.apply_action(action)
    root = ET.fromstring(render_svg(st, before=before))
    marked = [(e.get("data-space"), e.get("class")) for e in root.iter() if (e.get("class") or "").startswith("last")]
    (space, cls), = marked
    assert cls == "last to" and space in game.board.spaces and st.zones[space]


def test_the_command_marks_a_records_last_action(tmp_path):
    assert main(["simulate", str(RULESETS / "open_draw"), "-p", "3", "-g", "1", "--seed", "4", "--records", str(tmp_path), "-q"]) == 0
    record = next(tmp_path.glob("*.json"))
    assert main(["render", str(RULESETS / "open_draw"), "--record", str(record), "--step", "1", "-o", str(tmp_path / "o.svg")]) == 0
    svg = (tmp_path / "o.svg").read_text()
    assert 'class="zone last from" data-zone="deck"' in svg
    assert main(["render", str(RULESETS / "open_draw"), "--record", str(record), "--step", "0", "-o", str(tmp_path / "z.svg")]) == 0
    assert "zone last" not in (tmp_path / "z.svg").read_text()


def test_the_end_is_shown(auction):
    st = auction.new_initial_state(players=2, seed=1)
    rng = random.Random(1)
    assert ET.fromstring(render_svg(st)).find(f".//{SVG}g[@class='result']") is None  # not before the end
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    root = ET.fromstring(render_svg(st))
    banner = root.find(f".//{SVG}g[@class='result']")
    words = " ".join("".join(t.itertext()) for t in banner.iter(SVG + "text"))
    view = seat_view(st)
    assert "game over" in words
    for p, score in enumerate(view.scores):
        assert f"{view.seats[p]} {score}" in words
    winner = view.ranking[0]
    if len(winner) == 1:
        assert f"{view.seats[winner[0]]} wins" in words
    headers = {g.get("data-player"): "".join(g.find(SVG + "text").itertext()) for g in root.iter(SVG + "g")
               if g.get("class") == "area player"}
    for p in winner:
        assert "1st" in headers[view.seats[p]]


def test_a_map_shows_the_end_too():
    game = leges.load(str(ruleset_dir("tictactoe")))
    st = game.new_initial_state(players=2, seed=0)
    rng = random.Random(0)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    banner = ET.fromstring(render_svg(st)).find(f".//{SVG}g[@class='result']")
    assert banner is not None and "game over" in "".join(banner.itertext())


def test_the_page_gets_the_marks(open_draw):
    from leges.web.views import seat_payload
    st = open_draw.new_initial_state(players=3, seed=1)
    before = st.copy()
    st.apply_action("take")
    svg = seat_payload(st, 0, before=before)["svg"]
    assert 'class="zone last from" data-zone="deck"' in svg and 'class="zone last to" data-zone="hand.x"' in svg
    assert "zone last" not in seat_payload(st, 0)["svg"]
