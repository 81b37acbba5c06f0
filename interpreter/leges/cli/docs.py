"""`leges doc` and `leges coverage`: the ruleset as a rulebook, and the rulebook as cited by the ruleset."""
from __future__ import annotations

import json
import sys

from ..text.errors import Diagnostic, LegesError, Position
from .common import EXIT_FAIL, EXIT_OK, load_ruleset


def cmd_coverage(args) -> int:
    from ..authoring.rulebook_coverage import coverage
    game = load_ruleset(args.ruleset, args)
    try:
        report = coverage(game, args.rulebook, args.book)
    except FileNotFoundError:
        raise LegesError(Diagnostic(Position(args.rulebook), "no such rulebook file")) from None
    total = len(report.passages)
    missing = [p for p in report.passages if p.status == "missing"]
    if args.json:
        print(json.dumps({"ruleset": game.id, "book": report.book, "file": report.file, "passages": total,
                          "covered": report.count("covered"), "marked": report.count("marked"),
                          "missing": [{"section": p.section, "text": p.text} for p in missing],
                          "unmatched": report.unmatched}, ensure_ascii=False))
    else:
        sections: dict[str, list] = {}
        for p in report.passages:
            sections.setdefault(p.section or "(before the first section)", []).append(p)
        for name, items in sections.items():
            c = sum(p.status == "covered" for p in items)
            m = sum(p.status == "marked" for p in items)
            print(f"{name}: {len(items)} passages, {c} cited, {m} marked, {len(items) - c - m} not covered")
            for p in items:
                if p.status == "missing" or args.verbose:
                    text = p.text if len(p.text) < 110 else p.text[:107] + "..."
                    print(f"    [{p.status}{': ' + p.why if p.why and p.status != 'missing' else ''}] {text}")
        for text in report.unmatched:
            print(f"warning: {text} is nowhere in the text", file=sys.stderr)
        print(f"{report.file} ({report.book}): {total} passages — {report.count('covered')} cited, "
              f"{report.count('marked')} marked as flavour, {len(missing)} not covered")
    return EXIT_FAIL if missing or report.unmatched else EXIT_OK


def cmd_doc(args) -> int:
    from ..authoring.docgen import render
    game = load_ruleset(args.ruleset, args)
    text = render(game, getattr(args, "lang", None))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"{args.output}: written")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("coverage", parents=[variant], help="which passages of a rulebook the ruleset cites or marks")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--rulebook", required=True, metavar="FILE", help="the rulebook's text")
    p.add_argument("--book", help="the rulebook's id in the ruleset (default: found by file name)")
    p.add_argument("--verbose", "-v", action="store_true", help="list every passage, not only those not covered")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_coverage)

    p = sub.add_parser("doc", parents=[variant], help="render a ruleset as a readable Markdown rulebook")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of the terminal")
    p.add_argument("--lang", metavar="LANG", help="the language of the moves' phrases and the components' and zones' "
                                                 "names (those the ruleset gives; default en)")
    p.set_defaults(run=cmd_doc)
