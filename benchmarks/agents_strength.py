"""How strong `mcts` is on each game, and at what cost: against greedy, greedy against random, a ladder of budgets.

    python benchmarks/agents_strength.py                       # every bundled and test game (hours on one core)
    python benchmarks/agents_strength.py --games tictactoe,pompeii --rounds 4
    python benchmarks/agents_strength.py --games attika --skip-ladder --vs-rounds 3
    python benchmarks/agents_strength.py --games auction,expeditions --agent mcts:iterations=100
    python benchmarks/agents_strength.py --json
    python benchmarks/agents_strength.py --add runs/*.json    # earlier --json runs (a seed each), added up

Games: the bundled ones by name, and the test games of issue 39 (`auction`: tests/rulesets/auction,
money and numbered lots, no heuristic declared; `expeditions`: tests/rulesets/expeditions, a card
game of expeditions and wagers), or any ruleset folder by its path.

Three figures a game, the bars of issues 20 and 39 ("search that gets stronger with budget",
"strength per CPU-second"):

1. The agent (`--agent`, by default `mcts` as it is by default) in one seat, `greedy` in every
   other, every seat rotated (each seed played in every seating): its win rate (a shared first
   place counts its share) with Wilson's 95 % interval, against the fair share 1 / players. It
   beats greedy when the interval lies above the fair share.
2. `greedy` in one seat against `random` in the others, the same way (`--skip-random` leaves it out).
3. A ladder (`leges ladder`'s round-robin in every seating, Bradley–Terry ratings with 95 %
   intervals) of `mcts` at three iteration budgets, and whether the rating rises with the budget
   at every step in 95 % of the resamples.

Every figure comes with its cost in CPU seconds (`time.process_time`, this process: run it with
`--jobs 1`, the default, for CPU figures): of the whole games, and of each agent's own decisions
(`agent_cpu`: the seconds its `start`, `choose` and `interrupt` took, per game it played a seat
in) — what a study's game costs with that agent in every seat is about `players` times that,
plus the rules' own share (greedy against greedy shows it).

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
from leges.lab import simulate as _simulate  # noqa: E402
from leges.lab.simulate import PlayResult  # noqa: E402
from leges.lab.stats import wilson  # noqa: E402

# the bundled games, each measured at its least number of players (as `leges ladder` does): two
# seats make the cheapest games and the plainest comparison (a fair share of one half)
GAMES = ("tictactoe", "pompeii", "attika", "alexander")
TEST_GAMES = {"auction": "tests/rulesets/auction", "expeditions": "tests/rulesets/expeditions"}  # issue 39's two kinds
DEFAULT = "mcts"  # the documented default budget (docs/agents.md)
OPPONENT = "greedy"
BUDGETS = (10, 100, 1000)


def path_of(name: str) -> str:
    if name in GAMES:
        return str(ROOT / "rulesets" / name)
    if name in TEST_GAMES:
        return str(ROOT / TEST_GAMES[name])
    return os.path.abspath(name)


def job_for(name: str, players: int):
    path = path_of(name)
    game = leges.load(path)
    job = Job(os.path.abspath(path), (), players)
    remember(job, game)
    return game, job


# CPU seconds of each agent's own work, by spec (summed over every seat it played; this process only)
AGENT_CPU: dict[str, float] = {}


def _timed_make(make):
    """`make_agent` whose agents add the CPU time of their start, choose and interrupt to AGENT_CPU."""
    def made(spec, *args, **kwargs):
        agent = make(spec, *args, **kwargs)
        for method in ("start", "choose", "interrupt"):
            inner = getattr(agent, method, None)
            if inner is None:
                continue

            def timed(*a, _inner=inner, **k):
                begun = time.process_time()
                try:
                    return _inner(*a, **k)
                finally:
                    AGENT_CPU[spec] = AGENT_CPU.get(spec, 0.0) + time.process_time() - begun
            setattr(agent, method, timed)
        return agent
    return made


_simulate.make_agent = _timed_make(_simulate.make_agent)


def timed_run(job, games, jobs):
    """The results, their CPU seconds in this process, and each spec's own CPU seconds per game it played."""
    AGENT_CPU.clear()
    begun = time.process_time()
    results = run(job, games, jobs)
    cpu = time.process_time() - begun
    seats = {}
    for r in results:
        for spec in set(r.agents or []):
            seats[spec] = seats.get(spec, 0) + r.agents.count(spec)
    per_game = {spec: AGENT_CPU.get(spec, 0.0) / n for spec, n in seats.items()} if jobs == 1 else {}
    return results, cpu, per_game


def against_greedy(name: str, players: int, rounds: int, seed: int, jobs: int, agent: str = DEFAULT,
                   opponent: str = OPPONENT) -> dict:
    """`agent` in one seat, `opponent` (greedy) in the others, every seating, `rounds` seeds."""
    game, job = job_for(name, players)
    specs = [agent] + [opponent] * (players - 1)
    seatings = players  # one agent among identical ones: as many distinct seatings as seats
    start = time.perf_counter()
    results, cpu, agent_cpu = timed_run(job, plan(seed, rounds * seatings, specs, rotate=True), jobs)
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
    return {"ruleset": name, "players": players, "agent": agent, "opponent": opponent, "games": len(results),
            "finished": finished, "won": won, "win_rate": rate.value, "low": rate.low, "high": rate.high,
            "fair_share": 1 / players, "beats_greedy": rate.low > 1 / players, "seconds": seconds,
            "cpu": cpu, "agent_cpu": agent_cpu, "seeds": [seed, seed + rounds - 1]}


def budget_ladder(name: str, players: int, rounds: int, seed: int, jobs: int, budgets=BUDGETS) -> dict:
    """`mcts` at three budgets, round-robin in every seating, rated."""
    game, job = job_for(name, players)
    agents = [f"mcts:iterations={b}" for b in budgets]
    start = time.perf_counter()
    results, cpu, agent_cpu = timed_run(job, ladder.plan(agents, players, rounds, seed), jobs)
    seconds = time.perf_counter() - start
    seats = game.setup_for(players).seat_names
    rated = ladder.rate(results, agents, seats, seed)
    # wins[i][j]: games agent i finished above agent j; runs on other seeds add up to one ladder
    return {"ruleset": name, "players": players, "games": len(results), "rounds": rounds, "seconds": seconds,
            "cpu": cpu, "agent_cpu": agent_cpu, "seeds": [seed, seed + rounds - 1], "wins": ladder.pairwise(results, agents, seats), **rated.to_json()}


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
                  "seconds": sum(r["seconds"] for r in rows), "cpu": sum(r.get("cpu", 0.0) for r in rows),
                  "seeds": seeds}
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


def cpu_text(row: dict) -> str:
    own = ", ".join(f"{spec} {s:.2f}" for spec, s in sorted(row.get("agent_cpu", {}).items()))
    return (f"CPU {row.get('cpu', 0.0) / max(1, row['games']):.2f} s a game"
            + (f" (each agent's own, per game it sat in: {own})" if own else ""))


def show_versus(row: dict) -> None:
    opponent = row.get("opponent", OPPONENT)
    verdict = f"beats {opponent}" if row["beats_greedy"] else f"not shown to beat {opponent}"
    print(f"{row['ruleset']:<10} {row['players']}p  {row['agent']} vs {opponent}: {100 * row['win_rate']:5.1f} % "
          f"[{100 * row['low']:.1f} %, {100 * row['high']:.1f} %] of {row['finished']} games "
          f"(fair share {100 * row['fair_share']:.1f} %): {verdict}; {cpu_text(row)}", flush=True)


def show_ladder(row: dict) -> None:
    print(f"{row['ruleset']:<10} {row['players']}p  ladder, {row['games']} games; {cpu_text(row)}", flush=True)
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
    parser.add_argument("--games", default=",".join(GAMES + tuple(TEST_GAMES)),
                        help="games, comma-separated: bundled ones and the test games by name "
                             f"({', '.join(GAMES + tuple(TEST_GAMES))}), or ruleset folders (default: all named)")
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
    parser.add_argument("--skip-ladder", action="store_true", help="no ladder")
    parser.add_argument("--skip-random", action="store_true", help="no greedy against random")
    parser.add_argument("--random-rounds", type=int, default=None,
                        help="seeds of greedy against random (default: as --vs-rounds)")
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
        if name not in GAMES and name not in TEST_GAMES and not os.path.isdir(name):
            parser.error(f"no game '{name}' (by name: {', '.join(GAMES + tuple(TEST_GAMES))}; or a ruleset folder)")
        players = args.players or leges.load(path_of(name)).min_players
        if not args.skip_versus:
            row = against_greedy(name, players, args.vs_rounds, args.seed, args.jobs, args.agent)
            print(json.dumps(row), flush=True) if args.json else show_versus(row)
        if not args.skip_random:
            row = against_greedy(name, players, args.random_rounds or args.vs_rounds, args.seed, args.jobs,
                                 OPPONENT, "random")
            print(json.dumps(row), flush=True) if args.json else show_versus(row)
        if not args.skip_ladder:
            row = budget_ladder(name, players, args.rounds, args.seed, args.jobs, budgets)
            print(json.dumps(row), flush=True) if args.json else show_ladder(row)


if __name__ == "__main__":
    main()
