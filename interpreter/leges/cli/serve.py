"""`leges serve`: a local web page to play, replay and edit a game (leges/web; needs `pip install 'leges[web]'`)."""
from __future__ import annotations

import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import EXIT_OK, kind_of, variants_of


def cmd_serve(args) -> int:
    """Run the page's server until interrupted."""
    from ..web.seating import AgentPolicy
    from ..web.server import ServeOptions, need_web, create_app
    need_web()
    import uvicorn
    if kind_of(args.ruleset) != "ruleset":
        raise LegesError(Diagnostic(Position(args.ruleset, 1, 1), "give a ruleset's folder to serve"))
    named = {}
    for item in args.agent or []:
        name, eq, spec = item.partition("=")
        if not eq or not spec:
            raise LegesError(Diagnostic(Position("--agent"), f"'{item}' is not NAME=SPEC", "e.g. --agent mine=my_agents.py:Clever"))
        named[name] = spec
    if not 0 < args.max_seconds < 3600 or args.max_iterations < 1 or args.max_memory < 1:
        raise LegesError(Diagnostic(Position("leges serve"), "--max-seconds (under an hour), --max-iterations and --max-memory must be positive"))
    options = ServeOptions(host=args.host, allow_hosts=tuple(args.allow_host or ()),
                           agents=AgentPolicy(args.max_iterations, args.max_seconds, named),
                           max_memory=args.max_memory << 20, seed=args.seed)
    app = create_app(args.ruleset, variants_of(args), getattr(args, "record", None), options)
    app.state.lang = args.lang  # the page's first language (it may switch among those the ruleset gives: render/view.words_view)
    ws = app.state.workspace
    for d in ws.errors:
        print(d["text"], file=sys.stderr)
    url = f"http://{args.host}:{args.port}/"
    print(f"Leges: {shown(ws.game.title) if ws.game else args.ruleset} at {url} (Ctrl-C stops it)")
    if args.seed is not None:
        print(f"every table is dealt from seed {args.seed}: the deal is not secret (whoever knows the seed can compute "
              "every hidden card), and the page says so")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("serve", parents=[variant], help="a local web page to play, replay and edit a game",
                       description="Serve a page to play the game at a table — each seat an agent or a person, who "
                                   "plays from a link of the seat's own (or a hot seat: one screen), under the "
                                   "variants switched on in the page (the legal actions that name a space are "
                                   "clicked on the board) — to step through a record, and to edit the ruleset: "
                                   "the page reloads the game when a file of the ruleset is saved, or shows the "
                                   "located errors. The page shows one seat's view, never more. Only the page this "
                                   "server gives out may use it (a token in the page; other sites and host names are "
                                   "refused), and a request may seat only the built-in agents, within the budgets "
                                   "below. A variant file of your own (--variant PATH) is named on the command line "
                                   "only: the page switches on the ruleset's own variants by name, never a path. Needs Starlette and uvicorn: pip install 'leges[web]'.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="another name the page may be opened by (this machine's name on a network); repeatable")
    p.add_argument("--record", metavar="FILE", help="a game record to step through in the page")
    p.add_argument("--agent", action="append", metavar="NAME=SPEC",
                   help="an agent the page may choose by NAME: any spec, your own Python included "
                        "(e.g. mine=my_agents.py:Clever, strong=mcts:iterations=20000); repeatable. "
                        "Python is never imported because a request names it")
    p.add_argument("--max-iterations", type=int, default=2000, metavar="N",
                   help="the most MCTS iterations a decision that a request may ask for (default 2000)")
    p.add_argument("--max-seconds", type=float, default=5.0, metavar="S",
                   help="the longest a built-in agent chosen in the page thinks about one decision (default 5)")
    p.add_argument("--max-memory", type=int, default=512, metavar="MB",
                   help="what the games and records kept for all pages may weigh, roughly (default 512 MB); "
                        "the least recently used are closed first")
    p.add_argument("--seed", type=int, metavar="N",
                   help="deal every table from seed N (to show or test a deal); the deal is then not secret, and the "
                        "page says so. Default: each table's seed drawn from the operating system's secure source")
    p.add_argument("--lang", metavar="LANG", help="the language the page shows moves and components in first "
                                                 "(those the ruleset gives; default en)")
    p.set_defaults(run=cmd_serve)
