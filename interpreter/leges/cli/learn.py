"""`leges learn`: a heuristic for a ruleset that has none, learned from played games, as a file to read and edit."""
from __future__ import annotations

import os
import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import EXIT_OK, load_ruleset

# agents/self_play.py's defaults, written again here: the command line is built before any command
# runs, and must not import the agents (and the engine behind them) to do so
ROUNDS, SELF_PLAY_GAMES, MATCH_GAMES = 3, 40, 40


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
    if args.output and os.path.exists(args.output) and not args.force:  # (said before the games, not after)
        raise LegesError(Diagnostic(Position(args.output), "the file exists", "give --force to replace it"))
    if args.rounds < 0 or args.match_games < 2 or args.self_play_games < 5:
        raise LegesError(Diagnostic(Position("--rounds"), "--rounds must be 0 or more, --match-games at least 2, "
                                    "--self-play-games at least 5 (a fifth of them are held out)"))
    if args.rounds == 0:
        learned = learn(game, players, args.games, args.seed, args.every)
    else:
        from ..agents.self_play import self_play
        played = self_play(game, players, args.games, args.seed, args.every, args.rounds, args.match_games,
                           progress=_tell, self_play_games=args.self_play_games)
        learned = played.learned
        kept = [r.number for r in played.rounds if r.kept][-1]
        print(f"kept round {kept} ({played.games_played} games in all)", file=sys.stderr)
    if not learned.features:
        raise LegesError(Diagnostic(Position(game.ruleset_file), "nothing to learn from: no feature the declarations "
                                    "suggest varies between players in these games",
                                    "declare a heuristic by hand under `heuristics:`"))
    text = learned.yaml(game.id, players)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {args.output}: include it from the ruleset (include: [{os.path.basename(args.output)}])",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    print(f"{learned.games} {learned.source}, {learned.positions} positions, {len(learned.features)} features kept: at "
          f"held-out positions the player valued highest won {learned.accuracy:.0%} of the time "
          f"(a player picked at random: {learned.chance:.0%})", file=sys.stderr)
    return EXIT_OK


def _tell(r) -> None:
    """A round of self-play, as it ends (to standard error): what it learned from, how it did."""
    from ..lab.stats import wilson
    if r.number == 0:
        print(f"round 0: learned from {r.learned.games} random games", file=sys.stderr)
        return
    if not r.games:
        print(f"round {r.number}: nothing learned; stopping", file=sys.stderr)
        return
    band = wilson(r.score, r.games)
    verdict = "kept" if r.kept else "not better: stopping, with the heuristic of the round before"
    print(f"round {r.number}: greedy on the new heuristic against the one before scored {r.share:.0%} "
          f"[{band.low:.0%}, {band.high:.0%}] of {r.games} games (fair share 50%): {verdict}", file=sys.stderr)


def register(sub, variant) -> None:
    p = sub.add_parser("learn", parents=[variant], help="learn a heuristic from played games, as a ruleset file",
                       description="Read candidate features off the declarations (what each player holds in its "
                                   "zones, by type; its components on the board; the sums of their numeric "
                                   "properties; its numeric variables; the score), measure them along random games, "
                                   "and weigh them by how much they went with winning (ridge regression on each "
                                   "player's features less the others', chosen by cross-validation over whole "
                                   "games). Then learn again by self-play: games of greedy players on the heuristic "
                                   "learned so far, a new fit, and a head-to-head match of the new against the old, "
                                   "kept only if it scores more than its fair share; stopping at the first round "
                                   "that does not (--rounds). Writes a `heuristics:` file to read, cite and edit. "
                                   "Agents that need a heuristic learn one from random games by themselves when a "
                                   "ruleset has none.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int, action="append", help="player counts to learn from (repeatable; "
                                                                        "default: every count allowed)")
    p.add_argument("--games", "-g", type=int, default=100, help="random games to learn from first (default 100)")
    p.add_argument("--rounds", "-r", type=int, default=ROUNDS, help="self-play rounds at most after the random "
                   f"games (default {ROUNDS}; 0: learn from random games only)")
    p.add_argument("--self-play-games", type=int, default=SELF_PLAY_GAMES,
                   help=f"games of greedy players learned from in each round (default {SELF_PLAY_GAMES})")
    p.add_argument("--match-games", type=int, default=MATCH_GAMES, help="games of the head-to-head match that "
                   f"decides whether a round is kept (default {MATCH_GAMES})")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--every", type=int, default=4, help="look at the position every N decisions (default 4)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the file here (default: print it)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.set_defaults(run=cmd_learn)
