"""`leges check-leaks`: random games in which nothing a player is shown may depend on what it may not see."""
from __future__ import annotations

import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import EXIT_FAIL, EXIT_OK, load_ruleset


def cmd_check_leaks(args) -> int:
    from ..authoring.leaks import check_leaks
    game = load_ruleset(args.ruleset, args)
    counts = [args.players] if args.players is not None else list(range(game.min_players, game.max_players + 1))
    for n in counts:
        if not game.min_players <= n <= game.max_players:
            raise LegesError(Diagnostic(Position("--players"),
                                        f"{shown(game.title)} is for {game.min_players} to {game.max_players} players, not {n}"))
    if args.explain:
        from ..authoring.information_flow import report as flow_report
        print(flow_report(game, args.players), end="")
        return EXIT_OK
    for name, value, least in (("--games", args.games, 1), ("--decisions", args.decisions, 0), ("--samples", args.samples, 1),
                                 ("--explanations", args.explanations, 0)):
        if value < least:
            raise LegesError(Diagnostic(Position(name), f"{name} must be at least {least}"))
    found = 0
    for n in counts:
        report = check_leaks(game, n, games=args.games, seed=args.seed, max_decisions=args.decisions or None,
                             samples=args.samples, explanations=args.explanations)
        verdict = "no leak" if report.ok else f"{len(report.leaks)} LEAK{'S' if len(report.leaks) != 1 else ''}"
        skipped = f", {report.skipped} worlds could not be drawn" if report.skipped else ""
        unmatched = (f", {report.unmatched} without a world where the seat learned the same in the step"
                     if report.unmatched else "")
        print(f"{shown(game.title)}, {n} players: {report.games} games and their set-ups, {report.decisions} of "
              f"{report.played} decisions, {report.comparisons} indistinguishable worlds compared, at least one "
              f"per seat and step ({report.forward} also after the step), {report.explained} seats' explanations and "
              f"{report.forced} moves the engine took by itself{unmatched}{skipped}: {verdict}")
        for leak in report.leaks[:args.show]:
            print("  " + leak.format())
        found += len(report.leaks)
    if found:
        print(f"{found} leak{'s' if found != 1 else ''}: a player is shown what it may not see "
              "(replay with --seed and --players to see it again)", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("check-leaks", parents=[variant],
                       help="play random games and check that no player is shown what it may not see")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int, help="number of players (default: every number allowed)")
    p.add_argument("--games", "-g", type=int, default=3, help="games per number of players (default 3)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--decisions", type=int, default=200,
                   help="decisions checked per game, spread evenly from its first to its last (default 200; "
                        "0: every decision)")
    p.add_argument("--samples", type=int, default=1,
                   help="worlds drawn per seat and step, each indistinguishable for that seat (default 1)")
    p.add_argument("--explanations", type=int, default=10,
                   help="decisions per game (of those checked) at which each seat asks why some actions are not "
                        "legal, in the real game and a world it cannot tell from it (default 10; 0: none)")
    p.add_argument("--show", type=int, default=5, help="leaks shown per number of players (default 5)")
    p.add_argument("--explain", action="store_true",
                   help="play nothing: list, per seat, every rule that shows it what it may not see (what the "
                        "check trusts, and what it compares)")
    p.set_defaults(run=cmd_check_leaks)
