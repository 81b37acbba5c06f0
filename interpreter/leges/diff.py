"""`leges diff`: two rulesets — or one under two sets of variants — compared rule by rule and in play.

Rules are compared by id; rule-language texts as normalised syntax trees (layout, comments and
citations do not count), data by value. Then the same seeds and the same choices are played
under both, to find the first point where the legal actions or the outcome differ, and the
outcome statistics of random games are set side by side.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import LegesError
from .lang.parser import parse_expression, parse_program
from .model import decl as d
from .model.sections import BY_NAME, RULE_SECTIONS, citations
from .simulate import agent_rng, simulate
from .source import TextOrigin

IGNORED = ("at", "source", "description", "patched")


@dataclass
class Difference:
    section: str
    id: str
    kind: str  # only_a, only_b, changed
    fields: list = field(default_factory=list)
    cite_a: str = ""
    cite_b: str = ""

    def to_json(self) -> dict:
        return {"section": self.section, "id": self.id, "kind": self.kind, "fields": self.fields,
                "source_a": self.cite_a, "source_b": self.cite_b}


def _cite(item) -> str:
    parts = []
    for _, c in citations(item):
        if "book" in c:
            parts.append(f"{c['book']} § {c['section']}" + (f" “{c['quote']}”" if c.get("quote") else ""))
        if c.get("reading"):
            parts.append(f"reading {c['reading']}")
        if c.get("provenance"):
            parts.append(f"{c['provenance']['status']}: {c['provenance'].get('note', '')}".rstrip(": "))
    for key, file in getattr(item, "patched", {}).items():
        parts.append(f"{key} set by {file}")
    return "; ".join(parts)


_ORIGIN = TextOrigin("<diff>", 1, 1)


def _normal(value, program: bool):
    """A value as compared: rule-language text as its syntax tree, everything else as it is."""
    if isinstance(value, d.Text):
        try:
            return parse_program(value.text, _ORIGIN) if program else parse_expression(value.text, _ORIGIN)
        except LegesError:
            return ("unparsable", value.text)
    if isinstance(value, list):
        return [_normal(v, program) for v in value]
    if isinstance(value, tuple):
        return tuple(_normal(v, program) for v in value)
    if isinstance(value, d.At):
        return None
    return value


def _fields(item, section: str) -> dict:
    out = {}
    for name, value in vars(item).items():
        if name in IGNORED:
            continue
        if name == "instances":
            value = [(props, count) for props, count, _ in value]
        program = name in BY_NAME[section].programs if section in BY_NAME else False
        out[name] = _normal(value, program)
    return out


def structural(rs_a: d.Ruleset, rs_b: d.Ruleset) -> list[Difference]:
    diffs = []
    for section in RULE_SECTIONS:
        a = {x.id: x for x in getattr(rs_a, section)}
        b = {x.id: x for x in getattr(rs_b, section)}
        for key in [k for k in a if k not in b]:
            diffs.append(Difference(section, key, "only_a", cite_a=_cite(a[key])))
        for key in [k for k in b if k not in a]:
            diffs.append(Difference(section, key, "only_b", cite_b=_cite(b[key])))
        for key in [k for k in a if k in b]:
            fa, fb = _fields(a[key], section), _fields(b[key], section)
            changed = sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k))
            if changed:
                diffs.append(Difference(section, key, "changed", changed, _cite(a[key]), _cite(b[key])))
    if (rs_a.scoring is None) != (rs_b.scoring is None) or (
            rs_a.scoring and _fields(rs_a.scoring, "scoring") != _fields(rs_b.scoring, "scoring")):
        diffs.append(Difference("scoring", "scoring", "changed", ["score"], _cite(rs_a.scoring) if rs_a.scoring else "",
                                _cite(rs_b.scoring) if rs_b.scoring else ""))
    if (rs_a.min_players, rs_a.max_players) != (rs_b.min_players, rs_b.max_players):
        diffs.append(Difference("players", "players", "changed", ["min", "max"]))
    return diffs


@dataclass
class Divergence:
    seed: int
    step: int
    history: list
    only_a: list
    only_b: list
    outcome_a: list | None = None
    outcome_b: list | None = None

    def to_json(self) -> dict:
        return {"seed": self.seed, "step": self.step, "history": self.history, "only_a": self.only_a,
                "only_b": self.only_b, "scores_a": self.outcome_a, "scores_b": self.outcome_b}


def lockstep(game_a, game_b, players: int, seed: int, limit: int = 5000) -> Divergence | None:
    """Play one seed under both with the same choices; the first point where they part, if any."""
    a = game_a.new_initial_state(players=players, seed=seed)
    b = game_b.new_initial_state(players=players, seed=seed)
    rng = agent_rng(seed)
    for step in range(limit):
        if a.is_terminal() or b.is_terminal():
            if a.is_terminal() and b.is_terminal() and a.scores() == b.scores():
                return None
            return Divergence(seed, step, list(a.history), [], [],
                              a.scores() if a.is_terminal() else None, b.scores() if b.is_terminal() else None)
        la = [x.text for x in a.legal_actions()]
        lb = [x.text for x in b.legal_actions()]
        if a.current_player() != b.current_player() or set(la) != set(lb):
            return Divergence(seed, step, list(a.history), sorted(set(la) - set(lb)), sorted(set(lb) - set(la)))
        choice = la[rng.randrange(len(la))]
        a.apply_action(choice)
        b.apply_action(choice)
    return None


def statistics(game, players: int, games: int, seed: int) -> dict:
    """Outcomes of random games: the design metrics with their intervals (metrics.py), and the plain figures."""
    from .metrics import summarise, to_json
    summary = simulate(game, players, games, seed)
    seats = game.setup_for(players).seat_names
    finished = summary.finished or summary.results
    return {"mean_length": summary.mean_length(), "seat_win_rate": summary.seat_win_rate(seats),
            "mean_scores": [sum(r.scores[i] for r in finished) / len(finished) for i in range(players)],
            "unfinished": len(summary.results) - len(summary.finished),
            "metrics": to_json(summarise(summary.results, seats))}
