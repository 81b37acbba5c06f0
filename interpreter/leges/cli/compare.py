"""`leges compare`: an A/B test of two sets of variants, played on the same seeds and seats."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from ..errors import Collector, Diagnostic, LegesError, Position
from .common import EXIT_OK, kind_of
from .simulate import ProgressBar, add_play_arguments, check_agents, interval_text, is_rate, play_batches, players_of


def resolve_variants(ruleset: str, text: str, flag: str) -> list[str]:
    """`mayfair,start_money=18` → variant requests: names, NAME=VALUE, NAME.PARAM=VALUE, and PARAM=VALUE for
    the one variant that declares PARAM."""
    from ..model.variants import find_variants
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


def cmd_compare(args) -> int:
    from .. import load, metrics, stats
    from ..agents import seat_specs
    from ..runner import Job, plan
    if kind_of(args.ruleset) != "ruleset":
        raise LegesError(Diagnostic(Position(args.ruleset, 1, 1), "not a ruleset"))
    va, vb = resolve_variants(args.ruleset, args.a, "--a"), resolve_variants(args.ruleset, args.b, "--b")
    game_a, game_b = load(args.ruleset, variants=va), load(args.ruleset, variants=vb)
    players = players_of(game_a, args)
    players_of(game_b, args)
    specs = seat_specs(args.agents, players)
    check_agents(game_a, specs)
    check_agents(game_b, specs)
    seats = game_a.setup_for(players).seat_names
    games = plan(args.seed, args.games, specs, args.rotate_seats)
    path = os.path.abspath(args.ruleset)
    bar = ProgressBar(2 * len(games), sys.stderr.isatty() and not args.quiet and not args.json)
    start = time.perf_counter()
    try:
        a = play_batches(game_a, Job(path, tuple(va), players), games, args, bar)
        bar.advance(len(games))
        b = play_batches(game_b, Job(path, tuple(vb), players), games, args, bar)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    ma, mb = metrics.summarise(a, seats), metrics.summarise(b, seats)
    diffs = stats.adjust(metrics.differences(a, b, seats), args.adjust)
    name_a, name_b = ", ".join(va) or "the rules as they are", ", ".join(vb) or "the rules as they are"
    if args.plot:
        from ..plot import plot_comparison
        plot_comparison(args.plot, game_a.title, players, seats, (args.a or "as they are", args.b or "as they are"),
                        a, b, diffs)
    if args.json:
        print(json.dumps({"ruleset": game_a.id, "players": players, "seed": args.seed, "games": len(games),
                          "agents": specs, "rotate_seats": args.rotate_seats, "variants_a": va, "variants_b": vb,
                          "adjustment": args.adjust,
                          "a": metrics.to_json(ma), "b": metrics.to_json(mb), "difference": metrics.to_json(diffs),
                          "seconds": seconds}))
        return EXIT_OK
    print(f"A: {name_a}\nB: {name_b}")
    agents = "" if all(s == "random" for s in specs) else f"; agents {', '.join(specs)}" + (
        ", every seating in turn" if args.rotate_seats else "")
    print(f"{len(games)} games each, {players} players, the same seeds ({args.seed}..{games[-1].seed}) and seats "
          f"under both{agents}; {seconds:.0f} s\n")
    print_differences(ma, mb, diffs, args.adjust)
    return EXIT_OK


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
    return "-" if p != p else "<0.001" if p < 0.001 else f"{p:.3f}"


def _size(effect: float) -> str:
    return "-" if effect != effect else "inf" if abs(effect) == float("inf") else f"{effect:+.2f}"


def _amount(x: float, percent: bool) -> str:
    return "?" if x != x else f"{x:.1%}" if percent else f"{x:.3g}"


def stats_adjustments() -> tuple[str, ...]:
    from ..stats import ADJUSTMENTS
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
    add_play_arguments(p)
    p.set_defaults(run=cmd_compare, check=False)
