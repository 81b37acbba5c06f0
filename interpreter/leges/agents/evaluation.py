"""What an agent judges positions by — the ruleset's heuristic, one learned for the ruleset, play-outs
to the end, nothing — and the words a report names it with.

Why: a study's answer is only as good as its players, so a report must say how each judged
positions; and that judgement must be a function of the agent's spec and the ruleset alone. It
once was not: `greedy` attached the heuristic it learned to the shared Game, and every later `mcts`
in the process — a second set of agents in `compare`, the next seating of a ladder — read it,
where the same `mcts` alone played out to the end. So a heuristic is resolved here, per agent,
and a learned one is kept in a cache keyed by the game (learn.py) that no other agent sees unless
it asks for it itself; the Game's own `heuristics` are never touched.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..text.errors import Diagnostic, LegesError, Position
from .learn import GAMES_FOR_AGENTS, LEARNED, learned_heuristic, learned_source


@dataclass(frozen=True)
class Evaluation:
    """How an agent judges positions, in words, and the heuristic it reads (if any)."""

    text: str  # e.g. "heuristic open_lines (the ruleset's), read at each new leaf"
    heuristic: str | None = None  # the heuristic's name
    expression: str | None = None  # its rule-language text, as the agent reads it

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict:
        return {"evaluation": self.text, "heuristic": self.heuristic, "expression": self.expression}


NOT_STATED = Evaluation("not stated (an agent of your own: give it an `evaluation` attribute to say)")


class Heuristic:
    """One heuristic as an agent reads it: `values(st)`, each player's estimated value."""

    __slots__ = ("name", "fn", "expression", "origin")

    def __init__(self, name: str, fn, expression: str, origin: str):
        self.name = name
        self.fn = fn  # None: the ruleset's own, read through the state (State.heuristic)
        self.expression = expression
        self.origin = origin  # in words: "the ruleset's", "learned from 60 random games ..."

    def values(self, st) -> list[float]:
        """As `State.heuristic` values a position: a finished game by its result on top."""
        if self.fn is None:
            return st.heuristic(self.name)
        st.game.fresh_work()
        try:
            values = [float(self.fn(st, {"p": p, "me": None})) for p in range(st.n)]
        except LegesError:
            raise
        except Exception as exc:
            from ..engine.failures import describe_failure, failure_hint
            raise LegesError(Diagnostic(Position(st.game.ruleset_file), f"the learned heuristic failed: "
                                        f"{describe_failure(exc)}", failure_hint(exc))) from None
        if st.terminal and not st.unfinished:
            values = [v + 1_000_000.0 * r for v, r in zip(values, st.returns())]
        return values

    def describe(self, how: str = "") -> Evaluation:
        return Evaluation(f"heuristic {self.name} ({self.origin})" + (f", {how}" if how else ""), self.name,
                          self.expression)


def heuristic_for(game, name: str | None) -> Heuristic:
    """The heuristic `name` an agent asks for: the ruleset's of that name; its first when `name` is
    None; or — `learned`, or None in a ruleset that declares none — one learned from random games
    of the ruleset (learn.py), the same in every process and whatever ran before — of another
    ruleset's rules only where the caller loaded this game to be played so (learn.learn_on: a
    study's B by A's players), and then said in its words ("under" A's variants)."""
    declared = {h.id: h for h in game.ruleset.heuristics}
    if name is None and game.heuristics:
        name = next(iter(game.heuristics))
    if name is not None and name in game.heuristics:
        decl = declared.get(name)
        return Heuristic(name, None, decl.value.text.strip() if decl is not None and decl.value is not None else "", "the ruleset's")
    if name is None or name == LEARNED:
        expression, fn = learned_heuristic(game)
        source = learned_source(game)  # (a study's B: A's rules, lab/compare.py)
        rules = f" under {', '.join(source.variants)}" if source.variants else ""
        return Heuristic(LEARNED, fn, expression, f"learned from {GAMES_FOR_AGENTS} random games{rules}")
    raise LegesError(Diagnostic(Position("--agents"), f"no heuristic named '{name}'",
                                "heuristics: " + ", ".join([*game.heuristics, LEARNED])))


def evaluation_of(agent) -> Evaluation:
    """What a started agent judges by (an agent of one's own may say, by an `evaluation` attribute)."""
    said = getattr(agent, "evaluation", None)
    if said is None:
        return NOT_STATED
    return said if isinstance(said, Evaluation) else Evaluation(str(said))
