"""`leges validate`, `leges info`, `leges variants`, `leges test`: checking rulesets and their examples."""
from __future__ import annotations

import sys

from ..text.errors import Collector, Diagnostic, LegesError, Position
from .common import EXIT_FAIL, EXIT_INPUT, EXIT_OK, kind_of, load_ruleset
from ..text.terminal import WIDE, shown


def cmd_validate(args) -> int:
    from ..text.errors import Collector
    from ..model.schemas import validate
    from ..text.yaml_source import load_yaml_file
    status = EXIT_OK
    for path in args.paths:
        kind = kind_of(path)
        try:
            if kind == "ruleset":
                game = load_ruleset(path, args)
                for w in game.warnings:
                    print(w.format())
                approx = _approximations(game)
                note = f", {len(approx)} approximated values (see `leges info`)" if approx else ""
                note += _check_parts(path)
                print(f"{path}: ok — {shown(game.title)}, {len(game.actions)} actions, {sum(len(v) for v in game.listeners.values())} "
                      f"triggers, {len(game.phases)} phases{note}")
            elif kind in ("scenario", "scenarios", "variant", "variants"):
                print(f"{path}: ok — {_check_other(path, kind)}")
            else:
                doc = load_yaml_file(path)
                errors = Collector()
                validate(doc, kind, errors)
                if kind == "map" and not errors.errors:
                    from ..board.board import build_board
                    build_board(doc, errors)
                errors.raise_if_errors()
                print(f"{path}: ok ({kind})")
        except LegesError as exc:
            for d in exc.diagnostics:
                print(d.format(), file=sys.stderr)
            errors_found = sum(1 for d in exc.diagnostics if d.severity == "error")
            print(f"{path}: {errors_found} error{'s' if errors_found != 1 else ''}", file=sys.stderr)
            status = EXIT_INPUT
    return status


def _check_other(path: str, kind: str) -> str:
    """A scenario, a folder of scenarios or a variant file, checked with its ruleset; says what was checked."""
    from pathlib import Path
    from ..authoring.scenario import check_files, find_scenarios
    if kind == "variants":
        files = sorted(str(f) for f in Path(path).glob("*.yaml"))
        errors = Collector()
        for file in files:
            try:
                _check_other(file, "variant")
            except LegesError as exc:
                errors.extend(d for d in exc.diagnostics if d not in errors.diagnostics)
        errors.raise_if_errors()
        return f"{len(files)} variant file{'s' if len(files) != 1 else ''}, each checked with its ruleset"
    if kind != "variant":
        found = find_scenarios([path])
        games: dict = {}  # check_file's cache of the games loaded
        check_files(found, games)
        names = sorted({shown(game.title) for game in games.values()})
        return (f"{'a scenario' if kind == 'scenario' or len(found) == 1 else f'{len(found)} scenarios'} of {', '.join(names)}, "
                "checked without being played (`leges test` plays them)")
    from .. import load
    from ..model.schemas import validate
    from ..model.variants.catalogue import find_variants, variant_sets
    from ..text.yaml_source import load_yaml_file
    doc = load_yaml_file(path)
    errors = Collector()
    if not validate(doc, "variant", errors):
        raise LegesError(errors.diagnostics)
    root = Path(path).resolve().parent.parent
    if Path(path).resolve().parent.name != "variants" or not (root / "ruleset.yaml").is_file():
        raise LegesError(Diagnostic(Position(path, 1, 1), "a variant file is read from its ruleset's variants/ folder",
                                    "check it with its game: leges validate RULESET --variant PATH (or put it in "
                                    "<ruleset>/variants/ and switch it on with --variant NAME)"))
    vid = doc.data["id"]
    available = find_variants(root, errors)
    errors.raise_if_errors()
    sets = [names for names in variant_sets(available) if vid in names] or [(vid,)]
    title = ""
    for chosen in sets:
        title = load(str(root), variants=list(chosen)).title
    loaded = "; ".join(", ".join(names) for names in sets)
    return f"variant '{vid}' of {shown(title)}, the ruleset loaded with {loaded}"


def _check_parts(path: str) -> str:
    from ..authoring.validation import check_parts
    return check_parts(path)


def _approximations(game) -> list[tuple[str, str]]:
    """Every value marked as an approximation, with where it is (for owners of the physical game)."""
    from ..board.board import approximations
    found = [(f"{game.board.doc.file}: {where}", note) for where, note in game.approximations] if game.board else []
    for doc in game.ruleset.docs:
        found += [(f"{doc.file}: {'/'.join(map(str, path))}", note) for path, note in approximations(doc.data)]
    return found


def cmd_info(args) -> int:
    game = load_ruleset(args.ruleset, args)
    rs = game.ruleset
    print(f"{shown(game.title)} ({game.id} {shown(game.version)}), {game.min_players}-{game.max_players} players")
    for book in rs.rulebooks:
        print(f"  rulebook {book['id']}: {shown(book.get('title', book['file']))}")
    print(f"  {len(rs.components)} component types, {len(rs.zones)} zones, {len(game.phases)} phases, "
          f"{len(game.actions)} actions, {sum(len(v) for v in game.listeners.values())} triggers")
    words = game.words
    if words:
        worded = sum(1 for a in game.actions if a in words.actions)
        print(f"  in words: {', '.join(shown(x, 20) for x in words.languages)} — {worded} of {len(game.actions)} actions, "
              f"{len(words.choices)} choices, {len(words.names)} names (--lang on play, doc, replay, serve)")
    if rs.readings:
        print(f"  readings (where the rulebook is silent, ambiguous or contradicts itself): {len(rs.readings)}")
        for r in rs.readings:
            print(f"    {r.id} [{shown(r.kind or 'reading')}]: {shown(r.question or '', WIDE)}")
    approx = _approximations(game)
    if approx:
        print(f"  approximated values: {len(approx)} — check them against the physical game")
        for where, note in approx:
            print(f"    {shown(where)}: {shown(note, WIDE)}")
    else:
        print("  approximated values: none")
    return EXIT_OK


def cmd_variants(args) -> int:
    from pathlib import Path
    from ..authoring.docgen import render_variants
    from ..text.errors import Collector
    from ..model.loader import find_ruleset_file
    from ..model.variants.catalogue import find_variants
    root = find_ruleset_file(args.ruleset).resolve().parent
    if not (root / "ruleset.yaml").exists():
        raise LegesError(Diagnostic(Position(args.ruleset), "no ruleset here", "a ruleset is a folder holding ruleset.yaml"))
    errors = Collector()
    found = find_variants(Path(root), errors)
    errors.raise_if_errors()
    if not found:
        print(f"{args.ruleset}: no variants")
        return EXIT_OK
    print(render_variants(found))
    return EXIT_OK


def cmd_test(args) -> int:
    from ..authoring.scenario import find_scenarios, run_file
    files = find_scenarios(args.scenarios)
    if not files:
        raise LegesError(Diagnostic(Position(" ".join(args.scenarios)), "no scenario files found"))
    failed = broken = 0
    for path in files:
        try:
            outcome = run_file(path)
        except LegesError as exc:  # the scenario (or its ruleset) cannot be run: report it, go on
            for d in exc.diagnostics:
                print(d.format(), file=sys.stderr)
            print(f"ERR  {path}: cannot be run", file=sys.stderr)
            broken += 1
            continue
        mark = "ok  " if outcome.passed else "FAIL"
        print(f"{mark} {outcome.file}: {shown(outcome.title)}")
        for f in outcome.failures:  # a failure's lines are the scenario's: each one harmless
            print("\n".join(f"     {shown(line, WIDE)}" for line in f.split("\n")))
        failed += not outcome.passed
    print(f"{len(files) - failed - broken} passed, {failed} failed" + (f", {broken} could not be run" if broken else ""))
    if broken:
        return EXIT_INPUT
    return EXIT_FAIL if failed else EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("validate", parents=[variant], help="check rulesets, maps and scenarios; report every problem")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("info", parents=[variant], help="what a ruleset holds: readings, approximated values")
    p.add_argument("ruleset", metavar="RULESET")
    p.set_defaults(run=cmd_info)

    p = sub.add_parser("variants", help="list a ruleset's variants, their kinds, provenance and parameters")
    p.add_argument("ruleset", metavar="RULESET")
    p.set_defaults(run=cmd_variants)

    p = sub.add_parser("test", help="run scenario files (a rulebook's worked examples)")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario files or folders holding them")
    p.set_defaults(run=cmd_test)
