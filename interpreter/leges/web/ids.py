"""Ids the page's server hands out: long and random, since whoever knows one may see what it names."""
from __future__ import annotations

import secrets


def new_id() -> str:
    """A game's or record's id: whoever knows it may see it as the page does, so it is not guessable."""
    return secrets.token_hex(8)
