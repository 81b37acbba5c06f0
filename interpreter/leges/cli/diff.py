"""`leges diff`: two rulesets, or one under two sets of variants, compared as rules and in play."""
from __future__ import annotations

import argparse
import json

from ..text.terminal import WIDE, shown
from .common import EXIT_OK


def cmd_diff(args) -> int:
    from .. import load
    from ..authoring.diff import lockstep, statistics, structural
    path_b = args.b or args.a
    game_a = load(args.a, variants=args.variant_a or [])
    game_b = load(path_b, variants=args.variant_b or args.variant or [])
    name_a = f"{args.a}" + (f" [{', '.join(game_a.variants)}]" if game_a.variants else "")
    name_b = f"{path_b}" + (f" [{', '.join(game_b.variants)}]" if game_b.variants else "")
    diffs = structural(game_a.ruleset, game_b.ruleset)
    players = args.players or max(game_a.min_players, game_b.min_players)
    translators = args.for_translators
    if translators is None:  # the default for a translation variant
        translators = bool(_translations(game_a) or _translations(game_b))
    if translators:
        return _for_translators(args, game_a, game_b, name_a, name_b, diffs, players)
    divergences = [x for x in (lockstep(game_a, game_b, players, args.seed + i) for i in range(args.seeds)) if x]
    stats = None
    if args.games:
        stats = (statistics(game_a, players, args.games, args.seed), statistics(game_b, players, args.games, args.seed))
    if args.json:
        print(json.dumps({"a": name_a, "b": name_b, "players": players, "rules": [x.to_json() for x in diffs],
                          "divergences": [x.to_json() for x in divergences], "seeds": args.seeds,
                          "statistics": {"a": stats[0], "b": stats[1]} if stats else None}, ensure_ascii=False, indent=1))
        return EXIT_OK
    print(f"A: {name_a}\nB: {name_b}\n")
    if not diffs:
        print("The rules are the same (as syntax trees and values).")
    else:
        print(f"{len(diffs)} rule difference{'s' if len(diffs) != 1 else ''}:")
        for x in diffs:
            if x.kind in ("only_a", "only_b"):
                side = "A" if x.kind == "only_a" else "B"
                print(f"  {'-' if side == 'A' else '+'} {x.section} {x.id}: only in {side}  "
                      f"[{shown(x.cite_a if side == 'A' else x.cite_b, WIDE)}]")
                for change in x.changes:
                    text = change.a if side == "A" else change.b
                    lines = (text or "").splitlines() or [""]
                    print(f"      {change.field}: {shown(lines[0], WIDE)}" if len(lines) == 1 else f"      {change.field}:")
                    if len(lines) > 1:
                        for line in lines:
                            print(f"        {shown(line, WIDE)}")
            else:
                print(f"  ~ {x.section} {x.id}: {', '.join(x.fields)}")
                if x.cited_a != x.cited_b:  # the citations only where they differ
                    print(f"      A cites: {shown(x.cited_a or '(nothing)', WIDE)}")
                    print(f"      B cites: {shown(x.cited_b or '(nothing)', WIDE)}")
                for note in x.set_by:
                    print(f"      {shown(note, WIDE)}")
                for change in x.changes:
                    print(f"      {change.field}:")
                    for line in change.lines():
                        print(f"        {shown(line, WIDE)}")
                if x.named_by:
                    print(f"      named by: {', '.join(x.named_by)}")
    print(f"\nIn play ({players} players, the same seeds and choices, seeds {args.seed}..{args.seed + args.seeds - 1}):")
    if not divergences:
        print(f"  no difference in {args.seeds} games")
    else:
        print(f"  {len(divergences)} of {args.seeds} games part; the first points:")
        for d in divergences[:args.show]:
            last = d.history[-1] if d.history else "(start)"
            if d.only_a or d.only_b:
                print(f"  seed {d.seed}, decision {d.step} (after {shown(last)}):")
                for t in d.only_a[:4]:
                    print(f"      only A allows: {shown(t)}")
                for t in d.only_b[:4]:
                    print(f"      only B allows: {shown(t)}")
            else:
                print(f"  seed {d.seed}, decision {d.step}: {_outcome(d.outcome_a, 'A')}; {_outcome(d.outcome_b, 'B')}")
    if stats:
        a, b = stats
        from .simulate import is_rate
        print(f"\nOutcomes over {args.games} random games each (95 % intervals; `leges compare` tests the differences):")
        names = [k for k in dict.fromkeys([*a["metrics"], *b["metrics"]]) if not k.startswith("stat.")]
        _rows(names, a, b, lambda k, m: m["metrics"].get(k), is_rate)
        own = [k for k in dict.fromkeys([*a["metrics"], *b["metrics"]]) if k.startswith("stat.")]
        totals = list(dict.fromkeys([*a.get("statistics_total", {}), *b.get("statistics_total", {})]))
        if own or totals:
            print("\nThe ruleset's statistics (statistics:), at the end of each game:")
            rows = [f"stat.{k} (all seats)" for k in totals] + own

            def value(k, m):
                if k.endswith(" (all seats)"):
                    return m.get("statistics_total", {}).get(k[len("stat."):-len(" (all seats)")])
                return m["metrics"].get(k)
            _rows(rows, a, b, value, lambda k: False if k.endswith(" (all seats)") else is_rate(k))
    return EXIT_OK


def _translations(game) -> list[str]:
    """The variants of `kind: translation` the game has switched on."""
    from pathlib import Path
    from ..model.variants.catalogue import find_variants
    from ..text.errors import Collector
    if not game.variants:
        return []
    names = [str(v).split("=")[0] for v in game.variants]
    found = find_variants(Path(game.ruleset.root), Collector())
    return [n for n in names if n in found and found[n].data.get("kind") == "translation"]


def _for_translators(args, game_a, game_b, name_a, name_b, diffs, players) -> int:
    """`--for-translators`: quotes side by side, readings, the change in words, each change played alone."""
    import shutil
    from ..authoring import translation
    width = args.width or min(max(shutil.get_terminal_size((translation.WIDTH, 24)).columns, 60), 140)
    result = translation.report(game_a.ruleset, game_b.ruleset, game_a.board, game_a, diffs, players, args.seeds,
                                args.seed, width)
    if args.json:
        print(json.dumps({"a": name_a, "b": name_b, "players": players, "seeds": args.seeds,
                          **translation.to_json(result)}, ensure_ascii=False, indent=1))
        return EXIT_OK
    for line in translation.lines(result, name_a, name_b, width):
        print(shown(line, WIDE))
    print(f"\n(Each change played alone: A with that one item taken from B, {players} players, the same seeds "
          f"and random choices, seeds {args.seed}..{args.seed + args.seeds - 1}; a game parts where the legal "
          "actions or the outcome first differ.)")
    return EXIT_OK


def _rows(names: list[str], a: dict, b: dict, value, is_rate) -> None:
    from ..lab.stats import Interval
    from .simulate import interval_text
    if not names:
        return
    width = max(len(k) for k in names)
    for k in names:
        ta, tb = (interval_text(Interval(**value(k, m)), is_rate(k)) if value(k, m) else "-" for m in (a, b))
        print(f"  {k:<{width}}  A {ta:<28} B {tb}")


def _outcome(scores, side: str) -> str:
    if scores is None:
        return f"{side} has not ended"
    return f"{side} ended with scores {scores}"


def register(sub, variant) -> None:
    p = sub.add_parser("diff", help="compare two rulesets, or one under two sets of variants: rules, play, outcomes")
    p.add_argument("a", metavar="RULESET_A")
    p.add_argument("b", metavar="RULESET_B", nargs="?", help="default: RULESET_A again (compare variants)")
    p.add_argument("--variant-a", action="append", metavar="NAME[=VALUE]", help="a variant for A (repeatable)")
    p.add_argument("--variant-b", action="append", metavar="NAME[=VALUE]", help="a variant for B (repeatable)")
    p.add_argument("--players", "-p", type=int)
    p.add_argument("--seeds", type=int, default=20, help="games played in lock-step to find where play parts (default 20)")
    p.add_argument("--games", "-g", type=int, default=0, help="also compare outcome statistics over this many random games")
    p.add_argument("--seed", "-s", type=int, default=0)
    p.add_argument("--show", type=int, default=5, help="how many parting points to print (default 5)")
    p.add_argument("--variant", action="append", metavar="NAME[=VALUE]",
                   help="a variant for B, when --variant-b is not given (repeatable)")
    p.add_argument("--for-translators", action=argparse.BooleanOptionalAction, default=None,
                   help="for whoever checks a translation: per difference the two rulebooks' quotes side by side, "
                        "the readings' questions and answers, the change in words and what it alone does in play; "
                        "then what is said differently and encoded the same (default: on when a translation "
                        "variant is on)")
    p.add_argument("--width", type=int, metavar="N", help="characters a line (--for-translators; default: the terminal's)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_diff)
