"""`leges eval`: try rule-language expressions against a position — a fresh game, a saved state or a
scenario's start — once, or at an interactive prompt (with history when `readline` is available).

A false condition is shown with the values of its parts, as a failing scenario check is.
"""
from __future__ import annotations

import sys

from ..text.errors import Diagnostic, LegesError, Position
from ..text.terminal import shown
from .common import EXIT_OK, load_ruleset, seat_index

HELP = """Type an expression of the rule language (`me` is the player to move); its value is printed.
  :state            the position
  :legal            the legal actions
  :do ACTION        apply a legal action (its text or its number in :legal)
  :why ACTION       why an action is (not) legal
  :quit             leave (or end of input)"""


def position(args):
    """(game, state) from the command line: a saved state, a scenario's start, or a fresh game."""
    from ..text import files
    if args.state and args.scenario:
        raise LegesError(Diagnostic(Position(args.state), "give --state or --scenario, not both"))
    if args.scenario:
        from ..authoring.scenario import check_citation, load_scenario, start
        doc = load_scenario(args.scenario)
        args.variant = list(args.variant or []) + [v for v in doc.data.get("variants", []) if v not in (args.variant or [])]
        game = load_ruleset(args.ruleset, args)
        check_citation(game, doc)
        return game, start(game, doc)
    game = load_ruleset(args.ruleset, args)
    if args.state:
        text = files.read_text(args.state, files.MAX_JSON_BYTES, what="saved state")
        return game, game.state_from_json(text, files.display(args.state))
    players = args.players if args.players is not None else game.min_players
    return game, game.new_initial_state(players=players, seed=args.seed)


def evaluate(game, st, text: str, name: str = "<expression>", me: int | None = None) -> list[str]:
    """The lines printed for one expression: its value, and for a false condition its parts' values.
    Raises LegesError (located in `name`) when it does not parse, compile or evaluate."""
    from ..engine.explain import compile_node, evaluate as run, show, values_of
    from ..engine.failures import describe_failure, failure_hint
    from ..lang.syntax.parser import parse_expression
    from ..lang.check.scope import Scope
    from ..text.origin import TextOrigin
    origin = TextOrigin(name, 1, 1)
    node = parse_expression(text, origin)
    scope = Scope(me=True)
    ty, fn = compile_node(game, node, scope, origin)
    env = {"me": me}
    try:
        value = run(game, st, fn, dict(env))
    except LegesError as exc:
        d = exc.diagnostics[0]
        raise LegesError(Diagnostic(Position(name, 1, 1), f"the expression could not be evaluated: {d.message}",
                                    d.hint)) from None
    except RecursionError:
        raise LegesError(Diagnostic(Position(name, 1, 1), "the expression is nested too deeply")) from None
    except Exception as exc:  # noqa: BLE001 — say what went wrong, never how Python felt
        raise LegesError(Diagnostic(Position(name, 1, 1), f"the expression could not be evaluated: {describe_failure(exc)}",
                                    failure_hint(exc))) from None
    lines = [show(game, st, ty, value, width=2000)]
    if value is False:
        lines += [f"  {part} = {value}" for part, value in values_of(game, st, node, scope, origin, env)]
    return lines


def describe(st) -> str:
    """One line: where the game stands."""
    if st.is_terminal():
        return f"the game is over ({_reason(st.end_reason)})"
    d = st.decision()
    if d is None:
        return f"phase {st.phase}"
    return f"phase {st.phase}, {d['seat']} to decide ({d['kind']}, {len(d['options'])} options)"


def _reason(reason: dict | None) -> str:
    if not reason:
        return "no reason recorded"
    details = ", ".join(f"{k} {v}" for k, v in reason.items() if k != "kind")
    return f"{reason['kind']}: {details}" if details else reason["kind"]


def cmd_eval(args) -> int:
    game, st = position(args)
    me = seat_index(st, args.seat) if args.seat else (st.current_player() if st.current_player() >= 0 else None)
    if args.expression:
        for i, text in enumerate(args.expression):
            lines = evaluate(game, st, text, name=f"<expression {i + 1}>" if len(args.expression) > 1 else "<expression>",
                             me=me)
            if len(args.expression) > 1:
                lines[0] = f"{shown(text)} = {lines[0]}"
            for line in lines:
                print(line)
        return EXIT_OK
    return repl(game, st, me if args.seat else None)


def repl(game, st, seat: int | None) -> int:
    """The evaluator's prompt: one branch a command (:help, :state, :legal, :do, :why, :quit) or an
    expression; kept as one dispatch so the commands read as the list the help shows."""
    try:
        import readline  # noqa: F401 — line editing and history for input(), where available
    except ImportError:
        pass
    print(f"{shown(game.title)}, {st.n} players: {describe(st)}. :help for commands, :quit to leave.")
    count = 0
    while True:
        try:
            line = input("leges> ").strip()
        except EOFError:
            print()
            return EXIT_OK
        except KeyboardInterrupt:
            print()
            continue
        if not line:
            continue
        count += 1
        try:
            if line in (":q", ":quit", ":exit"):
                return EXIT_OK
            if line in (":h", ":help", "help"):
                print(HELP)
            elif line == ":state":
                print(describe(st))
                print(st)
            elif line == ":legal":
                for i, action in enumerate(st.legal_actions(), 1):
                    print(f"  {i:3}. {shown(action.text)}")
            elif line.startswith(":do "):
                text = line[4:].strip()
                actions = st.legal_actions()
                if text.isdigit() and 1 <= int(text) <= len(actions):
                    text = actions[int(text) - 1].text
                if not any(a.text == text for a in actions):
                    print(f"  {st.explain(text)}")
                    continue
                st.apply_action(text)
                print(describe(st))
            elif line.startswith(":why "):
                print(f"  {st.explain(line[5:].strip())}")
            elif line.startswith(":"):
                print(f"unknown command {line.split()[0]}; :help lists them")
            else:
                me = seat if seat is not None else (st.current_player() if st.current_player() >= 0 else None)
                for out in evaluate(game, st, line, f"<input {count}>", me=me):
                    print(out)
        except LegesError as exc:
            for d in exc.diagnostics:
                print(d.format(), file=sys.stderr)


def register(sub, variant) -> None:
    p = sub.add_parser("eval", parents=[variant], help="evaluate expressions against a position (a prompt without EXPR)")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("expression", metavar="EXPR", nargs="*",
                   help="expressions, each printed with its value; without any, an interactive prompt")
    p.add_argument("--state", metavar="FILE", help="a saved state (State.to_json())")
    p.add_argument("--scenario", metavar="FILE", help="a scenario file: its start position")
    p.add_argument("--players", "-p", type=int, help="for a fresh game (default: the fewest the game allows)")
    p.add_argument("--seed", "-s", type=int, default=0, help="for a fresh game")
    p.add_argument("--seat", help="who `me` is (default: the player to move)")
    p.set_defaults(run=cmd_eval)

