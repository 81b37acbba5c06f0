"""`leges serve`: a small ASGI app (Starlette, run by uvicorn) and its page (static/: plain HTML,
SVG and JavaScript, no build step).

The page sets up tables — each seat a person's (a link with the seat's key) or an agent's, a hot
seat for one screen, the ruleset's variants switched on with their parameters — plays at them,
steps through a record with a timeline, and watches the ruleset's files: on save the game is
reloaded, or the located errors are shown. Every answer about a game is one seat's view (views.py).

    GET  /                      the page (a seat's link: /#seat=KEY)
    GET  /api/info              the ruleset: title, players, seats, agents, variants, load errors
    GET  /api/watch             reload if a file changed: {version, ok, errors}
    POST /api/play              {players, seat, agents | seats: {name: "person" | spec}, hotseat, variants,
                                seed} → a new table and the view of the seat of the page setting it up
                                (with `links`: a key for each other person's seat)
    GET  /api/play/KEY[?stamp=N]  the key's seat's view (with the stamp it saw: {same} when nothing changed)
    POST /api/play/KEY/act      {action} → the action applied, the agents' moves, the seat's view; an
                                illegal one → 400 with `explanation`: why (engine/seat_explanation.py)
    POST /api/play/KEY/why      {action} → why it is not legal, nothing applied ({legal: true} when it is)
    POST /api/play/KEY/undo     practice (every other seat an agent): the seat's last decision taken back
    POST /api/play/KEY/reveal   {seat} → a hot seat: that person's view uncovered
    GET  /api/play/KEY/record   the game's record (with its variants), once the game is over
    POST /api/play/KEY/continue let the agents play on (the seat could have acted out of turn)
    POST /api/replay            {record: text, name} → a record to step through
    GET  /api/replay/ID?step=N&seat=S   the record after N actions, as seat S (default: public) sees it

Anything that can reach the server can send it a request, so nothing in one is trusted: guard.py
checks who is asking (the Host, the Origin, the token the page got with its HTML, JSON sent as
JSON, the size) before any route runs; seating.py admits only the built-in agents with capped
budgets; each game has a lock of its own and its agents stop thinking at a time limit, so one
long search holds up nobody else; store.py keeps each client's games within a memory bound. A
game is reached by a seat's key only, which acts for that seat alone; variants are named, and
looked up among the ruleset's own variant files.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.budget import GameBudget
from ..text.errors import Diagnostic, LegesError, Position
from .guard import Guard, host_names, read_json, refusal
from .request_fields import MAX_NAME, people_and_agents, table_seed, text_field, variant_requests, whole_number
from .seating import AgentPolicy
from .ids import new_id
from .match import Match
from .replay import Replay, read_record_text
from .session import Workspace, diagnostic_json
from .views import play_view, replay_view

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 8 * 1024 * 1024  # a record uploaded from the page
MAX_REPLY = 16 * 1024 * 1024
MAX_ACTION = 2000  # characters of an action's text (the bundled games' longest: 80)
COOKIE = "leges_client"


@dataclass(frozen=True)
class ServeOptions:
    """What the person starting `leges serve` decides for everybody who reaches it."""
    host: str = "127.0.0.1"
    allow_hosts: tuple[str, ...] = ()
    agents: AgentPolicy = field(default_factory=AgentPolicy)
    request_seconds: float = 20.0  # the agents' moves one request waits for; then the page asks again
    max_memory: int = 512 << 20  # what the games kept may weigh (an estimate: store.py)
    games_per_client: int = 8
    agent_threads: int = 2  # requests whose agents think at once; others wait their turn
    budget: GameBudget = field(default_factory=GameBudget)  # what one game may spend (engine/budget.py)
    seed: int | None = None  # `leges serve --seed N`: every table dealt from N, and the page says the deal is not secret


def need_web():
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise LegesError(Diagnostic(Position("leges serve"), "the web page needs Starlette and uvicorn",
                                    "install them with: pip install 'leges[web]'")) from None


def create_app(path: str, variants=(), record: str | None = None, options: ServeOptions | None = None):
    """The ASGI app serving the ruleset at `path` (and, if given, a record to step through)."""
    need_web()
    import anyio
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, Response
    from starlette.routing import Route

    options = options or ServeOptions()
    policy = options.agents
    policy.parse_named()
    token = secrets.token_urlsafe(32)
    thinkers = anyio.CapacityLimiter(options.agent_threads)
    ws = Workspace(path, variants, options.max_memory, options.games_per_client)
    preloaded = []
    if record is not None:
        from ..text import files
        text = files.read_text(record, files.MAX_JSON_BYTES, record, what="record file")
        preloaded.append(_add_replay(ws, "", text, Path(record).name))

    def reply(payload: dict, status: int = 200) -> Response:
        body = json.dumps(payload, ensure_ascii=False, allow_nan=False).encode()
        if len(body) > MAX_REPLY:
            status, payload = refusal(f"the answer would be larger than {MAX_REPLY >> 20} MB", 413)
            body = json.dumps(payload).encode()
        return Response(body, status_code=status, media_type="application/json")

    def error(message: str, status: int = 400, diagnostics=None) -> Response:
        return reply({"error": message, "diagnostics": diagnostics or []}, status)

    def leges_error(exc: LegesError) -> Response:
        ds = [diagnostic_json(d) for d in exc.diagnostics]
        why = getattr(exc, "explanation", None)  # an action refused (session.Refused): why, as the seat may be told
        if why:
            return reply({"error": why["line"], "diagnostics": ds, "explanation": why}, 400)
        return error(ds[0]["message"] if ds else "error", getattr(exc, "status", 400), ds)

    def route(fn, thinks: bool = False):
        """An API endpoint: `fn(request, data, client)` run off the event loop, its answer as JSON."""
        async def endpoint(request: Request) -> Response:
            try:
                data = await read_json(request, MAX_BODY) if request.method == "POST" else {}
                client = request.cookies.get(COOKIE, "")[:64]
                result = await run_in_threadpool(fn, request, data, client) if not thinks else \
                    await anyio.to_thread.run_sync(fn, request, data, client, limiter=thinkers)
            except LegesError as exc:
                return leges_error(exc)
            except Exception as exc:  # a bug of leges, not of the input: said in one line, as the command line does
                return error(f"internal error: {type(exc).__name__}: {exc}", 500)
            return result if isinstance(result, Response) else reply(result)
        return endpoint

    page_html = (STATIC / "index.html").read_text(encoding="utf-8").replace(
        '<meta name="leges-token" content="">', f'<meta name="leges-token" content="{token}">')

    def page(request: Request) -> Response:
        response = HTMLResponse(page_html, headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY",
                                                    "Content-Security-Policy": "frame-ancestors 'none'"})
        if COOKIE not in request.cookies:
            response.set_cookie(COOKIE, secrets.token_hex(16), httponly=True, samesite="strict")
        return response

    def static(request: Request) -> Response:
        from starlette.responses import FileResponse
        name = request.path_params["name"]
        if name == "index.html" or name not in {p.name for p in STATIC.iterdir()}:
            return error("not found", 404)
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    def info(request, data, client):
        game = ws.game
        out = {"version": ws.version, "errors": ws.errors, "ok": not ws.errors, "replays": preloaded,
               "agents": policy.names(), "variants": ws.variant_list}
        if game is not None:
            out.update({"title": game.title, "ruleset": game.id, "min_players": game.min_players,
                        "max_players": game.max_players,
                        "seats": [s.get("name") for s in game.ruleset.seats] if game.ruleset else [],
                        "seat_words": dict(game.words.seats) if game.words else {}})  # display names, per language
        return out

    def watch(request, data, client):
        ws.check()
        return ws.status()

    def game_or_error():
        if ws.game is None:
            raise LegesError(Diagnostic(Position(ws.path), "the ruleset does not load: fix its errors first"))
        return ws.game

    def new_play(request, data, client):
        """A table: each seat a person's or an agent's (`seats`: name → "person" or a spec; else
        the page's own `seat` and `agents` for the rest), under the `variants` chosen."""
        game = game_or_error()
        players = whole_number(data.get("players"), game.min_players, "players")
        if not game.min_players <= players <= game.max_players:
            raise LegesError(Diagnostic(Position("players"), f"{game.title} is for {game.min_players} to {game.max_players} players"))
        setup = game.setup_for(players)
        seat_name = text_field(data.get("seat"), "seat")
        seats = data.get("seats")
        if seats is not None:
            specs = people_and_agents(seats, setup.seat_names, policy)
            people = [p for p, spec in enumerate(specs) if spec == ""]
            if seat_name and seat_name not in setup.seat_names:
                raise LegesError(Diagnostic(Position("seat"), f"no seat '{seat_name[:MAX_NAME]}' in a game of {players}"))
            seat = setup.seat_names.index(seat_name) if seat_name else (people[0] if people else 0)
            if seat not in people:
                raise LegesError(Diagnostic(Position("seats"), "the page setting the table up takes a seat of a person",
                                            "make one seat a person's"))
        else:
            seat_name = seat_name or setup.seat_names[0]
            if seat_name not in setup.seat_names:
                raise LegesError(Diagnostic(Position("seat"), f"no seat '{seat_name[:MAX_NAME]}' in a game of {players}",
                                            "seats: " + ", ".join(setup.seat_names)))
            seat = setup.seat_names.index(seat_name)
            specs = policy.specs(text_field(data.get("agents"), "agents") or "random", players - 1)
            specs = specs[:seat] + [""] + specs[seat:]
        variants = variant_requests(data.get("variants"), ws.variants)
        hotseat = data.get("hotseat", False)
        if not isinstance(hotseat, bool):
            raise LegesError(Diagnostic(Position("hotseat"), "hotseat is true or false"))
        from .seating import HOT
        seed, secret = table_seed(data.get("seed"), options.seed, practice=len([s for s in specs if s == ""]) == 1 and not hotseat)
        match = Match(new_id(), HOT if hotseat else seat, players, seed, specs, policy.make,
                      options.budget, variants=tuple(variants), hotseat=hotseat, secret=secret)
        match.claims.admit(match.keys[match.id], client, "the host")  # the host's browser holds the host's seat
        with match.lock:
            version, private = ws.private_game(variants)  # a conflict, a bad parameter: refused here, with why
            match.start(private, version)
            ws.add_match(client, match)
            match.run(seconds=options.request_seconds)
            return play_view(match, ws)

    def the_match(request, client: str) -> tuple[Match, str]:
        """The match a seat's key opens, for the browser holding that seat (the first to open its link: claims.py)."""
        key = request.path_params["mid"]
        match = ws.find_match(key)
        if match is None:
            raise LegesError(Diagnostic(Position("game"), "no such game: it was closed to make room, or the server restarted",
                                        "start a new game"))
        seat = match.keys.get(key)
        if seat is None:  # handed over while this request came
            raise LegesError(Diagnostic(Position("game"), "this link seats nobody any more: its seat was handed over",
                                        "ask whoever set the table up for the seat's new link"))
        if match.claims.admit(seat, client, "this" if seat < 0 else match.st.player_name(seat)):
            match.stamp += 1  # a seat newly taken: every page asking with its stamp sees it
        return match, key

    def get_play(request, data, client):
        match, key = the_match(request, client)
        known = request.query_params.get("stamp")
        if known is not None:  # a page waiting for the others asks often: an answer at once, however busy
            if not match.lock.acquire(timeout=0.05):
                return {"same": True, "busy": True}
            try:
                if known == str(match.stamp) and (ws.version == match.version or ws.errors or ws.game is None):
                    return {"same": True, "busy": match.thinking}
                return play_view(match.current(ws, options.request_seconds), ws, key)
            finally:
                match.lock.release()
        with match.lock:
            return play_view(match.current(ws, options.request_seconds), ws, key)

    def action_text(data) -> str:
        text = data.get("action")
        if not isinstance(text, str) or not text:
            raise LegesError(Diagnostic(Position("action"), "no action given"))
        if len(text) > MAX_ACTION:
            raise LegesError(Diagnostic(Position("action"), f"the action is longer than {MAX_ACTION} characters",
                                        "an action is one of the texts the game lists as legal"))
        return text

    def acting_seat(match, key) -> int:
        covered = match.covered(key)
        if covered is not None:
            raise LegesError(Diagnostic(Position("seat"), f"{match.st.player_name(covered)} is to look first",
                                        "the next person uncovers the view"))
        seat = match.seat_of(key)
        if seat is None:
            raise LegesError(Diagnostic(Position("seat"), "nobody's view is uncovered at this hot seat",
                                        "the person to decide uncovers it first"))
        return seat

    def act(request, data, client):
        match, key = the_match(request, client)
        text = action_text(data)
        with match.lock:
            match.current(ws, options.request_seconds)
            match.act(text, options.request_seconds, seat=acting_seat(match, key))
            return play_view(match, ws, key)

    def why(request, data, client):
        match, key = the_match(request, client)
        text = action_text(data)
        with match.lock:
            match.current(ws, options.request_seconds)
            return match.why(text, acting_seat(match, key))

    def undo(request, data, client):
        match, key = the_match(request, client)
        with match.lock:
            match.current(ws, options.request_seconds)
            match.undo(acting_seat(match, key))
            return play_view(match, ws, key)

    def reveal(request, data, client):
        match, key = the_match(request, client)
        with match.lock:
            match.reveal(key, text_field(data.get("seat"), "seat"))
            return play_view(match, ws, key)

    def record_of(request, data, client):
        match, _ = the_match(request, client)
        with match.lock:
            return match.record(ws.path)

    def carry_on(request, data, client):
        match, key = the_match(request, client)
        with match.lock:
            match.current(ws, options.request_seconds).run(force=True, seconds=options.request_seconds)
            return play_view(match, ws, key)

    def hand_over(request, data, client):
        match, key = the_match(request, client)
        if key != match.id:
            raise LegesError(Diagnostic(Position("seat"), "only the page that set the table up hands a seat over"))
        with match.lock:
            new_key = match.hand_over(text_field(data.get("seat"), "seat"))
            ws.rekey(match)
            return play_view(match, ws, key) | {"handed": new_key}

    def new_replay(request, data, client):
        game_or_error()
        text = data.get("record")
        if not isinstance(text, str):
            raise LegesError(Diagnostic(Position("record"), "no record given"))
        entry = _add_replay(ws, client, text, text_field(data.get("name"), "name")[:MAX_NAME] or "record")
        replay = ws.replays.get(entry["id"])
        with ws.engine:
            return replay_view(replay, 0, None, ws)

    def get_replay(request, data, client):
        with ws.lock:
            replay = ws.replays.get(request.path_params["rid"])
        if replay is None:
            raise LegesError(Diagnostic(Position("record"), "no such record: it was closed to make room, or the server restarted"))
        with ws.engine:
            replay.current(ws.game_for(replay.record.get("variants")))
            st0 = replay.checkpoints[0]
            name = request.query_params.get("seat") or ""
            seat = None
            if name and name != "public":
                if name not in st0.setup.seat_names:
                    raise LegesError(Diagnostic(Position("seat"), f"no seat '{name[:MAX_NAME]}'"))
                seat = st0.setup.seat_names.index(name)
            return replay_view(replay, whole_number(request.query_params.get("step"), 0, "step"), seat, ws)

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(exc.detail if isinstance(exc.detail, str) else "not found", exc.status_code)

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/info", route(info)),
        Route("/api/watch", route(watch)),
        Route("/api/play", route(new_play, thinks=True), methods=["POST"]),
        Route("/api/play/{mid}", route(get_play)),
        Route("/api/play/{mid}/act", route(act, thinks=True), methods=["POST"]),
        Route("/api/play/{mid}/continue", route(carry_on, thinks=True), methods=["POST"]),
        Route("/api/play/{mid}/why", route(why), methods=["POST"]),
        Route("/api/play/{mid}/undo", route(undo, thinks=True), methods=["POST"]),  # a game played again
        Route("/api/play/{mid}/reveal", route(reveal), methods=["POST"]),
        Route("/api/play/{mid}/handover", route(hand_over), methods=["POST"]),
        Route("/api/play/{mid}/record", route(record_of)),
        Route("/api/replay", route(new_replay), methods=["POST"]),
        Route("/api/replay/{rid}", route(get_replay)),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found})
    app.state.workspace = ws
    app.state.token = token
    return Guard(app, token, host_names(options.host, options.allow_hosts), MAX_BODY)


def _add_replay(ws: Workspace, client: str, text: str, name: str) -> dict:
    record = read_record_text(text, name)
    record["variants"] = variant_requests(record.get("variants") or [], [])  # played under its own variants
    replay = Replay(new_id(), record, name)
    if ws.game is not None:
        with ws.engine:
            replay.rebuild(ws.game_for(record["variants"]))
    with ws.lock:
        ws.replays.add(client, replay.id, replay)
    return {"id": replay.id, "name": name, "steps": replay.steps, "seats": ws.game.setup_for(record["players"]).seat_names
            if ws.game is not None else []}


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
        self.app = app
        self.token = app.state.token  # what the page carries in its HTML, for tests that call the API
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
