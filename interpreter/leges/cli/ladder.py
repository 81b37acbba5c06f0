"""`leges ladder`: how strong are the agents a study would use? Round-robins, ratings with intervals."""
from __future__ import annotations

import json
import math
import os

from ..text.errors import Diagnostic, LegesError, Position
from .common import load_ruleset, variants_of
from .surviving import add_study_arguments, check_time_limit, exit_status, open_journal, partial_note, progress


def cmd_ladder(args) -> int:
    from ..agents import evaluations, split_specs
    from ..lab.journal import rules_digest
    from ..lab import behaviour
    from ..lab.ladder import plan, rate, tables
    from ..lab.runner import Job, remember
    from ..lab.session import Session, Task
    game = load_ruleset(args.ruleset, args)
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        raise LegesError(Diagnostic(Position("--players"), f"{game.title} is for {game.min_players} to {game.max_players} players"))
    agents = list(dict.fromkeys(split_specs(args.agents)))
    if len(agents) < 2:
        raise LegesError(Diagnostic(Position("--agents"), "a ladder needs two agents or more", "e.g. --agents random,greedy,mcts"))
    if args.rounds < 1:
        raise LegesError(Diagnostic(Position("--rounds"), "--rounds must be at least 1"))
    check_time_limit(args)
    judged = evaluations(game, agents)  # (a bad spec, or a heuristic the ruleset lacks, told before any game)
    seats = game.setup_for(players).seat_names
    games = plan(agents, players, args.rounds, args.seed)
    job = Job(os.path.abspath(args.ruleset), tuple(variants_of(args)), players)
    remember(job, game)
    journal = open_journal(args, {"command": "ladder", "ruleset": game.id, "version": game.version,
                                  "rules": rules_digest(game), "variants": list(job.variants), "players": players,
                                  "agents": agents, "rounds": args.rounds, "seed": args.seed})
    bar = progress(args, "ladder", len(games))
    try:
        with Session(journal, len(games), args.jobs, None, args.time_limit, bar) as session:
            found = session.play([Task("ladder", i, job, g) for i, g in enumerate(games)]).get("ladder", {})
    finally:
        if bar is not None and hasattr(bar, "close"):
            bar.close()
    results = [found[i] for i in sorted(found)]
    note = partial_note(session, journal, len(results), len(games))
    if not results:
        if note:
            print(note)
        print("no game finished: nothing to rate")
        return exit_status(session)
    ladder = rate(results, agents, seats, args.seed)
    behaved = behaviour.summarise(results)  # said before the ratings: a degenerate agent's rating misleads
    unfinished = sum(1 for r in results if r.unfinished)
    seconds = session.clock() - session.started
    if args.json:
        print(json.dumps({"ruleset": game.id, "players": players, "games": len(results), "planned": len(games),
                          "rounds": args.rounds, "tables": len(tables(agents, players)), "unfinished": unfinished,
                          "seconds": seconds, "agents": [{"spec": a, **judged[a].to_json()} for a in agents],
                          "behaviour": behaviour.to_json(behaved),
                          **ladder.to_json(), "partial": note is not None, "stopped": session.stopped,
                          "journal": journal.path if journal is not None else None}))
        return exit_status(session)
    if note:
        print(note + "\n")
    print(f"{game.title}, {players} players: {len(results)} games ({args.rounds} rounds of "
          f"{len(tables(agents, players))} seatings, seeds {args.seed}..{args.seed + args.rounds - 1}); {seconds:.0f} s")
    print("")
    for line in behaviour.text_lines(behaved):
        print(line)
    width = max(len(a) for a in agents)
    print(f"\n  {'agent':<{width}}  rating  95 % interval     results won  games")
    for r in sorted(ladder.ratings, key=lambda r: -r.value):
        print(f"  {r.agent:<{width}}  {r.value:+6.0f}  [{r.low:+5.0f}, {r.high:+5.0f}]   {_share(r.score):>11}  {r.games:>5}")
    print("\n  ratings on the Elo scale (a lead of 200 wins about 3 of 4 pairings), mean 0; "
          "results won: finishing above another agent at the table")
    print("\n  what each judges positions by:")
    for a in agents:
        print(f"  {a:<{width}}  {judged[a]}")
    if unfinished:
        print(f"\n  {unfinished} games ended unfinished (turn or decision limit) and count for no one")
    for budget, group, rises in ladder.budgets:
        verdict = "rises with it at every step (in 95 % of resamples)" if rises else \
            "does NOT surely rise with it at every step: more search may not play better here (or more rounds are needed)"
        print(f"\n  {', '.join(group)} differ in {budget}: the rating {verdict}")
    return exit_status(session)


def _share(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1%}"


def register(sub, variant) -> None:
    p = sub.add_parser("ladder", parents=[variant], help="rate agents against each other: round-robins in every seating",
                       description="Play every seating of the agents (each multiset of them at the table, in every "
                                   "rotation) for a number of rounds, and rate them by Bradley-Terry on the Elo scale "
                                   "with 95 % intervals. When they are one agent at several budgets (mcts:iterations=50, "
                                   "mcts:iterations=200, ...), say whether the rating rises with the budget. Use it "
                                   "before a study, to know how good its players are.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--agents", "-a", required=True, metavar="SPECS",
                   help="the agents, comma-separated: e.g. random,greedy,mcts:iterations=200")
    p.add_argument("--players", "-p", type=int, help="players at the table (default: the least allowed)")
    p.add_argument("--rounds", "-r", type=int, default=10, help="rounds of every seating (default 10)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first round (default 0)")
    p.add_argument("--jobs", "-j", type=int, help="processes to play on (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_study_arguments(p)
    p.set_defaults(run=cmd_ladder)
