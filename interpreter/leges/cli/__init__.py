"""The `leges` command line: one module per group of commands, each registering its sub-commands.

A new command is a module with `register(sub, variant)` listed in COMMANDS.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..text.errors import MESSAGE, Diagnostic, LegesError, Position
from ..text.terminal import shown
from . import check, compare, conformance, diff, docs, eval, ladder, leaks, learn, mutate, play, render, replay, serve, simulate
from .common import EXIT_INPUT, EXIT_INTERNAL, EXIT_OK

COMMANDS = [check, simulate, compare, ladder, learn, play, eval, render, serve, replay, leaks, conformance, diff, docs, mutate]  # the order of `leges --help`


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="leges", description="Board-game rules as data: check, simulate and play rulesets.")
    top.add_argument("--version", action="version", version="leges 0.1.0")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    variant = argparse.ArgumentParser(add_help=False)
    variant.add_argument("--variant", action="append", metavar="NAME[=VALUE]|PATH",
                         help="switch on a variant of the ruleset (repeatable), or a variant file of your own "
                              "outside it (a path ending in .yaml)")
    for module in COMMANDS:
        module.register(sub, variant)
    return top


def sub_parser(top: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser | None:
    """The parser of one command (for its usage line in an error)."""
    for action in top._subparsers._group_actions if top._subparsers else []:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(command) if command else None
    return None


def main(argv: list[str] | None = None) -> int:
    """Run one command; whatever it prints has its control characters escaped (see terminal.py)."""
    from ..text.terminal import SafeStream
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(out), SafeStream(err)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str] | None) -> int:
    top = parser()
    args, extra = top.parse_known_args(argv)
    if extra and isinstance(getattr(args, "expression", None), list) and not any(e.startswith("-") for e in extra):
        args.expression += extra  # `leges eval R E1 --seed 1 E2`: expressions after the options too
    elif extra:  # said by the command's own parser, with its own usage
        chosen = sub_parser(top, getattr(args, "command", None))
        (chosen or top).error("unrecognized arguments: " + " ".join(extra))
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
    except OSError as exc:  # a path the system refuses (a name too long, a loop of links): told at the path
        if os.environ.get("LEGES_DEBUG"):
            raise
        where = Position(str(exc.filename)) if exc.filename is not None else Position("leges")
        print(Diagnostic(where, f"cannot be read: {exc.strerror or exc}", "check the path given").format(), file=sys.stderr)
        return EXIT_INPUT
    except RecursionError:
        if os.environ.get("LEGES_DEBUG"):
            raise
        print("leges: error: the input is nested too deeply to be processed", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:  # a bug of leges, not of the input: say so in one line, no traceback
        if os.environ.get("LEGES_DEBUG"):
            raise
        print(f"leges: internal error: {type(exc).__name__}: {shown(exc, MESSAGE)}", file=sys.stderr)
        print("    hint: this is a bug in leges, not necessarily in your files; please report it with the input "
              "(LEGES_DEBUG=1 shows the Python traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
