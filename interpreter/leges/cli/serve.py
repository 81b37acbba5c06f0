"""`leges serve`: a local web page to play, replay and edit a game (leges/web; needs `pip install 'leges[web]'`)."""
from __future__ import annotations

import sys

from ..errors import Diagnostic, LegesError, Position
from ..terminal import shown
from .common import EXIT_OK, kind_of, variants_of


def cmd_serve(args) -> int:
    """Run the page's server until interrupted."""
    from ..web.server import _need_web, create_app
    _need_web()
    import uvicorn
    if kind_of(args.ruleset) != "ruleset":
        raise LegesError(Diagnostic(Position(args.ruleset, 1, 1), "give a ruleset's folder to serve"))
    app = create_app(args.ruleset, variants_of(args), getattr(args, "record", None))
    ws = app.state.workspace
    for d in ws.errors:
        print(d["text"], file=sys.stderr)
    url = f"http://{args.host}:{args.port}/"
    print(f"Leges: {shown(ws.game.title) if ws.game else args.ruleset} at {url} (Ctrl-C stops it)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("serve", parents=[variant], help="a local web page to play, replay and edit a game",
                       description="Serve a page to play the game against agents (the legal actions that name a space "
                                   "are clicked on the board), to step through a record, and to edit the ruleset: "
                                   "the page reloads the game when a file of the ruleset is saved, or shows the "
                                   "located errors. The page shows one seat's view, never more. Needs Starlette and "
                                   "uvicorn: pip install 'leges[web]'.")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--record", metavar="FILE", help="a game record to step through in the page")
    p.set_defaults(run=cmd_serve)
