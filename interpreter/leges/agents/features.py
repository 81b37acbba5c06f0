"""Candidate features of a learned heuristic, read off the declarations: rule-language expressions
of the player `p`, each a number.

Why read them off the declarations: a new ruleset has no heuristic, and what a player can hold is
already declared — its zones, the components that may lie in them, its per-player variables. Why
these kinds:

- the components in each of `p`'s own zones, in all and by type; `p`'s components in each shared
  zone, and on the board, by type — *how many* a player holds;
- for each numeric fixed property of a component type (declared on the type or on its kinds by
  `each`/`instances`), its sum over the components of that type in each of `p`'s own zones (and,
  for a type that players own, over `p`'s components in each shared zone) — *what they are worth*:
  counting alone weighs the best and the worst component of a type the same;
- each numeric per-player variable, `V[p]`, as it is — a resource kept and a resource committed
  (pledged, bid, staked) are separate variables in most rulesets, so weighing each apart shows
  whether keeping a unit is worth more than committing it;
- the ruleset's score, `scoring.score`, as it stands now.

Not all of them need compile (learn.compile_features keeps those that do), nor be informative
(learn.py drops the ones that never vary or that the others already make up).
"""
from __future__ import annotations

from collections.abc import Callable

MAX_ROW = 16  # zones of a numbered row looked at, at most


def candidates(game) -> list[str]:
    """Feature expressions of `p` that the declarations suggest (not all need compile)."""
    rs = game.ruleset
    types = [c.id for c in rs.components]
    owned = [c.id for c in rs.components if getattr(c, "per_player", False)]
    numeric = numeric_properties(rs.components)
    out: list[str] = []
    for z in rs.zones:
        rows = _zone_names(z)
        if z.per_player:
            for zone in rows("p"):
                out.append(f"count({zone})")
                out += [f"count({zone}, c => c.type == \"{t}\")" for t in types]
                out += [f"sum([c.{prop} for c in {zone} if c.type == \"{t}\"])"
                        for t in types for prop in numeric.get(t, [])]
        else:
            for zone in rows(None):
                out += [f"count({zone}, c => c.owner == p and c.type == \"{t}\")" for t in owned]
                out += [f"sum([c.{prop} for c in {zone} if c.owner == p and c.type == \"{t}\"])"
                        for t in owned for prop in numeric.get(t, [])]
    out += [f"count(components(\"{t}\", p), c => c.space != none)" for t in owned]
    for v in rs.variables:
        if v.per_player and _number(v.initial):
            out.append(f"{v.id}[p]")
    if rs.scoring is not None and rs.scoring.score is not None:
        out.append(rs.scoring.score.text.strip())
    return list(dict.fromkeys(out))


def numeric_properties(components) -> dict[str, list[str]]:
    """Each component type's fixed properties whose every declared value is a number and that differ
    between its kinds (a property all of them share weighs nothing that a count does not)."""
    out: dict[str, list[str]] = {}
    for c in components:
        kinds = [dict(c.props or {}, **(props or {})) for props, *_ in (c.instances or [])] or [dict(c.props or {})]
        names = dict.fromkeys(name for kind in kinds for name in kind)
        found = []
        for name in names:
            values = [kind.get(name) for kind in kinds]
            if all(_number(v) for v in values) and len(set(values)) > 1:
                found.append(name)
        if found:
            out[c.id] = found
    return out


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _zone_names(z) -> Callable[[str | None], list[str]]:
    """How to name a zone (or each zone of a numbered row of it), of a player or shared."""
    count = getattr(z, "count", None)
    if isinstance(count, dict):
        count = max(int(v) for v in count.values())

    def names(player: str | None) -> list[str]:
        if count:
            args = [f"{player}, {i}" if player else str(i) for i in range(min(int(count), MAX_ROW))]
            return [f"{z.id}({a})" for a in args]
        return [f"{z.id}({player})" if player else z.id]
    return names
