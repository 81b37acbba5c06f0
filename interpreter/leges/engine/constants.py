"""Markers shared by the state, its API and the rules that run on it."""
from __future__ import annotations

CHANCE = -1  # the "player" deciding a chance outcome, as in OpenSpiel
TERMINAL = -4  # the "player" to move once the game is over
MISSING = object()  # no answer yet (an explicit chance outcome not yet chosen)

# what an instruction returns besides the index of the next one
SUSPEND = -1  # the program waits for a decision (state.pending says which)
PUSHED = -2  # another frame was pushed on top; the current one resumes later
UNWIND = -3  # the frame stack was replaced (goto, end turn, end game)
