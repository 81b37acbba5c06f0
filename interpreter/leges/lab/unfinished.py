"""Games a bound stopped, said loudly: how many, which bound, which seeds, and what it may mean.

Why: a game whose rules never end it (a forgotten draw rule, an `end_if` that cannot hold) runs to
the turn limit and ends *unfinished*, every return 0. In a batch of random games that showed only as
"timeouts 0.2 %" among the metrics — easy to read past, though it is a bug in the rules far more often
than a long game. So `leges simulate` names such games in a line of their own, with the seeds to
replay them by, and puts the same in its JSON.
"""
from __future__ import annotations

from dataclasses import dataclass

SEEDS_SHOWN = 10  # seeds listed in the line; the JSON lists them all

BOUNDS = {  # ending kind (State.end_reason) → the bound, in words, and what hitting it may mean
    "max_turns": ("hit the turn limit{} (limits.max_turns)", "the rules may never end them (a missing draw rule?)"),
    "max_decisions": ("hit the decision limit{} (limits.max_decisions)",
                      "a turn may ask again and again and never end (a loop of decisions?)"),
    "budget:work": ("spent their budget{} (--game-work)", "the rules may run too long, or never end (raise it to tell)"),
    "budget:seconds": ("spent their budget{} (--game-seconds)",
                       "the rules may run too long, or never end (raise it to tell)"),
}
LIMIT_KEY = {"max_turns": "turns", "max_decisions": "decisions", "budget:work": "limit", "budget:seconds": "limit"}  # the bound's value in the ending


@dataclass
class Unfinished:
    """The games one bound stopped."""

    kind: str  # the ending's kind; a budget's with what was spent: budget:work, budget:seconds
    seeds: list[int]  # in the order played, each once (a seed played in several seatings counts each game)
    games: int
    limit: object = None  # the bound's value (turns, decisions, work or seconds), as the first game met it

    def words(self) -> tuple[str, str]:
        """The bound hit ('hit the turn limit of 40 (limits.max_turns)') and what it may mean."""
        bound, why = BOUNDS.get(self.kind, ("were stopped{}", "the rules may never end them"))
        return bound.format(f" of {self.limit}" if self.limit is not None else ""), why

    def to_json(self, total: int) -> dict:
        bound, why = self.words()
        return {"kind": self.kind, "games": self.games, "share": self.games / total if total else 0.0,
                "limit": self.limit, "seeds": self.seeds, "bound": bound, "why": why}


def unfinished_games(results) -> list[Unfinished]:
    """The unfinished games of a batch (lab.simulate.PlayResult), grouped by the bound that stopped them."""
    groups: dict[str, Unfinished] = {}
    for r in results:
        if not r.unfinished:
            continue
        ending = r.ending or {}
        kind = ending.get("kind", "stopped") + (f":{ending.get('spent')}" if ending.get("kind") == "budget" else "")
        group = groups.setdefault(kind, Unfinished(kind, [], 0, ending.get(LIMIT_KEY.get(kind, ""))))
        group.games += 1
        if r.seed not in group.seeds:
            group.seeds.append(r.seed)
    return list(groups.values())


def warning_lines(results) -> list[str]:
    """One loud line a bound: 'UNFINISHED: 2 of 1000 games (0.2 %) hit the turn limit (limits.max_turns) —
    seeds 17, 503; the rules may never end them (a missing draw rule?)'; none when every game finished."""
    total = len(results)
    lines = []
    for group in unfinished_games(results):
        bound, why = group.words()
        seeds = ", ".join(map(str, group.seeds[:SEEDS_SHOWN])) + (
            f" … ({len(group.seeds)} seeds)" if len(group.seeds) > SEEDS_SHOWN else "")
        lines.append(f"UNFINISHED: {group.games} of {total} games ({_percent(group.games, total)}) {bound} — "
                     f"seed{'s' if len(group.seeds) > 1 else ''} {seeds}; {why}")
    return lines


def to_json(results) -> dict:
    """The JSON of `leges simulate --json`: how many games ended unfinished, and each bound's games."""
    total = len(results)
    groups = unfinished_games(results)
    games = sum(g.games for g in groups)
    return {"games": games, "share": games / total if total else 0.0,
            "by": [g.to_json(total) for g in groups], "warnings": warning_lines(results)}


def _percent(part: int, whole: int) -> str:
    share = 100 * part / whole if whole else 0.0
    return f"{share:.1f} %" if share >= 0.1 or share == 0 else f"{share:.2g} %"
