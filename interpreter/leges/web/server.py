"""`leges serve`: a small ASGI app (Starlette, run by uvicorn) and its page (static/: plain HTML,
SVG and JavaScript, no build step).

The page plays against agents (one seat is the person's, chosen in the page), steps through a
record with a timeline, and watches the ruleset's files: on save the game is reloaded, or the
located errors are shown. Every answer about a game is one seat's view (views.py).

    GET  /                      the page
    GET  /api/info              the ruleset: title, players, seats, agents, load errors
    GET  /api/watch             reload if a file changed: {version, ok, errors}
    POST /api/play              {players, seat, agents, seed} → a new game and the seat's view
    GET  /api/play/ID           the seat's view of game ID
    POST /api/play/ID/act       {action} → the action applied, the agents' moves, the seat's view; an
                                illegal one → 400 with `explanation`: why (engine/seat_explanation.py)
    POST /api/play/ID/continue  let the agents play on (the seat could have acted out of turn)
    POST /api/replay            {record: text, name} → a record to step through
    GET  /api/replay/ID?step=N&seat=S   the record after N actions, as seat S (default: public) sees it
"""
from __future__ import annotations

from pathlib import Path

from ..errors import Diagnostic, LegesError, Position
from .session import Match, Replay, Workspace, new_id, read_record_text
from .views import play_view, replay_view

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 8 * 1024 * 1024  # a record uploaded from the page


def _need_web():
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise LegesError(Diagnostic(Position("leges serve"), "the web page needs Starlette and uvicorn",
                                    "install them with: pip install 'leges[web]'")) from None


def create_app(path: str, variants=(), record: str | None = None):
    """The ASGI app serving the ruleset at `path` (and, if given, a record to step through)."""
    _need_web()
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Route

    ws = Workspace(path, variants)
    preloaded = []
    if record is not None:
        from .. import files
        text = files.read_text(record, files.MAX_JSON_BYTES, record, what="record file")
        preloaded.append(_add_replay(ws, text, Path(record).name))

    def error(message: str, status: int = 400, diagnostics=None) -> JSONResponse:
        return JSONResponse({"error": message, "diagnostics": diagnostics or []}, status_code=status)

    def leges_error(exc: LegesError) -> JSONResponse:
        from .session import _diagnostic
        ds = [_diagnostic(d) for d in exc.diagnostics]
        why = getattr(exc, "explanation", None)  # an action refused (session.Refused): why, as the seat may be told
        if why:
            return JSONResponse({"error": why["line"], "diagnostics": ds, "explanation": why}, status_code=400)
        return error(ds[0]["message"] if ds else "error", 400, ds)

    async def body(request: Request) -> dict:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise LegesError(Diagnostic(Position("request"), "the request is too large"))
        if not raw:
            return {}
        import json
        try:
            data = json.loads(raw)
        except ValueError:
            raise LegesError(Diagnostic(Position("request"), "the request is not JSON")) from None
        if not isinstance(data, dict):
            raise LegesError(Diagnostic(Position("request"), "the request is not a JSON object"))
        return data

    def locked(fn):
        async def endpoint(request: Request):
            try:
                data = await body(request) if request.method == "POST" else {}

                def run():
                    with ws.lock:
                        return fn(request, data)
                result = await run_in_threadpool(run)
            except LegesError as exc:
                return leges_error(exc)
            except Exception as exc:  # a bug of leges, not of the input: said in one line, as the command line does
                return error(f"internal error: {type(exc).__name__}: {exc}", 500)
            if isinstance(result, Response):
                return result
            return JSONResponse(result)
        return endpoint

    def page(request):
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    def static(request):
        name = request.path_params["name"]
        if name not in {p.name for p in STATIC.iterdir()}:
            return Response("not found", status_code=404)
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    def info(request, data):
        game = ws.game
        out = {"version": ws.version, "errors": ws.errors, "ok": not ws.errors, "replays": preloaded,
               "agents": _agent_names()}
        if game is not None:
            out.update({"title": game.title, "ruleset": game.id, "min_players": game.min_players,
                        "max_players": game.max_players,
                        "seats": [s.get("name") for s in game.ruleset.seats] if game.ruleset else []})
        return out

    def watch(request, data):
        ws.check()
        return ws.status()

    def game_or_error():
        if ws.game is None:
            raise LegesError(Diagnostic(Position(ws.path), "the ruleset does not load: fix its errors first"))
        return ws.game

    def new_play(request, data):
        from ..agents import seat_specs
        game = game_or_error()
        players = _int(data.get("players"), game.min_players)
        if not game.min_players <= players <= game.max_players:
            raise LegesError(Diagnostic(Position("players"), f"{game.title} is for {game.min_players} to {game.max_players} players"))
        setup = game.setup_for(players)
        seat_name = data.get("seat") or setup.seat_names[0]
        if seat_name not in setup.seat_names:
            raise LegesError(Diagnostic(Position("seat"), f"no seat '{seat_name}' in a game of {players}",
                                        "seats: " + ", ".join(setup.seat_names)))
        seat = setup.seat_names.index(seat_name)
        specs = seat_specs(str(data.get("agents") or "random"), players - 1)
        specs = specs[:seat] + [""] + specs[seat:]
        match = Match(new_id(), seat, players, _int(data.get("seed"), 0), specs)
        match.start(game)
        match.run()
        ws.matches[match.id] = match
        while len(ws.matches) > 20:
            ws.matches.pop(next(iter(ws.matches)))
        return play_view(match, ws)

    def the_match(request) -> Match:
        match = ws.matches.get(request.path_params["mid"])
        if match is None:
            raise LegesError(Diagnostic(Position("game"), "no such game (the server was restarted?)", "start a new game"))
        return match

    def get_play(request, data):
        return play_view(the_match(request), ws)

    def act(request, data):
        match = the_match(request)
        text = data.get("action")
        if not isinstance(text, str):
            raise LegesError(Diagnostic(Position("action"), "no action given"))
        match.act(text)
        return play_view(match, ws)

    def carry_on(request, data):
        match = the_match(request)
        match.run(force=True)
        return play_view(match, ws)

    def new_replay(request, data):
        game_or_error()
        text = data.get("record")
        if not isinstance(text, str):
            raise LegesError(Diagnostic(Position("record"), "no record given"))
        entry = _add_replay(ws, text, str(data.get("name") or "record"))
        return replay_view(ws.replays[entry["id"]], 0, None, ws)

    def get_replay(request, data):
        replay = ws.replays.get(request.path_params["rid"])
        if replay is None:
            raise LegesError(Diagnostic(Position("record"), "no such record (the server was restarted?)"))
        st0 = replay.checkpoints[0]
        name = request.query_params.get("seat") or ""
        seat = None
        if name and name != "public":
            if name not in st0.setup.seat_names:
                raise LegesError(Diagnostic(Position("seat"), f"no seat '{name}'"))
            seat = st0.setup.seat_names.index(name)
        return replay_view(replay, _int(request.query_params.get("step"), 0), seat, ws)

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/info", locked(info)),
        Route("/api/watch", locked(watch)),
        Route("/api/play", locked(new_play), methods=["POST"]),
        Route("/api/play/{mid}", locked(get_play)),
        Route("/api/play/{mid}/act", locked(act), methods=["POST"]),
        Route("/api/play/{mid}/continue", locked(carry_on), methods=["POST"]),
        Route("/api/replay", locked(new_replay), methods=["POST"]),
        Route("/api/replay/{rid}", locked(get_replay)),
    ]
    app = Starlette(routes=routes)
    app.state.workspace = ws
    return app


def _add_replay(ws: Workspace, text: str, name: str) -> dict:
    record = read_record_text(text, name)
    replay = Replay(new_id(), record, name)
    if ws.game is not None:
        replay.rebuild(ws.game)
    ws.replays[replay.id] = replay
    while len(ws.replays) > 20:
        ws.replays.pop(next(iter(ws.replays)))
    return {"id": replay.id, "name": name, "steps": replay.steps, "seats": ws.game.setup_for(record["players"]).seat_names
            if ws.game is not None else []}


def _agent_names() -> list[str]:
    from ..agents import BUILTIN
    return list(BUILTIN)


def _int(value, default: int) -> int:
    try:
        return int(value) if value is not None and value != "" else default
    except (TypeError, ValueError):
        raise LegesError(Diagnostic(Position("request"), f"'{value}' is not a whole number")) from None


class Background:
    """The app served by uvicorn in a thread of this process, on a free port of 127.0.0.1 (for tests)."""

    def __init__(self, app):
        import socket
        import threading
        import time

        import uvicorn
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
