"""A match: one table's game, its seats (people by key, agents), and what each key may see and do.

Each match plays on a Game of its own (the engine's work counter and budget are a Game's: shared
across threads they would race), the compiled rules in it shared with every table under the same
variants (engine/private_copy.py), under its own lock; `Match.current` plays it again under the
rules served when they change.
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..text.errors import Diagnostic, LegesError, Position
from .claims import Claims
from .ids import new_id
from .seating import HOT

OBJECT_BYTES = 8  # what a state's objects weigh in memory, roughly, per byte of its JSON
GAME_BYTES = 64 << 10  # a match's own Game: its counters (the compiled rules are shared: engine/private_copy.py)


class Rules(Protocol):
    """What a match needs of the rules the page serves (session.Workspace)."""

    version: int
    errors: list
    game: Any

    def private_game(self, variants: tuple) -> tuple[int, Any]: ...


@dataclass
class Match:
    """A game at a table: each seat is a person's (a page that holds the seat's key) or an agent's.

    `seat` is the seat of the page that set the table up (its key is the match's id); the others
    taken by people have keys of their own (`keys`: key → seat), each a link for one friend, and a
    page shows only the view of its key's seat. A hot-seat table (one screen for all its people)
    has one key, naming HOT: the view of the person to decide, covered until that person
    uncovers it (`reveal`)."""

    id: str
    seat: int
    players: int
    seed: int
    specs: list[str]  # an agent spec per seat ("" for a person's seat)
    make: Callable[[str], Any] | None = field(default=None, repr=False)  # spec → agent (the server's AgentPolicy.make)
    budget: Any = None  # the GameBudget of its game (engine/budget.py)
    variants: tuple = ()  # the --variant requests the table chose (its game is loaded with them)
    hotseat: bool = False
    secret: bool = True  # the seed was drawn by the server (engine/rng.secret_seed) and is shown to nobody before the end
    claims: Claims = field(default_factory=Claims)  # which browser holds each seat (claims.py)
    st: Any = None
    game: Any = None  # its own Game of the rules it is played under (Workspace.private_game)
    version: int = -1  # of the rules served that `game` is
    agents: dict = field(default_factory=dict)
    memories: Any = None  # what each seat has seen (engine/knowledge.SeatMemories), for the agents' worlds
    keys: dict = field(default_factory=dict)  # key → seat (HOT at a hot-seat table)
    seen: dict = field(default_factory=dict)  # seat → entries of its record already told as news
    told: dict = field(default_factory=dict)  # entries of the history → the log lines written with the last of them
    shown: int | None = None  # hot seat: the seat uncovered
    note: str | None = None
    thinking: bool = False  # the agents were stopped by the time limit, with moves still to make
    stamp: int = 0  # counts the changes: a page that saw this stamp has nothing new to see
    seen_by: dict = field(default_factory=dict)  # seat → every component it has seen (its memory forgets; this does not)
    learned_at: dict = field(default_factory=dict)  # seat → the history's length when it last saw one for the first time
    base_weight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self):
        if self.seat != HOT and 0 <= self.seat < len(self.specs):
            self.specs = list(self.specs)
            self.specs[self.seat] = ""
        if not self.keys:
            self.keys[self.id] = HOT if self.hotseat else self.seat
            if not self.hotseat:
                for p in self.people:
                    if p != self.seat:
                        self.keys[new_id()] = p

    @property
    def people(self) -> list[int]:
        return [p for p, spec in enumerate(self.specs) if spec == ""]

    def start(self, game, version: int = -1) -> None:
        from ..agents import make, start
        from ..engine.knowledge import SeatMemories
        from ..engine.resample import has_hidden_information
        from ..agents.seeding import seat_rng
        self.game, self.version = game, version
        self.memories = SeatMemories(self.players) if has_hidden_information(game) else None
        self.st = game.new_initial_state(players=self.players, seed=self.seed, budget=self.budget,
                                         run=self.memories is None)
        self.before = None  # the state before the last action: the picture marks what it changed
        self.told = {0: list(self.st.log)} if self.st.log else {}  # the set-up's: before any entry
        if self.memories is not None:
            self.memories.set_up(self.st)
            self.seen_by, self.learned_at = {}, {}
            self._note_learned()
        self.base_weight = OBJECT_BYTES * len(self.st.to_json())
        self.agents = {}
        for p, spec in enumerate(self.specs):
            if spec != "":
                agent = (self.make if self.make is not None else make)(spec)
                start(agent, game, p, seat_rng(self.seed, p, spec))
                self.agents[p] = agent
        self.seen = {}
        self.stamp += 1

    def weight(self) -> int:
        return GAME_BYTES + self.base_weight + 64 * len(self.st.history)

    def current(self, ws: Rules, seconds: float) -> Match:
        """This match under the rules now served (played again under them if they changed and load)."""
        if ws.version != self.version and not ws.errors and ws.game is not None:
            version, game = ws.private_game(self.variants)
            self.rebuild(version, game, seconds)
        return self

    def rebuild(self, version: int, game, seconds: float = 30.0) -> None:
        """The ruleset changed: the same game played again under the new rules, as far as it still goes."""
        history = list(self.st.history) if self.st is not None else []
        self.replay(game, version, history)
        if len(self.st.history) < len(history):
            entry = history[len(self.st.history)]
            self.note = f"the rules changed: action {len(self.st.history) + 1} of the game ({entry.split(': ', 1)[0]}'s) is no longer legal; the game goes on from there"
        else:
            self.note = "the rules changed: the game was played again under them" if history else None
        self.run(seconds=seconds)

    def replay(self, game, version: int, history: list[str]) -> None:
        """A fresh start of the game, its actions `history` played again (as far as they are legal)."""
        self.start(game, version)
        for entry in history:
            try:
                self.apply(entry)
            except LegesError:
                break
        self.seen = {p: len(self.st.record_view(p)) for p in self.people}

    def apply(self, action) -> None:
        """An action applied to the game, every seat's memory taking it in (the agents search worlds
        that keep what their seat has seen)."""
        before = self.before = self.st.copy()
        if self.memories is None:
            self.st.apply_action(action)
        else:
            from ..engine.api import Action
            act = action if isinstance(action, Action) else None
            if act is None and isinstance(action, str) and ": " in action:
                who, text = action.split(": ", 1)
                act = Action(self.st.player_index(who), text)
            self.memories.step(self.st, lambda: self.st.apply_action(action), act)
            self._note_learned()
        self.stamp += 1
        self._note_log(before.log)

    def _note_learned(self) -> None:
        """When each person last saw a component it had never seen (a card drawn, one played face up):
        a decision before that is not taken back (`undo`), or the person would know what comes next."""
        if self.memories is None:
            return
        for p in self.people:
            memory = self.memories.seats[p]
            seen = self.seen_by.setdefault(p, set())
            new = (memory.fixed | memory.known) - seen
            if new:
                seen |= new
                self.learned_at[p] = len(self.st.history)

    def _note_log(self, before: list[str]) -> None:
        """The log lines the last action wrote, kept with the history's length (the page tells them
        as events after that entry: render/view.told_view)."""
        from ..render.view import new_lines
        lines = new_lines(before, self.st.log)
        if lines:
            self.told.setdefault(len(self.st.history), []).extend(lines)

    def knowledge(self, seat: int):
        return self.memories.seats[seat] if self.memories is not None else None

    def deciding(self) -> int | None:
        """The person who may act now: the one to decide, else one who may act out of turn; None
        when the game is over or an agent is to decide and no person may act."""
        st = self.st
        if st.is_terminal():
            return None
        who = st.current_player()
        people = self.people
        if who in people:
            return who
        return next((p for p in people if st.legal_actions(p)), None)

    def seat_of(self, key: str) -> int | None:
        """The seat a key names; at a hot-seat table, the seat uncovered (None while nobody's is:
        the screen then shows only what everybody sees)."""
        seat = self.keys[key]
        return self.shown if seat == HOT else seat

    def covered(self, key: str) -> int | None:
        """A hot-seat table's next person, whose view waits until it is uncovered; else None."""
        if self.keys.get(key) != HOT:
            return None
        deciding = self.deciding()
        if deciding is not None and deciding != self.shown:
            return deciding
        return None

    def reveal(self, key: str, name: str) -> None:
        """The person at a hot seat says who it is: that seat's view is uncovered."""
        deciding = self.deciding()
        if self.keys.get(key) != HOT:
            raise LegesError(Diagnostic(Position("seat"), "this is not a hot-seat table"))
        if deciding is None or self.st.player_name(deciding) != name:
            raise LegesError(Diagnostic(Position("seat"), f"it is not {name[:40]}'s turn to look",
                                        f"{self.st.player_name(deciding)} is to decide" if deciding is not None else None))
        self.shown = deciding
        self.stamp += 1

    def run(self, force: bool = False, budget: int = 5000, seconds: float = 30.0) -> None:
        """Let the agents play until a person may act (or the game ends). A request waits for
        at most `seconds` of it: then `thinking` says that the agents have moves left to make
        (the page asks for them with /continue), and the person is not asked out of turn again."""
        from ..agents import View
        from ..engine.api import Action
        from ..engine.constants import CHANCE
        st = self.st
        force = force or self.thinking
        self.thinking = False
        deadline = time.monotonic() + seconds
        people = self.people
        for _ in range(budget):
            if st.is_terminal():
                return
            who = st.current_player()
            if who in people:
                return
            if time.monotonic() > deadline:
                self.thinking = True
                self.stamp += 1
                return
            if not force and any(st.legal_actions(p) for p in people):
                return  # a person may act out of turn: ask first
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
        extra = [a for a in st.out_of_turn_actions() if a.player in self.agents]
        for q in sorted({a.player for a in extra}, key=lambda q: (q - deciding) % st.n):
            mine = [a for a in extra if a.player == q]
            view = View(st, q, mine, self.knowledge(q))
            choice = getattr(self.agents[q], "interrupt", lambda v: None)(view)
            if choice is not None:
                self.apply(mine[choice] if isinstance(choice, int) else choice)
                return True
        return False

    def act(self, text: str, seconds: float = 30.0, seat: int | None = None) -> None:
        """A person's action (the table's first seat's unless `seat` says); one the rules refuse
        raises `Refused`, with why (engine/seat_explanation.py)."""
        from ..engine.action import IllegalAction
        from ..engine.api import Action
        seat = self.seat if seat is None else seat
        self.note = None
        try:
            self.apply(Action(seat, text))
        except IllegalAction as exc:
            raise Refused(exc, self.explain(text, seat)) from None
        if self.hotseat:
            self.shown = None if self.deciding() != seat else seat
        self.run(seconds=seconds)

    def why(self, text: str, seat: int | None = None) -> dict:
        """Why `text` would not be legal for the person now — asked, never applied (a click on
        something the page knows is not legal): `{"legal": true}` when it is."""
        from ..engine.action import IllegalAction
        from ..engine.api import Action
        seat = self.seat if seat is None else seat
        if any(a.text == text for a in self.st.legal_actions(seat)):
            return {"legal": True}
        why = self.explain(text, seat)
        if why is not None:
            return {"legal": False, "explanation": why}
        try:
            self.st.copy().apply_action(Action(seat, text))
            return {"legal": True}
        except IllegalAction as exc:
            return {"legal": False, "error": exc.diagnostics[0].message if exc.diagnostics else "not legal now"}

    def can_undo(self, seat: int) -> bool:
        """Practice: a person plays alone against agents, and has made a decision to take back, which
        no card it saw since follows."""
        return self.people == [seat] and not self.hotseat and self._last_decision(seat) is not None and \
            self._last_decision(seat) >= self.learned_at.get(seat, 0)

    def _last_decision(self, seat: int) -> int | None:
        me = self.st.player_name(seat) + ": "
        history = self.st.history
        return next((i for i in range(len(history) - 1, -1, -1) if history[i].startswith(me)), None)

    def undo(self, seat: int) -> str:
        """The person's own last decision taken back: the game played again from its start,
        without that decision and what followed it. Only when every other seat is an agent's."""
        if self.people != [seat] or self.hotseat:
            raise LegesError(Diagnostic(Position("undo"), "a decision is taken back only in practice",
                                        "when every other seat is an agent's"))
        history = list(self.st.history)
        last = self._last_decision(seat)
        if last is None:
            raise LegesError(Diagnostic(Position("undo"), "no decision of yours to take back"))
        if last < self.learned_at.get(seat, 0):  # the game is played again from the same deal
            raise LegesError(Diagnostic(Position("undo"), f"'{history[last]}' is not taken back: since it you saw a card "
                                        "you had not seen, and the same deal would show it to you again",
                                        "in practice a decision is taken back until the next card you see"))
        self.thinking = False
        self.replay(self.game, self.version, history[:last])
        self.note = f"taken back: {history[last]}"
        return history[last]

    def hand_over(self, name: str) -> str:
        """The host hands a person's seat to someone else: a new link (the old one seats nobody), the
        seat free for the first browser that opens it, and every seat told. Returns the new key."""
        names = self.st.setup.seat_names
        seat = names.index(name) if name in names else None
        if self.hotseat or seat is None or seat not in self.people or seat == self.seat:
            raise LegesError(Diagnostic(Position("seat"), f"'{name[:40]}' is not another person's seat at this table",
                                        "people's seats: " + ", ".join(names[p] for p in self.people if p != self.seat)))
        for key in [k for k, s in self.keys.items() if s == seat]:
            del self.keys[key]
        key = new_id()
        self.keys[key] = seat
        self.claims.release(seat, f"{name}'s seat was handed to a new link by {names[self.seat]}, who set the table up "
                                  f"(after {len(self.st.history)} actions): its old link seats nobody")
        self.stamp += 1
        return key

    def explain(self, text: str, seat: int | None = None) -> dict | None:
        """Why `text` is not legal for the person now, as much of it as its seat may be told."""
        from ..engine.seat_explanation import seat_explanation
        from .views import explanation_payload
        seat = self.seat if seat is None else seat
        try:
            why = seat_explanation(self.st, text, seat)
        except LegesError:  # the rules fail while retracing it: the refusal alone is said
            return None
        return explanation_payload(self.st, why, seat) if why is not None else None

    def take_news(self, seat: int | None = None) -> list[str]:
        """What happened since the person last looked, as its seat saw it (its own moves left out)."""
        from ..render.view import history
        seat = self.seat if seat is None else seat
        seen = history(self.st, seat)
        me = self.st.player_name(seat) + ": "
        fresh = [line for line in seen[self.seen.get(seat, 0):] if not line.startswith(me)]
        self.seen[seat] = len(seen)
        return fresh

    def record(self, path: str) -> dict:
        """The game's record (the table's variants in it, as requested): given out when the game is over."""
        from ..lab.records import make_record
        if not self.st.is_terminal():
            raise LegesError(Diagnostic(Position("record"), "the record is given out when the game is over",
                                        "it holds every secret of the game"))
        scores = [float(v) for v in self.st.returns()]
        names = self.st.setup.seat_names
        ranking = [[names[p] for p in range(self.players) if scores[p] == v] for v in sorted(set(scores), reverse=True)]
        result = {"ranking": ranking, "scores": scores,
                  "agents": [spec or "person" for spec in self.specs]}
        record = make_record(self.game, path, self.players, self.seed, list(self.st.history), result)
        record["variants"] = list(self.variants)  # as requested: with the parameters' values
        return record


class Refused(LegesError):
    """An action of the person that is not legal: the engine's diagnostic (its hint lists the legal
    actions) and `explanation`, why (a dict of views.explanation_payload, or None)."""

    def __init__(self, exc: LegesError, explanation: dict | None):
        super().__init__(exc.diagnostics)
        self.explanation = explanation


# ------------------------------------------------------------------ replaying
