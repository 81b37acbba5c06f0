"""Where the players' randomness comes from: generators seeded by the game's seed (and seat).

Kept apart from the game's own generator (which lives in the state) so that an agent's choices never
change the deal, and derived only from numbers and texts so that the same game is played in any
process (`leges simulate --jobs`, Dask workers, the page's server).
"""
from __future__ import annotations

import random


def agent_rng(seed: int) -> random.Random:
    """The random play-out's generator: the same games Leges has always played from `seed`."""
    return random.Random(seed * 2654435761 + 97)


def seat_rng(seed: int, seat: int, spec: str) -> random.Random:
    """An agent's own generator: the same for the same game, seat and agent, in any process."""
    return random.Random(f"{seed}:{seat}:{spec}")
