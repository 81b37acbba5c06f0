"""Intervals for what simulations measure: Wilson for rates, Student's t for means, the bootstrap
for figures derived from several rates, and paired differences for A/B comparisons.

Why these: Wilson's interval stays inside [0, 1] and keeps its coverage for rates near 0 or 1
and for small samples, where the textbook normal interval does not; the t interval is what a
mean of independent games needs; a figure such as balance (1 - the widest gap between seat win
rates) has no formula, so its games are resampled. All at 95 %, all deterministic (the bootstrap
draws from a fixed seed), so the same games give the same report.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist
from typing import Callable, Sequence

LEVEL = 0.95
Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.95996...
BOOTSTRAP = 1000

# Student's t, two-sided 95 %, for 1 to 30 degrees of freedom
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low

    def excludes(self, x: float) -> bool:
        return x < self.low or x > self.high

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high}

    def within(self, low: float | None, high: float | None) -> "Interval":
        """The interval cut to the values the quantity can take (a count is never negative, a share
        never above 1): a t interval of few games reaches past them, and the true mean cannot."""
        lo, hi = self.low, self.high
        if low is not None and math.isfinite(lo):
            lo = max(lo, low)
        if high is not None and math.isfinite(hi):
            hi = min(hi, high)
        return Interval(self.value, lo, hi)


def t_quantile(df: int) -> float:
    """The 97.5 % quantile of Student's t (table to 30 degrees of freedom, Cornish-Fisher beyond)."""
    if df < 1:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def wilson(successes: float, n: int) -> Interval:
    """A rate with Wilson's score interval (`successes` may be fractional: a shared win)."""
    if n <= 0:
        return Interval(math.nan, 0.0, 1.0)
    p = successes / n
    denominator = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denominator
    half = Z * math.sqrt(max(0.0, p * (1 - p) / n + Z * Z / (4 * n * n))) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Interval(p, low, high)


def mean(values: Sequence[float]) -> Interval:
    """A mean with Student's t interval (a single value: no interval to speak of, infinite)."""
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    m = math.fsum(values) / n
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return Interval(m, m - half, m + half)


def is_binary(values: Sequence[float]) -> bool:
    return all(v == 0 or v == 1 for v in values)


def rate_or_mean(values: Sequence[float]) -> Interval:
    """Wilson when every value is 0 or 1 (a rate), else t."""
    return wilson(sum(values), len(values)) if is_binary(values) else mean(values)


def bootstrap(items: Sequence, statistic: Callable[[Sequence], float], seed: int = 0) -> Interval:
    """A statistic of `items` with the percentile bootstrap interval (resampling the items)."""
    n = len(items)
    value = statistic(items)
    if n < 2:
        return Interval(value, -math.inf, math.inf)
    rng = random.Random(seed)
    draws = sorted(statistic([items[rng.randrange(n)] for _ in range(n)]) for _ in range(BOOTSTRAP))
    tail = (1 - LEVEL) / 2
    return Interval(value, draws[int(tail * BOOTSTRAP)], draws[min(BOOTSTRAP - 1, int((1 - tail) * BOOTSTRAP))])


@dataclass(frozen=True)
class Difference(Interval):
    @property
    def significant(self) -> bool:
        """The interval leaves out zero: A and B differ (at 95 %)."""
        return self.excludes(0.0)

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "significant": self.significant}


def paired_difference(a: Sequence[float | None], b: Sequence[float | None]) -> Difference:
    """Mean of b - a over the pairs where both were measured, with a t interval on the differences.

    The same seeds and seats under A and B (common random numbers) make the differences far less
    spread than the values themselves, so a paired interval is much narrower than two apart.
    """
    diffs = [y - x for x, y in zip(a, b) if x is not None and y is not None]
    if not diffs:
        return Difference(math.nan, math.nan, math.nan)
    if all(d == 0 for d in diffs):
        return Difference(0.0, 0.0, 0.0)
    i = mean(diffs)
    return Difference(i.value, i.low, i.high)


def paired_bootstrap(pairs: Sequence[tuple], statistic: Callable[[Sequence], float], seed: int = 0) -> Difference:
    """statistic(B) - statistic(A) over paired games, resampling the pairs together."""
    def diff(sample):
        return statistic([b for _, b in sample]) - statistic([a for a, _ in sample])
    i = bootstrap(list(pairs), diff, seed)
    return Difference(i.value, i.low, i.high)
