"""Markers shared by the state, its API and the rules that run on it."""
from __future__ import annotations

from ..lang.codegen.runtime import MISSING  # noqa: F401  (one marker of "no value yet": an answer not given, a value not cached)

CHANCE = -1  # the "player" deciding a chance outcome, as in OpenSpiel
TERMINAL = -4  # the "player" to move once the game is over

# what an instruction returns besides the index of the next one
SUSPEND = -1  # the program waits for a decision (state.pending says which)
PUSHED = -2  # another frame was pushed on top; the current one resumes later
UNWIND = -3  # the frame stack was replaced (goto, end turn, end game)
