"""`leges diff`: two rulesets — or one under two sets of variants — compared rule by rule and in play.

Rules are compared by id; rule-language texts as normalised syntax trees (layout, comments and
citations do not count), data by value. Then the same seeds and the same choices are played
under both, to find the first point where the legal actions or the outcome differ, and the
outcome statistics of random games (the design metrics of metrics.py, and the ruleset's own
`statistics:`) are set side by side. A changed item is shown as its rule text before and after,
normalised from the syntax tree (unparse.py), so only what changed in meaning shows.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field

from ..text.errors import LegesError
from ..lang.syntax.parser import parse_expression, parse_program
from ..model import decl as d
from ..model.sections import BY_NAME, RULE_SECTIONS, citations
from ..agents.seeding import agent_rng
from ..lab.simulate import simulate
from ..text.origin import TextOrigin
from ..lang.syntax.unparse import expression, program

IGNORED = ("at", "source", "description", "patched")


@dataclass
class Change:
    """One changed part of an item: its rule text normalised (or its value) before and after."""

    field: str  # `effect`, `params.victim`, `tiebreak.0`, `count`
    a: str | None  # None: absent on that side
    b: str | None
    program: bool = False

    def to_json(self) -> dict:
        return {"field": self.field, "a": self.a, "b": self.b}

    def lines(self, context: int = 1) -> list[str]:
        """The change as lines: `- ` before, `+ ` after, `  ` the lines of a program around what changed."""
        if not self.program or self.a is None or self.b is None:
            return ([f"- {x}" for x in (self.a or "(none)").splitlines() or [""]] +
                    [f"+ {x}" for x in (self.b or "(none)").splitlines() or [""]])
        a, b = self.a.splitlines(), self.b.splitlines()
        out: list[str] = []
        for group in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(context):
            if out:
                out.append("  ...")
            for tag, i1, i2, j1, j2 in group:
                if tag == "equal":
                    out += [f"  {x}" for x in a[i1:i2]]
                else:
                    out += [f"- {x}" for x in a[i1:i2]] + [f"+ {x}" for x in b[j1:j2]]
        return out


@dataclass
class Difference:
    section: str
    id: str
    kind: str  # only_a, only_b, changed
    fields: list = field(default_factory=list)
    cite_a: str = ""
    cite_b: str = ""
    changes: list = field(default_factory=list)  # [Change]
    cited_a: str = ""  # the citations without the keys variants set: the same when a variant set a key
    cited_b: str = ""
    set_by: list = field(default_factory=list)  # "key set by FILE", of B then of A
    named_by: list = field(default_factory=list)  # a constant's: "section id (field)" of the rules naming it, in B

    def to_json(self) -> dict:
        return {"section": self.section, "id": self.id, "kind": self.kind, "fields": self.fields,
                "source_a": self.cite_a, "source_b": self.cite_b, "changes": [c.to_json() for c in self.changes],
                "named_by": self.named_by}


def _cite(item, patched: bool = True) -> str:
    parts = []
    for _, c in citations(item):
        if "book" in c:
            parts.append(f"{c['book']} § {c['section']}" + (f" “{c['quote']}”" if c.get("quote") else ""))
        if c.get("reading"):
            parts.append(f"reading {c['reading']}")
        if c.get("provenance"):
            parts.append(f"{c['provenance']['status']}: {c['provenance'].get('note', '')}".rstrip(": "))
    if patched:
        parts += _set_by(item)
    return "; ".join(parts)


def _set_by(item) -> list[str]:
    return [f"{key} set by {file}" for key, file in getattr(item, "patched", {}).items()]


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


def compared_fields(item, section: str) -> dict:
    out = {}
    for name, value in vars(item).items():
        if name in IGNORED:
            continue
        if name == "instances":
            value = [(props, count) for props, count, _ in value]
        program = name in BY_NAME[section].programs if section in BY_NAME else False
        out[name] = _normal(value, program)
    return out


def _written(value, as_program: bool) -> str | None:
    """A value as `diff` shows it: rule text normalised from its syntax tree, anything else as compact JSON."""
    if value is None:
        return None
    if isinstance(value, d.Text):
        tree = _normal(value, as_program)
        if isinstance(tree, tuple):  # unparsable: as written
            return value.text.strip()
        return program(tree) if as_program else expression(tree)
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return str(value)


def _parts(name: str, value) -> dict:
    """A field cut into the parts a change is shown by: `params.victim`, `tiebreak.0`, or the field itself."""
    if name == "params" and isinstance(value, list) and all(isinstance(x, tuple) and len(x) == 2 for x in value):
        return {f"params.{p}": t for p, t in value}  # an action's parameters (a function's are names)
    if name == "tiebreak" and isinstance(value, list):
        return {f"tiebreak.{i}": t for i, t in enumerate(value)}
    if name == "instances" and isinstance(value, list):
        return {name: [(props, count) for props, count, _ in value]}
    return {name: value}


def _shown_fields(item) -> list[str]:
    """The fields of an item a rule difference shows when the item is on one side only."""
    return [k for k, v in vars(item).items() if k not in IGNORED and v not in (None, [], {}, "", False)
            and k not in ("id",)]


def changes(a, b, section: str, names: list[str]) -> list[Change]:
    """What changed in these fields of two versions of an item, each part before and after."""
    programs = BY_NAME[section].programs if section in BY_NAME else frozenset()
    out = []
    for name in names:
        pa, pb = _parts(name, getattr(a, name, None)), _parts(name, getattr(b, name, None))
        for part in list(dict.fromkeys([*pa, *pb])):
            as_program = name in programs
            wa, wb = _written(pa.get(part), as_program), _written(pb.get(part), as_program)
            if wa != wb:
                out.append(Change(part, wa, wb, as_program))
    return out


def _changed(section: str, key: str, fields: list, a, b) -> Difference:
    cite = [_cite(x) if x is not None else "" for x in (a, b)]
    cited = [_cite(x, patched=False) if x is not None else "" for x in (a, b)]
    set_by = list(dict.fromkeys(_set_by(b) + _set_by(a))) if a is not None and b is not None else []
    return Difference(section, key, "changed", fields, cite[0], cite[1], changes(a, b, section, fields),
                      cited[0], cited[1], set_by)


def _naming(rs: d.Ruleset, name: str) -> list[str]:
    """The rules whose texts name `name` (a constant): "section id (field)"."""
    from ..lang.syntax import ast
    found = []
    for section in RULE_SECTIONS:
        programs = BY_NAME[section].programs
        for item in getattr(rs, section):
            for field_name, value in vars(item).items():
                if field_name in IGNORED:
                    continue
                texts = [t for part in _parts(field_name, value).values()
                         for t in (part if isinstance(part, list) else [part]) if isinstance(t, d.Text)]
                for text in texts:
                    tree = _normal(text, field_name in programs)
                    if not isinstance(tree, tuple) and any(isinstance(n, ast.Name) and n.id == name for n in tree.walk()):
                        found.append(f"{section} {item.id} ({field_name})")
                        break
    return list(dict.fromkeys(found))


def structural(rs_a: d.Ruleset, rs_b: d.Ruleset) -> list[Difference]:
    diffs = []
    for section in RULE_SECTIONS:
        a = {x.id: x for x in getattr(rs_a, section)}
        b = {x.id: x for x in getattr(rs_b, section)}
        for key in [k for k in a if k not in b]:
            diffs.append(Difference(section, key, "only_a", cite_a=_cite(a[key]),
                                    changes=changes(a[key], None, section, _shown_fields(a[key]))))
        for key in [k for k in b if k not in a]:
            diffs.append(Difference(section, key, "only_b", cite_b=_cite(b[key]),
                                    changes=changes(None, b[key], section, _shown_fields(b[key]))))
        for key in [k for k in a if k in b]:
            fa, fb = compared_fields(a[key], section), compared_fields(b[key], section)
            changed = sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k))
            if changed:
                diffs.append(_changed(section, key, changed, a[key], b[key]))
    if (rs_a.scoring is None) != (rs_b.scoring is None) or (
            rs_a.scoring and compared_fields(rs_a.scoring, "scoring") != compared_fields(rs_b.scoring, "scoring")):
        fa = compared_fields(rs_a.scoring, "scoring") if rs_a.scoring else {}
        fb = compared_fields(rs_b.scoring, "scoring") if rs_b.scoring else {}
        changed = sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k))
        diffs.append(_changed("scoring", "scoring", changed, rs_a.scoring, rs_b.scoring))
    for x in diffs:
        if x.section == "constants" and x.kind != "only_a":
            x.named_by = _naming(rs_b, x.id)
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
    from ..lab.metrics import summarise, to_json
    from ..lab.stats import rate_or_mean
    summary = simulate(game, players, games, seed)
    seats = game.setup_for(players).seat_names
    finished = summary.finished or summary.results
    totals = {}  # a statistic per player, added up over the seats: the game's own figure
    for sid, per_player in [(s[0], s[1]) for s in game.statistics] + [(m.id, m.per_player) for m in game.measures]:
        if per_player:
            values = [float(sum(v for v in r.statistics[sid] if v is not None)) for r in summary.results
                      if sid in r.statistics]
            if values:
                totals[sid] = rate_or_mean(values).to_json()
    return {"mean_length": summary.mean_length(), "seat_win_rate": summary.seat_win_rate(seats),
            "mean_scores": [sum(r.scores[i] for r in finished) / len(finished) for i in range(players)],
            "unfinished": len(summary.results) - len(summary.finished),
            "metrics": to_json(summarise(summary.results, seats)), "statistics_total": totals}
