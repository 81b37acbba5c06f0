"""A Game for one table: the compiled rules shared, the counters its own.

Loading and checking a ruleset takes a third of a second and a few megabytes; a server that did it
for every table held every new table behind one lock. What a Game changes while it plays is small
and known: the per-action work counter (`game.work`, drawn on by every loop through `st.game`),
the meter that hands it out and looks at the game's budget, and the flow that runs the rules for
it. A copy with those of its own plays in its thread without racing any other; everything else — the compiled rules, the board, the set-ups, the caches of
values that depend on nothing a game changes — is read, or filled with the same values by
whichever game gets there first.
"""
from __future__ import annotations

import copy

from .budget import Meter
from .flow import Flow
from .game import Game


def private_copy(game: Game) -> Game:
    """A Game playing `game`'s rules with counters of its own (states it starts point to it)."""
    twin = copy.copy(game)
    twin.work = twin.max_work
    twin.meter = Meter(twin)
    twin.flow = Flow(twin)
    return twin
