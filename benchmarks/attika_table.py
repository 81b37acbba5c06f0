"""Does Attika's table edge bind? Random games on a table that never binds, each tile placement
checked against the bundled table.

The rulebook's table has no edge: a new map tile may go anywhere it touches the map or a shrine.
The bundled board (maps/attika.yaml) is a finite hex table. This plays random games (uniformly
random legal actions) on a copy of the ruleset whose table is so much larger that nothing reaches
its edge (the start map moved into its middle; the script says so if a game came near that edge),
and at every tile placement looks at each legal place: is the tile's flower of seven hexes on the
bundled table too, where the bundled start map lies? A placement is cut when at least one of its
legal places is not. It prints, per number of players, the placements and the places cut, and
how far from the start map (and its shrines) the legal tiles reached.

    .venv/bin/python benchmarks/attika_table.py --players 4 --games 1000
    .venv/bin/python benchmarks/attika_table.py --players 2 3 4 --games 50 --json
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "interpreter"))

HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ID = re.compile(r"^h(\d+)_(\d+)$")


def coord(space: str) -> tuple[int, int]:
    m = ID.match(space)
    return int(m.group(1)), int(m.group(2))


def distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def table_cells(map_data: dict) -> set[tuple[int, int]]:
    grid = map_data["grid"]
    cells = {tuple(c) for c in grid.get("cells", [])} or {(q, r) for q in range(grid["cols"]) for r in range(grid["rows"])}
    return cells - {tuple(c) for c in grid.get("missing", [])}


def start_hexes(setup: dict) -> list[tuple[int, int]]:
    """The 4-player start map's hexes and its shrines (those of 2 and 3 players are among them)."""
    values = {c["id"]: c["value"] for c in setup["constants"]}
    out = [coord(s) for s in values["shrine_hexes"]]
    for centre in values["start_centres"]:
        q, r = coord(centre)
        out += [(q, r)] + [(q + dq, r + dr) for dq, dr in HEX_DIRS]
    return out


def wide_copy(ruleset: Path, maps: Path, folder: Path, size: int, offset: int) -> None:
    """The ruleset in `folder`, on a `size` by `size` table, the start map moved by `offset` hexes
    along both axes."""
    shutil.copytree(ruleset, folder / "attika", ignore=shutil.ignore_patterns("scenarios"))
    (folder / "maps").mkdir()
    data = yaml.safe_load((maps / "attika.yaml").read_text(encoding="utf-8"))
    data["grid"] = {"rows": size, "cols": size, "id_format": data["grid"].get("id_format", "h{q}_{r}")}
    (folder / "maps" / "attika.yaml").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    path = folder / "attika" / "setup.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\bh(\d+)_(\d+)\b", lambda m: f"h{int(m.group(1)) + offset}_{int(m.group(2)) + offset}", text)
    path.write_text(text, encoding="utf-8")


def measure(game, players: int, games: int, seed: int, offset: int, bundled: set, start: list, size: int) -> dict:
    from leges.agents.seeding import agent_rng
    placements = cut_placements = places = cut_places = games_cut = 0
    reach = 0  # farthest hex of a legal tile from the start map, in hexes
    wide_start = [(q + offset, r + offset) for q, r in start]
    t0 = time.perf_counter()
    for g in range(games):
        st = game.new_initial_state(players=players, seed=seed + g)
        rng = agent_rng(seed + g)
        cut_here = 0
        while not st.is_terminal():
            options = st.pending.options
            if options and options[0][1] == "place_tile":
                centres = {o.params["centre"] for o in options}
                placements += 1
                cut = 0
                for centre in centres:
                    q, r = coord(centre)
                    flower = [(q, r)] + [(q + dq, r + dr) for dq, dr in HEX_DIRS]
                    reach = max(reach, max(min(distance(h, s) for s in wide_start) for h in flower))
                    if not all((hq - offset, hr - offset) in bundled for hq, hr in flower):
                        cut += 1
                places += len(centres)
                cut_places += cut
                cut_placements += cut > 0
                cut_here += cut > 0
            st.apply_option(rng.randrange(len(options)))
        games_cut += cut_here > 0
    # the wide table's own edge: the nearest any start hex is to it
    margin = min(min(q, r, size - 1 - q, size - 1 - r) for q, r in wide_start)
    return {"players": players, "games": games, "placements": placements, "placements_cut": cut_placements,
            "places": places, "places_cut": cut_places, "games_with_a_cut": games_cut,
            "reach": reach, "wide_margin": margin, "seconds": round(time.perf_counter() - t0, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="attika_table", description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, nargs="+", default=[4], help="numbers of players (default 4)")
    p.add_argument("--games", type=int, default=100, help="random games per number of players (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed (then seed+1, ...)")
    p.add_argument("--ruleset", default=str(ROOT / "rulesets" / "attika"), help="the Attika ruleset folder")
    p.add_argument("--maps", default=str(ROOT / "maps"), help="the maps folder beside it (the bundled table)")
    p.add_argument("--wide", type=int, default=30, help="hexes from the start map to the wide table's edge (default 30); if a legal tile reaches it, the script says so")
    p.add_argument("--json", action="store_true", help="the results as JSON")
    args = p.parse_args(argv)

    import leges
    maps = Path(args.maps)
    bundled = table_cells(yaml.safe_load((maps / "attika.yaml").read_text(encoding="utf-8")))
    start = start_hexes(yaml.safe_load((Path(args.ruleset) / "setup.yaml").read_text(encoding="utf-8")))
    lo = min(min(q, r) for q, r in start)
    hi = max(max(q, r) for q, r in start)
    offset = args.wide - lo
    size = hi + offset + args.wide + 1
    with tempfile.TemporaryDirectory() as tmp:
        wide_copy(Path(args.ruleset), maps, Path(tmp), size, offset)
        game = leges.load(str(Path(tmp) / "attika"))
        results = [measure(game, n, args.games, args.seed, offset, bundled, start, size) for n in args.players]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"bundled table: {len(bundled)} hexes; wide table for measuring: {size} x {size}, start map {args.wide} hexes from its edge")
    for r in results:
        share = 100 * r["placements_cut"] / r["placements"] if r["placements"] else 0.0
        pshare = 100 * r["places_cut"] / r["places"] if r["places"] else 0.0
        print(f"{r['players']} players, {r['games']} games ({r['seconds']} s): {r['placements_cut']} of {r['placements']} "
              f"tile placements cut ({share:.1f} %), {r['places_cut']} of {r['places']} legal places ({pshare:.2f} %), "
              f"in {r['games_with_a_cut']} games; legal tiles reached {r['reach']} hexes from the start map")
        if r["reach"] >= args.wide:
            print(f"  the wide table bound too (reach {r['reach']} >= {args.wide}): measure again with a larger --wide")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
