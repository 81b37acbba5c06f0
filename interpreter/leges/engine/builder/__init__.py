"""Building a playable Game from a ruleset's declarations: names, types, checks, compilation.

All problems are collected (not just the first) and reported together with their positions. The
`Builder` goes in three steps, each in a module of its own: the symbol table (declare), the rules
compiled (rules), the set-up for each number of players (setups).
"""
from __future__ import annotations

from ...model import decl as d
from ...text.errors import Collector, LegesError
from ..game import Game
from .declare import Declaring
from .rules import RuleCompiling
from .setups import SetupBuilding

DEFAULT_MAX_STEPS = 1_000_000
DEFAULT_MAX_LOOP = 10_000
DEFAULT_MAX_WORK = 10_000_000
DEFAULT_MAX_TURNS = 10_000  # a game still running then ends unfinished: no ruleset runs for ever
DEFAULT_MAX_DECISIONS = 100_000  # the same for decisions (a turn may go on and on)
DEFAULT_MAX_OPTIONS = 100_000  # the bundled games offer at most about 800 at a decision


class Builder(Declaring, RuleCompiling, SetupBuilding):
    """One ruleset's builder: `symbols()`, then `compile()` (which makes the set-up builder last)."""


def build_game(rs: d.Ruleset, board, errors: Collector, optimise: bool = True) -> Game:
    b = Builder(rs, board, errors, optimise)
    b.symbols()
    game = b.compile()
    game.compiler, game.programs = b.compiler, b.programs
    game.index_memo()
    game.id, game.version, game.title = rs.id, rs.version, rs.title
    game.optimised = optimise
    # the components on the board kept by every move where the rules go through them (engine/board_index.py)
    game.index_board = b.compiler.board_index = optimise and b.compiler.board_index_used
    game.variants = tuple(rs.variants)
    game.variant_requests = tuple(rs.variant_requests)
    game.ruleset, game.board = rs, board
    game.ruleset_file = rs.docs[0].file
    game.min_players, game.max_players = rs.min_players, rs.max_players
    game.max_steps = rs.limits.get("max_steps", DEFAULT_MAX_STEPS)
    game.max_loop = rs.limits.get("max_loop", DEFAULT_MAX_LOOP)
    game.max_turns = rs.limits.get("max_turns", DEFAULT_MAX_TURNS)
    game.max_decisions = rs.limits.get("max_decisions", DEFAULT_MAX_DECISIONS)
    game.max_work = game.work = rs.limits.get("max_work", DEFAULT_MAX_WORK)
    game.max_options = rs.limits.get("max_options", DEFAULT_MAX_OPTIONS)
    if board is not None:
        game.approximations = list(board.approximations)
    if not errors.errors:
        run_checks(game, b.checks, errors)
    return game


def run_checks(game: Game, checks: list, errors: Collector) -> None:
    """Consistency checks: evaluated on the game as set out (components in their start zones)."""
    for decl, fn in checks:
        n = decl.players or game.max_players
        try:
            st = game.new_initial_state(players=n, seed=0, run=False)
            game.fresh_work()
            ok = fn(st, {"me": None})
        except LegesError as exc:
            errors.extend(exc.diagnostics)
            continue
        except Exception as exc:
            from ..failures import describe_failure, failure_hint
            errors.error(decl.at.child("check").position(),
                         f"consistency check '{decl.id}' could not be evaluated: {describe_failure(exc)}", failure_hint(exc))
            continue
        if not ok:
            compared = "; ".join(decl.compares)
            errors.error(decl.at.child("check").position(),
                         f"consistency check '{decl.id}' fails: {decl.description or decl.check.text.strip()}",
                         f"compare {compared}" if compared else None)
