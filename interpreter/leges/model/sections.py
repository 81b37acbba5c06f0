"""The sections of a ruleset, declared once: what each holds and how its items become declarations.

Every part of Leges that goes through a ruleset's sections — the loader, variants, the
builder's citation check, `leges diff`, coverage — reads this table, so a new section is added
here and nowhere else.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import decl as d


@dataclass(frozen=True)
class Section:
    """One list section of a ruleset (`actions:`, `triggers:`, ...)."""

    name: str  # the YAML key, and the attribute of `Ruleset` holding its declarations
    item_def: str  # the item's definition in the ruleset schema's $defs
    build: Callable[["ItemReader", dict], Any] | None  # None: kept as a plain dict (rulebooks)
    programs: frozenset = frozenset()  # keys holding rule-language programs (the rest: expressions)
    description: str = ""


class ItemReader:
    """What a section's `build` needs of one YAML item: its values and their places."""

    def __init__(self, item: dict, text: Callable[..., d.Text | None], where: Callable[..., tuple]):
        self.item = item
        self.text = text  # text(*keys): the rule-language text at these keys, with its place
        self.where = where  # where(*keys): (document, path) of the value at these keys

    def get(self, key: str, default: Any = None) -> Any:
        return self.item.get(key, default)


def _component(r: ItemReader, common: dict) -> d.ComponentDecl:
    doc, path = r.where("instances")
    instances = [({k: v for k, v in inst.items() if k not in ("count", "provenance")}, inst.get("count", 1),
                  d.At(doc, path + (j,)))
                 for j, inst in enumerate(r.get("instances", []))]
    return d.ComponentDecl(**common, per_player=r.get("per_player", False), count=r.get("count", 1),
                           props=r.get("props", {}), instances=instances, start=r.get("start"),
                           label=r.text("label"), box=r.get("box"), provenance=r.get("provenance"))


def _action(r: ItemReader, common: dict) -> d.ActionDecl:
    params = [(name, r.text("params", name)) for name in (r.get("params") or {})]
    return d.ActionDecl(**common, params=params, args=r.get("args", {}), require=r.text("require"),
                        effect=r.text("effect"), anytime=r.get("anytime", False), secret=r.get("secret", False))


SECTIONS: tuple[Section, ...] = (
    Section("rulebooks", "rulebook", None),
    Section("constants", "constant", lambda r, c: d.ConstantDecl(**c, value=r.get("value"))),
    Section("components", "component", _component),
    Section("zones", "zone", lambda r, c: d.ZoneDecl(
        **c, kind=r.get("kind", "set"), per_player=r.get("per_player", False), count=r.get("count"),
        visibility=r.get("visibility", "all"))),
    Section("variables", "variable", lambda r, c: d.VariableDecl(
        **c, per_player=r.get("per_player", False), initial=r.get("initial"), type=r.get("type"),
        visibility=r.get("visibility", "all"))),
    Section("functions", "function", lambda r, c: d.FunctionDecl(**c, params=r.get("params", []), body=r.text("body"))),
    Section("procedures", "procedure", lambda r, c: d.ProcedureDecl(**c, params=r.get("params", []), body=r.text("body")),
            frozenset({"body"})),
    Section("events", "event", lambda r, c: d.EventDecl(**c, params=r.get("params", {}))),
    Section("setup", "setup_rule", lambda r, c: d.SetupDecl(**c, effect=r.text("effect")), frozenset({"effect"})),
    Section("phases", "phase", lambda r, c: d.PhaseDecl(
        **c, first=r.text("first"), order=r.text("order"), on_begin=r.text("on_begin"), turn=r.text("turn"),
        end_if=r.text("end_if"), on_end=r.text("on_end"), next=r.get("next")),
            frozenset({"on_begin", "turn", "on_end"})),
    Section("actions", "action", _action, frozenset({"effect"})),
    Section("triggers", "trigger", lambda r, c: d.TriggerDecl(**c, on=r.get("on", ""), condition=r.text("if"),
                                                             effect=r.text("effect")), frozenset({"effect"})),
    Section("readings", "reading", lambda r, c: d.ReadingDecl(
        **c, kind=r.get("kind"), question=r.get("question"), text=r.get("text", ""))),
    Section("invariants", "invariant", lambda r, c: d.InvariantDecl(**c, check=r.text("check"))),
    Section("checks", "check", lambda r, c: d.CheckDecl(
        **c, check=r.text("check"), compares=r.get("compares", []), players=r.get("players"))),
    Section("heuristics", "heuristic", lambda r, c: d.HeuristicDecl(**c, value=r.text("value")),
            description="each player's estimated value, for agents that look ahead"),
    Section("statistics", "statistic", lambda r, c: d.StatisticDecl(
        **c, value=r.text("value"), per_player=r.get("per_player", False)),
            description="figures measured at the end of every simulated game"),
)
BY_NAME: dict[str, Section] = {s.name: s for s in SECTIONS}
LIST_SECTIONS: tuple[str, ...] = tuple(s.name for s in SECTIONS)
RULE_SECTIONS: tuple[str, ...] = tuple(s.name for s in SECTIONS if s.build is not None)  # items with an id
SCALAR_SECTIONS = ("scoring", "limits")  # one object each, changed key by key


def declarations(rs: d.Ruleset):
    """Every declaration of a ruleset (scoring included), in section order."""
    for name in RULE_SECTIONS:
        yield from getattr(rs, name)
    if rs.scoring is not None:
        yield rs.scoring


def citations(item) -> list[tuple[d.At, dict]]:
    """A declaration's citations — its `source` and the `also` citations of other rulebooks — with their places."""
    src = item.source
    if not isinstance(src, dict):
        return []
    at = item.at.child("source")
    return [(at, src)] + [(at.child("also", i), c) for i, c in enumerate(src.get("also", [])) if isinstance(c, dict)]
