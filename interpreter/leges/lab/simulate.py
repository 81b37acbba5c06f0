"""Playing games for balance testing: random play-outs, or agents in seats, measured as they go.

`play_game` plays one game and keeps what the design metrics need (metrics.py): its length in
decisions and turns, the options at every decision, who led after every turn, the end's
statistics. Agents are seeded from the game's seed and their seat, so the same seed and the same
agents give the same game wherever it is played (see runner.py). With only `random` agents the
loop is the plain random play-out: uniform among everything anybody may do now, from the
generator `agent_rng(seed)` — the same games Leges has always played.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from ..agents import View
from ..agents import make as make_agent
from ..agents import start as start_agent
from ..agents.seeding import agent_rng, seat_rng
from ..agents.moves import (forced_moves, moves, others_out_of_turn, play, play_any, random_move, random_pick,
                            turn_number)
from ..engine.api import Action
from ..engine.budget import GameBudget
from ..engine.constants import CHANCE
from ..engine.knowledge import SeatMemories
from ..engine.measures import Tracker
from ..engine.resample import has_hidden_information
from ..text.errors import Diagnostic, Position, RuleError
from .behaviour import Watch


@dataclass
class PlayResult:
    seed: int
    ranking: list  # [[seat names tied for first], ...]
    scores: list
    returns: list
    length: int
    unfinished: bool
    history: list = field(default_factory=list)
    agents: list = field(default_factory=list)  # the spec in each seat
    turns: int = 0
    options: int = 0  # summed over the decisions: the branching factor is options / length
    forced: int | None = None  # decisions with one option the engine took by itself (state.forced)
    leaders: list = field(default_factory=list)  # [(decision, sole leader or None)] after every turn
    statistics: dict = field(default_factory=dict)
    series: dict = field(default_factory=dict)  # a statistic measured along the game: its values, in order
    ending: dict | None = None  # why the game ended (State.end_reason)
    behaviour: dict = field(default_factory=dict)  # each seat's decisions tallied (lab/behaviour.py Watch.to_json)


def leader_values(game):
    """What the lead is measured by: the ruleset's first heuristic, else its score (None: neither)."""
    if game.heuristics:
        return lambda st: st.heuristic()
    if game.score_fn is not None:
        return lambda st: st.scores()
    return None


def sole_leader(values: list) -> int | None:
    best = max(values)
    leaders = [p for p, v in enumerate(values) if v == best]
    return leaders[0] if len(leaders) == 1 else None


def play_game(game, players: int, seed: int, agents: list[str] | None = None, check: bool = False,
              track: bool = True, budget: GameBudget | None = None) -> PlayResult:
    """Play one game: `agents` gives a spec a seat (default: all random); `budget`: the most its
    rules may spend (engine/budget.py; default GameBudget()), past which it ends unfinished. A rule
    that fails says in which game (its seed), so that the author can play that game again alone."""
    specs = list(agents) if agents else ["random"] * players
    try:
        return _play_game(game, players, seed, specs, check, track, budget)
    except RuleError as exc:
        raise RuleError([_in_game(d, game, players, seed, specs) for d in exc.diagnostics]) from None


def _in_game(d: Diagnostic, game, players: int, seed: int, specs: list[str]) -> Diagnostic:
    """A rule's failure with the game it happened in: its seed, and the command that plays it alone."""
    if f"seed {seed}" in d.message:  # told already (a broken invariant)
        return d
    folder = os.path.dirname(game.ruleset_file) or "RULESET"
    agents = "" if all(s == "random" for s in specs) else f" --agents {','.join(specs)}"
    replay = (f"it happened in the game with seed {seed}: play it alone with "
              f"`leges simulate {folder} --players {players} --seed {seed} --games 1{agents}` "
              "(and the same --variant flags)")
    return Diagnostic(d.position, f"{d.message} (in the game with seed {seed})",
                      f"{d.hint}\n{replay}" if d.hint else replay, d.severity)


def _play_game(game, players: int, seed: int, specs: list[str], check: bool, track: bool,
               budget: GameBudget | None) -> PlayResult:
    plain_random = all(s == "random" for s in specs)
    memories = None if plain_random or not has_hidden_information(game) else SeatMemories(players)
    st = game.new_initial_state(players=players, seed=seed, budget=budget, run=memories is None)
    if memories is not None:
        memories.set_up(st)
    if plain_random:
        rng = agent_rng(seed)
    else:
        seats = [make_agent(s) for s in specs]
        for p, (agent, spec) in enumerate(zip(seats, specs)):
            start_agent(agent, game, p, seat_rng(seed, p, spec))
    value = leader_values(game) if track else None
    # (a uniformly random player's choice of the largest value offered tells nothing, and finding the
    # largest among hundreds of options would cost a random play-out a fifth of its time)
    watch = Watch(game, players, extremes=not plain_random) if track else None
    if watch is not None:
        watch.begin(st)
    tracker = Tracker(game.measures, st) if game.measures else None
    leaders: list = []
    last_turn = turn_number(st)
    length = options = 0
    while not st.terminal:
        mv = moves(st)
        options += len(mv)
        if plain_random:
            k, extra = random_pick(st, rng)
            if watch is not None and mv.player != CHANCE and k < mv.count:
                watch.decided(mv.player, st.pending.choices, k)
            play_any(st, mv.count, extra, k)
        else:
            _agent_step(st, mv, seats, memories, watch)
        length += 1
        if tracker is not None:
            tracker.step(st)
        if check:
            _check(game, st, length, seed)
        if value is not None and turn_number(st) != last_turn:
            last_turn = turn_number(st)
            leaders.append((length, sole_leader(value(st))))
    if value is not None:
        leaders.append((length, sole_leader(value(st))))
    names = st.setup.seat_names
    if watch is not None:
        watch.finish(st)
    statistics = st.statistics() if game.statistics else {}
    series: dict = {}
    if tracker is not None:
        along, series = tracker.figures(players)
        statistics.update(along)
    return PlayResult(seed=seed, ranking=[[names[p] for p in group] for group in st.ranking()],
                      scores=st.scores(), returns=st.returns(), length=length, unfinished=st.unfinished,
                      history=list(st.history), agents=specs, turns=turn_number(st), options=options,
                      forced=forced_moves(st), leaders=leaders, statistics=statistics, series=series,
                      ending=st.end_reason, behaviour=watch.to_json() if watch is not None else {})


def _agent_step(st, mv, seats, memories: SeatMemories | None = None, watch: Watch | None = None) -> None:
    """Ask the others whether they act out of turn, then the player deciding. With `memories`,
    each seat's view keeps what it has seen, and takes in the step (engine/knowledge.py); with
    `watch`, the decider's choice is tallied (an out-of-turn action is not)."""
    def do(apply, action: Action | None = None) -> None:
        if memories is None:
            apply()
        else:
            memories.step(st, apply, action)

    def knowledge(p: int):
        return memories.seats[p] if memories is not None else None
    if mv.player == CHANCE:
        do(lambda: random_move(st, seats[0].rng))
        return
    extra = others_out_of_turn(st)
    if extra:
        for q in sorted({a.player for a in extra}, key=lambda q: (q - mv.player) % st.n):
            mine = [a for a in extra if a.player == q]
            view = View(st, q, mine, knowledge(q))
            view.waiting = len(mv)
            choice = getattr(seats[q], "interrupt", lambda v: None)(view)
            if choice is not None:
                taken = mine[choice] if isinstance(choice, int) else choice
                do(lambda taken=taken: st.apply_action(taken), taken)
                return
    view = View(st, mv.player, None, knowledge(mv.player))
    choice = seats[mv.player].choose(view)
    if isinstance(choice, int):
        actions = view.legal_actions()
        if not 0 <= choice < len(actions):
            raise RuleError(Diagnostic(Position("--agents"), f"agent in seat {mv.player} chose option {choice} of {len(actions)}"))
        choice = actions[choice]
    if isinstance(choice, str):
        choice = Action(mv.player, choice)
    if choice.player != mv.player:
        raise RuleError(Diagnostic(Position("--agents"), f"agent in seat {mv.player} chose an action of player {choice.player}"))
    do(lambda: _apply(st, mv, choice, watch), choice)


def _apply(st, mv, action: Action, watch: Watch | None = None) -> None:
    """Apply the chosen action by its index when it is one of the pending options (fast), else by text."""
    choices = st.pending.choices
    for i in range(mv.count):
        if choices[i][0] == action.text:
            if watch is not None:
                watch.decided(mv.player, choices, i)
            play(st, mv, i)
            return
    if watch is not None:
        watch.decided(mv.player, choices, None)
    st.apply_action(action)


def _check(game, st, length: int, seed: int) -> None:
    broken = game.check_invariants(st)
    if broken:
        raise RuleError(Diagnostic(Position(game.ruleset_file),
                                   f"invariant {', '.join(broken)} broken after action {length} "
                                   f"('{st.history[-1]}') in the game with seed {seed}",
                                   f"replay it: leges simulate ... --seed {seed} --games 1 --records DIR"))


@dataclass
class Summary:
    ruleset: str
    players: int
    seed: int
    results: list[PlayResult]
    seconds: float

    @property
    def finished(self) -> list[PlayResult]:
        return [r for r in self.results if not r.unfinished]

    def mean_length(self) -> float:
        return sum(r.length for r in self.results) / max(1, len(self.results))

    def seat_win_rate(self, seats: list[str]) -> dict[str, float]:
        """Share of finished games each seat won; a shared first place counts as a share of a win."""
        wins = {s: 0.0 for s in seats}
        for r in self.finished:
            first = r.ranking[0]
            for s in first:
                wins[s] += 1 / len(first)
        n = max(1, len(self.finished))
        return {s: w / n for s, w in wins.items()}

    def playouts_per_second(self) -> float:
        return len(self.results) / self.seconds if self.seconds > 0 else 0.0


def simulate(game, players: int, games: int, seed: int, check: bool = False, progress=None,
             agents: list[str] | None = None, budget: GameBudget | None = None) -> Summary:
    """Play `games` games in this process (seeds seed, seed+1, ...), each within `budget`; runner.py
    plays them on many."""
    results = []
    start = time.perf_counter()
    for i in range(games):
        results.append(play_game(game, players, seed + i, agents, check, budget=budget))
        if progress is not None:
            progress(i + 1, games, time.perf_counter() - start)
    return Summary(game.id, players, seed, results, time.perf_counter() - start)
