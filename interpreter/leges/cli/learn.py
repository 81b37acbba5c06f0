"""`leges learn`: a heuristic for a ruleset that has none, learned from played games, as a file to read and edit."""
from __future__ import annotations

import os
import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import EXIT_OK, load_ruleset


def cmd_learn(args) -> int:
    from ..agents.learn import learn
    game = load_ruleset(args.ruleset, args)
    players = args.players or list(range(game.min_players, game.max_players + 1))
    for n in players:
        if not game.min_players <= n <= game.max_players:
            raise LegesError(Diagnostic(Position("--players"), f"{shown(game.title)} is for {game.min_players} to "
                                        f"{game.max_players} players, not {n}"))
    if args.games < 5:
        raise LegesError(Diagnostic(Position("--games"), "--games must be at least 5 (a fifth of them are held out)"))
    learned = learn(game, players, args.games, args.seed, args.every)
    if not learned.features:
        raise LegesError(Diagnostic(Position(game.ruleset_file), "nothing to learn from: no feature the declarations "
                                    "suggest varies between players in these games",
                                    "declare a heuristic by hand under `heuristics:`"))
    text = learned.yaml(game.id, players)
    if args.output:
        if os.path.exists(args.output) and not args.force:
            raise LegesError(Diagnostic(Position(args.output), "the file exists", "give --force to replace it"))
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {args.output}: include it from the ruleset (include: [{os.path.basename(args.output)}])",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    print(f"{learned.games} random games, {learned.positions} positions, {len(learned.features)} features kept: at "
          f"held-out positions the player valued highest won {learned.accuracy:.0%} of the time "
          f"(a player picked at random: {learned.chance:.0%})", file=sys.stderr)
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("learn", parents=[variant], help="learn a heuristic from played games, as a ruleset file",
                       description="Read candidate features off the declarations (what each player holds in its "
                                   "zones, by type; its components on the board; its numeric variables; the score), "
                                   "measure them along random games, and weigh them by how much they went with "
                                   "winning (ridge regression on each player's features less the others', chosen by "
                                   "cross-validation over whole games). Writes a `heuristics:` file to read, cite and "
                                   "edit. Agents that need a heuristic learn one like it by themselves when a ruleset "
                                   "has none.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int, action="append", help="player counts to learn from (repeatable; "
                                                                        "default: every count allowed)")
    p.add_argument("--games", "-g", type=int, default=100, help="random games to learn from (default 100)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--every", type=int, default=4, help="look at the position every N decisions (default 4)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the file here (default: print it)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.set_defaults(run=cmd_learn)
