"""Intervals for what simulations measure: Wilson for rates, Student's t for means (for counts, never
narrower than Poisson's), the bootstrap for figures derived from several rates, and paired differences
for A/B comparisons.

Why these: Wilson's interval stays inside [0, 1] and keeps its coverage for rates near 0 or 1
and for small samples, where the textbook normal interval does not; the t interval is what a
mean of independent games needs; a figure such as balance (1 - the widest gap between seat win
rates) has no formula, so its games are resampled. All at 95 %, all deterministic (the bootstrap
draws from a fixed seed), so the same games give the same report.

A comparison tests many metrics at once: at 95 % each, one in twenty differences that do not
exist would be called significant. So every difference carries its p-value, and `adjust` corrects
them together — Holm's step-down by default (no false "significant" among all the metrics with
probability 95 %, whatever their dependence), or Benjamini–Hochberg (a false discovery rate
of 5 %, for long lists) — and a difference is *significant* when its adjusted p-value is under 5 %.
The distributions come from SciPy.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist
from typing import Callable, Sequence

LEVEL = 0.95
ALPHA = 1 - LEVEL
POWER = 0.8  # sample-size advice: the chance of seeing a difference that is there
Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.95996...
BOOTSTRAP = 1000
ADJUSTMENTS = ("holm", "bh", "none")


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

    def within(self, low: float | None, high: float | None):
        """The interval cut to the values the quantity can take (a count is never negative, a share
        never above 1): a t interval of few games reaches past them, and the true mean cannot."""
        from dataclasses import replace
        lo, hi = self.low, self.high
        if low is not None and math.isfinite(lo):
            lo = max(lo, low)
        if high is not None and math.isfinite(hi):
            hi = min(hi, high)
        return replace(self, low=lo, high=hi)


def t_quantile(df: int) -> float:
    """The 97.5 % quantile of Student's t."""
    if df < 1:
        return math.inf
    from scipy.stats import t
    return float(t.ppf(0.5 + LEVEL / 2, df))


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


def count(values: Sequence[float]) -> Interval:
    """A mean count per game: Student's t, never narrower than the exact (Garwood) Poisson interval of
    the total. Why both: games that all counted the same give t no width at all, and five games of one
    coin each do not make one coin certain; a count spread wider than a Poisson's is t's to bound.
    A count that can be negative (a balance of coins) is a mean, and has t's alone; one that never was
    is never below 0 either."""
    i = mean(values)
    n = len(values)
    if n == 0 or any(v < 0 for v in values):
        return i
    from scipy.stats import chi2
    total = math.fsum(values)
    low = float(chi2.ppf(ALPHA / 2, 2 * total)) / (2 * n) if total > 0 else 0.0
    high = float(chi2.ppf(1 - ALPHA / 2, 2 * (total + 1))) / (2 * n)
    return Interval(i.value, max(0.0, min(i.low, low)), max(i.high, high))  # (never below 0: none was)


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
    """B - A with its (unadjusted) 95 % interval, the p-value of "no difference", that p-value
    adjusted for the other metrics compared with it, and how large the difference is in units of
    its spread (Cohen's d_z: the mean difference over the standard deviation of the differences)."""
    p: float = math.nan
    p_adjusted: float = math.nan  # NaN until `adjust`: then `significant` reads it
    effect: float = math.nan
    spread: float = math.nan  # the standard deviation of one pair's difference
    pairs: int = 0

    @property
    def significant(self) -> bool:
        """A and B differ: the adjusted p-value is under 5 % (before `adjust`: the interval leaves out 0)."""
        if not math.isnan(self.p_adjusted):
            return self.p_adjusted < ALPHA
        return self.excludes(0.0)

    @property
    def significant_raw(self) -> bool:
        return self.excludes(0.0)

    def needed(self, difference: float, tests: int = 1) -> int | None:
        """About how many pairs would show a true difference of `difference` (POWER of the time,
        at the level Holm's correction asks of the first of `tests` metrics), from the spread seen."""
        if not (difference and self.spread == self.spread and self.spread > 0):
            return None
        z = NormalDist().inv_cdf(1 - ALPHA / (2 * max(tests, 1))) + NormalDist().inv_cdf(POWER)
        return math.ceil((z * self.spread / abs(difference)) ** 2)

    def detectable(self, tests: int = 1) -> float:
        """The smallest true difference these pairs would show POWER of the time (same level)."""
        if not (self.pairs > 1 and self.spread == self.spread):
            return math.nan
        z = NormalDist().inv_cdf(1 - ALPHA / (2 * max(tests, 1))) + NormalDist().inv_cdf(POWER)
        return z * self.spread / math.sqrt(self.pairs)

    def to_json(self) -> dict:
        def num(x: float) -> float | None:
            return None if math.isnan(x) or math.isinf(x) else x
        return {"value": self.value, "low": self.low, "high": self.high, "p": num(self.p),
                "p_adjusted": num(self.p_adjusted), "significant": self.significant,
                "significant_unadjusted": self.significant_raw, "effect_size": num(self.effect),
                "spread": num(self.spread), "pairs": self.pairs}


def paired_difference(a: Sequence[float | None], b: Sequence[float | None]) -> Difference:
    """Mean of b - a over the pairs where both were measured, with a t interval on the differences.

    The same seeds and seats under A and B (common random numbers) make the differences far less
    spread than the values themselves, so a paired interval is much narrower than two apart.
    """
    diffs = [y - x for x, y in zip(a, b) if x is not None and y is not None]
    n = len(diffs)
    if not diffs:
        return Difference(math.nan, math.nan, math.nan)
    if all(d == 0 for d in diffs):
        return Difference(0.0, 0.0, 0.0, p=1.0, effect=0.0, spread=0.0, pairs=n)
    i = mean(diffs)
    sd = math.sqrt(math.fsum((d - i.value) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.nan
    if n < 2:
        p = math.nan
    elif sd == 0:
        p = 0.0  # every pair differs by the same amount
    else:
        from scipy.stats import t
        p = float(2 * t.sf(abs(i.value) / (sd / math.sqrt(n)), n - 1))
    return Difference(i.value, i.low, i.high, p=p, effect=i.value / sd if sd else math.copysign(math.inf, i.value),
                      spread=sd, pairs=n)


def paired_bootstrap(pairs: Sequence[tuple], statistic: Callable[[Sequence], float], seed: int = 0) -> Difference:
    """statistic(B) - statistic(A) over paired games, resampling the pairs together; the p-value
    is twice the share of resampled differences on the far side of 0."""
    items = list(pairs)
    n = len(items)

    def diff(sample):
        return statistic([b for _, b in sample]) - statistic([a for a, _ in sample])
    value = diff(items)
    if n < 2:
        return Difference(value, -math.inf, math.inf, pairs=n)
    rng = random.Random(seed)
    draws = sorted(diff([items[rng.randrange(n)] for _ in range(n)]) for _ in range(BOOTSTRAP))
    tail = ALPHA / 2
    low, high = draws[int(tail * BOOTSTRAP)], draws[min(BOOTSTRAP - 1, int((1 - tail) * BOOTSTRAP))]
    below = sum(1 for d in draws if d <= 0) / BOOTSTRAP
    above = sum(1 for d in draws if d >= 0) / BOOTSTRAP
    m = sum(draws) / BOOTSTRAP
    sd = math.sqrt(sum((d - m) ** 2 for d in draws) / (BOOTSTRAP - 1)) * math.sqrt(n)  # one pair's spread
    return Difference(value, low, high, p=min(1.0, 2 * min(below, above)),
                      effect=value / sd if sd else math.nan, spread=sd, pairs=n)


def adjust(diffs: dict[str, Difference], method: str = "holm") -> dict[str, Difference]:
    """The differences with their p-values adjusted together (`method`: holm, bh or none)."""
    from dataclasses import replace
    tested = [(k, d.p) for k, d in diffs.items() if not math.isnan(d.p)]
    m = len(tested)
    order = sorted(range(m), key=lambda i: tested[i][1])
    adjusted = [1.0] * m
    if method == "holm":
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * tested[i][1]))
            adjusted[i] = running
    elif method == "bh":
        running = 1.0
        for rank in range(m - 1, -1, -1):
            i = order[rank]
            running = min(running, min(1.0, m * tested[i][1] / (rank + 1)))
            adjusted[i] = running
    else:
        adjusted = [p for _, p in tested]
    values = {k: a for (k, _), a in zip(tested, adjusted)}
    return {k: replace(d, p_adjusted=values[k]) if k in values else d for k, d in diffs.items()}
