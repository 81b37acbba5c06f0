"""`python -m tests.fuzz.server --cases 2000`: requests an attacker could send to `leges serve`.

Each case is a request drawn by Hypothesis — a route (known or not, with ids real or made up: a
game of agents, a hot seat, a friend's seat at a table), a
method, headers (the page's token or not, JSON or another type, other origins and host names)
and a body (JSON of the shapes the page sends, with agent specs naming Python, budgets past the
caps, tables' seats and variants, actions legal or not, records, nesting, junk bytes) — sent to the app in this process, as
uvicorn would, without a network. A finding is an answer that is not a JSON object with an
`error` when refused, a status of 500, an answer past its time cap, or planted Python that ran.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MAX_SECONDS = 5.0  # one request's answer, at most (the server's request limit is set to 1 s below)
ROUTES = ["/", "/static/app.js", "/static/../../x", "/api/info", "/api/watch", "/api/play", "/api/play/{m}",
          "/api/play/{m}/act", "/api/play/{m}/continue", "/api/play/{m}/why", "/api/play/{m}/undo",
          "/api/play/{m}/reveal", "/api/play/{m}/record", "/api/play/{m}/handover", "/api/play/{m}?stamp=1", "/api/replay",
          "/api/replay/{r}",
          "/api/nothing", "/x"]


@dataclass
class Findings:
    cases: int = 0
    found: list[str] = field(default_factory=list)


def call(app, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str], bytes]:
    """One request through the ASGI app, as a server on 127.0.0.1:8765 would send it."""
    path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "server": ("127.0.0.1", 8765), "client": ("127.0.0.1", 50000),
             "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]}
    chunks = [body[i:i + 65536] for i in range(0, len(body), 65536)] or [b""]
    sent: dict = {"status": None, "headers": {}, "body": b""}

    async def receive():
        if chunks:
            part = chunks.pop(0)
            return {"type": "http.request", "body": part, "more_body": bool(chunks)}
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            sent["status"] = message["status"]
            sent["headers"] = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body":
            sent["body"] += message.get("body", b"")

    asyncio.run(app(scope, receive, send))
    return sent["status"], sent["headers"], sent["body"]


def specs(planted: Path) -> st.SearchStrategy[str]:
    number = st.one_of(st.integers(-10, 10 ** 12).map(str), st.sampled_from(["nan", "inf", "-1", "1e999", "0.0", "x", ""]))
    builtin = st.builds(lambda name, keys, values: ":".join([name] + [f"{k}={v}" for k, v in zip(keys, values)]),
                        st.sampled_from(["random", "greedy", "mcts"]),
                        st.lists(st.sampled_from(["iterations", "seconds", "depth", "c", "heuristic", "x"]), max_size=3),
                        st.lists(number, min_size=3, max_size=3))
    code = st.sampled_from([f"{planted}/planted.py:A", "planted_module_for_leges:A", "os:system", "json:JSONDecoder"])
    one = st.one_of(builtin, code, st.text(max_size=30))
    return st.lists(one, min_size=1, max_size=4).map(",".join)


def bodies(planted: Path, record: str) -> st.SearchStrategy[bytes]:
    value = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
                         lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                         max_leaves=10)
    fields = st.fixed_dictionaries({}, optional={
        "players": st.one_of(st.integers(-3, 9), st.text(max_size=5), value),
        "seat": st.one_of(st.sampled_from(["x", "o", "red"]), value), "seed": st.one_of(st.integers(), value),
        "agents": st.one_of(specs(planted), value),
        "seats": st.one_of(st.dictionaries(st.sampled_from(["x", "o", "red", ""]), st.one_of(st.just("person"), specs(planted), value),
                                           max_size=3), value),
        "hotseat": st.one_of(st.booleans(), value),
        "variants": st.one_of(st.lists(st.sampled_from(["nothing", "../x", "a.b=1", "x" * 200, f"{planted}/planted",
                                                        "a\nb", "a=\u0663", "a=1", "a.b", "a=" + "9" * 5001, " a", "a\u0131",
                                                        "a=<script>", "_=\x1b[2J"]), max_size=4),
                              value),
        "action": st.one_of(st.sampled_from(["place square=r1c1", "place square=r9c9", "x" * 5000]), value),
        "record": st.one_of(st.just(record), st.text(max_size=50), value), "name": st.one_of(st.text(max_size=300), value)})
    return st.one_of(fields.map(lambda d: json.dumps(d).encode()), value.map(lambda v: json.dumps(v).encode()),
                     st.binary(max_size=200), st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n),
                     st.sampled_from([b'{"players": ' + b"9" * 5001 + b"}", b'{"seed": ' + b"1" * 4001 + b"}",
                                      b'{"players": 2, "seed": NaN}', b'{"players": 1e999}']))


def headers(token: str) -> st.SearchStrategy[dict[str, str]]:
    page = {"Host": "127.0.0.1:8765", "X-Leges-Token": token, "Content-Type": "application/json",
            "Cookie": "leges_client=a"}  # most get past the guard, as the browser holding the tables' seats
    return st.one_of(st.just(page), st.just(page), st.fixed_dictionaries(
        {"Host": st.sampled_from(["127.0.0.1:8765", "localhost:8765", "evil.example", "127.0.0.1:1", ""])},
                                 optional={"X-Leges-Token": st.sampled_from([token, token, "", "x"]),
                                           "Content-Type": st.sampled_from(["application/json", "application/json; charset=utf-8",
                                                                            "text/plain", "multipart/form-data"]),
                                           "Origin": st.sampled_from(["http://127.0.0.1:8765", "http://evil.example", "null"]),
                                           "Sec-Fetch-Site": st.sampled_from(["same-origin", "cross-site", "none"]),
                                           "Cookie": st.sampled_from(["leges_client=a", "leges_client=" + "b" * 500])}))


def campaign(cases: int, seed: int | None, work: Path, max_seconds: float | None = MAX_SECONDS) -> Findings:
    """`cases` hostile requests; a slow answer is a finding past `max_seconds` of the wall clock
    (None: not judged — the test suite's sample, on a machine others share, leaves speed to the campaign)."""
    from leges.text.files import bundled
    from leges.web.seating import AgentPolicy
    from leges.web.server import ServeOptions, create_app
    planted, mark = work / "planted", work / "ran"
    planted.mkdir(exist_ok=True)
    code = f"open({str(mark)!r}, 'w').write('ran')\nclass A:\n    def choose(self, view):\n        return 0\n"
    (planted / "planted.py").write_text(code)
    (planted / "planted_module_for_leges.py").write_text(code)
    sys.path.insert(0, str(planted))
    app = create_app(str(bundled("rulesets") / "tictactoe"),
                     options=ServeOptions(agents=AgentPolicy(max_iterations=50, max_seconds=0.2), request_seconds=1.0))
    token = app.state.token
    base = {"Host": "127.0.0.1:8765", "X-Leges-Token": token, "Content-Type": "application/json", "Cookie": "leges_client=a"}
    _, _, made = call(app, "POST", "/api/play", base, json.dumps({"players": 2, "seat": "o"}).encode())
    match = json.loads(made)["match"]
    _, _, made = call(app, "POST", "/api/play", base, json.dumps({"players": 2, "seat": "x", "hotseat": True,
                                                                  "seats": {"x": "person", "o": "person"}}).encode())
    hot = json.loads(made)["match"]
    _, _, made = call(app, "POST", "/api/play", dict(base, Cookie="leges_client=host"),
                      json.dumps({"players": 2, "seat": "x", "seats": {"x": "person", "o": "person"}}).encode())
    friend = json.loads(made)["links"]["o"]  # not opened yet: the first request for it claims it (web/claims.py)
    record = json.dumps({"leges_record": 1, "ruleset": "tictactoe", "players": 2, "seed": 0, "actions": []})
    out = Findings()

    @settings(max_examples=cases, deadline=None, database=None, derandomize=seed is None,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(ROUTES), st.sampled_from(["GET", "POST", "PUT"]), headers(token), bodies(planted, record),
           st.sampled_from([match, hot, friend, "0" * 16, "../x", "%00"]))
    def one(route, method, sent, body, ids):
        path = route.format(m=ids, r=ids)
        started = time.monotonic()
        status, got, raw = call(app, method, path, sent, body)
        took = time.monotonic() - started
        out.cases += 1
        where = f"{method} {path} {sent} {body[:120]!r}"
        if mark.exists():
            out.found.append(f"planted Python ran: {where}")
            mark.unlink()
        if status == 500 or status is None:
            out.found.append(f"status {status}: {where}: {raw[:300]!r}")
        elif max_seconds is not None and took > max_seconds:
            out.found.append(f"{took:.1f} s: {where}")
        elif status >= 400:
            try:
                reply = json.loads(raw)
                assert isinstance(reply, dict) and reply.get("error")
            except (ValueError, AssertionError):
                out.found.append(f"status {status} without a JSON error: {where}: {raw[:300]!r}")

    if seed is not None:
        from hypothesis import seed as hseed
        one = hseed(seed)(one)
    try:
        one()
    finally:
        sys.path.remove(str(planted))
        sys.modules.pop("planted_module_for_leges", None)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz.server", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=500, help="how many requests (default 500)")
    p.add_argument("--seed", type=int, help="Hypothesis seed (default: a fixed derandomised draw)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="leges-fuzz-server-") as work:
        found = campaign(args.cases, args.seed, Path(work))
    print(f"{found.cases} requests, {len(found.found)} findings")
    for line in found.found[:50]:
        print("  " + line)
    return 1 if found.found else 0


if __name__ == "__main__":
    sys.exit(main())
