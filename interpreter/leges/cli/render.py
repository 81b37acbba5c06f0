"""`leges render`: an SVG picture of a game — its board and a side panel — as a seat sees it.

The position is the start of a game, a saved state (`--state`), or a record replayed to a step
(`--record F --step N`). Without `--seat` the picture shows only what every player may see.
A map file given instead of a ruleset is drawn bare, for its author.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..text.errors import Diagnostic, LegesError, Position, named_at
from .common import EXIT_OK, kind_of, load_ruleset, seat_index, variants_of


def load_board_file(path: str):
    """A map file on its own: read through the file gate, checked by its schema, built."""
    from pathlib import Path

    from ..text import files
    from ..board.board import build_board
    from ..text.errors import Collector
    from ..model.schemas import validate
    from ..text.yaml_source import load_yaml_file
    real = Path(path)
    errors = Collector()
    doc = load_yaml_file(str(real), path, roots=[files.Root(real.resolve().parent, "the maps folder")])
    if not validate(doc, "map", errors):
        errors.raise_if_errors()
    board = build_board(doc, errors)
    errors.raise_if_errors()
    return board


def replay_to(game, record: dict, step: int | None, path: str):
    """The state after the first `step` actions of a record (all of them when None)."""
    from ..lab.records import replay
    actions = record["actions"]
    if step is None:
        step = len(actions)
    if step < 0 or step > len(actions):
        raise LegesError(Diagnostic(Position("--step"), f"the record {path} has {len(actions)} actions; there is no step {step}",
                                    f"give --step between 0 and {len(actions)}"))
    return replay(game, record, path, upto=step)


def position_of(args):
    """The game and the state the command line asks for."""
    from ..lab.records import read_record, record_position
    if args.record and args.state:
        raise LegesError(Diagnostic(Position("--record"), "give --record or --state, not both"))
    if args.step is not None and not args.record:
        raise LegesError(Diagnostic(Position("--step"), "--step is a step of a record", "give the record with --record FILE"))
    if args.record:
        record = read_record(args.record)
        if variants_of(args):
            game = load_ruleset(args.ruleset, args)
        else:
            with named_at({"--variant": (record_position(args.record, "variants"), "a variant this record names")}):
                game = load_ruleset(args.ruleset, argparse.Namespace(variant=record.get("variants") or []))
        return game, replay_to(game, record, args.step, args.record)
    game = load_ruleset(args.ruleset, args)
    if args.state:
        from ..text import files
        text = files.read_text(args.state, files.MAX_JSON_BYTES, args.state, what="state file")
        return game, game.state_from_json(text, args.state)
    players = args.players if args.players is not None else game.min_players
    return game, game.new_initial_state(players=players, seed=args.seed)


def before_of(game, args):
    """With --record, the position one action before the one drawn (the last action is marked), else None."""
    if not args.record:
        return None
    from ..lab.records import read_record
    record = read_record(args.record)
    step = len(record["actions"]) if args.step is None else args.step
    return replay_to(game, record, step - 1, args.record) if step > 0 else None


def cmd_render(args) -> int:
    from ..render import render_board, render_svg
    from ..render.style import style_of
    from ..text.errors import Collector
    if kind_of(args.ruleset) == "map":
        board = load_board_file(args.ruleset)
        errors = Collector()
        board_style = style_of(board, errors)
        errors.raise_if_errors()
        svg = render_board(board, board_style)
    else:
        game, st = position_of(args)
        errors = Collector()
        style = style_of(game.board, errors) if game.board is not None else None
        for d in errors.diagnostics:
            if d.severity == "warning":
                print(d.format(), file=sys.stderr)
        errors.raise_if_errors()
        seat = seat_index(st, args.seat) if args.seat else None
        svg = render_svg(st, seat, style=style, before=before_of(game, args))
    if args.output and args.output != "-":
        folder = os.path.dirname(args.output)
        if folder and not os.path.isdir(folder):
            raise LegesError(Diagnostic(Position(args.output), "no such folder", f"create {folder} first"))
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(svg)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(svg)
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("render", parents=[variant], help="draw a game's board and position as SVG",
                       description="Draw the board and a side panel (zones, whose turn, the phase) as SVG: the start of a "
                                   "game, a saved state, or a record at a step. Only what --seat may see is drawn "
                                   "(default: what every player sees). A map file is drawn bare.")
    p.add_argument("ruleset", metavar="RULESET", help="a ruleset folder (or a map file, drawn bare)")
    p.add_argument("--players", "-p", type=int, help="players of a new game (default: the least allowed)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of a new game")
    p.add_argument("--state", metavar="FILE", help="a saved state (state.to_json())")
    p.add_argument("--record", metavar="FILE", help="a game record (leges simulate --records, leges play --record)")
    p.add_argument("--step", type=int, metavar="N", help="with --record: the position after N actions (default: the end); what the Nth changed is marked")
    p.add_argument("--seat", help="draw what this seat sees (default: only what every player sees)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the SVG to FILE (default: standard output)")
    p.set_defaults(run=cmd_render)
