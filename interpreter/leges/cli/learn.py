"""`leges learn`: a heuristic for a ruleset that has none, learned from played games, as a file to read and edit."""
from __future__ import annotations

import os
import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import EXIT_OK, load_ruleset

# agents/self_play.py's defaults, written again here: the command line is built before any command
# runs, and must not import the agents (and the engine behind them) to do so
ROUNDS, SELF_PLAY_GAMES, MATCH_GAMES, LOOK = 3, 40, 200, 40
PRIOR_GAMES = 12  # agents/prior_fit.py's GAMES


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
    if args.prior:
        return _learn_prior(game, args)
    if args.rounds < 0 or args.match_games < 10 or args.self_play_games < 5:
        raise LegesError(Diagnostic(Position("--rounds"), "--rounds must be 0 or more, --match-games at least 10 "
                                    "(a shorter match shows little), --self-play-games at least 5 "
                                    "(a fifth of them are held out)"))
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


def _learn_prior(game, args) -> int:
    """`--prior`: a move prior (agents/prior_fit.py) learned by imitating greedy, as YAML to edit;
    an agent reads it with `prior:prior=FILE` or `mcts:prior=FILE`."""
    from ..agents.prior_fit import learn_prior
    if args.prior_games < 2:
        raise LegesError(Diagnostic(Position("--prior-games"), "--prior-games must be at least 2 (half are held out)"))
    players = (args.players or [max(game.min_players, min(2, game.max_players))])[0]
    text = learn_prior(game, players, args.prior_games, args.seed).yaml()
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {args.output}: play it with --agents prior:prior={args.output} or mcts:prior={args.output}",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _tell(r) -> None:
    """A round of self-play, as it ends (to standard error): what it learned from, what its match
    showed — the share, its interval at the last look, the games — and so why it is kept or not."""
    if r.number == 0:
        print(f"round 0: learned from {r.learned.games} random games", file=sys.stderr)
        return
    m = r.match
    if m is None:
        print(f"round {r.number}: nothing learned; stopping", file=sys.stderr)
        return
    cut = f", {m.played - m.games} more cut short by the rules, not counted" if m.played > m.games else ""
    print(f"round {r.number}: greedy on the new heuristic against the one before scored {m.share:.0%} "
          f"[{m.low:.0%}, {m.high:.0%}] of {m.games} games ({m.deals} deals, each played with it in every seat"
          f"{cut}; a {m.level:.0%} interval by deal, look {m.looks} of {m.planned}): {_verdict(m.outcome)}",
          file=sys.stderr)


def _verdict(outcome: str) -> str:
    """Why a round is kept or dropped (agents/self_play.py: its docstring says why this rule)."""
    from ..agents.self_play import BETTER, WORSE
    if outcome == BETTER:
        return "shown better (its interval is above 50%): kept"
    if outcome == WORSE:
        return "shown worse (its interval is below 50%): dropped; stopping, with the heuristic of the round before"
    return ("not shown better or worse by the cap: kept, as it is not shown worse and learned from more games, of "
            "players rather than random moves; stopping, as nothing shows that another round would help")


def register(sub, variant) -> None:
    p = sub.add_parser("learn", parents=[variant], help="learn a heuristic from played games, as a ruleset file",
                       description="Read candidate features off the declarations (what each player holds in its "
                                   "zones, by type; its components on the board; the sums of their numeric "
                                   "properties; its numeric variables; the score), measure them along random games, "
                                   "and weigh them by how much they went with winning (ridge regression on each "
                                   "player's features less the others', chosen by cross-validation over whole "
                                   "games). Then learn again by self-play: games of greedy players on the heuristic "
                                   "learned so far, a new fit, and a head-to-head match of the new against the old, "
                                   "played until it shows the new one better (kept; on to the next round) or worse "
                                   "(dropped; stop), or neither by --match-games (kept; stop) (--rounds). Writes a "
                                   "`heuristics:` file to read, cite and edit. "
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
    p.add_argument("--match-games", type=int, default=MATCH_GAMES, help="games at most of the head-to-head match "
                   f"that decides whether a round is kept (default {MATCH_GAMES}): looked at every {LOOK} games, it "
                   "stops as soon as it shows the new heuristic better or worse")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--every", type=int, default=4, help="look at the position every N decisions (default 4)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the file here (default: print it)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.add_argument("--prior", action="store_true", help="learn a move prior instead: how promising each option of "
                   "a decision is, from what the option says, by imitating greedy (docs/agents.md); YAML to edit, "
                   "for the agents prior:prior=FILE and mcts:prior=FILE")
    p.add_argument("--prior-games", type=int, default=PRIOR_GAMES, help="with --prior: greedy games to learn "
                   f"from, at the first --players count (default {PRIOR_GAMES}, at 2 players or the least allowed)")
    p.set_defaults(run=cmd_learn)
