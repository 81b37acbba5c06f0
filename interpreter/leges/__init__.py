"""Leges: board-game rules as data.

    game = leges.load("rulesets/tictactoe")
    state = game.new_initial_state(players=3, seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
"""
from __future__ import annotations

from .engine.api import Action, IllegalAction
from .engine.budget import GameBudget
from .engine.game import Game
from .engine.state import CHANCE, TERMINAL, State
from .text.errors import Diagnostic, LegesError, RuleError

__all__ = ["load", "Game", "State", "Action", "IllegalAction", "LegesError", "RuleError", "Diagnostic",
           "CHANCE", "TERMINAL", "GameBudget"]
__version__ = "0.1.0"


def load(path: str, variants=(), optimise: bool = True) -> Game:
    """Load, check and compile the ruleset at `path` (a folder or its ruleset.yaml).

    `optimise=False` gives the reference build: every rule by plain evaluation (no memoised
    functions, nothing hoisted or inlined), many times slower and the same game for the same
    seed and actions — what every optimisation is checked against (`leges check-conformance`,
    authoring/conformance.py)."""
    from .model.loader import load_declarations
    from .engine.builder import build_game

    rs, board, errors = load_declarations(path, variants)
    game = build_game(rs, board, errors, optimise)
    errors.raise_if_errors()
    game.warnings = [d for d in errors.diagnostics if d.severity == "warning"]
    return game
