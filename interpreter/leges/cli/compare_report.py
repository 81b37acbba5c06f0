"""`leges compare`'s report in words: the table of A, B and B - A with what each metric measures and
in what unit, what the differences say, the sample-size advice, and whether the players change the answer;
before them, how the agents played under A and B (a degenerate one flagged).

Why the advice is cut as it is: a designer reads it to decide whether to play more games, so it
speaks of the designer's own statistics (`statistics:` in the ruleset) first — they are the question
the study was run for — and only of differences worth seeing. A difference smaller than `--min-effect`
of the metric's scale (of a share: that many points; of anything else: that share of A's value) is
left out, however many pairs it would need: telling a 0.0004 change in forced moves from chance
(331,059 pairs) is no one's question. What is left out is named, never dropped in silence.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .simulate import interval_text

if TYPE_CHECKING:
    from ..lab.compare import Study

MIN_EFFECT = 0.05  # --min-effect's default: 5 points of a share, 5 % of A's value of anything else
ADVICE_LINES = 12  # lines of advice at most (the rest named on one line)
ADJUSTED = {"holm": "Holm's correction for the metrics compared together",
            "bh": "the Benjamini-Hochberg correction (false discovery rate 5 %)",
            "none": "no correction for the metrics compared together"}


def percent(name: str, kinds: dict | None) -> bool:
    """Shown as a percentage: a rate (or a figure of rates), by what the metric is."""
    from ..lab.metrics import metric
    return metric(name, kinds).percent


def described(name: str, kinds: dict | None) -> str:
    """What a metric measures, and in what unit — the column simulate's report has too."""
    from ..lab.metrics import metric
    m = metric(name, kinds)
    seat = name.split(".", 2)[2] if name.startswith("stat.") and name.count(".") >= 2 else ""
    unit = f" [{m.unit}]" if m.unit else ""
    return m.description + (f", seat {seat}" if seat else "") + unit


def print_behaviour(study: Study) -> None:
    """Each agent's play under A and under B (lab/behaviour.py), a flagged one first — printed before
    the differences, since a degenerate player makes them suspect. Said with agents other than random,
    or when one looks degenerate, as `simulate` does; `--json` always carries it."""
    from ..lab.behaviour import text_lines, worth_telling
    found = study.behaviour
    if not any(worth_telling(study.specs, found.get(side, [])) for side in "ab"):
        return
    for side in "ab":
        for line in text_lines(found.get(side, []), "", side.upper()):
            print(line)
        print()


def print_differences(ma: dict, mb: dict, diffs: dict, adjustment: str, kinds: dict | None = None,
                      min_effect: float = MIN_EFFECT) -> None:
    """The table of A, B and B - A, each difference with its p-values and size and what the metric is,
    then what it says, and the advice."""
    def text(interval, k):
        return interval_text(interval, percent(k, kinds))
    rows = [(k, text(ma[k], k) if k in ma else "-", text(mb[k], k) if k in mb else "-", text(d, k), _p(d.p),
             _p(d.p_adjusted), _size(d.effect), d) for k, d in diffs.items()]
    head = ("metric", "A", "B", "B - A", "p", "p adj.", "size", "")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(7)]
    verdicts = ["significant" if r[-1].significant else "not significant" +
                (" (unadjusted p under 5 %)" if r[-1].significant_raw else "") for r in rows]
    verdict_width = max((len(v) for v in verdicts), default=0)
    print("  ".join(f"{h:<{w}}" for h, w in zip(head, widths)) + "  " + f"{'':<{verdict_width}}  what it measures [unit]")
    for row, verdict in zip(rows, verdicts):
        print("  ".join(f"{c:<{w}}" for c, w in zip(row[:7], widths)) + f"  {verdict:<{verdict_width}}  "
              + described(row[0], kinds))
    significant = [r[0] for r in rows if r[-1].significant]
    raw = [r[0] for r in rows if r[-1].significant_raw and not r[-1].significant]
    print(f"\n{len(significant)} of {len(rows)} differences are significant (p under 5 % after {ADJUSTED[adjustment]})"
          + (": " + ", ".join(significant) if significant else "."))
    if raw:
        print(f"Significant before the correction only (most likely chance among {len(rows)} metrics): {', '.join(raw)}.")
    print("size: the difference in standard deviations of a pair's difference (0.2 small, 0.5 medium, 0.8 large).")
    print_advice(ma, mb, diffs, kinds, min_effect)


def worth(name: str, ma: dict, mb: dict, kinds: dict | None, min_effect: float) -> float:
    """The smallest difference worth seeing in `name`: `min_effect` of a share (absolute), else that
    share of A's value (of B's where A's is 0; NaN where both are 0 or unknown: no scale to judge by)."""
    from ..lab.metrics import metric
    if metric(name, kinds).bounded:
        return min_effect
    for side in (ma, mb):
        value = side[name].value if name in side else math.nan
        if value == value and value != 0 and math.isfinite(value):
            return min_effect * abs(value)
    return math.nan


def advice(ma: dict, mb: dict, diffs: dict, kinds: dict | None, min_effect: float) -> tuple[list[str], list[str]]:
    """(lines of advice, the metrics left out as too small to be worth seeing): for every difference
    not significant here and at least worth seeing, how many pairs it needs — the ruleset's own
    statistics first."""
    lines, small = [], []
    tests = len(diffs)
    order = sorted(diffs, key=lambda k: not k.startswith("stat."))  # (sorted keeps the rest in order)
    for k in order:
        d = diffs[k]
        if d.significant or not d.pairs:
            continue
        threshold = worth(k, ma, mb, kinds, min_effect)
        if not abs(d.value) >= threshold:  # (NaN: no scale, nothing to advise)
            if d.value != 0 and d.spread == d.spread and d.spread > 0:
                small.append(k)
            continue
        need = d.needed(d.value, tests)
        if need is not None and need > d.pairs:
            pct = percent(k, kinds)
            lines.append(f"  {k}: a difference of {interval_text(d, pct).split(' ')[0]} (as seen here) "
                         f"needs about {need} pairs; these {d.pairs} show one of {_amount(d.detectable(tests), pct)} or more")
    return lines, small


def print_advice(ma: dict, mb: dict, diffs: dict, kinds: dict | None, min_effect: float) -> None:
    lines, small = advice(ma, mb, diffs, kinds, min_effect)
    if lines:
        ours = any(line.strip().startswith("stat.") for line in lines)
        print("To tell a difference that is not significant here from chance (80 % of the time)"
              + (", the ruleset's statistics first:" if ours else ":"))
        print("\n".join(lines[:ADVICE_LINES]))
        if len(lines) > ADVICE_LINES:
            rest = [line.split(":", 1)[0].strip() for line in lines[ADVICE_LINES:]]
            print(f"  ... and {len(rest)} more: {', '.join(rest)}")
    if small:
        print(f"No advice for {len(small)} difference{'s' if len(small) > 1 else ''} smaller than worth seeing "
              f"(a share: under {100 * min_effect:g} points; anything else: under {100 * min_effect:g} % of A's value; "
              f"--min-effect {min_effect:g}): {', '.join(small)}.")


def print_robustness(studies: list[Study]) -> None:
    from ..lab.compare import robustness
    print("\nDo the players change the answer? Each difference significant under some agents, under each set:")
    held = robustness(studies)
    if not held:
        print("  none: no difference is significant under any set of agents")
        return
    kinds = studies[0].kinds
    width = max((len(k) for k in held), default=6)
    rows = {k: ["-" if s.diffs.get(k) is None else
                f"{interval_text(s.diffs[k], percent(k, kinds))}{' *' if s.diffs[k].significant else ''}"
                for s in studies] for k in held}
    widths = [max(len(r[i]) for r in rows.values()) for i in range(len(studies))]
    for k, robust in held.items():
        cells = "  ".join(f"{c:<{w}}" for c, w in zip(rows[k], widths))
        print(f"  {k:<{width}}  {cells}  " + ("holds under every set" if robust else "DEPENDS ON THE PLAYERS"))
    print("  (* significant; agents: " + " | ".join(", ".join(s.specs) for s in studies) + ")")


def _p(p: float) -> str:
    return "-" if math.isnan(p) else "<0.001" if p < 0.001 else f"{p:.3f}"


def _size(effect: float) -> str:
    return "-" if math.isnan(effect) else "inf" if abs(effect) == float("inf") else f"{effect:+.2f}"


def _amount(x: float, pct: bool) -> str:
    return "?" if math.isnan(x) else f"{x:.1%}" if pct else f"{x:.3g}"
