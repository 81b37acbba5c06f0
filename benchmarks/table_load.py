"""Many people at the page's tables at once: `leges serve` under a bounded load on 127.0.0.1.

    python benchmarks/table_load.py --clients 50             # 50 browsers, each a table against random agents
    python benchmarks/table_load.py --clients 200 --json

Starts `leges serve RULESET` in a process of its own on a free port of 127.0.0.1, then runs
`--clients` clients in threads of this process, each a browser of its own (its cookie and the
page's token from GET /): it sets up a table (one person, the other seats random agents), then
plays its first legal action whenever it may, asking for its view (with its stamp, as the page
polls) between two actions, for at most `--actions`
actions. Every client stops at `--seconds` at the latest, and so does the run: the load is
bounded in count and in time, and goes to 127.0.0.1 only.

Reports p50 and p99 of the latency of a new table, an action and a poll (wall-clock: what a
person waits), the count of each, the answers 500 and over, the games lost (a key that opens no
game any more), and the server's peak resident memory (VmHWM).
"""
from __future__ import annotations

import argparse
import json
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """One client: the page's cookie and token, and its requests timed."""

    def __init__(self, base: str):
        self.base = base
        with urllib.request.urlopen(base + "/", timeout=60) as r:
            page = r.read().decode()
            self.cookie = r.headers["Set-Cookie"].split(";", 1)[0]
        self.token = re.search(r'name="leges-token" content="([^"]+)"', page).group(1)

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict, float]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"X-Leges-Token": self.token, "Cookie": self.cookie}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=300) as r:
                status, reply = r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            status, reply = exc.code, json.loads(exc.read() or b"{}")
        return status, reply, time.perf_counter() - start


def client(base: str, args, out: dict, lock: threading.Lock, deadline: float) -> None:
    times: dict[str, list[float]] = {"table": [], "action": [], "poll": []}
    errors = lost = done = 0
    try:
        b = Browser(base)
        status, view, took = b.call("/api/play", {"players": args.players, "seat": args.seat, "agents": "random"})
        times["table"].append(took)
        if status >= 500:
            errors += 1
        elif status == 200:
            key, acted, polled = view["match"], 0, False
            while time.monotonic() < deadline and acted < args.actions and not view.get("terminal"):
                if view.get("your_turn") and view.get("actions") and not polled:
                    status, reply, took = b.call(f"/api/play/{key}/act", {"action": view["actions"][0]["text"]})
                    times["action"].append(took)
                    acted += 1
                    polled = True
                elif polled:  # as the page does: it asks with its stamp, and "same" comes back at once
                    status, reply, took = b.call(f"/api/play/{key}?stamp={view.get('stamp', -1)}")
                    times["poll"].append(took)
                    polled = False
                else:
                    time.sleep(0.25)
                    status, reply, took = b.call(f"/api/play/{key}?stamp={view.get('stamp', -1)}")
                    times["poll"].append(took)
                if status >= 500:
                    errors += 1
                    break
                if status != 200:
                    lost += "no such game" in str(reply.get("error"))
                    break
                if not reply.get("same"):
                    view = reply
            done = 1
    except (OSError, ValueError) as exc:
        print(f"a client failed: {exc}", file=sys.stderr)
        errors += 1
    with lock:
        for k, v in times.items():
            out["times"][k] += v
        out["errors"] += errors
        out["lost"] += lost
        out["finished"] += done


def peak_memory(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    m = re.search(r"VmHWM:\s+(\d+) kB", text)
    return int(m.group(1)) * 1024 if m else 0


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--ruleset", default=str(ROOT / "rulesets" / "pompeii"))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seat", default="red")
    ap.add_argument("--actions", type=int, default=10, help="actions a client plays at most (default 10)")
    ap.add_argument("--seconds", type=float, default=300, help="the run stops by then at the latest (default 300)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "leges", "serve", args.ruleset, "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/info", timeout=2)
            except urllib.error.HTTPError:
                break  # it answers (a request without the token is refused): it is up
            except OSError:
                time.sleep(0.1)
        out = {"times": {"table": [], "action": [], "poll": []}, "errors": 0, "lost": 0, "finished": 0}
        lock = threading.Lock()
        started = time.monotonic()
        deadline = started + args.seconds
        threads = [threading.Thread(target=client, args=(base, args, out, lock, deadline), daemon=True)
                   for _ in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(max(0.0, deadline + 60 - time.monotonic()))
        report = {"clients": args.clients, "ruleset": Path(args.ruleset).name, "players": args.players,
                  "wall_seconds": round(time.monotonic() - started, 1), "finished": out["finished"],
                  "errors_500": out["errors"], "lost_games": out["lost"], "server_peak_rss_mb": round(peak_memory(server.pid) / 2**20, 1)}
        for kind, values in out["times"].items():
            report[kind] = {"count": len(values), "p50_s": pct(values, 50), "p99_s": pct(values, 99)}
    finally:
        server.terminate()
        server.wait(10)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{report['clients']} clients, {report['ruleset']} {report['players']}p, {report['wall_seconds']} s: "
              f"{report['finished']} finished, {report['errors_500']} answers 500+, {report['lost_games']} games lost, "
              f"server peak RSS {report['server_peak_rss_mb']} MB")
        for kind in ("table", "action", "poll"):
            r = report[kind]
            f = (lambda v: "-" if v is None else f"{v:.3f} s")
            print(f"  {kind:7} n={r['count']:5}  p50 {f(r['p50_s'])}  p99 {f(r['p99_s'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
