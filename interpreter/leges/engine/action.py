"""An action: who takes it and its text — the stable, readable form of every decision."""
from __future__ import annotations

from typing import NamedTuple

from ..text.errors import LegesError


class Action(NamedTuple):
    player: int
    text: str  # e.g. `play card=6 building=6b square=r4c3`

    def __str__(self) -> str:
        return self.text


class IllegalAction(LegesError):
    """An action that is not legal in this state (with the legal ones in the hint)."""
