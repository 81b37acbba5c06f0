"""`leges compare`: an A/B test of two sets of variants, played on the same seeds and seats."""
from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..text.errors import Collector, Diagnostic, LegesError, Position
from .common import EXIT_OK, kind_of
from .simulate import ProgressBar, add_play_arguments, budget_of, check_agents, interval_text, is_rate, play_batches, players_of


def resolve_variants(ruleset: str, text: str, flag: str) -> list[str]:
    """`mayfair,start_money=18` → variant requests: names, NAME=VALUE, NAME.PARAM=VALUE, and PARAM=VALUE for
    the one variant that declares PARAM."""
    from ..model.variants.catalogue import find_variants
    items = [x.strip() for x in text.split(",") if x.strip()]
    path = Path(ruleset)
    root = path if path.is_dir() else path.parent
    available = find_variants(root, Collector()) if items else {}
    out = []
    for item in items:
        name, eq, value = item.partition("=")
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


@dataclass
class Study:
    """A and B played by one set of agents: the games, their metrics, the differences."""
    specs: list[str]
    a: list
    b: list
    ma: dict
    mb: dict
    diffs: dict
    seconds: float


def cmd_compare(args) -> int:
    from .. import load
    from ..agents import seat_specs
    if kind_of(args.ruleset) != "ruleset":
        raise LegesError(Diagnostic(Position(args.ruleset, 1, 1), "not a ruleset"))
    va, vb = resolve_variants(args.ruleset, args.a, "--a"), resolve_variants(args.ruleset, args.b, "--b")
    game_a, game_b = load(args.ruleset, variants=va), load(args.ruleset, variants=vb)
    players = players_of(game_a, args)
    players_of(game_b, args)
    agent_sets = [seat_specs(text, players) for text in (args.agents or [None])]
    for specs in agent_sets:
        check_agents(game_a, specs)
        check_agents(game_b, specs)
    seats = game_a.setup_for(players).seat_names
    studies = [play_study(args, game_a, game_b, va, vb, players, seats, specs) for specs in agent_sets]
    first = studies[0]
    if args.records:
        for study in studies:
            write_records(args, game_a, game_b, players, study, len(studies) > 1)
    if args.plot:
        from ..lab.plot import plot_comparison
        plot_comparison(args.plot, game_a.title, players, seats, (args.a or "as they are", args.b or "as they are"),
                        first.a, first.b, first.diffs)
    if args.json:
        print(json.dumps({**study_json(first), "ruleset": game_a.id, "players": players, "seed": args.seed,
                          "rotate_seats": args.rotate_seats, "variants_a": va, "variants_b": vb,
                          "adjustment": args.adjust, "studies": [study_json(s) for s in studies],
                          "robust": robustness(studies)}))
        return EXIT_OK
    name_a, name_b = ", ".join(va) or "the rules as they are", ", ".join(vb) or "the rules as they are"
    print(f"A: {name_a}\nB: {name_b}")
    for study in studies:
        specs = study.specs
        agents = "" if all(s == "random" for s in specs) else f"; agents {', '.join(specs)}" + (
            ", every seating in turn" if args.rotate_seats else "")
        print(f"\n{len(study.a)} games each, {players} players, the same seeds ({args.seed}..{study.a[-1].seed}) and seats "
              f"under both{agents}; {study.seconds:.0f} s\n")
        print_differences(study.ma, study.mb, study.diffs, args.adjust)
    if len(studies) > 1:
        print_robustness(studies)
    return EXIT_OK


def play_study(args, game_a, game_b, va, vb, players: int, seats, specs: list[str]) -> Study:
    """A's games, then B's on the same seeds and seatings (as many as A's, if --until-interval stopped A)."""
    from ..lab import metrics, stats
    from ..lab.runner import Job, plan
    games = plan(args.seed, args.games, specs, args.rotate_seats)
    path = os.path.abspath(args.ruleset)
    budget = budget_of(args)
    bar = ProgressBar(2 * len(games), sys.stderr.isatty() and not args.quiet and not args.json)
    start = time.perf_counter()
    until = None
    if args.until_interval is not None:
        job_b = Job(path, tuple(vb), players, budget=budget)

        def until(results):  # B's games for these seeds too, then the differences' intervals
            played_b.extend(play_batches(game_b, job_b, games[len(played_b):len(results)], args, bar))
            d = metrics.differences(results, played_b, seats)
            return all(d[k].width < args.until_interval for k in d if k.startswith("seat_win_rate."))
    played_b: list = []
    try:
        a = play_batches(game_a, Job(path, tuple(va), players, budget=budget), games, args, bar, until)
        bar.advance(len(a))
        b = played_b if until is not None else \
            play_batches(game_b, Job(path, tuple(vb), players, budget=budget), games, args, bar)
    finally:
        bar.close()
    diffs = stats.adjust(metrics.differences(a, b, seats), args.adjust)
    return Study(specs, a, b, metrics.summarise(a, seats), metrics.summarise(b, seats), diffs, time.perf_counter() - start)


def study_json(study: Study) -> dict:
    from ..lab import metrics

    def games(results):
        return [{"seed": r.seed, "agents": r.agents, "ranking": r.ranking, "scores": r.scores, "length": r.length,
                 "unfinished": r.unfinished, "statistics": r.statistics,
                 **({"series": r.series} if r.series else {})} for r in results]
    return {"agents": study.specs, "games": len(study.a), "a": metrics.to_json(study.ma), "b": metrics.to_json(study.mb),
            "difference": metrics.to_json(study.diffs), "results_a": games(study.a), "results_b": games(study.b),
            "seconds": study.seconds}


def write_records(args, game_a, game_b, players: int, study: Study, several: bool) -> None:
    """A replayable record of every game, A's under DIR/a/ and B's under DIR/b/ (one folder per set of agents)."""
    from ..lab.records import make_record, write_record
    base = Path(args.records)
    if several:
        base = base / "-".join(s.replace(":", "_").replace("=", "") for s in study.specs)[:120]
    for side, game, results in (("a", game_a, study.a), ("b", game_b, study.b)):
        folder = base / side
        folder.mkdir(parents=True, exist_ok=True)
        for n, r in enumerate(results):
            result = {"ranking": r.ranking, "scores": r.scores, "unfinished": r.unfinished, "agents": r.agents}
            suffix = f"-game{n}" if args.rotate_seats else ""
            write_record(str(folder / f"{game.id}-{players}p-seed{r.seed}{suffix}.json"),
                         make_record(game, args.ruleset, players, r.seed, r.history, result))


def robustness(studies: list[Study]) -> dict[str, bool]:
    """For every difference significant under some set of agents: whether every set finds it, the same way."""
    out = {}
    for k in {k for s in studies for k, d in s.diffs.items() if d.significant}:
        found = [s.diffs.get(k) for s in studies]
        out[k] = all(d is not None and d.significant for d in found) and len({d.value > 0 for d in found if d}) == 1
    return dict(sorted(out.items()))


def print_robustness(studies: list[Study]) -> None:
    print("\nDo the players change the answer? Each difference significant under some agents, under each set:")
    held = robustness(studies)
    if not held:
        print("  none: no difference is significant under any set of agents")
        return
    width = max((len(k) for k in held), default=6)
    rows = {k: ["-" if s.diffs.get(k) is None else
                f"{interval_text(s.diffs[k], is_rate(k))}{' *' if s.diffs[k].significant else ''}" for s in studies]
            for k in held}
    widths = [max(len(r[i]) for r in rows.values()) for i in range(len(studies))]
    for k, robust in held.items():
        cells = "  ".join(f"{c:<{w}}" for c, w in zip(rows[k], widths))
        print(f"  {k:<{width}}  {cells}  " + ("holds under every set" if robust else "DEPENDS ON THE PLAYERS"))
    print("  (* significant; agents: " + " | ".join(", ".join(s.specs) for s in studies) + ")")


ADJUSTED = {"holm": "Holm's correction for the metrics compared together",
            "bh": "the Benjamini-Hochberg correction (false discovery rate 5 %)",
            "none": "no correction for the metrics compared together"}


def print_differences(ma: dict, mb: dict, diffs: dict, adjustment: str) -> None:
    """The table of A, B and B - A, each difference with its p-values and size, then what it says."""
    rows = [(k, interval_text(ma[k], is_rate(k)) if k in ma else "-", interval_text(mb[k], is_rate(k)) if k in mb else "-",
             interval_text(d, is_rate(k)), _p(d.p), _p(d.p_adjusted), _size(d.effect), d) for k, d in diffs.items()]
    head = ("metric", "A", "B", "B - A", "p", "p adj.", "size", "")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(7)]
    print("  ".join(f"{h:<{w}}" for h, w in zip(head, widths)).rstrip())
    for row in rows:
        d = row[-1]
        verdict = "significant" if d.significant else "not significant" + (" (unadjusted p under 5 %)" if d.significant_raw else "")
        print("  ".join(f"{c:<{w}}" for c, w in zip(row[:7], widths)) + "  " + verdict)
    significant = [r[0] for r in rows if r[-1].significant]
    raw = [r[0] for r in rows if r[-1].significant_raw and not r[-1].significant]
    print(f"\n{len(significant)} of {len(rows)} differences are significant (p under 5 % after {ADJUSTED[adjustment]})"
          + (": " + ", ".join(significant) if significant else "."))
    if raw:
        print(f"Significant before the correction only (most likely chance among {len(rows)} metrics): {', '.join(raw)}.")
    print("size: the difference in standard deviations of a pair's difference (0.2 small, 0.5 medium, 0.8 large).")
    advice = []
    for k, d in diffs.items():
        if d.significant or not d.pairs:
            continue
        need = d.needed(d.value, len(diffs))
        if need is not None and need > d.pairs:
            advice.append(f"  {k}: a difference of {interval_text(d, is_rate(k)).split(' ')[0]} (as seen here) "
                          f"needs about {need} pairs; these {d.pairs} show one of {_amount(d.detectable(len(diffs)), is_rate(k))} or more")
    if advice:
        print("To tell a difference that is not significant here from chance (80 % of the time):")
        print("\n".join(advice[:12]))


def _p(p: float) -> str:
    return "-" if math.isnan(p) else "<0.001" if p < 0.001 else f"{p:.3f}"


def _size(effect: float) -> str:
    return "-" if math.isnan(effect) else "inf" if abs(effect) == float("inf") else f"{effect:+.2f}"


def _amount(x: float, percent: bool) -> str:
    return "?" if math.isnan(x) else f"{x:.1%}" if percent else f"{x:.3g}"


def stats_adjustments() -> tuple[str, ...]:
    from ..lab.stats import ADJUSTMENTS
    return ADJUSTMENTS


def register(sub, variant) -> None:
    p = sub.add_parser("compare", help="A/B test of variants: the same seeds and seats under both, differences with intervals")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--a", default="", metavar="VARIANTS",
                   help="A's variants, comma-separated: NAME, NAME=VALUE, NAME.PARAM=VALUE or PARAM=VALUE ('' : none)")
    p.add_argument("--b", default="", metavar="VARIANTS", help="B's variants, likewise")
    p.add_argument("--adjust", choices=stats_adjustments(), default="holm",
                   help="the correction of the p-values for testing many metrics at once: holm (default; no false "
                        "'significant' among them 95 %% of the time), bh (Benjamini-Hochberg: 5 %% false discoveries) "
                        "or none")
    add_play_arguments(p, several_agents=True)
    p.add_argument("--until-interval", type=float, metavar="W",
                   help="stop once every seat's win-rate difference has an interval narrower than W (looked at "
                        "every 100 pairs; --games bounds it)")
    p.add_argument("--records", metavar="DIR", help="write a replayable record of every game: A's into DIR/a, B's into DIR/b")
    p.set_defaults(run=cmd_compare, check=False)
