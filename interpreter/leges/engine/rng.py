"""A seeded random generator whose whole state is one integer (SplitMix64).

The state lives in the game state, so a seed and the list of actions replay a game exactly,
and copying a game state copies its future randomness.
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) (rejection sampling: no modulo bias)."""
    limit = MASK - (MASK % n) if n & (n - 1) else MASK
    while True:
        state, value = next_u64(state)
        if value < limit or not n & (n - 1):
            return state, value % n


SECRET_BITS = 53  # exact in JSON read by JavaScript (a record the page downloads keeps its seed)


def secret_seed() -> int:
    """A seed from the operating system's cryptographic source, for a game people play against
    hidden information: a seed a person chose, or 0 by default, lets anyone replay the public
    history offline and read every hand. 53 bits: far more than anyone can try against a public
    history, and exact wherever the seed is written down."""
    import secrets
    return secrets.randbits(SECRET_BITS)
