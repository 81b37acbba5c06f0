"""What the conformance harness compares between two builds of one game, and how a difference reads.

Two builds of a ruleset (the optimised one, some day a generated engine, against the reference
build: plain evaluation) must be the same game: a player, a search or a saved file cannot tell
them apart. So at every decision what anyone could observe is compared — who decides, the legal
actions' texts in order, the log — and where a line of play ends, the whole saved state and the
returns. A difference is reported once, at the first field that differs, with the line of play
that reached it: a reader must be able to replay it, and a long diff of two whole states would
hide the one value that matters.

The module knows no game: it reads states through their public API only.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from ..engine.api import Action
from ..text.errors import Diagnostic, Position
from ..text.terminal import WIDE, shown

# the fields of what is compared, named as a report names them ("the legal actions differ at [3]")
FIELDS = ("terminal", "current player", "legal actions", "out-of-turn actions", "log", "returns", "saved state")


@dataclass(frozen=True)
class Outcome:
    """What one build did when asked for something: the value, or the error it raised (an error is
    a result too — both builds must fail alike, with the same message)."""

    value: Any = None
    error: str | None = None


def attempt(fn, *args) -> Outcome:
    """`fn(*args)` as an Outcome. Any exception is caught: the candidate crashing where the
    reference plays on is a difference to locate, not a traceback to print."""
    from ..text.errors import LegesError
    try:
        return Outcome(fn(*args))
    except LegesError as exc:
        return Outcome(error=exc.diagnostics[0].message if exc.diagnostics else str(exc))
    except Exception as exc:  # noqa: BLE001 — see the docstring
        return Outcome(error=f"{type(exc).__name__}: {exc}")


def seen(st) -> dict[str, Any]:
    """What a player or an agent observes of a decision, field by field in the order compared."""
    terminal = st.is_terminal()
    out: dict[str, Any] = {"terminal": terminal, "current player": st.current_player(),
                           "legal actions": [a.text for a in st.legal_actions()], "log": list(st.log)}
    if st.game.anytime:
        out["out-of-turn actions"] = [[a.player, a.text] for a in st.out_of_turn_actions()]
    if terminal:
        out["returns"] = list(st.returns())
    return out


def ended(st) -> dict[str, Any]:
    """What a line of play leaves: the saved state (every field, read back as data) and, once the
    game is over, its returns."""
    out: dict[str, Any] = {"saved state": json.loads(st.to_json())}
    if st.is_terminal():
        out["returns"] = list(st.returns())
    return out


def heuristics(st) -> dict[str, list[float]]:
    """Every declared heuristic's values for every player (what greedy and MCTS read)."""
    return {name: list(st.heuristic(name)) for name in st.game.heuristics}


def first_difference(a: Any, b: Any, path: tuple = ()) -> tuple[tuple, Any, Any] | None:
    """The first place where `a` and `b` differ: (path, a's value there, b's), or None if equal."""
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return path, a, b
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return path + (key,), a.get(key, "(missing)"), b.get(key, "(missing)")
            found = first_difference(a[key], b[key], path + (key,))
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, path + (i,))
            if found:
                return found
        if len(a) != len(b):
            i = min(len(a), len(b))
            return path + (i,), a[i] if i < len(a) else "(none: the list ends)", \
                b[i] if i < len(b) else "(none: the list ends)"
        return None
    return None if a == b else (path, a, b)


def compare(candidate: Outcome, reference: Outcome) -> tuple[tuple, Any, Any] | None:
    """The first difference between two builds' outcomes of the same request."""
    if candidate.error is not None or reference.error is not None:
        if candidate.error == reference.error:
            return None
        return ("error",), candidate.error or "(no error)", reference.error or "(no error)"
    return first_difference(candidate.value, reference.value)


@dataclass
class Line:
    """One line of play, in both builds at once: a state of each, the random choices it makes, and
    how it was reached (so that a difference can be told with the way to it)."""

    name: str  # "the main line", "copy 2", "the world of seat 1", ...
    candidate: Any
    reference: Any
    rng: Any  # random.Random: its choices
    steps: list[str]  # how the line was reached: actions taken ("red: play 3"), and [copy]-like marks
    left: int | None = None  # decisions still to play (None: to the end of the game)
    first: int | None = None  # the option its first decision takes (siblings take different ones)
    decisions: int = 0


@dataclass
class Difference:
    """The first way in which the candidate build is not the reference build."""

    ruleset: str  # the ruleset's file (where the message is located)
    title: str
    players: int
    seed: int
    variants: tuple[str, ...]
    line: str  # which line of play
    what: str  # what was compared: "the legal actions", "the saved state", "heuristic h", ...
    path: tuple  # where in it
    candidate: Any
    reference: Any
    steps: list[str] = field(default_factory=list)
    options: str = ""  # the command's options that set the probes as they were (" --every 3")

    def message(self) -> str:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path).lstrip(".")
        at = f" at {where}" if where else ""
        return (f"{self.title}, {self.players} players, seed {self.seed}, after "
                f"{sum(1 for s in self.steps if not s.startswith('['))} actions, {self.line}: the builds differ in "
                f"{self.what}{at}: candidate {_value(self.candidate)}, reference {_value(self.reference)}")

    def diagnostic(self) -> Diagnostic:
        variants = "".join(f" --variant {v}" for v in self.variants)
        folder = os.path.dirname(self.ruleset) or "."
        return Diagnostic(Position(self.ruleset), self.message(),
                          f"the line of play below reaches it; `leges check-conformance {folder} -p {self.players} "
                          f"--seed {self.seed} --games 1{self.options}{variants}` plays it again")

    def format(self) -> str:
        """The located message, then the line of play, one step a line (numbered as played)."""
        lines = [self.diagnostic().format(), "  line of play:"]
        n = 0
        for step in self.steps:
            if step.startswith("["):
                lines.append(f"        {shown(step, WIDE)}")
            else:
                n += 1
                lines.append(f"  {n:5}. {shown(step, WIDE)}")
        return "\n".join(lines)


def _value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return shown(repr(text) if isinstance(value, str) else text, 160)


def step_text(st, player: int, text: str) -> str:
    """An action as the line of play lists it: the seat's name, then the action's text."""
    return f"{st.player_name(player)}: {text}" if player >= 0 else text


def action(player: int, text: str) -> Action:
    return Action(player, text)
