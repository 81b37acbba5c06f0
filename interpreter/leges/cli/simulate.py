"""`leges simulate`: play many games and report what happened."""
from __future__ import annotations

import json
import os
import sys

from ..errors import Diagnostic, LegesError, Position
from .common import EXIT_OK, Progress, load_ruleset


def cmd_simulate(args) -> int:
    from ..records import make_record, write_record
    from ..simulate import simulate
    game = load_ruleset(args.ruleset, args)
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        raise LegesError(Diagnostic(Position(game.ruleset_file),
                                    f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}"))
    if args.games < 1:
        raise LegesError(Diagnostic(Position("--games"), "--games must be at least 1"))
    progress = Progress(sys.stderr.isatty() and not args.quiet)
    summary = simulate(game, players, args.games, args.seed, check=args.check, progress=progress)
    seats = game.setup_for(players).seat_names
    if args.records:
        os.makedirs(args.records, exist_ok=True)
        for r in summary.results:
            result = {"ranking": r.ranking, "scores": r.scores, "unfinished": r.unfinished}
            write_record(os.path.join(args.records, f"{game.id}-{players}p-seed{r.seed}.json"),
                         make_record(game, args.ruleset, players, r.seed, r.history, result))
    if args.json:
        print(json.dumps({
            "ruleset": game.id, "players": players, "seed": args.seed, "games": args.games,
            "results": [{"seed": r.seed, "ranking": r.ranking, "scores": r.scores, "length": r.length,
                         "unfinished": r.unfinished} for r in summary.results],
            "mean_length": summary.mean_length(), "seat_win_rate": summary.seat_win_rate(seats),
            "playouts_per_second": summary.playouts_per_second(),
        }))
        return EXIT_OK
    if not args.quiet:
        for r in summary.results:
            ranking = " > ".join(" = ".join(group) for group in r.ranking)
            status = " (unfinished: turn limit reached)" if r.unfinished else ""
            print(f"seed {r.seed}: {ranking}; scores {' '.join(map(str, r.scores))}; {r.length} decisions{status}")
    unfinished = len(summary.results) - len(summary.finished)
    print(f"{args.games} games of {game.title} with {players} players (seeds {args.seed}..{args.seed + args.games - 1})")
    print(f"  mean length: {summary.mean_length():.1f} decisions")
    rates = summary.seat_win_rate(seats)
    print("  seat win rate: " + ", ".join(f"{s} {rates[s]:.1%}" for s in seats))
    if unfinished:
        print(f"  unfinished (turn limit): {unfinished}")
    if args.check:
        print(f"  invariants held after every action: {', '.join(i for i, _, _ in game.invariants) or 'none declared'}")
    print(f"  play-outs per second: {summary.playouts_per_second():.1f}")
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("simulate", parents=[variant], help="play random games and report the outcomes")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int, help="number of players (default: the least allowed)")
    p.add_argument("--games", "-g", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game; game i uses seed+i (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--records", metavar="DIR", help="write a replayable record of every game into DIR")
    p.add_argument("--check", action="store_true", help="test the ruleset's invariants after every action")
    p.add_argument("--quiet", "-q", action="store_true", help="only the summary, no progress bar")
    p.set_defaults(run=cmd_simulate)
