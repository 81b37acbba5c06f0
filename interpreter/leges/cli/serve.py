"""`leges serve`: a local web page to play, replay and edit a game (leges/web; needs `pip install 'leges[web]'`)."""
from __future__ import annotations

from .common import EXIT_OK


def cmd_serve(args) -> int:
    from ..web.server import serve
    serve(args)
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
