"""What the web page works on: the ruleset (reloaded when its files change), the games played
against agents, the records stepped through.

Everything sent to the page is built by `play_view` or `replay_view`, from one seat's view of the
state (render/view.py: the observation of that seat, its record of play, its own legal actions)
— never from the state itself — so the page cannot show what that seat may not see, whatever
it asks. The server holds the whole state; the page holds a picture of one seat's view of it.
"""
from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..text.errors import Diagnostic, LegesError, Position
from .store import Store

CHECKPOINT = 25  # a replay keeps every 25th state, and replays forward from the nearest
WATCH_SECONDS = 0.5
OBJECT_BYTES = 8  # what a state's objects weigh in memory, roughly, per byte of its JSON
LOADING = threading.Lock()  # one ruleset loaded at a time (the parser and the caches are the process's)
GAME_BYTES = 4 << 20  # a match's own Game: its compiled rules (3-4 MB for the bundled games)


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
        self.reload()

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

    def private_game(self):
        """A Game of the rules now served for one match alone. The engine's counters (the work an
        action may do, what a game has spent, values kept for every state) belong to a Game, so
        two games played at once in two threads must not share one."""
        import leges
        if self.errors or self.game is None:
            raise LegesError(Diagnostic(Position(self.path), "the ruleset does not load: fix its errors first"))
        with LOADING:
            return self.version, leges.load(self.path, variants=self.variants)

    def reload(self) -> None:
        import leges
        try:
            with LOADING:
                game = leges.load(self.path, variants=self.variants)
        except LegesError as exc:
            self.errors = [_diagnostic(d) for d in exc.diagnostics]
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


def _diagnostic(d: Diagnostic) -> dict:
    pos = d.position
    return {"text": d.format(), "file": pos.file, "line": pos.line, "col": pos.col,
            "message": d.message, "hint": d.hint, "severity": d.severity}


# -------------------------------------------------------------------- playing
@dataclass
class Match:
    """A game in the page: one seat is the person at the page, agents play the others."""

    id: str
    seat: int
    players: int
    seed: int
    specs: list[str]  # an agent spec per seat ("" for the person's seat)
    make: Callable[[str], Any] | None = field(default=None, repr=False)  # spec → agent (the server's AgentPolicy.make)
    budget: Any = None  # the GameBudget of its game (engine/budget.py)
    st: Any = None
    game: Any = None  # its own Game of the rules it is played under (Workspace.private_game)
    version: int = -1  # of the rules served that `game` is
    agents: dict = field(default_factory=dict)
    memories: Any = None  # what each seat has seen (engine/knowledge.SeatMemories), for the agents' worlds
    news: list[str] = field(default_factory=list)
    seen: int = 0  # entries of the seat's record already told as news
    note: str | None = None
    thinking: bool = False  # the agents were stopped by the time limit, with moves still to make
    base_weight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def start(self, game, version: int = -1) -> None:
        from ..agents import make, start
        from ..engine.knowledge import SeatMemories
        from ..engine.resample import has_hidden_information
        from ..agents.seeding import seat_rng
        self.game, self.version = game, version
        self.memories = SeatMemories(self.players) if has_hidden_information(game) else None
        self.st = game.new_initial_state(players=self.players, seed=self.seed, budget=self.budget,
                                         run=self.memories is None)
        if self.memories is not None:
            self.memories.set_up(self.st)
        self.base_weight = OBJECT_BYTES * len(self.st.to_json())
        self.agents = {}
        for p, spec in enumerate(self.specs):
            if p != self.seat:
                agent = (self.make if self.make is not None else make)(spec)
                start(agent, game, p, seat_rng(self.seed, p, spec))
                self.agents[p] = agent
        self.seen = 0
        self.news = []

    def weight(self) -> int:
        return GAME_BYTES + self.base_weight + 64 * len(self.st.history)

    def current(self, ws: Workspace, seconds: float) -> Match:
        """This match under the rules now served (played again under them if they changed and load)."""
        if ws.version != self.version and not ws.errors and ws.game is not None:
            version, game = ws.private_game()
            self.rebuild(version, game, seconds)
        return self

    def rebuild(self, version: int, game, seconds: float = 30.0) -> None:
        """The ruleset changed: the same game played again under the new rules, as far as it still goes."""
        history = list(self.st.history) if self.st is not None else []
        self.start(game, version)
        for i, entry in enumerate(history):
            try:
                self.apply(entry)
            except LegesError:
                self.note = f"the rules changed: action {i + 1} of the game ({entry.split(': ', 1)[0]}'s) is no longer legal; the game goes on from there"
                break
        else:
            self.note = "the rules changed: the game was played again under them" if history else None
        self.seen = len(self.st.record_view(self.seat))
        self.run(seconds=seconds)

    def apply(self, action) -> None:
        """An action applied to the game, every seat's memory taking it in (the agents search worlds
        that keep what their seat has seen)."""
        if self.memories is None:
            self.st.apply_action(action)
            return
        from ..engine.api import Action
        act = action if isinstance(action, Action) else None
        if act is None and isinstance(action, str) and ": " in action:
            who, text = action.split(": ", 1)
            act = Action(self.st.player_index(who), text)
        self.memories.step(self.st, lambda: self.st.apply_action(action), act)

    def knowledge(self, seat: int):
        return self.memories.seats[seat] if self.memories is not None else None

    def _waiting(self) -> bool:
        """The person may act now: at its own decision, or out of turn."""
        st = self.st
        return st.is_terminal() or st.current_player() == self.seat or bool(st.legal_actions(self.seat))

    def run(self, force: bool = False, budget: int = 5000, seconds: float = 30.0) -> None:
        """Let the agents play until the person may act (or the game ends). A request waits for
        at most `seconds` of it: then `thinking` says that the agents have moves left to make
        (the page asks for them with /continue), and the person is not asked out of turn again."""
        from ..agents import View
        from ..engine.api import Action
        from ..engine.constants import CHANCE
        st = self.st
        force = force or self.thinking
        self.thinking = False
        deadline = time.monotonic() + seconds
        for _ in range(budget):
            if st.is_terminal():
                return
            if time.monotonic() > deadline:
                self.thinking = st.current_player() != self.seat
                return
            who = st.current_player()
            if who == self.seat:
                return
            if not force and st.legal_actions(self.seat):
                return  # the person may act out of turn: ask first
            force = False
            if who == CHANCE:  # explicit chance: drawn at random
                outcomes = st.chance_outcomes()
                rng = random.Random(len(st.history) * 7919 + self.seed)
                self.apply(rng.choices([a for a, _ in outcomes], [w for _, w in outcomes])[0])
                continue
            if self._interrupted(who):
                continue
            agent = self.agents[who]
            view = View(st, who, None, self.knowledge(who))
            choice = agent.choose(view)
            if isinstance(choice, int):
                choice = view.legal_actions()[choice]
            if isinstance(choice, str):
                choice = Action(who, choice)
            self.apply(choice)

    def _interrupted(self, deciding: int) -> bool:
        """Agents other than the one deciding may act out of turn (as in `leges simulate`)."""
        from ..agents import View
        st = self.st
        extra = [a for a in st.out_of_turn_actions() if a.player != self.seat and a.player in self.agents]
        for q in sorted({a.player for a in extra}, key=lambda q: (q - deciding) % st.n):
            mine = [a for a in extra if a.player == q]
            view = View(st, q, mine, self.knowledge(q))
            choice = getattr(self.agents[q], "interrupt", lambda v: None)(view)
            if choice is not None:
                self.apply(mine[choice] if isinstance(choice, int) else choice)
                return True
        return False

    def act(self, text: str, seconds: float = 30.0) -> None:
        """The person's action; one the rules refuse raises `Refused`, with why (engine/seat_explanation.py)."""
        from ..engine.action import IllegalAction
        from ..engine.api import Action
        self.note = None
        try:
            self.apply(Action(self.seat, text))
        except IllegalAction as exc:
            raise Refused(exc, self.explain(text)) from None
        self.run(seconds=seconds)

    def explain(self, text: str) -> dict | None:
        """Why `text` is not legal for the person now, as much of it as its seat may be told."""
        from ..engine.seat_explanation import seat_explanation
        from .views import explanation_payload
        try:
            why = seat_explanation(self.st, text, self.seat)
        except LegesError:  # the rules fail while retracing it: the refusal alone is said
            return None
        return explanation_payload(self.st, why, self.seat) if why is not None else None

    def take_news(self) -> list[str]:
        """What happened since the person last looked, as its seat saw it (its own moves left out)."""
        from ..render.view import history
        seen = history(self.st, self.seat)
        me = self.st.player_name(self.seat) + ": "
        fresh = [line for line in seen[self.seen:] if not line.startswith(me)]
        self.seen = len(seen)
        return fresh


class Refused(LegesError):
    """An action of the person that is not legal: the engine's diagnostic (its hint lists the legal
    actions) and `explanation`, why (a dict of views.explanation_payload, or None)."""

    def __init__(self, exc: LegesError, explanation: dict | None):
        super().__init__(exc.diagnostics)
        self.explanation = explanation


# ------------------------------------------------------------------ replaying
@dataclass
class Replay:
    id: str
    record: dict
    name: str = "record"
    checkpoints: dict = field(default_factory=dict)  # step → state
    steps: int = 0  # the steps that can be shown (all, unless an action is not legal)
    error: str | None = None
    game: Any = None  # the workspace's: played on under Workspace.engine
    base_weight: int = 0

    def weight(self) -> int:
        return self.base_weight * len(self.checkpoints) + 64 * len(self.record["actions"])

    def current(self, game) -> Replay:
        if game is not None and game is not self.game:
            self.rebuild(game)
        return self

    def rebuild(self, game) -> None:
        self.game = game
        record = self.record
        if record.get("ruleset") != game.id:
            raise LegesError(Diagnostic(Position(self.name), f"the record is of '{record.get('ruleset')}', not of '{game.id}'"))
        if not game.min_players <= record["players"] <= game.max_players:
            raise LegesError(Diagnostic(Position(self.name), f"the record's game has {record['players']} players; "
                                        f"{game.title} is for {game.min_players} to {game.max_players}"))
        st = game.new_initial_state(players=record["players"], seed=record["seed"],
                                    explicit_chance=bool(record.get("explicit_chance", False)))
        self.checkpoints = {0: st.copy()}
        self.base_weight = OBJECT_BYTES * len(st.to_json())
        self.error = None
        actions = record["actions"]
        for i, text in enumerate(actions):
            try:
                st.apply_action(text)
            except LegesError as exc:
                self.error = f"action {i + 1} of the record cannot be replayed: {exc.diagnostics[0].message}"
                self.steps = i
                return
            if (i + 1) % CHECKPOINT == 0:
                self.checkpoints[i + 1] = st.copy()
        self.steps = len(actions)

    def state_at(self, step: int):
        step = max(0, min(step, self.steps))
        base = max(k for k in self.checkpoints if k <= step)
        st = self.checkpoints[base].copy()
        for text in self.record["actions"][base:step]:
            st.apply_action(text)
        return st


def read_record_text(text: str, name: str) -> dict:
    """A record sent to the page, checked field by field as a record file is (records.py)."""
    from ..lab.records import record_from_text
    return record_from_text(text, name)


def new_id() -> str:
    """A game's or record's id: whoever knows it may see it as the page does, so it is not guessable."""
    return secrets.token_hex(8)
