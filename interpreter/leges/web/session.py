"""The workspace the web page works on: the ruleset (reloaded when its files change), and the
matches (match.py) and records stepped through (replay.py) kept per browser (store.py).

Everything sent to the page is built by `play_view` or `replay_view`, from one seat's view of the
state (render/view.py: the observation of that seat, its record of play, its own legal actions)
— never from the state itself — so the page cannot show what that seat may not see, whatever
it asks. The server holds the whole state; the page holds a picture of one seat's view of it.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from ..text.errors import Diagnostic, LegesError, Position
from .match import Match
from .replay import Replay
from .store import Store

WATCH_SECONDS = 0.5
MAX_VARIANT_SETS = 8  # the rules kept loaded under other variants than the command line's (tables and records share them)
LOADING = threading.Lock()  # one ruleset loaded at a time (the parser and the caches are the process's)


# ------------------------------------------------------------------ the ruleset
class Workspace:
    """The ruleset served, loaded again whenever one of its files (or its map) changes."""

    def __init__(self, path: str, variants=(), max_bytes: int = 512 << 20, per_client: int = 8):
        self.path = path
        self.variants = list(variants)
        self.game: Any = None
        self.errors: list[dict] = []
        self.version = 0
        self.lock = threading.RLock()  # the ruleset and the stores; a match has a lock (and a Game) of its own
        self.engine = threading.RLock()  # what is played on `game` itself: the records stepped through
        self.fingerprint = None
        self.looked = 0.0  # when the files were last looked at
        self.matches: Store[Match] = Store(max_bytes, per_client)
        self.replays: Store[Replay] = Store(max_bytes // 4, per_client)
        self.keys: dict[str, str] = {}  # a seat's key → its match's id (the match's own id among them)
        self.games: dict = {}  # (version, variants) → the rules under a table's or a record's variants (game_for)
        self.variant_list: list[dict] = []  # the ruleset's variants, as the set-up lists them
        self.reload()

    def add_match(self, client: str, match: Match) -> None:
        """A table kept for `client` (who set it up), its seats' keys with it; the keys of tables
        closed to make room go."""
        with self.lock:
            self.matches.add(client, match.id, match)
            self.keys = {k: m for k, m in self.keys.items() if m in self.matches.items}
            for key in match.keys:
                self.keys[key] = match.id

    def rekey(self, match: Match) -> None:
        """A match's keys changed (a seat handed over): its old keys open nothing."""
        with self.lock:
            self.keys = {k: m for k, m in self.keys.items() if m != match.id}
            for key in match.keys:
                self.keys[key] = match.id

    def find_match(self, key: str) -> Match | None:
        """The match a seat's key opens (None when there is none, or it was closed)."""
        with self.lock:
            mid = self.keys.get(key)
            match = self.matches.get(mid) if mid is not None else None
            if match is None:
                self.keys.pop(key, None)
            return match

    def files(self) -> list[Path]:
        """The ruleset's YAML files (includes, variants, scenarios) and its map."""
        root = Path(self.path)
        if root.is_file():
            root = root.parent
        found = sorted(p for p in root.rglob("*.yaml") if p.is_file())[:500]
        game = self.game
        name = game.ruleset.map if game is not None and game.ruleset is not None else None
        from ..model.loader import map_folders, find_map
        if name:
            where = find_map(root.resolve(), name)
            if where is not None:
                found.append(where)
        else:  # not loaded (yet): any map it could name
            for folder in map_folders(root.resolve()):
                if folder.is_dir():
                    found += sorted(folder.glob("*.yaml"))[:200]
        return found

    def _fingerprint(self):
        out = []
        for p in self.files():
            try:
                info = p.stat()
                out.append((str(p), info.st_mtime_ns, info.st_size))
            except OSError:
                out.append((str(p), None, None))
        return tuple(out)

    def private_game(self, variants=None):
        """A Game of the rules now served for one match alone (under `variants`, the --variant
        requests chosen at its table; the command line's by default): the rules loaded once per
        set of variants and shared, the counters its own (engine/private_copy.py) — the work an
        action may do and what a game has spent belong to a Game, so two games played at once in
        two threads must not share one."""
        from ..engine.private_copy import private_copy
        if self.errors or self.game is None:
            raise LegesError(Diagnostic(Position(self.path), "the ruleset does not load: fix its errors first"))
        version = self.version
        return version, private_copy(self.game_for(self.variants if variants is None else variants))

    def game_for(self, variants) -> Any:
        """The rules served under `variants` (a record's): the served Game itself when they are the
        command line's, else one loaded for them (a few kept, for the records stepped through)."""
        variants = tuple(variants or ())
        if variants == tuple(self.variants) or self.game is None:
            return self.game
        key = (self.version, variants)
        game = self.games.get(key)
        if game is not None:
            return game
        import leges
        with LOADING:  # not the workspace's lock: tables already set up play on while one loads
            game = self.games.get(key)
            if game is None:
                game = leges.load(self.path, variants=list(variants))
                with self.lock:
                    self.games = {k: g for k, g in self.games.items() if k[0] == self.version}
                    while len(self.games) >= MAX_VARIANT_SETS:
                        self.games.pop(next(iter(self.games)))
                    self.games[key] = game
        return game

    def _variant_list(self) -> list[dict]:
        """The ruleset's variants as a table's set-up lists them: what each is, where it comes from,
        its typed parameters (with defaults), what it requires and conflicts with."""
        from ..text.errors import Collector
        from ..model.variants.catalogue import find_variants
        from ..model.variants.choice import REQUEST
        root = Path(self.path)
        if root.is_file():
            root = root.parent
        try:
            found = find_variants(root.resolve(), Collector())  # under LOADING: called by reload
        except LegesError:
            return []
        given = {}  # the command line's values: the set-up starts from them
        for request in self.variants:
            m = REQUEST.match(request.strip())
            if m and m.group(1) in found and m.group(3) is not None and found[m.group(1)].parameters:
                given[(m.group(1), m.group(2) or found[m.group(1)].parameters[0]["id"])] = m.group(3)
        out = []
        for vid in sorted(found):
            data = found[vid].data
            params = []
            for p in found[vid].parameters:
                params.append({k: p.get(k) for k in ("id", "type", "default", "min", "max", "choices", "description")
                               if p.get(k) is not None})
                if (vid, p.get("id")) in given:
                    params[-1]["value"] = given[(vid, p.get("id"))]
            out.append({"id": vid, "title": str(data.get("title") or vid), "kind": str(data.get("kind") or ""),
                        "description": " ".join(str(data.get("description") or "").split()),
                        "provenance": _provenance(data), "parameters": params,
                        "requires": found[vid].names("requires"), "conflicts": found[vid].names("conflicts"),
                        "overrides": found[vid].names("overrides"),
                        "on": any(r.split(".", 1)[0].split("=", 1)[0] == vid for r in self.variants)})
        return out

    def reload(self) -> None:
        import leges
        try:
            with LOADING:
                self.variant_list = self._variant_list()  # read once a version: /api/info waits for no load
                game = leges.load(self.path, variants=self.variants)
        except LegesError as exc:
            self.errors = [diagnostic_json(d) for d in exc.diagnostics]
        else:  # games and records follow the new rules when next looked at (Match.current, Replay.current)
            self.game = game
            self.errors = []
        self.version += 1
        self.fingerprint = self._fingerprint()

    def check(self) -> bool:
        """Reload if a file changed since the last look; True when it did. Every open page asks
        twice a second: the files are looked at no more often than that, whoever asks."""
        with self.lock:
            if time.monotonic() - self.looked < WATCH_SECONDS:
                return False
            self.looked = time.monotonic()
            now = self._fingerprint()
            if now == self.fingerprint:
                return False
            self.reload()
            return True

    def status(self) -> dict:
        return {"version": self.version, "errors": self.errors, "ok": not self.errors and self.game is not None}


def _provenance(data: dict) -> str:
    """A variant's provenance in words: its status, its confidence, its note; else its source's book and section."""
    prov = data.get("provenance")
    if isinstance(prov, dict):
        head = ", ".join(str(prov[k]) if k == "status" else f"{k} {prov[k]}" for k in ("status", "confidence") if prov.get(k))
        note = " ".join(str(prov.get("note") or "").split())
        return head + (f": {note}" if note else "")
    source = data.get("source")
    if isinstance(source, dict) and source.get("book"):
        return " § ".join(str(source[k]) for k in ("book", "section") if source.get(k))
    return ""


def diagnostic_json(d: Diagnostic) -> dict:
    pos = d.position
    return {"text": d.format(), "file": pos.file, "line": pos.line, "col": pos.col,
            "message": d.message, "hint": d.hint, "severity": d.severity}


# -------------------------------------------------------------------- playing


