"""The `leges` command line: validate, info, simulate, play, replay, test."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

from .errors import Diagnostic, LegesError, Position, RuleError

EXIT_OK, EXIT_FAIL, EXIT_INPUT = 0, 1, 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: leges itself failed


def _variants(args) -> list[str]:
    return list(getattr(args, "variant", None) or [])


def _load(path: str, args):
    from . import load
    kind = _kind_of(path)
    if kind != "ruleset":
        raise LegesError(Diagnostic(Position(path, 1, 1), f"this is a {kind} file, not a ruleset",
                                    "give the ruleset's folder (or its ruleset.yaml)" +
                                    ("; a ruleset names its map with `map:`" if kind == "map" else
                                     "; run scenarios with `leges test`")))
    return load(path, variants=_variants(args))


# ------------------------------------------------------------------ validate
def _kind_of(path: str) -> str:
    if os.path.isdir(path):
        return "ruleset"
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(4000)
    except (OSError, UnicodeDecodeError):
        return "ruleset"  # loading it reports why it cannot be read
    for line in head.splitlines():
        if line.startswith("leges_map:"):
            return "map"
        if line.startswith("leges_scenario:"):
            return "scenario"
    return "ruleset"


def cmd_validate(args) -> int:
    from .errors import Collector
    from .model.schemas import validate
    from .source import load_yaml_file
    status = EXIT_OK
    for path in args.paths:
        kind = _kind_of(path)
        try:
            if kind == "ruleset":
                game = _load(path, args)
                for w in game.warnings:
                    print(w.format())
                approx = _approximations(game)
                note = f", {len(approx)} approximated values (see `leges info`)" if approx else ""
                print(f"{path}: ok — {game.title}, {len(game.actions)} actions, {sum(len(v) for v in game.listeners.values())} "
                      f"triggers, {len(game.phases)} phases{note}")
            else:
                doc = load_yaml_file(path)
                errors = Collector()
                validate(doc, kind, errors)
                if kind == "map" and not errors.errors:
                    from .board.board import build_board
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


# ---------------------------------------------------------------------- info
def _approximations(game) -> list[tuple[str, str]]:
    """Every value marked as an approximation, with where it is (for owners of the physical game)."""
    found = [(f"{game.board.doc.file}: {where}", note) for where, note in game.approximations] if game.board else []
    for doc in game.ruleset.docs:
        _walk_provenance(doc.data, (), doc.file, found)
    return found


def _walk_provenance(data, path, file, found) -> None:
    if isinstance(data, dict):
        prov = data.get("provenance")
        if isinstance(prov, dict) and prov.get("status") in ("approximation", "inferred", "guess"):
            found.append((f"{file}: {'/'.join(map(str, path))}", prov.get("note", prov["status"])))
        for k, v in data.items():
            if k != "provenance":
                _walk_provenance(v, path + (k,), file, found)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _walk_provenance(v, path + (i,), file, found)


def cmd_info(args) -> int:
    game = _load(args.ruleset, args)
    rs = game.ruleset
    print(f"{game.title} ({game.id} {game.version}), {game.min_players}-{game.max_players} players")
    for book in rs.rulebooks:
        print(f"  rulebook {book['id']}: {book.get('title', book['file'])}")
    print(f"  {len(rs.components)} component types, {len(rs.zones)} zones, {len(game.phases)} phases, "
          f"{len(game.actions)} actions, {sum(len(v) for v in game.listeners.values())} triggers")
    if rs.readings:
        print(f"  readings (where the rulebook is silent, ambiguous or contradicts itself): {len(rs.readings)}")
        for r in rs.readings:
            print(f"    {r.id} [{r.kind or 'reading'}]: {r.question or ''}")
    approx = _approximations(game)
    if approx:
        print(f"  approximated values: {len(approx)} — check them against the physical game")
        for where, note in approx:
            print(f"    {where}: {note}")
    else:
        print("  approximated values: none")
    return EXIT_OK


# ------------------------------------------------------------------- variants
def cmd_variants(args) -> int:
    from pathlib import Path
    from .docgen import render_variants
    from .errors import Collector
    from .model.loader import find_ruleset_file
    from .model.variants import find_variants
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


# ---------------------------------------------------------------------- diff
def cmd_diff(args) -> int:
    from . import load
    from .diff import lockstep, statistics, structural
    path_b = args.b or args.a
    game_a = load(args.a, variants=args.variant_a or [])
    game_b = load(path_b, variants=args.variant_b or [])
    name_a = f"{args.a}" + (f" [{', '.join(game_a.variants)}]" if game_a.variants else "")
    name_b = f"{path_b}" + (f" [{', '.join(game_b.variants)}]" if game_b.variants else "")
    diffs = structural(game_a.ruleset, game_b.ruleset)
    players = args.players or max(game_a.min_players, game_b.min_players)
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
            if x.kind == "only_a":
                print(f"  - {x.section} {x.id}: only in A  [{x.cite_a}]")
            elif x.kind == "only_b":
                print(f"  + {x.section} {x.id}: only in B  [{x.cite_b}]")
            else:
                print(f"  ~ {x.section} {x.id}: {', '.join(x.fields)} differ")
                print(f"      A: {x.cite_a or '(no citation)'}")
                print(f"      B: {x.cite_b or '(no citation)'}")
    print(f"\nIn play ({players} players, the same seeds and choices, seeds {args.seed}..{args.seed + args.seeds - 1}):")
    if not divergences:
        print(f"  no difference in {args.seeds} games")
    else:
        print(f"  {len(divergences)} of {args.seeds} games part; the first points:")
        for x in divergences[:args.show]:
            last = x.history[-1] if x.history else "(start)"
            if x.only_a or x.only_b:
                print(f"  seed {x.seed}, decision {x.step} (after {last}):")
                for t in x.only_a[:4]:
                    print(f"      only A allows: {t}")
                for t in x.only_b[:4]:
                    print(f"      only B allows: {t}")
            else:
                print(f"  seed {x.seed}: same play, different outcome: A {x.outcome_a}, B {x.outcome_b}")
    if stats:
        a, b = stats
        print(f"\nOutcomes over {args.games} random games each:")
        print(f"  mean length: A {a['mean_length']:.1f}, B {b['mean_length']:.1f}")
        print("  seat win rate: " + ", ".join(f"{s} A {a['seat_win_rate'][s]:.1%} / B {b['seat_win_rate'][s]:.1%}"
                                             for s in a["seat_win_rate"]))
        print("  mean scores: A " + " ".join(f"{v:.2f}" for v in a["mean_scores"]) + ", B "
              + " ".join(f"{v:.2f}" for v in b["mean_scores"]))
    return EXIT_OK


# ------------------------------------------------------------------ coverage
def cmd_coverage(args) -> int:
    from .coverage import coverage
    game = _load(args.ruleset, args)
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


# ----------------------------------------------------------------------- doc
def cmd_doc(args) -> int:
    from .docgen import render
    game = _load(args.ruleset, args)
    text = render(game)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"{args.output}: written")
    else:
        sys.stdout.write(text)
    return EXIT_OK


# ------------------------------------------------------------------ simulate
class _Progress:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, done: int, total: int, seconds: float) -> None:
        if not self.enabled or (done % max(1, total // 200) and done != total):
            return
        width = 30
        filled = int(width * done / total)
        rate = done / seconds if seconds > 0 else 0.0
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:.1f}/s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def cmd_simulate(args) -> int:
    from .records import make_record, write_record
    from .simulate import simulate
    game = _load(args.ruleset, args)
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        raise LegesError(Diagnostic(Position(game.ruleset_file),
                                    f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}"))
    if args.games < 1:
        raise LegesError(Diagnostic(Position("--games"), "--games must be at least 1"))
    progress = _Progress(sys.stderr.isatty() and not args.quiet)
    summary = simulate(game, players, args.games, args.seed, check=args.check, progress=progress)
    seats = game.setup_for(players).seat_names
    if args.records:
        os.makedirs(args.records, exist_ok=True)
        for r in summary.results:
            result = {"ranking": r.ranking, "scores": r.scores, "unfinished": r.unfinished}
            write_record(os.path.join(args.records, f"{game.id}-{players}p-seed{r.seed}.json"),
                         make_record(game, args.ruleset, players, r.seed, r.history, result))
    if args.json:
        print(json.dumps({
            "ruleset": game.id, "players": players, "seed": args.seed, "games": args.games,
            "results": [{"seed": r.seed, "ranking": r.ranking, "scores": r.scores, "length": r.length,
                         "unfinished": r.unfinished} for r in summary.results],
            "mean_length": summary.mean_length(), "seat_win_rate": summary.seat_win_rate(seats),
            "playouts_per_second": summary.playouts_per_second(),
        }))
        return EXIT_OK
    if not args.quiet:
        for r in summary.results:
            ranking = " > ".join(" = ".join(group) for group in r.ranking)
            status = " (unfinished: turn limit reached)" if r.unfinished else ""
            print(f"seed {r.seed}: {ranking}; scores {' '.join(map(str, r.scores))}; {r.length} decisions{status}")
    unfinished = len(summary.results) - len(summary.finished)
    print(f"{args.games} games of {game.title} with {players} players (seeds {args.seed}..{args.seed + args.games - 1})")
    print(f"  mean length: {summary.mean_length():.1f} decisions")
    rates = summary.seat_win_rate(seats)
    print("  seat win rate: " + ", ".join(f"{s} {rates[s]:.1%}" for s in seats))
    if unfinished:
        print(f"  unfinished (turn limit): {unfinished}")
    if args.check:
        print(f"  invariants held after every action: {', '.join(i for i, _, _ in game.invariants) or 'none declared'}")
    print(f"  play-outs per second: {summary.playouts_per_second():.1f}")
    return EXIT_OK


# ---------------------------------------------------------------------- play
def cmd_play(args) -> int:
    import random
    from .records import make_record, write_record
    game = _load(args.ruleset, args)
    players = args.players if args.players is not None else game.min_players
    st = game.new_initial_state(players=players, seed=args.seed)
    seats = st.setup.seat_names
    me = st.player_index(args.seat) if args.seat else 0
    rng = random.Random(args.seed)
    print(f"{game.title}: you are {seats[me]}; the others play at random. Type a number, an action's text, or q.")
    while not st.is_terminal():
        who = st.current_player()
        actions = st.legal_actions(who)
        if who != me:
            mine = st.legal_actions(me) if st.pending and st.pending["player"] != me else []
            action = rng.choice(actions)
            print(f"  {seats[who]}: {action.text}")
            st.apply_action(action)
            del mine
            continue
        _show(st, me)
        for i, a in enumerate(actions, 1):
            print(f"  {i:3}. {a.text}")
        while True:
            try:
                answer = input(f"{seats[me]}> ").strip()
            except EOFError:
                print()
                return EXIT_OK
            if answer in ("q", "quit", "exit"):
                return EXIT_OK
            choice = None
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                choice = actions[int(answer) - 1]
            else:
                choice = next((a for a in actions if a.text == answer), None)
            if choice is None:
                print(f"  not one of the {len(actions)} actions; type its number")
                continue
            st.apply_action(choice)
            break
    print("game over: " + " > ".join(" = ".join(seats[p] for p in g) for g in st.ranking())
          + f"; scores {st.scores()}")
    if args.record:
        write_record(args.record, make_record(game, args.ruleset, players, args.seed, st.history,
                                              {"ranking": [[seats[p] for p in g] for g in st.ranking()], "scores": st.scores()}))
        print(f"record written to {args.record}")
    return EXIT_OK


def _show(st, player: int) -> None:
    view = st.observation(player)
    print(f"-- {view['phase']}: turn of {view['turn']}")
    for key, value in view["zones"].items():
        if isinstance(value, dict):
            shown = f"{value['count']} hidden" + (f", top {value['top']}" if value.get("top") else "")
        else:
            shown = " ".join(value) if value else "-"
        print(f"   {key}: {shown}")
    for line in view["log"][-3:]:
        print(f"   log: {line}")


# -------------------------------------------------------------------- replay
def _read_record(path: str) -> dict:
    """The record at `path`, its fields checked, so that a damaged record is reported, never a crash."""
    from .records import read_record
    if os.path.isdir(path):
        raise LegesError(Diagnostic(Position(path), "is a directory, expected a game record (a .json file)"))
    try:
        record = read_record(path)
    except UnicodeDecodeError as exc:
        raise LegesError(Diagnostic(Position(path, 1, 1), f"not a JSON record: not UTF-8 text ({exc.reason})")) from None
    except OSError as exc:
        raise LegesError(Diagnostic(Position(path), f"cannot read the record: {exc.strerror}")) from None
    wanted = {"ruleset": (str,), "players": (int,), "seed": (int,), "actions": (list,),
              "ruleset_path": (str, type(None)), "variants": (list, type(None)),
              "explicit_chance": (bool, type(None))}
    names = {str: "a string", int: "a whole number", list: "a list", bool: "true or false", type(None): "null"}
    for key, types in wanted.items():
        value = record.get(key)
        if key not in record and type(None) in types:
            continue
        if not isinstance(value, types) or (int in types and isinstance(value, bool)):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"the record's '{key}' should be "
                                        + " or ".join(names[t] for t in types) + f", not {json.dumps(value)}",
                                        "records are written by `leges simulate --records DIR` or `leges play --record FILE`"))
    for i, action in enumerate(record["actions"]):
        if not isinstance(action, str):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"action {i + 1} of the record is not a text: "
                                        f"{json.dumps(action)}", "each action is written as `seat: action text`"))
    for i, variant in enumerate(record.get("variants") or []):
        if not isinstance(variant, str):
            raise LegesError(Diagnostic(Position(path, 1, 1), f"variant {i + 1} of the record is not a text: "
                                        f"{json.dumps(variant)}"))
    return record


def _json_position(path: str, key: str, index: int | None = None) -> Position:
    """Where the value of a top-level `key` (or its `index`th item) is written in a JSON file."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        match = re.search(r'"%s"\s*:\s*' % re.escape(key), text)
        if match is None:
            return Position(path, 1, 1)
        offset = match.end()
        if index is not None:
            decoder = json.JSONDecoder()
            offset += 1  # past '['
            for i in range(index + 1):
                while text[offset] in " \t\r\n,":
                    offset += 1
                if i == index:
                    break
                _, offset = decoder.raw_decode(text, offset)
    except (OSError, ValueError, IndexError):
        return Position(path, 1, 1)
    line = text.count("\n", 0, offset) + 1
    return Position(path, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _locate_action(d: Diagnostic, path: str) -> Diagnostic:
    """'action N of the record: ...' is placed at that action in the record file."""
    match = re.match(r"action (\d+) of the record", d.message)
    if match is None or d.position.line:
        return d
    return Diagnostic(_json_position(path, "actions", int(match.group(1)) - 1), d.message, d.hint, d.severity)


def cmd_replay(args) -> int:
    from .records import replay
    record = _read_record(args.record)
    path = args.ruleset or record.get("ruleset_path")
    if not path:
        raise LegesError(Diagnostic(Position(args.record), "the record names no ruleset path", "give it with --ruleset"))
    game = _load(path, argparse.Namespace(variant=record.get("variants") or []))
    if not game.min_players <= record["players"] <= game.max_players:
        raise LegesError(Diagnostic(_json_position(args.record, "players"),
                                    f"the record is of a game of {record['players']} players, but {game.title} "
                                    f"is for {game.min_players} to {game.max_players}"))
    try:
        st = replay(game, record, args.record)
    except LegesError as exc:
        located = [_locate_action(d, args.record) for d in exc.diagnostics]
        # replay() reports every failure at the record; when a rule failed, the place in the
        # ruleset matters most: it is the exception replay() was handling when it raised.
        cause = exc.__context__
        if isinstance(cause, RuleError):
            located = list(cause.diagnostics) + located
        raise LegesError(located) from None
    print(f"replayed {len(record['actions'])} actions of {game.title}: every action was legal")
    print(str(st))
    if st.is_terminal():
        seats = st.setup.seat_names
        print("result: " + " > ".join(" = ".join(seats[p] for p in g) for g in st.ranking()) + f"; scores {st.scores()}")
        saved = record.get("result") or {}
        if saved.get("scores") is not None and saved["scores"] != st.scores():
            print(f"the record says scores {saved['scores']}: they differ", file=sys.stderr)
            return EXIT_FAIL
    return EXIT_OK


# ---------------------------------------------------------------------- test
def cmd_test(args) -> int:
    from .scenario import find_scenarios, run_file
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
        print(f"{mark} {outcome.file}: {outcome.title}")
        for f in outcome.failures:
            print(f"     {f}")
        failed += not outcome.passed
    print(f"{len(files) - failed - broken} passed, {failed} failed" + (f", {broken} could not be run" if broken else ""))
    if broken:
        return EXIT_INPUT
    return EXIT_FAIL if failed else EXIT_OK


# ---------------------------------------------------------------------- main
def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="leges", description="Board-game rules as data: check, simulate and play rulesets.")
    top.add_argument("--version", action="version", version="leges 0.1.0")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    variant = argparse.ArgumentParser(add_help=False)
    variant.add_argument("--variant", action="append", metavar="NAME[=VALUE]",
                         help="switch on a variant of the ruleset (repeatable)")

    p = sub.add_parser("validate", parents=[variant], help="check rulesets, maps and scenarios; report every problem")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("info", parents=[variant], help="what a ruleset holds: readings, approximated values")
    p.add_argument("ruleset", metavar="RULESET")
    p.set_defaults(run=cmd_info)

    p = sub.add_parser("variants", help="list a ruleset's variants, their kinds, provenance and parameters")
    p.add_argument("ruleset", metavar="RULESET")
    p.set_defaults(run=cmd_variants)

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
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_diff)

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
    p.set_defaults(run=cmd_doc)

    p = sub.add_parser("simulate", parents=[variant], help="play random games and report the outcomes")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int, help="number of players (default: the least allowed)")
    p.add_argument("--games", "-g", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the first game; game i uses seed+i (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--records", metavar="DIR", help="write a replayable record of every game into DIR")
    p.add_argument("--check", action="store_true", help="test the ruleset's invariants after every action")
    p.add_argument("--quiet", "-q", action="store_true", help="only the summary, no progress bar")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("play", parents=[variant], help="play at the terminal against random opponents")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int)
    p.add_argument("--seat", help="your seat (default: the first)")
    p.add_argument("--seed", "-s", type=int, default=0)
    p.add_argument("--record", metavar="FILE", help="write the game's record to FILE at the end")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("replay", help="re-run a game record, checking every action, and show the final state")
    p.add_argument("record", metavar="RECORD")
    p.add_argument("--ruleset", help="the ruleset (default: the path stored in the record)")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("test", help="run scenario files (a rulebook's worked examples)")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario files or folders holding them")
    p.set_defaults(run=cmd_test)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "command", None):
        parser().print_help()
        return EXIT_INPUT
    try:
        return args.run(args)
    except LegesError as exc:
        for d in exc.diagnostics:
            print(d.format(), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except RecursionError:
        if os.environ.get("LEGES_DEBUG"):
            raise
        print("leges: error: the input is nested too deeply to be processed", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:  # a bug of leges, not of the input: say so in one line, no traceback
        if os.environ.get("LEGES_DEBUG"):
            raise
        print(f"leges: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("    hint: this is a bug in leges, not necessarily in your files; please report it with the input "
              "(LEGES_DEBUG=1 shows the Python traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
