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
