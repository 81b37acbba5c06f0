"""`leges check-conformance`: the optimised build of a ruleset against its reference build.

Named like `check-leaks`: a check that plays games and exits 1 on the first problem it finds. It
is for whoever changes the engine (every optimisation lands only with it green on every bundled
game) and for modders who want to know that their ruleset plays the same in both builds.
"""
from __future__ import annotations

import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import EXIT_FAIL, EXIT_OK, kind_of, variants_of


def cmd_check_conformance(args) -> int:
    from ..authoring.conformance import PROBES, Settings, builds, check_conformance
    if kind_of(args.ruleset) != "ruleset":
        raise LegesError(Diagnostic(Position(args.ruleset, 1, 1), f"this is a {kind_of(args.ruleset)} file, not a ruleset",
                                    "give the ruleset's folder (or its ruleset.yaml)"))
    for name, value, least in (("--games", args.games, 1), ("--decisions", args.decisions, 1), ("--every", args.every, 1),
                               ("--depth", args.depth, 0), ("--siblings", args.siblings, 0), ("--width", args.width, 1), ("--iterations", args.iterations, 1)):
        if value is not None and value < least:
            raise LegesError(Diagnostic(Position(name), f"{name} must be at least {least}"))
    probes = tuple(p for p in args.probes.split(",") if p) if args.probes != "none" else ()
    for p in probes:
        if p not in PROBES:
            raise LegesError(Diagnostic(Position("--probes"), f"no probe '{shown(p, 40)}'",
                                        "probes: " + ", ".join(PROBES) + " (comma-separated), or none"))
    candidate, reference = builds(args.ruleset, variants_of(args))
    counts = [args.players] if args.players is not None else list(range(candidate.min_players, candidate.max_players + 1))
    for n in counts:
        if not candidate.min_players <= n <= candidate.max_players:
            raise LegesError(Diagnostic(Position("--players"), f"{shown(candidate.title)} is for {candidate.min_players} "
                                        f"to {candidate.max_players} players, not {n}"))
    settings = Settings(games=args.games, seed=args.seed, decisions=args.decisions, every=args.every, depth=args.depth,
                        siblings=args.siblings, width=args.width, iterations=args.iterations, probes=probes)
    tty = sys.stderr.isatty()

    def progress(report) -> None:
        if args.quiet or not (tty or report.games == settings.games or report.games % max(1, settings.games // 10) == 0):
            return
        start, end = "\r" if tty else "", "\n" if not tty or report.games == settings.games else ""
        sys.stderr.write(f"{start}{report.players} players: {report.games}/{settings.games} games, "
                         f"{report.decisions:,} decisions compared{end}")
        sys.stderr.flush()

    for n in counts:
        report = check_conformance(candidate, reference, n, settings, progress)
        if report.difference is not None:
            if tty and not args.quiet:
                sys.stderr.write("\n")
            print(report.difference.format())
            return EXIT_FAIL
        made = ", ".join(f"{kind} {count}" for kind, count in sorted(report.probes.items()))
        errors = f"; {report.errors} lines ended alike by an error of the rules" if report.errors else ""
        print(f"{shown(candidate.title)}, {n} players: {report.games} games, {report.decisions:,} decisions compared "
              f"on {report.lines} lines of play (probes: {made or 'none'}){errors}: the builds agree")
    return EXIT_OK


PROBE_NAMES = ("copies", "world", "look-ahead", "search", "saved")  # authoring/conformance.PROBES (imported when run)


def register(sub, variant) -> None:
    p = sub.add_parser("check-conformance", parents=[variant],
                       help="play the optimised build against the reference build; report the first difference")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int, help="number of players (default: every number allowed)")
    p.add_argument("--games", "-g", type=int, default=10, help="games per number of players (default 10)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--decisions", type=int, help="stop each game's main line after this many decisions "
                                                 "(default: play it to the end)")
    p.add_argument("--every", type=int, default=5, help="a probe every N decisions of the main line: copies and "
                                                        "siblings, a resampled world, a greedy look-ahead, an MCTS "
                                                        "search, a JSON round trip, in turn (default 5)")
    p.add_argument("--depth", type=int, default=5, help="decisions each copy, world or state read back plays on (default 5)")
    p.add_argument("--siblings", type=int, default=2, help="copies played beside the original, and beside each "
                                                           "resampled world (default 2)")
    p.add_argument("--width", type=int, default=6, help="actions the look-ahead tries (default 6)")
    p.add_argument("--iterations", type=int, default=12, help="iterations of the MCTS search (default 12)")
    p.add_argument("--probes", default=",".join(PROBE_NAMES), metavar="LIST",
                   help="the probes made, in turn, comma-separated (default: all — " + ",".join(PROBE_NAMES) + "; none: "
                        "random lines of play alone)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    p.set_defaults(run=cmd_check_conformance)
