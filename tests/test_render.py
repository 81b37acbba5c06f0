"""leges render: an SVG of every bundled board — squares, hexes with tiles laid (turned), a graph —
with areas, pieces and a side panel; only what the chosen seat may see, by default only what every
player sees; the maps' `render:` sections checked like the rest of a map."""
from __future__ import annotations

import json
import random
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

import leges
from helpers import maps_dir, play_random, ruleset_dir
from leges.cli import main
from leges.render import render_svg, seat_view
from leges.render.style import style_of

SVG = "{http://www.w3.org/2000/svg}"
GAMES = [("tictactoe", 2), ("pompeii", 3), ("attika", 3), ("alexander", 3)]


@pytest.fixture(scope="module")
def games():
    return {name: leges.load(str(ruleset_dir(name))) for name, _ in GAMES}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def spaces_drawn(root) -> set[str]:
    return {g.get("data-space") for g in root.iter(SVG + "g") if g.get("class") == "space"}


def texts(root) -> str:
    return "\n".join("".join(t.itertext()) for t in root.iter(SVG + "text"))


def midgame(game, players, seed=1, steps=40):
    st = game.new_initial_state(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("name, players", GAMES)
def test_every_bundled_game_renders(games, name, players):
    game = games[name]
    for st in (game.new_initial_state(players=players, seed=2), midgame(game, players)):
        root = parse(render_svg(st))
        drawn = spaces_drawn(root)
        assert drawn and drawn <= set(game.board.spaces)
        words = texts(root)
        assert game.title in words and "view: public" in words
        view = seat_view(st)
        assert view.phase_name() in words and view.turn in words
        for seat in st.setup.seat_names:  # the side panel: every player, in its colour
            assert seat in words
        for space, pieces in view.spaces.items():
            assert space in drawn  # whatever stands on a space is drawn there


def test_squares_areas_and_pieces(games):
    game = games["pompeii"]
    st = midgame(game, 3)
    root = parse(render_svg(st))
    assert spaces_drawn(root) == set(game.board.spaces)  # 70 squares, the 7 beyond the wall left out
    areas = [p for p in root.iter(SVG + "path") if p.get("class") == "area"]
    assert len(areas) == sum(len(a) for a in game.board.areas.values())  # every building outlined
    words = texts(root)
    for number in ("1", "2", "11"):
        assert re.search(rf"(^|\n){number}(\n|$)", words)  # buildings labelled by number
    assert "Porta Marina" in words  # the gates, by the map's render: section
    pieces = [g for g in root.iter(SVG + "g") if g.get("class") == "piece"]
    on_board = sum(p.count for ps in seat_view(st).spaces.values() for p in ps)
    assert on_board and sum(int(m) if m else 1 for m in
                            (re.search(r"^(\d+) ×", "".join(g.find(SVG + "title").itertext())).group(1) for g in pieces)) == on_board
    red = style_of(game.board).players["red"]
    assert red in render_svg(st)  # pieces in their owner's colour


def test_a_hex_map_grows_and_shows_tiles_turned(games):
    """Attika: only hexes a tile covers are drawn (with the free table around them), each by its
    landscape; a tile laid at another rotation colours its ring differently."""
    game = games["attika"]
    st = play_random(game, 2, 5, until=lambda s: s.pending and s.pending.options[0].action == "place_tile")
    assert not st.is_terminal()
    centre = st.pending.options[0].params["centre"]
    pictures, lands = {}, {}
    for rotation in (0, 1):
        after = st.copy()
        after.apply_action(f"place_tile centre={centre} rotation={rotation}")
        pictures[rotation] = render_svg(after)
        ring = game.board.rings[centre]
        lands[rotation] = [after.sprops.get(h, {}).get("land") for h in ring]
    assert lands[0] != lands[1] and sorted(map(str, lands[0])) == sorted(map(str, lands[1]))
    assert pictures[0] != pictures[1]
    root = parse(pictures[0])
    drawn = spaces_drawn(root)
    covered = {s for s in game.board.spaces if (st.sprops.get(s) or {}).get("land") is not None}
    assert covered < drawn and len(drawn) < len(game.board.spaces) / 3  # the map, not the whole table
    colours = style_of(game.board).styles[1]["colours"]
    fills = {g.get("data-space"): g.find(SVG + "polygon").get("fill") for g in root.iter(SVG + "g")
             if g.get("class") == "space"}
    after = st.copy()
    after.apply_action(f"place_tile centre={centre} rotation=0")
    for h in game.board.rings[centre]:
        assert fills[h] == colours[after.sprops[h]["land"]]


def test_a_graph_map_is_drawn_where_its_nodes_are(games):
    game = games["alexander"]
    style = style_of(game.board)
    assert set(style.nodes) == set(game.board.spaces)  # every province placed by the map
    st = midgame(game, 3, steps=60)
    root = parse(render_svg(st))
    assert spaces_drawn(root) == set(game.board.spaces)
    lines = [e for e in root.iter(SVG + "line") if e.get("class") == "edge"]
    assert len(lines) == len({frozenset(k) for k in game.board.edge_props})
    assert sum(1 for e in lines if e.get("marker-end")) > 0  # one-way arrows have heads
    words = texts(root)
    assert "1. Hellas & Macedonia" in words and "Thessaly" in words
    from leges.board.board import approximations
    assert any(path[:1] == ("render",) for path, _ in approximations(game.board.doc.data))  # marked approximate


# ------------------------------------------------------------------ what may be seen
def test_the_public_picture_never_shows_a_hand(games):
    """What a seat cannot tell apart draws the same picture: for each seat its own picture, and
    the public one, are the same in worlds resampled for that seat (a hidden hand redealt)."""
    for name, players in GAMES[1:]:
        game = games[name]
        rng = random.Random(5)
        for seed in (1, 2):
            st = midgame(game, players, seed=seed, steps=25 + 10 * seed)
            if st.is_terminal():
                continue
            for p in range(players):
                other = st.resample(p, rng)
                assert render_svg(other, p) == render_svg(st, p), (name, seed, p)
                assert render_svg(other) == render_svg(st), (name, seed, p)


def test_a_seat_sees_its_hand_and_the_public_does_not(games):
    game = games["pompeii"]
    st = midgame(game, 3, steps=12)
    mine = seat_view(st, 0)
    hand = next(z for z in mine.zones if z.key == "hand.red")
    assert hand.pieces and hand.count == 4
    public = seat_view(st)
    assert next(z for z in public.zones if z.key == "hand.red").pieces is None
    words = texts(parse(render_svg(st, 0)))
    cards = " ".join(p.label for p in hand.pieces)
    assert "hand 4:" in words and "hand 4 hidden" in texts(parse(render_svg(st)))
    assert "view: red" in words and cards.split()[0] in words


def test_owner_only_variables_are_hidden_in_public(games):
    game = games["alexander"]
    st = midgame(game, 3, steps=60)
    secret = [n for n, v in game.variable_visibility.items() if v == "owner"]
    assert secret
    public = seat_view(st)
    for name in secret:
        value = public.vars.get(name)
        assert value is None or value == ["?"] * 3


# ------------------------------------------------------------------------ the command
def test_the_command_renders_a_start_a_state_and_a_record(tmp_path, capsys):
    out = tmp_path / "t.svg"
    assert main(["render", str(ruleset_dir("tictactoe")), "-o", str(out)]) == 0
    assert parse(out.read_text()).tag == SVG + "svg"
    assert main(["simulate", str(ruleset_dir("pompeii")), "-p", "3", "-g", "1", "--records", str(tmp_path), "-q"]) == 0
    record = next(tmp_path.glob("*.json"))
    capsys.readouterr()
    assert main(["render", str(ruleset_dir("pompeii")), "--record", str(record), "--step", "30", "--seat", "black",
                 "-o", str(tmp_path / "p.svg")]) == 0
    svg = (tmp_path / "p.svg").read_text()
    assert 'data-view="black"' in svg and "hand.black" not in svg
    game = leges.load(str(ruleset_dir("pompeii")))
    st = game.new_initial_state(players=3, seed=json.loads(record.read_text())["seed"])
    for text in json.loads(record.read_text())["actions"][:29]:
        st.apply_action(text)
    before = st.copy()
    st.apply_action(json.loads(record.read_text())["actions"][29])
    assert svg == render_svg(st, 1, before=before)  # the record's last action marked
    (tmp_path / "state.json").write_text(st.to_json())
    assert main(["render", str(ruleset_dir("pompeii")), "--state", str(tmp_path / "state.json")]) == 0
    assert capsys.readouterr().out == render_svg(st)
    assert main(["render", str(maps_dir() / "alexander.yaml"), "-o", str(tmp_path / "map.svg")]) == 0
    assert "thessalia" in (tmp_path / "map.svg").read_text()


def test_the_command_reports_problems(tmp_path, capsys):
    assert main(["render", str(ruleset_dir("tictactoe")), "--step", "3"]) == 2
    assert "--step is a step of a record" in capsys.readouterr().err
    assert main(["simulate", str(ruleset_dir("tictactoe")), "-g", "1", "--records", str(tmp_path), "-q"]) == 0
    record = next(tmp_path.glob("*.json"))
    capsys.readouterr()
    assert main(["render", str(ruleset_dir("tictactoe")), "--record", str(record), "--step", "99"]) == 2
    assert "there is no step 99" in capsys.readouterr().err
    assert main(["render", str(ruleset_dir("tictactoe")), "--seat", "z"]) == 2
    assert "no player 'z'" in capsys.readouterr().err


@pytest.fixture
def game_copy(tmp_path):
    shutil.copytree(ruleset_dir("tictactoe"), tmp_path / "rulesets" / "tictactoe")
    (tmp_path / "maps").mkdir()
    shutil.copy(maps_dir() / "tictactoe.yaml", tmp_path / "maps")
    return tmp_path


def test_render_sections_are_checked_and_located(game_copy, capsys):
    path = game_copy / "maps" / "tictactoe.yaml"
    base = path.read_text().split("render:\n")[0]  # the map without its own render section
    path.write_text(base + "render:\n  sise: 40\n")
    assert main(["validate", str(game_copy / "rulesets" / "tictactoe")]) == 2
    err = capsys.readouterr().err
    assert "tictactoe.yaml:" in err and "sise" in err
    path.write_text(base + "render:\n  styles:\n    - {when: {colour: red}, fill: red}\n  nodes: {r9c9: [1, 2]}\n")
    assert main(["render", str(game_copy / "rulesets" / "tictactoe"), "-o", str(game_copy / "x.svg")]) == 2
    err = capsys.readouterr().err
    line = base.count("\n") + 3
    assert f"tictactoe.yaml:{line}:" in err and "spaces have no property 'colour'" in err
    assert "no space 'r9c9' on this board" in err


def test_every_bundled_map_has_a_sound_render_section():
    from leges.text.errors import Collector
    for name, _ in GAMES:
        game = leges.load(str(ruleset_dir(name)))
        errors = Collector()
        style_of(game.board, errors)
        assert not errors.diagnostics, [d.format() for d in errors.diagnostics]


def test_texts_from_a_ruleset_are_escaped(game_copy):
    """A label or a seat name with markup in it is drawn as text, never as SVG."""
    path = game_copy / "rulesets" / "tictactoe" / "ruleset.yaml"
    text = path.read_text().replace("label: text(it.owner)", 'label: "\\"<script>&x\\""')
    path.write_text(text)
    game = leges.load(str(game_copy / "rulesets" / "tictactoe"))
    st = game.new_initial_state(players=2, seed=0)
    st.apply_action(st.legal_actions()[0])
    svg = render_svg(st, 0)
    assert "<script>" not in svg and "&lt;script&gt;&amp;x" in svg
    parse(svg)
