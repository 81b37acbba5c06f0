"""What a request must show before the page's server does anything for it.

A server on 127.0.0.1 is reachable by every web page its user opens: a page elsewhere can send it
"simple" cross-origin requests (a `text/plain` POST needs no preflight), and a hostile name that
resolves to 127.0.0.1 (DNS rebinding) can even read its answers. So every request must

- name this server in `Host` (one of its names, with the port it is served on): a rebound name
  is refused before anything, the page (which carries the token) included;
and, on `/api/`,
- come from this server's own page if it comes from a page at all (`Origin`, `Sec-Fetch-Site`);
- carry the per-server secret that the page received inside its HTML
  (`X-Leges-Token`), which no other origin can read;
- send JSON as JSON (`Content-Type: application/json`) when it posts — a type no page of another
  origin may send without a preflight, which this server never grants;
- say a body size under the limit, and keep to it (`read_json` counts while it reads).

Every refusal is a JSON error the page (or curl) can read: `{"error", "diagnostics"}`.
"""
from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from ..text.errors import Diagnostic, LegesError, Position

TOKEN_HEADER = "x-leges-token"
MAX_DEPTH = 32  # JSON nesting of a request: the page sends objects two deep
LOOPBACK = ("127.0.0.1", "localhost", "::1")

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Callable, Callable], Awaitable[None]]


def refusal(message: str, status: int, where: str = "request", hint: str | None = None) -> tuple[int, dict]:
    d = Diagnostic(Position(where), message, hint)
    return status, {"error": message, "diagnostics": [{"text": d.format(), "file": where, "line": None, "col": None,
                                                       "message": message, "hint": hint, "severity": d.severity}]}


def host_names(host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a request may call this server by: the address it listens on (and, on loopback or
    on every address, the loopback names), and any the user allowed (`leges serve --allow-host`)."""
    names = {host.strip("[]").lower(), *(h.strip("[]").lower() for h in extra)}
    if host in ("0.0.0.0", "::", "") or host.strip("[]").lower() in LOOPBACK:
        names.update(LOOPBACK)
    names.discard("0.0.0.0")
    names.discard("::")
    return frozenset(names)


def split_host(value: str) -> tuple[str, int | None] | None:
    """`name:port`, `[::1]:port` or `name` → (name, port); None when it is not a host at all."""
    value = value.strip()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    if not name or (port and not port.isdigit()):
        return None
    return name.lower(), int(port) if port else None


class Guard:
    """ASGI middleware: the checks of this module's docstring, before the app sees a request."""

    def __init__(self, app: ASGIApp, token: str, hosts: frozenset[str], max_body: int):
        self.app, self.token, self.hosts, self.max_body = app, token, hosts, max_body
        self.state = getattr(app, "state", None)  # the app's (create_app keeps its workspace there)

    async def __call__(self, scope: Scope, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refused = self.check(scope)
        if refused is not None:
            from starlette.responses import JSONResponse
            status, payload = refused
            await JSONResponse(payload, status_code=status)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def check(self, scope: Scope) -> tuple[int, dict] | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = split_host(headers.get("host", ""))
        served = scope.get("server")
        port = served[1] if served else None
        if host is None or host[0] not in self.hosts or (port is not None and host[1] not in (port, None)):
            return refusal("this server does not answer to that name", 421, "Host",
                           "open the page at the address `leges serve` printed; `--allow-host NAME` admits another")
        if not scope.get("path", "").startswith("/api/"):
            return None  # the page and its files: a link from elsewhere may open them, nothing more
        origin = headers.get("origin")
        if origin is not None and origin != f"{scope.get('scheme', 'http')}://{headers['host'].strip()}":
            return refusal("requests from other pages are refused", 403, "Origin")
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return refusal("requests from other pages are refused", 403, "Sec-Fetch-Site")
        if not hmac.compare_digest(headers.get(TOKEN_HEADER, "").encode("latin-1"), self.token.encode()):
            return refusal("the request does not carry this server's token", 403, "X-Leges-Token",
                           "the page sends it; a script reads it from the page's <meta name=\"leges-token\">")
        if scope.get("method") == "POST":
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return refusal("the request is not sent as JSON", 415, "Content-Type", "send Content-Type: application/json")
            size = headers.get("content-length")
            if size is not None and (not size.isdigit() or int(size) > self.max_body):
                return refusal(f"the request is larger than {self.max_body // (1024 * 1024)} MB", 413)
        return None


async def read_json(request: Any, limit: int) -> dict:
    """The request's JSON object, read no further than `limit` bytes and no deeper than MAX_DEPTH."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise LegesError(Diagnostic(Position("request"), f"the request is larger than {limit // (1024 * 1024)} MB"))
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    from ..text.json_source import parse_json
    try:  # numbers bounded in digits, NaN and Infinity refused, each at its place (text/json_source.py)
        data = parse_json(raw.decode("utf-8"), "request", "request")
    except (ValueError, RecursionError):  # not UTF-8
        raise LegesError(Diagnostic(Position("request"), "the request is not JSON (or is nested too deeply)")) from None
    if not isinstance(data, dict):
        raise LegesError(Diagnostic(Position("request"), "the request is not a JSON object"))
    if depth(data) > MAX_DEPTH:
        raise LegesError(Diagnostic(Position("request"), f"the request is nested more than {MAX_DEPTH} deep"))
    return data


def depth(value: object) -> int:
    """How deeply lists and objects nest in a JSON value (without recursing: it may be deep)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            stack.extend((x, level + 1) for x in item)
    return deepest
