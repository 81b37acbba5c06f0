"""`leges compare`: an A/B test of two sets of variants, played on the same seeds and seats."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from ..errors import Collector, Diagnostic, LegesError, Position
from .common import EXIT_OK, kind_of
from .simulate import ProgressBar, add_play_arguments, budget_of, check_agents, interval_text, is_rate, play_batches, players_of


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
    from .. import load, metrics
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
    budget = budget_of(args)
    bar = ProgressBar(2 * len(games), sys.stderr.isatty() and not args.quiet and not args.json)
    start = time.perf_counter()
    try:
        a = play_batches(game_a, Job(path, tuple(va), players, budget=budget), games, args, bar)
        bar.advance(len(games))
        b = play_batches(game_b, Job(path, tuple(vb), players, budget=budget), games, args, bar)
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    ma, mb = metrics.summarise(a, seats), metrics.summarise(b, seats)
    diffs = metrics.differences(a, b, seats)
    name_a, name_b = ", ".join(va) or "the rules as they are", ", ".join(vb) or "the rules as they are"
    if args.plot:
        from ..plot import plot_comparison
        plot_comparison(args.plot, game_a.title, players, seats, (args.a or "as they are", args.b or "as they are"),
                        a, b, diffs)
    if args.json:
        print(json.dumps({"ruleset": game_a.id, "players": players, "seed": args.seed, "games": len(games),
                          "agents": specs, "rotate_seats": args.rotate_seats, "variants_a": va, "variants_b": vb,
                          "a": metrics.to_json(ma), "b": metrics.to_json(mb), "difference": metrics.to_json(diffs),
                          "seconds": seconds}))
        return EXIT_OK
    print(f"A: {name_a}\nB: {name_b}")
    agents = "" if all(s == "random" for s in specs) else f"; agents {', '.join(specs)}" + (
        ", every seating in turn" if args.rotate_seats else "")
    print(f"{len(games)} games each, {players} players, the same seeds ({args.seed}..{games[-1].seed}) and seats "
          f"under both{agents}; {seconds:.0f} s\n")
    rows = [(k, interval_text(ma[k], is_rate(k)) if k in ma else "-", interval_text(mb[k], is_rate(k)) if k in mb else "-",
             diffs[k]) for k in diffs]
    wk = max(len(r[0]) for r in rows)
    wa = max(len(r[1]) for r in rows + [("", "A", "", None)])
    wb = max(len(r[2]) for r in rows + [("", "", "B", None)])
    print(f"{'metric':<{wk}}  {'A':<{wa}}  {'B':<{wb}}  B - A")
    for k, ta, tb, d in rows:
        verdict = "significant" if d.significant else "not significant"
        print(f"{k:<{wk}}  {ta:<{wa}}  {tb:<{wb}}  {interval_text(d, is_rate(k))}  {verdict}")
    significant = [k for k, *_ , d in rows if d.significant]
    print(f"\n{len(significant)} of {len(rows)} differences are significant (95 % paired intervals that leave out 0)"
          + (": " + ", ".join(significant) if significant else "."))
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("compare", help="A/B test of variants: the same seeds and seats under both, differences with intervals")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--a", default="", metavar="VARIANTS",
                   help="A's variants, comma-separated: NAME, NAME=VALUE, NAME.PARAM=VALUE or PARAM=VALUE ('' : none)")
    p.add_argument("--b", default="", metavar="VARIANTS", help="B's variants, likewise")
    add_play_arguments(p)
    p.set_defaults(run=cmd_compare, check=False)
