"""Markers shared by the state, its API and the rules that run on it."""
from __future__ import annotations

CHANCE = -1  # the "player" deciding a chance outcome, as in OpenSpiel
TERMINAL = -4  # the "player" to move once the game is over
MISSING = object()  # no answer yet (an explicit chance outcome not yet chosen)
