"""What the names of a ruleset mean, as the compiler needs to know them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import types as T


@dataclass
class ZoneInfo:
    id: str
    per_player: bool = False
    count: int | None = None  # a row of numbered zones
    kind: str = "set"
    visibility: str = "all"


@dataclass
class VarInfo:
    id: str
    type: T.Ty
    per_player: bool = False


@dataclass
class Symbols:
    component_types: dict[str, dict[str, T.Ty]] = field(default_factory=dict)  # type → prop → Ty
    prop_values: dict[str, set] = field(default_factory=dict)  # prop → known string values
    zones: dict[str, ZoneInfo] = field(default_factory=dict)
    variables: dict[str, VarInfo] = field(default_factory=dict)
    constants: dict[str, tuple[T.Ty, Any]] = field(default_factory=dict)
    functions: dict[str, Any] = field(default_factory=dict)  # id → FunctionDecl
    procedures: dict[str, Any] = field(default_factory=dict)  # id → ProcedureDecl
    actions: dict[str, Any] = field(default_factory=dict)  # id → ActionDecl
    events: dict[str, dict[str, T.Ty]] = field(default_factory=dict)
    told: set[str] = field(default_factory=set)  # events with a phrase (`say:`): news for people, each a log line
    phases: set[str] = field(default_factory=set)
    seats: list[str] = field(default_factory=list)
    seat_props: dict[str, T.Ty] = field(default_factory=dict)
    space_props: dict[str, T.Ty] = field(default_factory=dict)
    space_ids: set[str] = field(default_factory=set)
    area_kinds: dict[str, dict[str, T.Ty]] = field(default_factory=dict)  # kind → prop → Ty
    area_ids: set[str] = field(default_factory=set)
    edge_props: dict[str, T.Ty] = field(default_factory=dict)
    dynamic_component_props: set[str] = field(default_factory=set)


def type_of_value(value: Any) -> T.Ty:
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.INT
    if isinstance(value, str):
        return T.STR
    if value is None:
        return T.NONE
    if isinstance(value, list):
        elem = T.NONE
        for v in value:
            elem = T.join(elem, type_of_value(v))
        return T.list_of(elem if elem != T.NONE else T.ANY)
    return T.ANY


def _split(text: str) -> list[str]:
    """The parts of a comma-separated list, commas inside parentheses left alone."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def parse_type(text: str) -> T.Ty | None:
    """Type names as written in declarations: `int`, `component`, `component(card)`, `list of space`,
    `(str, space)` (a tuple)."""
    text = text.strip()
    if text.startswith("list of "):
        inner = parse_type(text[len("list of "):])
        return T.list_of(inner) if inner else None
    if text.startswith("(") and text.endswith(")") and len(text) < 500:
        parsed = [parse_type(part) for part in _split(text[1:-1])]
        items = [t for t in parsed if t]
        return T.tuple_of(*items) if len(items) >= 2 and len(items) == len(parsed) else None
    if text.startswith("component(") and text.endswith(")"):
        return T.component(*[t.strip() for t in text[len("component("):-1].split(",")])
    if text.startswith("area(") and text.endswith(")"):
        return T.area(*[t.strip() for t in text[len("area("):-1].split(",")])
    return T.TYPE_NAMES.get(text)
