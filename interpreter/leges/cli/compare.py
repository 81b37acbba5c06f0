"""`leges compare`: an A/B test of two sets of variants, played on the same seeds and seats."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..text.errors import Collector, Diagnostic, LegesError, Position
from .common import kind_of
from .compare_report import MIN_EFFECT, print_behaviour, print_differences, print_robustness
from .simulate import add_play_arguments, budget_of, players_of
from .surviving import add_study_arguments, check_time_limit, exit_status, open_journal, partial_note, progress

if TYPE_CHECKING:
    from ..lab.compare import Study


def resolve_variants(ruleset: str, text: str, flag: str) -> list[str]:
    """`mayfair,start_money=18` → variant requests: names, NAME=VALUE, NAME.PARAM=VALUE, and PARAM=VALUE for
    the one variant that declares PARAM."""
    from ..model.variants.catalogue import find_variants
    items = [x.strip() for x in text.split(",") if x.strip()]
    path = Path(ruleset)
    root = path if path.is_dir() else path.parent
    available = find_variants(root, Collector()) if items else {}
    from ..model.variants.outside import is_path, read_outside
    for number, item in enumerate(items, 1):  # a variant file (PATH.yaml): its parameters may be set too
        read = read_outside(item, number, Collector(), origin=flag) if is_path(item) else None
        if read is not None:
            available.setdefault(read[0].id, read[0])
    out = []
    for item in items:
        name, eq, value = item.partition("=")
        if is_path(item):
            out.append(item)  # read again (and any error reported) when the game is loaded
            continue
        if eq and "." not in name and name not in available:
            owners = [v.id for v in available.values() if any(p["id"] == name for p in v.parameters)]
            if len(owners) != 1:
                raise LegesError(Diagnostic(Position(flag), f"'{name}' is neither a variant nor a parameter of one"
                                            if not owners else f"parameter '{name}' belongs to several variants",
                                            f"write VARIANT.{name}={value}" if owners else
                                            "variants here: " + (", ".join(sorted(available)) or "none")))
            item = f"{owners[0]}.{name}={value}"
        out.append(item)
    return out


def until_item(text: str) -> tuple[str, float]:
    """One --until-interval: `METRIC=WIDTH`, or a plain `WIDTH` (every seat's win rate, as ever)."""
    import argparse
    from ..lab.compare import SEATS
    name, eq, width = text.rpartition("=")
    try:
        value = float(width)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is neither WIDTH nor METRIC=WIDTH") from None
    if not value > 0 or (eq and not name.strip()):
        raise argparse.ArgumentTypeError(f"'{text}': the width is a positive number, after METRIC= if any")
    return (name.strip() if eq else SEATS), value


def until_of(items: list[tuple[str, float]] | None, kinds: dict) -> dict[str, float]:
    """--until-interval's metrics and widths, each checked against the metrics a study reports."""
    from ..lab.metrics import FIXED, PREFIXED
    until: dict[str, float] = {}
    for name, width in items or []:
        head, _, rest = name.partition(".")
        known = name in FIXED or (head == "stat" and f"stat.{rest.split('.')[0]}" in kinds) or \
            (head in PREFIXED and head != "stat")
        if not known:
            names = sorted(FIXED) + sorted(set(PREFIXED) - {"stat"}) + sorted(kinds)
            raise LegesError(Diagnostic(Position("--until-interval"), f"no metric '{name}' to stop on",
                                        "metrics: " + ", ".join(names)))
        until[name] = width
    return until


def journal_until(items: list[tuple[str, float]] | None):
    """--until-interval as a study's journal keeps it: a plain WIDTH as it always was (a study begun before
    METRIC=WIDTH resumes), else METRIC → WIDTH."""
    from ..lab.compare import SEATS
    if not items:
        return None
    if len(items) == 1 and items[0][0] == SEATS:
        return items[0][1]
    return {name: width for name, width in items}


def cmd_compare(args) -> int:
    from .. import load
    from ..agents import evaluations, seat_specs
    from ..agents.learn import learn_on
    from ..lab.compare import all_sides_json, play_study, players_warning, robustness, study_json
    from ..lab.journal import rules_digest
    from ..lab.metrics import declared
    from ..lab.runner import Job, remember
    from ..lab.session import Session
    if kind_of(args.ruleset) != "ruleset":
        raise LegesError(Diagnostic(Position(args.ruleset, 1, 1), "not a ruleset"))
    check_time_limit(args)
    va, vb = resolve_variants(args.ruleset, args.a, "--a"), resolve_variants(args.ruleset, args.b, "--b")
    game_a, game_b = load(args.ruleset, variants=va), load(args.ruleset, variants=vb)
    players = players_of(game_a, args)
    players_of(game_b, args)
    shared = args.learn_on == "a" and va != vb
    if shared:  # B's agents learn on A's rules: the same players on both sides (lab/compare.py)
        learn_on(game_b, game_a)
    agent_sets = [seat_specs(text, players) for text in (args.agents or [None])]
    sides = [{"a": evaluations(game_a, specs), "b": evaluations(game_b, specs)} for specs in agent_sets]
    seats = game_a.setup_for(players).seat_names
    kinds = {**declared(game_b), **declared(game_a)}  # (read before any game: nothing else runs meanwhile)
    until = until_of(args.until_interval, kinds)
    path, budget = os.path.abspath(args.ruleset), budget_of(args)
    jobs = (Job(path, tuple(va), players, budget=budget),
            Job(path, tuple(vb), players, budget=budget, learn_on=tuple(va) if shared else None))
    for job, game in zip(jobs, (game_a, game_b)):
        remember(job, game)  # (forked workers inherit it)
    journal = open_journal(args, {"command": "compare", "ruleset": game_a.id, "version": game_a.version,
                                  "rules": rules_digest(game_a), "variants_a": va, "variants_b": vb, "players": players,
                                  "seed": args.seed, "games": args.games, "agents": agent_sets,
                                  "rotate_seats": args.rotate_seats, "until_interval": journal_until(args.until_interval),
                                  "game_work": args.game_work, "game_seconds": args.game_seconds,
                                  "learn_on": args.learn_on})
    total = 2 * args.games * len(agent_sets)
    bar = progress(args, "compare", total)
    finished = RecordWriter(args, game_a, game_b, players, agent_sets) if args.records else None
    studies: list[Study] = []
    try:
        with Session(journal, total, args.jobs, args.dask, args.time_limit, bar, finished) as session:
            for i, specs in enumerate(agent_sets):
                studies.append(play_study(session, i, jobs, seats, specs, args.seed, args.games, args.rotate_seats,
                                          until, args.adjust, sides[i], kinds))
    finally:
        if bar is not None and hasattr(bar, "close"):
            bar.close()
    note = partial_note(session, journal, session.done, total)
    first = studies[0]
    if args.plot and any(s.a for s in studies):
        from ..lab.plot import plot_comparison
        plot_comparison(args.plot, game_a.title, players, seats, (args.a or "as they are", args.b or "as they are"),
                        [s for s in studies if s.a])
    if args.json:
        print(json.dumps({**study_json(first), "ruleset": game_a.id, "players": players, "seed": args.seed,
                          "rotate_seats": args.rotate_seats, "variants_a": va, "variants_b": vb,
                          "sides": all_sides_json(studies, {"a": va, "b": vb}, args.learn_on),
                          "same_players": players_warning(studies, args.learn_on) is None,
                          "adjustment": args.adjust, "studies": [study_json(s) for s in studies],
                          "robust": robustness(studies), "partial": note is not None, "stopped": session.stopped,
                          "journal": journal.path if journal is not None else None}))
        return exit_status(session)
    if note:
        print(note + "\n")
    name_a, name_b = ", ".join(va) or "the rules as they are", ", ".join(vb) or "the rules as they are"
    print(f"A: {name_a}\nB: {name_b}")
    print_players(studies, args.learn_on, va != vb)
    for study in studies:
        specs = study.specs
        agents = "" if all(s == "random" for s in specs) else f"; agents {', '.join(specs)}" + (
            ", every seating in turn" if args.rotate_seats else "")
        if not study.a:
            print(f"\nagents {', '.join(specs)}: no pair of games finished")
            continue
        print(f"\n{len(study.a)} games each, {players} players, the same seeds ({args.seed}..{study.a[-1].seed}) and seats "
              f"under both{agents}; {study.seconds:.0f} s")
        print()
        print_behaviour(study)  # (a degenerate player flagged before the answer it makes suspect)
        print_differences(study.ma, study.mb, study.diffs, args.adjust, kinds, args.min_effect)
    if len(studies) > 1:
        print_robustness(studies)
    return exit_status(session)


def print_players(studies: list[Study], learn_on: str, two_rules: bool) -> None:
    """Every set's agents and what each judges positions by, under A and B — before any figure, and
    first of all, in capitals, whether they differ and why."""
    from ..agents.learn import LEARNED
    from ..lab.compare import LEARN_ON, players_warning
    warning = players_warning(studies, learn_on)
    if warning:
        print("\n" + warning + ".")
    learns = any(e.heuristic == LEARNED for s in studies for side in s.sides.values() for e in side.values())
    if learns and two_rules and learn_on == "a":
        print(("\n" if not warning else "") + LEARN_ON[learn_on][0].upper() + LEARN_ON[learn_on][1:] + ".")
    for study in studies:
        a, b = study.sides.get("a", {}), study.sides.get("b", {})
        width = max((len(spec) for spec in {**a, **b}), default=0)
        same = a == b
        print(f"\nthe players (agents {', '.join(study.specs)}), " + ("the same under A and B:" if same else
                                                                     "NOT THE SAME under A and B:"))
        for spec in {**a, **b}:
            if a.get(spec) == b.get(spec):  # (a learned heuristic with its formula: nobody wrote it down)
                learned = a[spec].heuristic == LEARNED and a[spec].expression
                print(f"  {spec:<{width}}  {a[spec]}" + (f": {' '.join(a[spec].expression.split())}" if learned else ""))
                continue
            for side, e in (("A", a.get(spec)), ("B", b.get(spec))):
                formula = f": {' '.join(e.expression.split())}" if e is not None and e.expression else ""
                print(f"  {spec if side == 'A' else '':<{width}}  under {side}: {e}{formula}")


class RecordWriter:
    """A replayable record of every game as it finishes (and of those a resumed study reads from its
    journal): A's under DIR/a/ and B's under DIR/b/, one folder per set of agents when several."""

    def __init__(self, args, game_a, game_b, players: int, agent_sets: list[list[str]]):
        self.args, self.games, self.players, self.sets = args, {"a": game_a, "b": game_b}, players, agent_sets

    def __call__(self, task, result) -> None:
        from ..lab.records import make_record, write_record
        index, side = task.part.split(":")
        base = Path(self.args.records)
        if len(self.sets) > 1:
            base = base / "-".join(s.replace(":", "_").replace("=", "") for s in self.sets[int(index)])[:120]
        game = self.games[side]
        folder = base / side
        folder.mkdir(parents=True, exist_ok=True)
        suffix = f"-game{task.index}" if self.args.rotate_seats else ""
        target = folder / f"{game.id}-{self.players}p-seed{result.seed}{suffix}.json"
        r = result
        write_record(str(target), make_record(game, self.args.ruleset, self.players, r.seed, r.history,
                                              {"ranking": r.ranking, "scores": r.scores, "unfinished": r.unfinished,
                                               "agents": r.agents}))


def stats_adjustments() -> tuple[str, ...]:
    from ..lab.stats import ADJUSTMENTS
    return ADJUSTMENTS


def register(sub, variant) -> None:
    p = sub.add_parser("compare", help="A/B test of variants: the same seeds and seats under both, differences with intervals")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--a", default="", metavar="VARIANTS",
                   help="A's variants, comma-separated: NAME, NAME=VALUE, NAME.PARAM=VALUE, PARAM=VALUE, or the PATH of a "
                        "variant file outside the ruleset (ending in .yaml) ('' : none)")
    p.add_argument("--b", default="", metavar="VARIANTS", help="B's variants, likewise")
    p.add_argument("--adjust", choices=stats_adjustments(), default="holm",
                   help="the correction of the p-values for testing many metrics at once: holm (default; no false "
                        "'significant' among them 95 %% of the time), bh (Benjamini-Hochberg: 5 %% false discoveries) "
                        "or none")
    add_play_arguments(p, several_agents=True)
    p.add_argument("--until-interval", action="append", type=until_item, metavar="[METRIC=]W",
                   help="stop once the difference in METRIC has an interval narrower than W (METRIC: any metric "
                        "of the report, or a prefix of several: stat.coins, seat_win_rate; W alone: every seat's "
                        "win rate); given again, every one must be (looked at every 100 pairs; --games bounds it)")
    p.add_argument("--min-effect", type=float, default=MIN_EFFECT, metavar="F",
                   help="the smallest difference worth advice on how many pairs would show it: F of a share "
                        "(0.05: 5 points), or F times A's value of anything else (default %(default)s)")
    p.add_argument("--records", metavar="DIR", help="write a replayable record of every game as it finishes: A's "
                                                    "into DIR/a, B's into DIR/b")
    p.add_argument("--learn-on", choices=("a", "each"), default="a",
                   help="where an agent learns a heuristic (a ruleset that declares none): a (default) — once, on "
                        "A's rules, and the same one under B, so that A and B are played by the same players; "
                        "each — each side on its own rules (B - A then mixes a change of players with the rule "
                        "change, and the report says so before any figure)")
    add_study_arguments(p, records=True)
    p.set_defaults(run=cmd_compare, check=False)
