"""An A/B study: A's and B's games on the same seeds and seatings, under one or more sets of agents.

Why the games go out in pairs (A's game i, then B's game i): a study stopped halfway — Ctrl-C, a
time limit — still has whole pairs to compare, and reports them (marked partial); one that played
all of A first would have nothing to pair. Every game is written to the study's journal as it
finishes (session.py), so `--resume` plays only the pairs it lacks. `--until-interval` looks at the
differences after every `BATCH` pairs, as it always has, so a resumed study stops where one played
straight through would. It stops on the metrics it is given (`METRIC=WIDTH`: a designer's question is
as often about coins kept as about who wins); a plain `WIDTH` is every seat's win rate, as it was.

The same players on both sides. Each set of agents is named with what each agent judges positions
by (agents/evaluation.py) under A and under B. An agent that learns a heuristic (a ruleset that
declares none) learns it once, on A's rules, and reads that same heuristic under B (`LEARN_ON`,
runner.Job.learn_on): learned for each side's rules, it weighed a property +863 under A and −27
under B in an auction, and B − A mixed the rule change with a change of players. Why A rather than
A and B together: A is the rules as the designer has them, the baseline B is a change to; the
heuristic A's players learned is the one a study of A alone names, and a study of A against
several B's keeps the same players throughout. Where the two sides' players still differ — asked
for (`--learn-on each`), a ruleset's own heuristic that B's variants change, or A's learned
heuristic that does not read under B's rules — the report says so, and why, before any figure.

And players who play like people on both sides: each set's agents' behaviour is summarised under A
and under B (lab/behaviour.py, `Study.behaviour`), because a rule change can make an agent
degenerate on one side only (a rich start that a greedy bidder spends all of every time), and B − A
then measures the artefact. The report says a flagged agent before the differences.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..agents.evaluation import Evaluation
from . import behaviour, metrics, stats
from .runner import Job, plan
from .session import Session, Task

BATCH = 100  # --until-interval looks at the intervals after every this many pairs
SEATS = "seat_win_rate"  # what a plain --until-interval WIDTH stops on: every seat's win rate
LEARN_ON = {"a": "a heuristic an agent learns is learned once, on A's rules, and read under B too",
            "each": "a heuristic an agent learns is learned on each side's own rules (--learn-on each)"}


@dataclass
class Study:
    """A and B played by one set of agents: the games, their metrics, the differences, the players."""
    specs: list[str]
    a: list
    b: list
    ma: dict
    mb: dict
    diffs: dict
    seconds: float
    sides: dict = field(default_factory=dict)  # "a", "b" → {spec: Evaluation}
    planned: int = 0  # pairs the study meant to play (fewer were, when it was stopped)
    kinds: dict = field(default_factory=dict)  # the ruleset's statistics as metrics (metrics.declared)
    behaviour: dict = field(default_factory=dict)  # "a", "b" → each agent's play there (behaviour.summarise)

    @property
    def same_players(self) -> bool:
        return self.sides.get("a") == self.sides.get("b")


def part(index: int, side: str) -> str:
    """The journal's name for one side's games of one set of agents."""
    return f"{index}:{side}"


def play_study(session: Session, index: int, jobs: tuple[Job, Job], seats, specs: list[str], seed: int, games: int,
               rotate: bool, until: dict[str, float] | None, adjust: str, sides: dict,
               kinds: dict[str, metrics.Metric] | None = None) -> Study:
    """The pairs of one set of agents, in batches (of `BATCH` with `until`, else all at once),
    stopping early once every difference `until` names is narrower than its width (`narrow`)."""
    start = session.clock()
    planned = plan(seed, games, specs, rotate)
    done: dict[str, dict] = {"a": {}, "b": {}}
    size = BATCH if until else max(1, len(planned))
    for first in range(0, len(planned), size):
        tasks = [Task(part(index, side), i, job, planned[i]) for i in range(first, min(first + size, len(planned)))
                 for side, job in zip("ab", jobs)]
        found = session.play(tasks)
        for side in "ab":
            done[side].update(found.get(part(index, side), {}))
        if session.stopped is not None:
            break
        if until:
            a, b = paired(done)
            if narrow(metrics.differences(a, b, seats, kinds), until):
                break
    a, b = paired(done)
    diffs = stats.adjust(metrics.differences(a, b, seats, kinds), adjust) if a else {}
    return Study(specs, a, b, metrics.summarise(a, seats, kinds) if a else {},
                 metrics.summarise(b, seats, kinds) if b else {}, diffs, session.clock() - start, sides, len(planned),
                 kinds or {}, {"a": behaviour.summarise(a), "b": behaviour.summarise(b)})


def matching(name: str, measured) -> list[str]:
    """The measured metrics `name` stands for: itself, or every one under it (`seat_win_rate`: each
    seat's; `stat.marks`: a statistic measured per player, each seat's)."""
    return [k for k in measured if k == name or k.startswith(name + ".")]


def narrow(diffs: dict, until: dict[str, float]) -> bool:
    """Every difference `until` names (METRIC → WIDTH) has been measured, with an interval narrower
    than its width. (A plain WIDTH, on the seats' win rates, stops as it always did when none was
    measured: no game finished.)"""
    for name, width in until.items():
        found = matching(name, diffs)
        if not found and name != SEATS:
            return False
        if any(not diffs[k].width < width for k in found):
            return False
    return True


def paired(done: dict[str, dict]) -> tuple[list, list]:
    """A's and B's results of the games both finished, in the order of the plan."""
    both = sorted(set(done["a"]) & set(done["b"]))
    return [done["a"][i] for i in both], [done["b"][i] for i in both]


def sides_json(study: Study) -> dict:
    return {side: [{"spec": spec, **e.to_json()} for spec, e in study.sides.get(side, {}).items()] for side in "ab"}


def why_differ(a: Evaluation | None, b: Evaluation | None, learn_on: str) -> str:
    """Why one spec judges positions otherwise under B than under A, in words."""
    from ..agents.learn import LEARNED
    named = (a.heuristic if a else None, b.heuristic if b else None)
    if named == (LEARNED, LEARNED):
        return "each side learned its own heuristic, as --learn-on each asks" if learn_on == "each" else \
            "the heuristic learned on A's rules does not read under B's, so B's players learned their own"
    if named[0] == named[1] and named[0] is not None:
        return f"the ruleset's heuristic {named[0]} is not the same under B's rules"
    if LEARNED in named:
        return "one side's rules declare a heuristic and the other's do not, so one side's players learned one"
    return "A's and B's rules give their players different heuristics"


def differing(studies: list[Study], learn_on: str) -> list[tuple[int, str, str]]:
    """(set of agents, spec, why) for every agent that judges positions otherwise under B than under A."""
    out = []
    for i, s in enumerate(studies):
        a, b = s.sides.get("a", {}), s.sides.get("b", {})
        out += [(i, spec, why_differ(a.get(spec), b.get(spec), learn_on)) for spec in {**a, **b}
                if a.get(spec) != b.get(spec)]
    return out


def players_warning(studies: list[Study], learn_on: str) -> str | None:
    """The sentence a report puts before any figure when A's and B's players differ (None: they do not)."""
    found = differing(studies, learn_on)
    if not found:
        return None
    reasons = "; ".join(dict.fromkeys(f"{spec}, because {why}" for _, spec, why in found))
    return f"THE PLAYERS DIFFER between A and B, so B - A mixes the rule change with a change of players: {reasons}"


def all_sides_json(studies: list[Study], variants: dict[str, list[str]], learn_on: str) -> dict:
    """`compare --json`'s `sides`: for A and for B, each set of agents with every agent's spec and
    what it judged by (the heuristic's name and expression); whether they are the same, and if not, why."""
    warning = players_warning(studies, learn_on)
    out: dict = {"learn_on": learn_on, "how": LEARN_ON[learn_on], "same_players": warning is None, "warning": warning,
                 "differ": [{"agents": i, "spec": spec, "why": why} for i, spec, why in differing(studies, learn_on)]}
    for side in "ab":
        out[side] = {"variants": variants[side],
                     "agent_sets": [{"agents": s.specs, "players": sides_json(s)[side]} for s in studies]}
    return out


def study_json(study: Study) -> dict:
    def games(results):
        return [{"seed": r.seed, "agents": r.agents, "ranking": r.ranking, "scores": r.scores, "length": r.length,
                 "unfinished": r.unfinished, "statistics": r.statistics,
                 **({"series": r.series} if r.series else {})} for r in results]
    return {"agents": study.specs, "sides": sides_json(study), "same_players": study.same_players,
            "games": len(study.a), "planned": study.planned, "a": metrics.to_json(study.ma),
            "b": metrics.to_json(study.mb), "difference": metrics.to_json(study.diffs),
            "metrics": described(list({**study.ma, **study.mb, **study.diffs}), study.kinds),
            "behaviour": {side: behaviour.to_json(study.behaviour.get(side, [])) for side in "ab"},  # as a ladder's
            "results_a": games(study.a),
            "results_b": games(study.b), "seconds": study.seconds}


def described(names: list[str], kinds: dict | None) -> dict:
    """What each metric measures: its kind (which says its interval), its unit and its description."""
    out = {}
    for name in names:
        m = metrics.metric(name, kinds)
        out[name] = {"kind": m.kind, "unit": m.unit, "description": m.description}
    return out


def robustness(studies: list[Study]) -> dict[str, bool]:
    """For every difference significant under some set of agents: whether every set finds it, the same way."""
    out = {}
    studies = [s for s in studies if s.a]  # (a study stopped before its first pair has nothing to say)
    for k in {k for s in studies for k, d in s.diffs.items() if d.significant}:
        found = [s.diffs.get(k) for s in studies]
        out[k] = all(d is not None and d.significant for d in found) and len({d.value > 0 for d in found if d}) == 1
    return dict(sorted(out.items()))
