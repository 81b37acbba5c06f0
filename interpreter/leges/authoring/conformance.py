"""The conformance harness: a candidate build of a ruleset plays exactly as the reference build.

`leges.load(path, optimise=False)` is the reference build — every rule by plain evaluation, small
enough to trust by reading. Any faster build (today the optimised one: memoised functions, values
hoisted; later a generated engine) must be the same game, and not only along the one line of play a
simple test walks: the bugs that slipped through were where states are copied and resampled, as a
search does — a value cached on one copy served to its sibling. So both builds are driven in
lock-step through what players and agents do to states:

- seeded random *lines of play*, compared at every decision (conformance_compare.seen);
- *copies and siblings*: at a decision the state is copied twice, and the original and each copy
  take a different action and play on, interleaved with each other;
- *resampled worlds*: `state.resample(seat, rng)` with the same rng seed must give the same world
  in both builds; then the world and copies of it play on, as siblings (what IS-MCTS does);
- a *greedy look-ahead*: on a world drawn as greedy draws it, each action (up to a width) played on
  a copy of the world and every heuristic read after it;
- a short *MCTS search* with a fixed number of iterations and a seeded generator: the same choice,
  the same visit counts and values at the root;
- *JSON round trips*: the saved texts must be equal, and the states read back play on.

Nothing here looks at a clock: both games are given a budget without seconds (engine/budget.py),
so a slow reference build on a loaded machine is never cut short; only the game's bound of work
stays. The first difference ends the check, reported with its line of play
(conformance_compare.Difference).
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from ..agents.base import View
from ..agents.mcts import MCTSAgent
from ..agents.moves import moves, play
from ..engine.budget import DEFAULT_GAME_WORK, GameBudget
from .conformance_compare import (FIELDS, Difference, Line, Outcome, action, attempt, compare, ended, heuristics,
                                  seen, step_text)

UNTIMED = GameBudget(work=DEFAULT_GAME_WORK, seconds=math.inf)  # the game's bound of work, no seconds
PROBES = ("copies", "world", "look-ahead", "search", "saved")
OUT_OF_TURN = 0.1  # how often a line takes another player's out-of-turn action, when there is one


@dataclass(frozen=True)
class Settings:
    """How much the harness plays. The defaults suit one ruleset checked at the command line."""

    games: int = 1  # games per number of players, seeds seed, seed + 1, ...
    seed: int = 0
    decisions: int | None = None  # the main line stops after this many decisions (None: at the game's end)
    every: int = 5  # a probe (copies, a world, a look-ahead, a search, a round trip) every this many decisions
    depth: int = 5  # decisions each copy, world or state read back plays on
    siblings: int = 2  # copies played beside the original (and beside each world)
    width: int = 6  # actions the look-ahead tries (drawn at random when there are more)
    iterations: int = 12  # of the MCTS search
    probes: tuple[str, ...] = PROBES  # the kinds of probe made, in turn


@dataclass
class Report:
    """What was compared, and the first difference (None: the builds agreed everywhere)."""

    players: int
    games: int = 0
    decisions: int = 0  # decisions compared, over every line of play
    lines: int = 0
    probes: Counter = field(default_factory=Counter)
    errors: int = 0  # lines that both builds ended with the same error of the rules
    out_of_turn: int = 0  # out-of-turn actions taken
    difference: Difference | None = None

    @property
    def ok(self) -> bool:
        return self.difference is None


def options(settings: Settings) -> str:
    """The command-line options, besides the seed and the games, that play the same probes again."""
    default = Settings()
    out = "".join(f" --{name} {getattr(settings, name)}" for name in ("decisions", "every", "depth", "siblings", "width",
                                                                     "iterations")
                  if getattr(settings, name) != getattr(default, name))
    return out + (f" --probes {','.join(settings.probes) or 'none'}" if settings.probes != default.probes else "")


class _Found(Exception):
    """The first difference: it ends the check at once."""

    def __init__(self, difference: Difference):
        super().__init__(difference.message())
        self.difference = difference


class _Searching(MCTSAgent):
    """The MCTS agent, keeping the root of its last search (its statistics are compared too)."""

    root: Any = None

    def search(self, view: View):
        self.root = super().search(view)
        return self.root


def check_conformance(candidate, reference, players: int, settings: Settings = Settings(),
                      progress: Callable[[Report], None] | None = None) -> Report:
    """Play `settings.games` games of `players` players in both builds, comparing them; the report
    holds the first difference found. Both games are given a budget without seconds while it runs."""
    report = Report(players)
    budgets = candidate.budget, reference.budget
    candidate.budget = reference.budget = UNTIMED
    try:
        for k in range(settings.games):
            _Game(candidate, reference, players, settings.seed + k, settings, report).play()
            report.games += 1
            if progress is not None:
                progress(report)
    except _Found as found:
        report.difference = found.difference
    finally:
        candidate.budget, reference.budget = budgets
    return report


def builds(path: str, variants=()) -> tuple[Any, Any]:
    """The optimised build (today's candidate) and the reference build of the ruleset at `path`."""
    from .. import load
    return load(path, variants=variants), load(path, variants=variants, optimise=False)


class _Game:
    """One seeded game: its main line and the lines its probes spawn, stepped in turn."""

    def __init__(self, candidate, reference, players: int, seed: int, settings: Settings, report: Report):
        self.games = candidate, reference
        self.players, self.seed, self.settings, self.report = players, seed, settings, report
        self.rng = random.Random(f"conformance probes {seed} {players}")
        self.turn = seed  # which probe comes first: games of a run begin with different ones (by seed alone,
        # so that one game played again with --seed S --games 1 is the same)
        self.lines: list[Line] = []

    # ------------------------------------------------------------------ driving
    def play(self) -> None:
        a, b = self.games
        n, seed = self.players, self.seed
        made = self._both(lambda g: g.new_initial_state(players=n, seed=seed, budget=UNTIMED), "the new game", [])
        main = Line("the main line", made[0], made[1], random.Random(f"conformance line {seed} {n}"), [],
                    left=self.settings.decisions)
        self.main = main
        self.lines = [main]
        while self.lines:
            for line in list(self.lines):
                if not self._step(line):
                    self.lines.remove(line)

    def _step(self, line: Line) -> bool:
        """Compare the line's decision, then take one action on it; False when it is over."""
        shown = self._same(line, "what the decision shows", seen)
        self.report.decisions += 1
        if shown["terminal"] or line.left == 0:
            self._same(line, "the state where the line ends", ended)
            self.report.lines += 1
            return False
        count = len(shown["legal actions"])
        if count == 0:  # (a decision without options ends the game: not reached by play)
            self.report.lines += 1
            return False
        if line is self.main and line.decisions % self.settings.every == self.settings.every // 2:
            self._probe(line, count)
        others, forced = shown.get("out-of-turn actions"), line.first
        i = forced if forced is not None else line.rng.randrange(count)
        line.first = None
        player, text = shown["current player"], shown["legal actions"][i]
        if others and forced is None and line.rng.random() < OUT_OF_TURN:  # another player interrupts, as an agent may
            player, text = others[line.rng.randrange(len(others))]
            line.steps.append(step_text(line.candidate, player, text) + "  (out of turn)")
            self.report.out_of_turn += 1
            done = self._apply(line, lambda st: st.apply_action(action(player, text)))
        elif line is self.main:  # the public API, as a player's program uses it
            line.steps.append(step_text(line.candidate, player, text))
            done = self._apply(line, lambda st: st.apply_action(action(player, text)))
        else:  # the agents' fast path (agents/moves.py)
            line.steps.append(step_text(line.candidate, player, text))
            done = self._apply(line, lambda st: play(st, moves(st), i))
        line.decisions += 1
        if line.left is not None:
            line.left -= 1
        if done.error is not None:  # both builds failed alike: a fault of the rules, not of a build
            self.report.errors += 1
            self.report.lines += 1
            return False
        return True

    def _apply(self, line: Line, fn) -> Outcome:
        """Take the action (already in the line's steps) in both builds: they must fail alike or not."""
        a, b = attempt(fn, line.candidate), attempt(fn, line.reference)
        self._check(line, "what taking the action did", a, b)
        return a

    # ------------------------------------------------------------------ comparing
    def _same(self, line: Line, what: str, fn: Callable) -> Any:
        """`fn` of both of the line's states, which must agree; the candidate's value."""
        a, b = attempt(fn, line.candidate), attempt(fn, line.reference)
        self._check(line, what, a, b)
        return a.value if a.error is None else {"terminal": True, "legal actions": []}

    def _check(self, line: Line, what: str, a: Outcome, b: Outcome) -> None:
        found = compare(a, b)
        if found is None:
            return
        path, x, y = found
        if path and path[0] in FIELDS:
            what, path = f"the {path[0]}", path[1:]
        raise _Found(self._difference(line.name, what, path, x, y, line.steps))

    def _difference(self, name: str, what: str, path: tuple, x: Any, y: Any, steps: list[str]) -> Difference:
        game = self.games[0]
        return Difference(game.ruleset_file, game.title, self.players, self.seed, tuple(game.variants),
                          name, what, path, x, y, list(steps), options(self.settings))

    def _both(self, fn: Callable, what: str, steps: list[str], name: str = "the main line") -> tuple[Any, Any]:
        """`fn` of each game (or of each of a pair of states), which must agree in failing or not."""
        a, b = attempt(fn, self.games[0]), attempt(fn, self.games[1])
        if (a.error is None) != (b.error is None) or a.error != b.error:
            raise _Found(self._difference(name, what, ("error",), a.error or "(no error)", b.error or "(no error)", steps))
        if a.error is not None:
            from ..text.errors import Diagnostic, LegesError, Position
            raise LegesError(Diagnostic(Position(self.games[0].ruleset_file), f"{what} failed in both builds: {a.error}"))
        return a.value, b.value

    # ------------------------------------------------------------------ probes
    def _probe(self, line: Line, count: int) -> None:
        kinds = self.settings.probes
        if not kinds:
            return
        kind = kinds[self.turn % len(kinds)]
        self.turn += 1
        self.report.probes[kind] += 1
        getattr(self, "_" + kind.replace("-", "_"))(line, count)

    def _firsts(self, count: int, how_many: int) -> list[int | None]:
        """Options for lines played side by side: different ones while there are enough."""
        chosen = self.rng.sample(range(count), min(count, how_many))
        return [chosen[i % len(chosen)] for i in range(how_many)]

    def _spawn(self, name: str, pair: tuple[Any, Any], steps: list[str], first: int | None) -> Line:
        line = Line(name, pair[0], pair[1], random.Random(self.rng.getrandbits(32)), steps,
                    left=self.settings.depth, first=first)
        self.lines.append(line)
        return line

    def _copies(self, line: Line, count: int) -> None:
        """The state copied `siblings` times; the original and each copy take different actions."""
        firsts = self._firsts(count, self.settings.siblings + 1)
        line.first = firsts[0]
        for k in range(1, self.settings.siblings + 1):
            pair = (line.candidate.copy(), line.reference.copy())
            self._spawn(f"copy {k} of the state at decision {line.decisions} of the main line", pair,
                        line.steps + [f"[a copy of the state: copy {k}]"], firsts[k])
        line.steps.append(f"[{self.settings.siblings} copies of the state made, each played on as a line of its own]")

    def _world(self, line: Line, count: int) -> None:
        """A world resampled for a seat with the same generator in both builds: the same world; then
        it and its copies (siblings) play on, each from a different action."""
        seat = self.turn % self.players
        seed = self.rng.getrandbits(32)
        mark = f"[resampled for seat {line.candidate.player_name(seat)}: state.resample({seat}, random.Random({seed}))]"
        steps = line.steps + [mark]
        line.steps.append(mark)  # (what is done to a state may change it: its line of play says so)
        name = f"the world resampled for seat {seat} at decision {line.decisions} of the main line"
        a = attempt(lambda st: st.resample(seat, random.Random(seed)), line.candidate)
        b = attempt(lambda st: st.resample(seat, random.Random(seed)), line.reference)
        self._check(Line(name, None, None, None, steps), "drawing the world", _failed(a), _failed(b))
        if a.error is not None:
            return
        worlds = (a.value, b.value)
        self._check(Line(name, None, None, None, steps), "the resampled world",
                    attempt(ended, worlds[0]), attempt(ended, worlds[1]))
        copies = [(worlds[0].copy(), worlds[1].copy()) for _ in range(self.settings.siblings)]
        options = len(worlds[0].legal_actions())  # (the world's own: a hidden hand drawn afresh offers others)
        firsts = self._firsts(options, self.settings.siblings + 1) if options else [None] * (self.settings.siblings + 1)
        self._spawn(name, worlds, list(steps), firsts[0])
        for k, pair in enumerate(copies, 1):
            self._spawn(f"copy {k} of {name}", pair, steps + [f"[a copy of the world: copy {k}]"], firsts[k])

    def _look_ahead(self, line: Line, count: int) -> None:
        """What greedy does: a world drawn by the seat's view, each action tried on a copy of it,
        every heuristic read after it."""
        a, b = line.candidate, line.reference
        player = a.current_player()
        seed = self.rng.getrandbits(32)
        worlds = (attempt(lambda st: View(st, player).resample(random.Random(seed)), a),
                  attempt(lambda st: View(st, player).resample(random.Random(seed)), b))
        name = f"the greedy look-ahead at decision {line.decisions} of the main line"
        steps = line.steps + [f"[the look-ahead's world: View(state, {player}).resample(random.Random({seed}))]"]
        line.steps.append(steps[-1])
        self._check(Line(name, None, None, None, steps), "drawing the look-ahead's world", _failed(worlds[0]),
                    _failed(worlds[1]))
        if worlds[0].error is not None:
            return
        wa, wb = worlds[0].value, worlds[1].value
        self._same(Line(name, wa, wb, None, steps), "the look-ahead's world", ended)
        texts = [x.text for x in wa.legal_actions()]  # the world's own (a hidden hand drawn afresh offers others)
        tried = sorted(self.rng.sample(range(len(texts)), min(len(texts), self.settings.width)))
        for i in tried:
            pair = (wa.copy(), wb.copy())
            probe = Line(name, pair[0], pair[1], None,
                         steps + ["[a copy of the world]", step_text(a, player, texts[i])])
            self._apply(probe, lambda st: play(st, moves(st), i))
            self._same(probe, "what the decision shows", seen)
            self._same(probe, "the heuristics' values", heuristics)
        self._same(Line(name, wa, wb, None, steps), "the heuristics' values", heuristics)

    def _search(self, line: Line, count: int) -> None:
        """A short MCTS search from the seat's view, seeded alike: the same choice and the same
        statistics at the root."""
        player = line.candidate.current_player()
        seed = self.rng.getrandbits(32)
        iterations = self.settings.iterations

        def searched(game_state: tuple[Any, Any]) -> dict[str, Any]:
            game, st = game_state
            agent = _Searching(iterations=iterations)
            agent.start(game, player, random.Random(seed))
            choice = agent.choose(View(st, player))
            root = agent.root
            stats = [{"player": who, "action": text, "visits": child.visits, "available": child.avail,
                      "rewards": child.value}
                     for (who, text), child in (root.children.items() if root is not None else ())]
            return {"choice": choice, "root": stats}

        a = attempt(searched, (self.games[0], line.candidate))
        b = attempt(searched, (self.games[1], line.reference))
        name = f"an MCTS search ({iterations} iterations, random.Random({seed})) at decision {line.decisions} of the main line"
        line.steps.append(f"[an MCTS search for seat {player}: {iterations} iterations, random.Random({seed})]")
        self._check(Line(name, None, None, None, line.steps), "the search's choice and root statistics", a, b)

    def _saved(self, line: Line, count: int) -> None:
        """The state saved as JSON in both builds (the same text), read back, and played on."""
        self._same(line, "the saved state", ended)
        steps = line.steps + ["[saved with state.to_json(), read back with game.state_from_json(text)]"]
        line.steps.append("[saved with state.to_json()]")
        name = f"the state read back from its JSON at decision {line.decisions} of the main line"
        a = attempt(lambda st: self.games[0].state_from_json(st.to_json()), line.candidate)
        b = attempt(lambda st: self.games[1].state_from_json(st.to_json()), line.reference)
        self._check(Line(name, None, None, None, steps), "reading the saved state back", _failed(a), _failed(b))
        if a.error is None:
            self._spawn(name, (a.value, b.value), steps, None)


def _failed(outcome: Outcome) -> Outcome:
    """Only whether it failed, and how: what was made (a state) is compared by what it shows."""
    return Outcome(error=outcome.error)
