"""`leges simulate`: play many games — random, or agents in seats — and report design metrics with intervals."""
from __future__ import annotations

import json
import math
import os
import sys

from ..engine.budget import DEFAULT_GAME_SECONDS, DEFAULT_GAME_WORK, GameBudget
from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import load_ruleset, variants_of
from .surviving import add_study_arguments, check_time_limit, exit_status, open_journal, partial_note, progress

BATCH = 100  # lab/simulation.py's BATCH, for --help (without loading the lab to print it)


# ------------------------------------------------------------------ shared with `compare`
EACH_GAME_LINES = 20  # games up to which `simulate` lists each one after the summary by default


def add_play_arguments(p, several_agents: bool = False) -> None:
    """The options of every command that plays batches of games (`several_agents`: --agents may
    be given several times, one study under each)."""
    p.add_argument("--players", "-p", type=int, help="number of players (default: the least allowed)")
    p.add_argument("--games", "-g", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game; game i uses seed+i (default 0)")
    p.add_argument("--agents", "-a", metavar="SPECS", action="append" if several_agents else "store",
                   help="one agent a seat, or one for all: random, greedy, mcts[:iterations=N][:seconds=S][:depth=D], "
                        "module:Class, file.py:Class; e.g. mcts:iterations=200,random,random (default: random)"
                        + ("; given several times, the study is made under each set, and the report says which "
                           "differences hold under all" if several_agents else ""))
    p.add_argument("--rotate-seats", action="store_true",
                   help="play each seed in every seating of the agents, to tell seat advantage from agent strength")
    p.add_argument("--jobs", "-j", type=int, help="processes to play on (default: all cores); results do not depend on it")
    p.add_argument("--dask", metavar="ADDRESS", help="play on a Dask cluster (its scheduler's address, or 'local')")
    p.add_argument("--plot", metavar="FILE", help="draw the results into FILE (.svg or .png; needs matplotlib)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--quiet", "-q", action="store_true", help="only the summary, no progress bar")
    p.add_argument("--game-work", type=int, default=DEFAULT_GAME_WORK, metavar="N",
                   help=f"items and statements the rules of one game may go through in all before it ends "
                        f"unfinished (default {DEFAULT_GAME_WORK:,})")
    p.add_argument("--game-seconds", type=float, default=DEFAULT_GAME_SECONDS, metavar="S",
                   help=f"seconds the rules of one game may run in all before it ends unfinished (default "
                        f"{DEFAULT_GAME_SECONDS:g})")


def budget_of(args) -> GameBudget:
    """--game-work and --game-seconds as a game's budget (engine/budget.py)."""
    try:
        return GameBudget(args.game_work, args.game_seconds)
    except ValueError as exc:
        flag = "--game-work" if "work" in str(exc) else "--game-seconds"
        raise LegesError(Diagnostic(Position(flag), str(exc))) from None


def unfinished_reason(ending: dict | None) -> str:
    """Which bound stopped an unfinished game, in a few words."""
    if ending is None:
        return "stopped"
    kind = ending.get("kind")
    if kind == "max_turns":
        return f"turn limit of {ending['turns']} reached"
    if kind == "max_decisions":
        return f"decision limit of {ending['decisions']} reached"
    if kind == "budget":
        flag = "--game-work" if ending["spent"] == "work" else "--game-seconds"
        return f"the game's budget spent ({flag} {ending['limit']})"
    return "stopped"


def players_of(game, args) -> int:
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        raise LegesError(Diagnostic(Position("--players"),
                                    f"{shown(game.title)} is for {game.min_players} to {game.max_players} players, not {players}"))
    if args.games < 1:
        raise LegesError(Diagnostic(Position("--games"), "--games must be at least 1"))
    if args.plot and not args.plot.lower().endswith((".svg", ".png")):
        raise LegesError(Diagnostic(Position("--plot"), f"'{args.plot}' is neither .svg nor .png"))
    if args.jobs is not None and args.jobs < 1:
        raise LegesError(Diagnostic(Position("--jobs"), "--jobs must be at least 1"))
    return players


def interval_text(i, percent: bool) -> str:
    def f(x):
        if math.isinf(x) or math.isnan(x):
            return "?"
        return f"{x:.1%}" if percent else f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"
    return f"{f(i.value)} [{f(i.low)}, {f(i.high)}]"


def is_rate(name: str, kinds: dict | None = None) -> bool:
    """Whether the metric is a share (written as a percentage); `kinds`: the ruleset's statistics
    as lab/metrics.declared reads them (a statistic's kind is its declared type's, not its values')."""
    from ..lab.metrics import metric
    return metric(name, kinds).kind in ("rate", "balance")


def print_metrics(measured: dict, indent: str = "  ", kinds: dict | None = None) -> None:
    from ..lab.metrics import metric
    width = max((len(k) for k in measured), default=0)
    for name, i in measured.items():
        print(f"{indent}{name:<{width}}  {interval_text(i, is_rate(name, kinds)):<28} {metric(name, kinds).description}")


# ------------------------------------------------------------------ simulate
CHUNK_SECONDS = 0.5  # a process is given as many games as play in about this long (lab/session.py): short games
# cost more to send than to play, and a stopped run loses at most this much of each process's play


def cmd_simulate(args) -> int:
    """Play the planned games through a session (lab/session.py): each written to the journal and its
    record as it finishes, the journal's games read instead of played with --resume, and the report of
    the games finished so far printed, marked partial, when Ctrl-C or --time-limit stops the run."""
    from ..agents import evaluations, seat_specs
    from ..lab.journal import rules_digest
    from ..lab.runner import Job, plan, remember
    from ..lab.session import Session
    from ..lab.simulation import play_simulation
    game = load_ruleset(args.ruleset, args)
    players = players_of(game, args)
    check_time_limit(args)
    specs = seat_specs(args.agents, players)
    judged = evaluations(game, specs)  # each agent built once: a bad spec or a missing heuristic is told before any game
    seats = game.setup_for(players).seat_names
    job = Job(os.path.abspath(args.ruleset), tuple(variants_of(args)), players, args.check, budget_of(args))
    remember(job, game)  # (forked workers inherit it)
    games = plan(args.seed, args.games, specs, args.rotate_seats)
    journal = open_journal(args, {"command": "simulate", "ruleset": game.id, "version": game.version,
                                  "rules": rules_digest(game), "variants": list(job.variants), "players": players,
                                  "seed": args.seed, "games": args.games, "agents": specs,
                                  "rotate_seats": args.rotate_seats, "until_interval": args.until_interval,
                                  "check": args.check, "game_work": args.game_work, "game_seconds": args.game_seconds})
    bar = progress(args, "simulate", len(games))
    records = RecordWriter(args, game, players) if args.records else None
    try:
        with Session(journal, len(games), args.jobs, args.dask, args.time_limit, bar, records,
                     chunk_seconds=CHUNK_SECONDS) as session:
            results = play_simulation(session, job, games, seats, args.until_interval)
    finally:
        if bar is not None and hasattr(bar, "close"):
            bar.close()
    report = Report(game, players, specs, judged, seats, results, session, journal, len(games))
    if args.plot and results:
        from ..lab.plot import plot_simulation
        plot_simulation(args.plot, game.title, players, seats, results, report.measured)
    if args.json:
        report.print_json(args)
    else:
        report.print_text(args)
    return exit_status(session)


class RecordWriter:
    """A replayable record of every game as it finishes (and of those a resumed run reads from its journal)."""

    def __init__(self, args, game, players: int):
        self.args, self.game, self.players = args, game, players
        os.makedirs(args.records, exist_ok=True)

    def __call__(self, task, result) -> None:
        from ..lab.records import make_record, write_record
        r = result
        suffix = f"-game{task.index}" if self.args.rotate_seats else ""
        target = os.path.join(self.args.records, f"{self.game.id}-{self.players}p-seed{r.seed}{suffix}.json")
        write_record(target, make_record(self.game, self.args.ruleset, self.players, r.seed, r.history,
                                         {"ranking": r.ranking, "scores": r.scores, "unfinished": r.unfinished,
                                          "agents": r.agents}))


class Report:
    """What `simulate` says of the games finished: all those planned, or (stopped) those so far."""

    def __init__(self, game, players: int, specs: list[str], judged: dict, seats: list[str], results: list,
                 session, journal, planned: int):
        from ..lab import metrics
        from ..lab.simulate import Summary
        self.game, self.players, self.specs, self.judged, self.seats = game, players, specs, judged, seats
        self.results, self.session, self.journal, self.planned = results, session, journal, planned
        self.seconds = session.clock() - session.started
        self.summary = Summary(game.id, players, results[0].seed if results else 0, results, self.seconds)
        self.kinds = metrics.declared(game)  # a statistic's kind by its type: a count of 0s and 1s is no share
        self.measured = metrics.summarise(results, seats, self.kinds) if results else {}
        from ..lab import behaviour
        self.behaviour = behaviour.summarise(results)
        self.note = partial_note(session, journal, len(results), planned)

    @property
    def rate(self) -> float:
        """Play-outs a second of the games played in this run (not those read from the journal)."""
        played = self.session.done - self.session.read
        return played / self.seconds if self.seconds > 0 else 0.0

    def print_json(self, args) -> None:
        from ..lab import behaviour, metrics
        from ..lab import unfinished as stopped
        s = self.summary
        for line in stopped.warning_lines(self.results):  # loud on the terminal too: the JSON may go to a file or a pipe
            print(line, file=sys.stderr)
        print(json.dumps({
            "ruleset": self.game.id, "players": self.players, "seed": args.seed, "games": len(self.results),
            "planned": self.planned, "agents": self.specs, "rotate_seats": args.rotate_seats,
            "evaluations": {spec: e.to_json() for spec, e in self.judged.items()},  # what each agent judged positions by
            "behaviour": behaviour.to_json(self.behaviour),  # each agent's play checked (lab/behaviour.py)
            "results": [{"seed": r.seed, "agents": r.agents, "ranking": r.ranking, "scores": r.scores,
                         "length": r.length, "unfinished": r.unfinished, "statistics": r.statistics,
                         **({"series": r.series} if r.series else {})} for r in self.results],
            "mean_length": s.mean_length(), "seat_win_rate": s.seat_win_rate(self.seats),
            "metrics": metrics.to_json(self.measured), "playouts_per_second": self.rate,
            "unfinished": stopped.to_json(self.results), "partial": self.note is not None,
            "stopped": self.session.stopped, "journal": self.journal.path if self.journal is not None else None,
        }))

    def print_behaviour(self) -> None:
        """What the agents did, before any figure of the games: with agents other than random, or
        when one looks degenerate (random play is the baseline, not a player to check)."""
        from ..lab.behaviour import text_lines, worth_telling
        if worth_telling(self.specs, self.behaviour):
            for line in text_lines(self.behaviour):
                print(line)

    def print_text(self, args) -> None:
        from ..lab import unfinished as stopped
        results, measured, seats, players = self.results, self.measured, self.seats, self.players
        if self.note:
            print(self.note + "\n")
        if not results:
            print("no game finished: nothing to report")
            return
        n = len(results)
        print(f"{n} games of {shown(self.game.title)} with {players} players (seeds {args.seed}..{results[-1].seed})")
        for line in stopped.warning_lines(results):  # first in the summary, where it cannot be read past
            print("  " + line)
        if any(s != "random" for s in self.specs):
            print("  agents: " + ", ".join(f"{s} {a}" for s, a in zip(seats, self.specs))
                  + ("; every seating in turn" if args.rotate_seats else ""))
            for spec, judge in self.judged.items():
                print(f"    {spec} judges by: {judge}")
        self.print_behaviour()
        print(f"  mean length: {self.summary.mean_length():.1f} decisions")
        print("  seat win rate: " + ", ".join(f"{s} {interval_text(measured[f'seat_win_rate.{s}'], True)}"
                                             for s in seats if f"seat_win_rate.{s}" in measured))
        agents = [k for k in measured if k.startswith("agent_win_rate.")]
        if agents:
            print("  agent win rate: " + ", ".join(f"{k.split('.', 1)[1]} {interval_text(measured[k], True)}"
                                                   for k in agents) + f" (fair share {1 / players:.1%})")
        if args.check:
            print(f"  invariants held after every action: {', '.join(i for i, _, _ in self.game.invariants) or 'none declared'}")
        print("  metrics (value [95 % interval]):")
        print_metrics(measured, "    ", self.kinds)
        if args.until_interval is not None and n < args.games and self.note is None:
            print(f"  stopped after {n} games: every seat's interval is narrower than {args.until_interval}")
        rate = self.rate
        print(f"  play-outs per second: {rate:.1f}" if rate >= 1 else f"  play-outs per second: {rate:.2g} "
              f"({1 / rate:.0f} s a game)" if rate > 0 else "  play-outs per second: -")
        # A line a game after the summary, and for a few games only unless asked: 200 of them before
        # it would push the summary (and the UNFINISHED line first in it) off the screen.
        if not args.quiet and (getattr(args, "each", False) or n <= EACH_GAME_LINES):
            print("each game:")
            for r in results:
                ranking = " > ".join(" = ".join(group) for group in r.ranking)
                status = f" (unfinished: {unfinished_reason(r.ending)})" if r.unfinished else ""
                who = "" if all(a == "random" for a in r.agents) else f" [{', '.join(r.agents)}]"
                print(f"  seed {r.seed}{who}: {ranking}; scores {' '.join(map(str, r.scores))}; {r.length} decisions{status}")
        elif not args.quiet:
            print(f"  (a line for each of the {n} games: --each)")


def register(sub, variant) -> None:
    p = sub.add_parser("simulate", parents=[variant], help="play games (random, or agents) and report the outcomes")
    p.add_argument("ruleset", metavar="RULESET")
    add_play_arguments(p)
    p.add_argument("--until-interval", type=float, metavar="W",
                   help=f"stop once every seat's win-rate interval is narrower than W (looked at every {BATCH} "
                        "games; --games bounds it)")
    p.add_argument("--records", metavar="DIR",
                   help="write a replayable record of every game into DIR as it finishes")
    p.add_argument("--check", action="store_true", help="test the ruleset's invariants after every action")
    p.add_argument("--each", action="store_true",
                   help=f"a line for every game after the summary, however many (by default only up to {EACH_GAME_LINES} games)")
    add_study_arguments(p, records=True)
    p.set_defaults(run=cmd_simulate)
