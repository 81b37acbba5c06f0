"""How strong `mcts` is on each bundled game: its default against greedy, and a ladder of budgets.

    python benchmarks/agents_strength.py                       # every bundled game (hours on one core)
    python benchmarks/agents_strength.py --games tictactoe,pompeii --rounds 4
    python benchmarks/agents_strength.py --games attika --skip-ladder --vs-rounds 3
    python benchmarks/agents_strength.py --json
    python benchmarks/agents_strength.py --add runs/*.json    # earlier --json runs (a seed each), added up

Two figures a game, the bars of issue 20 ("search that gets stronger with budget"):

1. `mcts` at its documented default budget in one seat, `greedy` in every other, every seat
   rotated (each seed played in every seating): MCTS's win rate (a shared first place counts its
   share) with Wilson's 95 % interval, against the fair share 1 / players. It beats greedy when
   the interval lies above the fair share.
2. A ladder (`leges ladder`'s round-robin in every seating, Bradley–Terry ratings with 95 %
   intervals) of `mcts` at three iteration budgets, and whether the rating rises with the budget
   at every step in 95 % of the resamples.

Games are played with `leges.lab.runner.run`, so the figures are those `leges simulate` and `leges
ladder` would give for the same seeds; they do not depend on `--jobs`. Slow: it is a benchmark,
not a test (the default tests check the mechanisms, not the strength).
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "interpreter"))

import leges  # noqa: E402
from leges.lab import ladder  # noqa: E402
from leges.lab.metrics import wins  # noqa: E402
from leges.lab.runner import Job, plan, remember, run  # noqa: E402
from leges.lab.simulate import PlayResult  # noqa: E402
from leges.lab.stats import wilson  # noqa: E402

# the bundled games, each measured at its least number of players (as `leges ladder` does): two
# seats make the cheapest games and the plainest comparison (a fair share of one half)
GAMES = ("tictactoe", "pompeii", "attika", "alexander")
DEFAULT = "mcts"  # the documented default budget (docs/agents.md)
OPPONENT = "greedy"
BUDGETS = (10, 100, 1000)


def job_for(name: str, players: int):
    path = str(ROOT / "rulesets" / name)
    game = leges.load(path)
    job = Job(os.path.abspath(path), (), players)
    remember(job, game)
    return game, job


def against_greedy(name: str, players: int, rounds: int, seed: int, jobs: int, agent: str = DEFAULT) -> dict:
    """`agent` in one seat, greedy in the others, every seating, `rounds` seeds."""
    game, job = job_for(name, players)
    specs = [agent] + [OPPONENT] * (players - 1)
    seatings = players  # one agent among identical ones: as many distinct seatings as seats
    start = time.perf_counter()
    results = run(job, plan(seed, rounds * seatings, specs, rotate=True), jobs)
    seconds = time.perf_counter() - start
    seats = game.setup_for(players).seat_names
    won = 0.0
    finished = 0
    for r in results:
        share = wins(r, seats)
        if share is None:
            continue
        finished += 1
        won += share[r.agents.index(agent)]
    rate = wilson(won, finished)
    return {"ruleset": name, "players": players, "agent": agent, "opponent": OPPONENT, "games": len(results),
            "finished": finished, "won": won, "win_rate": rate.value, "low": rate.low, "high": rate.high,
            "fair_share": 1 / players, "beats_greedy": rate.low > 1 / players, "seconds": seconds,
            "seeds": [seed, seed + rounds - 1]}


def budget_ladder(name: str, players: int, rounds: int, seed: int, jobs: int, budgets=BUDGETS) -> dict:
    """`mcts` at three budgets, round-robin in every seating, rated."""
    game, job = job_for(name, players)
    agents = [f"mcts:iterations={b}" for b in budgets]
    start = time.perf_counter()
    results = run(job, ladder.plan(agents, players, rounds, seed), jobs)
    seconds = time.perf_counter() - start
    seats = game.setup_for(players).seat_names
    rated = ladder.rate(results, agents, seats, seed)
    # wins[i][j]: games agent i finished above agent j; runs on other seeds add up to one ladder
    return {"ruleset": name, "players": players, "games": len(results), "rounds": rounds, "seconds": seconds,
            "seeds": [seed, seed + rounds - 1], "wins": ladder.pairwise(results, agents, seats), **rated.to_json()}


def add_up(paths: list[str]) -> list[dict]:
    """The rows of earlier `--json` runs (one process a seed, say) added up, a row per game and
    figure, `seeds` then listing every seed. Against greedy: the games won and finished summed,
    Wilson's interval taken again. A ladder: its pairwise results summed and rated as `leges
    ladder` rates them (`lab.ladder.rate`, its bootstrap over games): at two players each game is
    one pair of agents, so the games are rebuilt from the pairwise wins (two shared first places
    come back as a win each: the same totals; ladders of more players cannot be, and are refused)."""
    groups: dict[tuple, list[dict]] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                who = tuple(r["agent"] for r in row["ratings"]) if "wins" in row else (row["agent"], row["opponent"])
                groups.setdefault(("wins" in row, row["ruleset"], row["players"], who), []).append(row)
    out = []
    for (is_ladder, name, players, who), rows in groups.items():
        seeds = sorted({s for r in rows for s in range(r["seeds"][0], r["seeds"][1] + 1)})
        common = {"ruleset": name, "players": players, "games": sum(r["games"] for r in rows),
                  "seconds": sum(r["seconds"] for r in rows), "seeds": seeds}
        if not is_ladder:
            won, finished = sum(r["won"] for r in rows), sum(r["finished"] for r in rows)
            rate = wilson(won, finished)
            out.append({**common, "agent": who[0], "opponent": who[1], "finished": finished, "won": won,
                        "win_rate": rate.value, "low": rate.low, "high": rate.high, "fair_share": 1 / players,
                        "beats_greedy": rate.low > 1 / players})
            continue
        if players != 2:
            raise SystemExit(f"{name}: ladders of {players} players cannot be added up from their pairwise wins")
        agents = list(who)
        results = []
        for r in rows:
            for i, j in itertools.combinations(range(len(agents)), 2):
                a, b = r["wins"][i][j], r["wins"][j][i]
                for ranking, count in (([["a"], ["b"]], int(a)), ([["b"], ["a"]], int(b)), ([["a", "b"]], round(2 * (a % 1)))):
                    results += [PlayResult(r["seeds"][0], ranking, [], [], 0, False, agents=[agents[i], agents[j]])] * count
        rated = ladder.rate(results, agents, ["a", "b"], seeds[0])
        out.append({**common, "rounds": sum(r["rounds"] for r in rows),
                    "wins": ladder.pairwise(results, agents, ["a", "b"]), **rated.to_json()})
    return out


def show_versus(row: dict) -> None:
    verdict = "beats greedy" if row["beats_greedy"] else "not shown to beat greedy"
    print(f"{row['ruleset']:<10} {row['players']}p  {row['agent']} vs {OPPONENT}: {100 * row['win_rate']:5.1f} % "
          f"[{100 * row['low']:.1f} %, {100 * row['high']:.1f} %] of {row['finished']} games "
          f"(fair share {100 * row['fair_share']:.1f} %): {verdict}; {row['seconds']:.0f} s", flush=True)


def show_ladder(row: dict) -> None:
    print(f"{row['ruleset']:<10} {row['players']}p  ladder, {row['games']} games, {row['seconds']:.0f} s", flush=True)
    for r in row["ratings"]:
        print(f"    {r['agent']:<22} {r['rating']:+6.0f}  [{r['low']:+5.0f}, {r['high']:+5.0f}]  "
              f"results won {100 * r['score']:5.1f} %", flush=True)
    index = {r["agent"]: i for i, r in enumerate(row["ratings"])}
    for b in row["budgets"]:
        steps = ", ".join(f"{lo.rsplit('=', 1)[-1]} → {hi.rsplit('=', 1)[-1]} in {100 * row['above'][index[hi]][index[lo]]:.1f} %"
                          for lo, hi in itertools.pairwise(b["agents"]))
        print(f"    rises with {b['parameter']} at every step: {'yes' if b['rises'] else 'NOT shown'} "
              f"(each step in 95 % of the resamples: {steps})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 2)[2])
    parser.add_argument("--games", default=",".join(GAMES), help="bundled games, comma-separated (default: all)")
    parser.add_argument("--vs-rounds", type=int, default=10,
                        help="seeds of MCTS against greedy, each played in every seating (default 10)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the budget ladder (default 4)")
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)),
                        help=f"the ladder's three iteration budgets (default {','.join(map(str, BUDGETS))})")
    parser.add_argument("--agent", default=DEFAULT, help=f"the agent set against greedy (default {DEFAULT})")
    parser.add_argument("--players", "-p", type=int, default=None, help="players (default: the least allowed)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="processes (default 1; figures do not depend on it)")
    parser.add_argument("--skip-versus", action="store_true", help="only the ladder")
    parser.add_argument("--skip-ladder", action="store_true", help="only MCTS against greedy")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument("--add", nargs="+", metavar="FILE",
                        help="add up the --json output of earlier runs (other seeds) instead of playing")
    args = parser.parse_args()
    if args.add:
        for row in add_up(args.add):
            print(json.dumps(row), flush=True) if args.json else (show_ladder if "wins" in row else show_versus)(row)
        return
    budgets = tuple(int(b) for b in args.budgets.split(","))
    for name in args.games.split(","):
        if name not in GAMES:
            parser.error(f"no bundled game '{name}' (games: {', '.join(GAMES)})")
        players = args.players or leges.load(str(ROOT / "rulesets" / name)).min_players
        if not args.skip_versus:
            row = against_greedy(name, players, args.vs_rounds, args.seed, args.jobs, args.agent)
            print(json.dumps(row), flush=True) if args.json else show_versus(row)
        if not args.skip_ladder:
            row = budget_ladder(name, players, args.rounds, args.seed, args.jobs, budgets)
            print(json.dumps(row), flush=True) if args.json else show_ladder(row)


if __name__ == "__main__":
    main()
