"""Scenarios: a position described directly, actions played from it, checks of what follows.

A rulebook's worked example becomes a scenario file; `leges test` runs it and pytest collects
every scenario of the bundled rulesets.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..text import files
from ..text.errors import Collector, Diagnostic, LegesError, RuleError, did_you_mean, named_at
from ..model.decl import At, Text
from ..model.schemas import validate
from ..text.yaml_source import YamlDoc, load_yaml_file
from . import scenario_end


@dataclass
class Outcome:
    file: str
    id: str
    title: str
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def _load_game(doc: YamlDoc, games: dict | None = None):
    """The scenario's ruleset under its variants (`games`: those already loaded, by folder and variants)."""
    from .. import load
    ruleset = (Path(doc.file).parent / doc.data["ruleset"]).resolve()
    files.ruleset_reference(ruleset, doc.data["ruleset"], doc.position(("ruleset",)))
    key = (str(ruleset), tuple(doc.data.get("variants", ())))
    if games is not None and key in games:
        return games[key]
    places = {os.path.relpath(ruleset): (doc.position(("ruleset",)), "the ruleset this scenario names"),
              "--variant": (doc.position(("variants",)), "a variant this scenario names")}
    with named_at(places):
        game = load(str(ruleset), variants=doc.data.get("variants", ()))
    if games is not None:
        games[key] = game
    return game


def check_citation(game, doc: YamlDoc) -> None:
    """The scenario's `source` names what the ruleset declares: a rulebook, a reading, or a variant the
    scenario switches on (a house rule's scenario cites its variant, whose provenance says where it comes from)."""
    source = doc.data.get("source") or {}
    errors = Collector()
    books = [b["id"] for b in game.ruleset.rulebooks]
    readings = [r.id for r in game.ruleset.readings]
    if "book" in source and source["book"] not in books:
        errors.error(doc.position(("source", "book")), f"no rulebook '{source['book']}' in {game.id}",
                     did_you_mean(str(source["book"]), books) or "rulebooks: " + (", ".join(books) or "none"))
    if "reading" in source and source["reading"] not in readings:
        errors.error(doc.position(("source", "reading")), f"no reading '{source['reading']}' in {game.id}",
                     did_you_mean(str(source["reading"]), readings))
    if "variant" in source:
        name = source["variant"]
        if name not in game.variants:
            errors.error(doc.position(("source", "variant")), f"the scenario cites variant '{name}' but does not switch it on",
                         f"add it to `variants:` ({', '.join(game.variants)} are on)" if game.variants
                         else "add `variants: [" + str(name) + "]`")
        else:
            from ..model.variants.catalogue import find_variants
            found = find_variants(Path(game.ruleset.root).resolve(), Collector())
            variant = found.get(name)
            if variant is not None and variant.citation() is None:
                errors.error(doc.position(("source", "variant")), f"variant '{name}' has neither source nor provenance to cite",
                             "give the variant a `provenance:` (house rules: {status: house_rule, note: ...})")
    errors.raise_if_errors()


def load_scenario(path: str) -> YamlDoc:
    """A scenario file, read and checked against its schema; raises with every problem."""
    doc = load_yaml_file(path)
    errors = Collector()
    _checks_are_texts(doc, errors)  # before the schema, whose message for them would be vaguer
    if errors.errors or not validate(doc, "scenario", errors):
        raise LegesError(errors.diagnostics)
    return doc


def _checks_are_texts(doc: YamlDoc, errors: Collector) -> None:
    """`expect: [true]`: YAML reads true, 3 or none as values, but a check is rule text."""
    steps = doc.data.get("steps") if isinstance(doc.data, dict) else None
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        checks = step.get("expect") if isinstance(step, dict) else None
        items = [((), checks)] if not isinstance(checks, list) else [((j,), c) for j, c in enumerate(checks)]
        for where, check in items:
            if check is None and not where or isinstance(check, (str, list, dict)):
                continue
            # by identity: a dict lookup would show 1 and 1.0 as true and 0 as false (1 == True)
            shown = ("true" if check is True else "false" if check is False else "none" if check is None else str(check)) \
                if isinstance(check, (bool, int, float)) or check is None else "a value"
            errors.error(doc.position(("steps", i, "expect") + where),
                         f"a check is rule text, but YAML read {shown} here as a value",
                         f"quote it ('{shown}') or write a condition, such as `count(deck) == 0`")


def check_file(path: str, games: dict | None = None) -> None:
    """Check a scenario without playing it: its shape, its citation, its ruleset and variants, its players,
    phase and seat names, and that its rule texts compile (`leges validate`); raises with every problem."""
    doc = load_scenario(path)
    errors = Collector()
    data = doc.data
    game = _load_game(doc, games)
    check_citation(game, doc)
    if not game.min_players <= data["players"] <= game.max_players:
        errors.error(doc.position(("players",)),
                     f"{game.title} is for {game.min_players} to {game.max_players} players, not {data['players']}")
    position = data.get("position") or {}
    if position.get("phase") is not None and position["phase"] not in game.phases:
        errors.error(doc.position(("position", "phase")), f"no phase '{position['phase']}' in {game.id}",
                     did_you_mean(str(position["phase"]), game.phases))
    if errors.errors:
        raise LegesError(errors.diagnostics)
    seats = game.setup_for(data["players"]).seat_names
    scenario_end.check_values(doc, seats, game.phases, errors)
    if "turn" in position and position["turn"] not in seats:
        errors.error(doc.position(("position", "turn")), f"no player '{position['turn']}'",
                     did_you_mean(str(position["turn"]), seats) or "players: " + ", ".join(seats))
    texts: list[Callable[[], object]] = []  # each compiles one rule text of the scenario
    if "arrange" in position:
        texts.append(lambda: game.compile_program(_text(doc, ("position", "arrange"), position["arrange"]),
                                                  f"scenario:{data['id']}:arrange"))
    for i, step in enumerate(data.get("steps", [])):
        checks = step.get("expect", [])
        for j, check in enumerate([checks] if isinstance(checks, str) else checks):
            where = ("steps", i, "expect") if isinstance(checks, str) else ("steps", i, "expect", j)
            def compile_check(where=where, check=check):
                return game.compile_expression(_text(doc, where, check))
            texts.append(compile_check)
    for compile_text in texts:
        try:
            compile_text()
        except LegesError as exc:
            errors.extend(exc.diagnostics)
    errors.raise_if_errors()


def _text(doc: YamlDoc, path: tuple, value: str) -> Text:
    return Text(value, At(doc, path))


def run_file(path: str) -> Outcome:
    doc = load_scenario(path)
    data = doc.data
    outcome = Outcome(doc.file, data["id"], data.get("title", data["id"]))
    game = _load_game(doc)
    check_citation(game, doc)
    state = start(game, doc)
    errors = Collector()  # an end check naming no seat of the game is told before any step is played
    scenario_end.check_values(doc, state.setup.seat_names, game.phases, errors)
    errors.raise_if_errors()
    checked = data.get("check_invariants")
    broken = set(game.check_invariants(state))
    if checked:  # the position too: the scenario says it is one a game can reach
        outcome.failures += [f"{doc.position(('position',))}: invariant '{i}' does not hold at the position"
                             for i in sorted(broken)]
    for i, step in enumerate(data.get("steps", [])):
        failures = _step(game, state, doc, i, step)
        if checked is not False and not failures and "do" in step:
            failures = [f"{doc.position(('steps', i))}: invariant '{inv}' held before step {i + 1} and not after it"
                        for inv in game.check_invariants(state) if inv not in broken]
        outcome.failures.extend(failures)
        if outcome.failures:
            break
    return outcome


def start(game, doc: YamlDoc):
    """The scenario's position: a fresh game whose set-up is replaced by `position`."""
    data = doc.data
    explicit = data.get("chance") == "explicit"
    if not game.min_players <= data["players"] <= game.max_players:
        raise LegesError(Diagnostic(doc.position(("players",)),
                                    f"{game.title} is for {game.min_players} to {game.max_players} players, not {data['players']}"))
    st = game.new_initial_state(players=data["players"], seed=data.get("seed", 0), explicit_chance=explicit, run=False)
    position = data.get("position")
    if not position:
        game.flow.run(st)
        return st
    st.frames.clear()
    phase = position.get("phase")
    if phase is not None and phase not in game.phases:
        raise LegesError(Diagnostic(doc.position(("position", "phase")), f"no phase '{phase}' in {game.id}",
                                    did_you_mean(str(phase), game.phases)))
    if "turn" in position:
        if position["turn"] not in st.setup.seat_names:
            raise LegesError(Diagnostic(doc.position(("position", "turn")), f"no player '{position['turn']}'",
                                        did_you_mean(str(position["turn"]), st.setup.seat_names)
                                        or "players: " + ", ".join(st.setup.seat_names)))
        st.turn_player = st.player_index(position["turn"])
    if "arrange" in position:
        code_id = game.compile_program(_text(doc, ("position", "arrange"), position["arrange"]),
                                       f"scenario:{data['id']}:arrange")
        st.frames.append([code_id, 0, {"me": None}])
        game.flow.run(st, until_empty=True)
        if st.pending is not None:
            raise LegesError(Diagnostic(doc.position(("position", "arrange")),
                                        "the arrangement asks for a decision; arrange positions without choices"))
    if phase is not None:
        st.forget_cached()
        compiled = game.phases[phase]
        if compiled.turn:
            st.phase = phase
            st.flow = "turn"
            if compiled.order_fn is not None:  # the players after this one take their turns next
                queue = list(compiled.order_fn(st, {"me": None}))
                st.turn_queue = queue[queue.index(st.turn_player) + 1:] if st.turn_player in queue else queue
            game.flow.start_turn(st, compiled)
        else:  # a phase without turns: it starts from its beginning
            game.flow.enter(st, phase)
    game.flow.run(st)
    return st


def _step(game, st, doc: YamlDoc, i: int, step: dict) -> list[str]:
    where = doc.position(("steps", i))
    failures = []
    if "do" in step:
        text = step["do"]
        if "by" in step:
            text = f"{step['by']}: {text}"
        try:
            st.apply_action(text)
        except RuleError:
            raise  # the ruleset is broken, not the scenario: report where the rule failed
        except LegesError as exc:
            lone = scenario_end.lone_option(st, [step["do"]])  # the engine took it itself: say so
            if lone is not None:
                return [f"{where}: '{step['do']}' cannot be played: {lone}"]
            why = st.explain(text) if not st.is_terminal() else None  # which condition fails, in the ruleset's words
            return [f"{where}: {d.message}" + (f" — {why}" if why is not None and not why.legal else "")
                    + (f" ({d.hint})" if d.hint else "") for d in exc.diagnostics]
    if "to_move" in step:
        who = st.player_name(st.current_player()) if not st.is_terminal() else None
        taken = [t for t in st.at_once if t.split(": ", 1)[0] == step["to_move"]]
        if who != step["to_move"] and taken:  # its decision had one option: the engine took it
            lone = scenario_end.lone_option(st, [t.split(": ", 1)[1] for t in taken])
            failures.append(f"{where}: expected {step['to_move']} to decide, but {lone}" + _context(st))
        elif who != step["to_move"]:
            failures.append(f"{where}: expected {step['to_move']} to decide, but "
                            + (f"it is {who}" if who is not None else "nobody decides") + _context(st))
    checks = step.get("expect", [])
    if isinstance(checks, str):
        checks = [checks]
    for j, check in enumerate(checks):
        path = ("steps", i, "expect") if isinstance(step.get("expect"), str) else ("steps", i, "expect", j)
        fn = game.compile_expression(_text(doc, path, check))
        if not _evaluate(fn, st, doc.position(path)):
            failures.append(f"{doc.position(path)}: expected {check.strip()}" + _values(game, st, doc, path, check)
                            + _context(st))
    legal = {a.text for p in range(st.n) for a in st.legal_actions(p)}
    for text in step.get("legal", []):
        if text not in legal:
            lone = scenario_end.lone_option(st, [text])
            why = st.explain(text) if not st.is_terminal() and lone is None else None
            failures.append(f"{where}: '{text}' should be legal" + (f": {lone}" if lone is not None else "")
                            + (f"\n       {why}" if why is not None else "") + _context(st))
    for text in step.get("illegal", []):
        if text in legal:
            failures.append(f"{where}: '{text}' should not be legal")
    if "legal_exactly" in step:
        wanted = set(step["legal_exactly"])
        now = {a.text for a in st.legal_actions()}
        lone = scenario_end.lone_option(st, wanted - now)
        if wanted != now and lone is not None:
            failures.append(f"{where}: {lone}" + (f"; legal now: {sorted(now)}" if now else ""))
        elif wanted != now and st.is_terminal():
            failures.append(f"{where}: the game is over, nothing is legal (expected {sorted(wanted)})" + _context(st))
        elif wanted != now:
            failures.append(f"{where}: legal actions differ: missing {sorted(wanted - now)}, extra {sorted(now - wanted)}")
    for event in step.get("events", []):
        if event not in st.fired:
            failures.append(f"{where}: event '{event}' did not fire (fired: {', '.join(st.fired) or 'none'})")
    if "terminal" in step and st.is_terminal() != step["terminal"]:
        failures.append(f"{where}: expected the game {'to be over' if step['terminal'] else 'to go on'}" + _context(st))
    failures += scenario_end.check_step(st, doc, i, step)
    return failures


CONTEXT_ACTIONS = 15  # legal actions listed with a failure


def _values(game, st, doc: YamlDoc, path: tuple, check: str) -> str:
    """The values of a failed check's parts, one a line (`count(hand(x)) = 3`)."""
    from ..engine.explain import values_of
    from ..lang.syntax.parser import parse_expression
    from ..lang.check.scope import Scope
    text = _text(doc, path, check)
    try:
        node = parse_expression(text.text, text.at.origin())
        values = values_of(game, st, node, Scope(me=False), text.at.origin(), {"me": None})
    except Exception:  # noqa: BLE001 — the values are a courtesy: the failure itself is reported
        return ""
    return "".join(f"\n       {part} = {value}" for part, value in values)


def _context(st) -> str:
    """Who is to move, the decision pending and what is legal: the lines after a failure."""
    if st.is_terminal():
        return "\n       the game is over: " + scenario_end.describe_ending(st.end_reason).removeprefix("it ")
    d = st.decision()
    if d is None:
        return ""
    if d["kind"] == "choose":
        what = f"choose '{d['label'] or d['name']}'"
    elif d["kind"] == "act":
        what = "an action (" + ", ".join(d["actions"]) + ")"
    else:
        what = "a chance outcome"
    legal = [a.text for a in st.legal_actions()]
    shown = ", ".join(legal[:CONTEXT_ACTIONS]) + (f" … ({len(legal)} in all)" if len(legal) > CONTEXT_ACTIONS else "")
    return (f"\n       to move: {d['seat']}, deciding {what} in {d['rule']}" + (" (may pass)" if d["optional"] else "")
            + f"\n       legal: {shown or 'nothing'}")


def _evaluate(fn, st, where) -> bool:
    """A scenario's check, evaluated; a rule failing in it (1/0, a property of none) is reported at the check."""
    from ..engine.failures import describe_failure, failure_hint
    st.game.fresh_work()
    try:
        return bool(fn(st, {"me": None}))
    except LegesError as exc:
        d = exc.diagnostics[0]
        raise LegesError(Diagnostic(where, f"this check could not be evaluated: {d.message}", d.hint)) from None
    except RecursionError:
        raise LegesError(Diagnostic(where, "this check could not be evaluated: it is nested too deeply")) from None
    except Exception as exc:  # the check did something impossible: say where, not how Python felt
        raise LegesError(Diagnostic(where, f"this check could not be evaluated: {describe_failure(exc)}", failure_hint(exc))) from None


def check_folder(ruleset: str, games: dict | None = None) -> int:
    """Check every scenario under a ruleset's folder (see `check_file`); raises with all their problems.
    Returns how many were checked."""
    from ..model.loader import find_ruleset_file
    folder = find_ruleset_file(ruleset).resolve().parent / "scenarios"
    if not folder.is_dir():
        return 0
    found = find_scenarios([str(folder)])
    check_files(found, {} if games is None else games)
    return len(found)


def check_files(paths, games: dict) -> None:
    """Check every scenario file of `paths` (see `check_file`; `games` caches the games loaded), and
    raise once with all their problems, each reported once."""
    errors = Collector()
    for path in paths:
        try:
            check_file(path, games)
        except LegesError as exc:
            errors.extend(d for d in exc.diagnostics if d not in errors.diagnostics)
    errors.raise_if_errors()


MAX_SCENARIOS = 10_000  # scenario files found in the folders given


def find_scenarios(paths: list[str]) -> list[str]:
    """The files given, and the scenario files inside the folders given (not through links out of them)."""
    found = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            inside = files.Root.of(path, "the folder given")
            for f in sorted(path.rglob("*.yaml"))[:MAX_SCENARIOS]:
                if inside.holds(Path(os.path.realpath(f))) and _is_scenario(f):
                    found.append(str(f))
        else:
            found.append(str(path))
    return found


def _is_scenario(path: Path) -> bool:
    """A scenario file says so on one of its first lines (never blocks on a FIFO: see files.read_head)."""
    return any(line.startswith("leges_scenario:") for line in files.read_head(path, 64_000).splitlines())
