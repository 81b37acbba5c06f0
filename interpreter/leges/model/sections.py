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


MAX_KINDS = 10_000  # kinds of a component type that `each` may make


def _each(each: dict, at: d.At) -> list[dict]:
    """The kinds an `each` makes: one for every combination of the values of its properties (each a
    list, or a range {from: A, to: B} of whole numbers, both included), the first property varying
    slowest — as nested loops, in the order written."""
    from ..text.errors import Diagnostic, LegesError
    columns = []
    for name, values in each.items():
        if isinstance(values, dict):
            lo, hi = values["from"], values["to"]  # the ruleset schema requires both, whole numbers
            if hi < lo:
                raise LegesError(Diagnostic(at.child(name).position(), f"'each': the range of '{name}' from {lo} to {hi} is empty",
                                            "a range runs from the smaller number to the larger, both included"))
            values = list(range(lo, min(hi, lo + MAX_KINDS) + 1))
        columns.append((name, values))
    total = 1
    for _, values in columns:
        total *= len(values)
        if total > MAX_KINDS:
            raise LegesError(Diagnostic(at.position(), f"'each' makes more than {MAX_KINDS:,} kinds of component",
                                        "fewer values, or a count on fewer kinds"))
    kinds: list[dict] = [{}]
    for name, values in columns:
        kinds = [{**kind, name: v} for kind in kinds for v in values]
    return kinds


def _component(r: ItemReader, common: dict) -> d.ComponentDecl:
    doc, path = r.where("instances")
    entries = r.get("instances", [])
    if "each" in r.item:  # a shorthand for one kind of instance that makes many
        doc, path = r.where()
        entries = [{"each": r.get("each")}]
        if "instances" in r.item:
            from ..text.errors import Diagnostic, LegesError
            raise LegesError(Diagnostic(d.At(doc, path + ("each",)).position(), "a component has `each` or `instances`, not both",
                                        "put `each` inside an entry of `instances`: it makes that entry's kinds"))
    instances = []
    for j, inst in enumerate(entries):
        at = d.At(doc, path + (j,)) if "each" not in r.item else d.At(doc, path)
        values = {k: v for k, v in inst.items() if k not in ("count", "provenance", "each")}
        if "each" in inst:
            where = at.child("each") if "each" not in r.item else d.At(doc, path + ("each",))
            instances += [({**values, **made}, inst.get("count", 1), at) for made in _each(inst["each"], where)]
        else:
            instances.append((values, inst.get("count", 1), at))
    return d.ComponentDecl(**common, per_player=r.get("per_player", False), count=r.get("count", 1),
                           props=r.get("props", {}), instances=instances, start=r.get("start"),
                           label=r.text("label"), box=r.get("box"), provenance=r.get("provenance"))


def _action(r: ItemReader, common: dict) -> d.ActionDecl:
    params = [(name, r.text("params", name)) for name in (r.get("params") or {})]
    return d.ActionDecl(**common, params=params, args=r.get("args", {}), require=r.text("require"),
                        effect=r.text("effect"), anytime=r.get("anytime", False), secret=r.get("secret", False),
                        ask_alone=r.get("ask_alone", False))


SECTIONS: tuple[Section, ...] = (
    Section("rulebooks", "rulebook", None),
    Section("constants", "constant", lambda r, c: d.ConstantDecl(**c, value=r.get("value"))),
    Section("components", "component", _component),
    Section("zones", "zone", lambda r, c: d.ZoneDecl(
        **c, kind=r.get("kind", "set"), per_player=r.get("per_player", False), count=r.get("count"),
        visibility=r.get("visibility", "all"))),
    Section("variables", "variable", lambda r, c: d.VariableDecl(
        **c, per_player=r.get("per_player", False), initial=r.get("initial"), type=r.get("type"),
        visibility=r.get("visibility", "all"), scope=r.get("scope", "game"))),
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
        **c, value=r.text("value"), per_player=r.get("per_player", False), when=r.get("when", "end"),
        aggregate=r.get("aggregate")),
            description="figures measured in every simulated game: at its end, or along it"),
    Section("highlights", "highlight", lambda r, c: d.HighlightDecl(
        **c, spaces=r.text("spaces"), shape=r.get("shape", "cells"), when=r.get("when", "end"), colour=r.get("colour")),
            description="spaces the pictures mark: a winning line at the end"),
)
BY_NAME: dict[str, Section] = {s.name: s for s in SECTIONS}
LIST_SECTIONS: tuple[str, ...] = tuple(s.name for s in SECTIONS)
RULE_SECTIONS: tuple[str, ...] = tuple(s.name for s in SECTIONS if s.build is not None)  # items with an id
# the keys of each section's items that hold rule-language expressions (those holding programs: the
# Section's `programs`); the scalar section `scoring` included
EXPRESSIONS: dict[str, frozenset] = {
    "components": frozenset({"label"}), "functions": frozenset({"body"}),
    "phases": frozenset({"first", "order", "end_if"}), "actions": frozenset({"params", "require"}),
    "triggers": frozenset({"if"}), "invariants": frozenset({"check"}), "checks": frozenset({"check"}),
    "heuristics": frozenset({"value"}), "statistics": frozenset({"value"}),
    "highlights": frozenset({"spaces"}), "scoring": frozenset({"score", "tiebreak"}),
}


def rule_keys(section: str) -> frozenset:
    """Every key of the section's items that holds rule text: programs and expressions."""
    programs = BY_NAME[section].programs if section in BY_NAME else frozenset()
    return programs | EXPRESSIONS.get(section, frozenset())


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
