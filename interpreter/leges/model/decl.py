"""The declarations of a ruleset, as loaded from its YAML files (before compilation).

Each declaration remembers where it was written (`At`), so every later check — name
resolution, types, consistency — can report the file, line and column of the problem.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..text.errors import Position
from ..text.origin import TextOrigin
from ..text.yaml_source import YamlDoc

SEAT_WORDS = "say"  # a seat's display names per language: words for people, not a property rules read


@dataclass(frozen=True)
class At:
    """A place in a loaded document: the document and the path of a value in it."""

    doc: YamlDoc
    path: tuple

    def position(self, key: bool = False) -> Position:
        return self.doc.position(self.path, key=key)

    def origin(self) -> TextOrigin:
        return self.doc.text_origin(self.path)

    def child(self, *keys: Any) -> "At":
        return At(self.doc, self.path + tuple(keys))

    @property
    def file(self) -> str:
        return self.doc.file


@dataclass
class Text:
    """Rule-language text and where it was written."""

    text: str
    at: At


@dataclass
class Decl:
    id: str
    at: At
    source: dict | None = None
    description: str | None = None
    patched: dict = field(default_factory=dict)  # key → file of the variant that set it
    say: dict | None = None  # an action's or event's phrase per language: {"en": "Move {from} to {to}"}
    name: dict | None = None  # a component's or zone's display name per language
    asks: dict | None = None  # the phrases of the choices a rule asks (`choose ... as LABEL`): label → {lang: phrase}


@dataclass
class ConstantDecl(Decl):
    value: Any = None


@dataclass
class ComponentDecl(Decl):
    per_player: bool = False
    count: Any = 1  # int or {"n": int}
    props: dict = field(default_factory=dict)
    instances: list = field(default_factory=list)  # [(props, count, At)]
    start: str | None = None
    label: Text | None = None
    box: dict | None = None
    provenance: dict | None = None


@dataclass
class ZoneDecl(Decl):
    kind: str = "set"
    per_player: bool = False
    count: Any = None  # a row of numbered zones: how many (int), or how many per player count ({"3": 4})
    visibility: str = "all"


@dataclass
class VariableDecl(Decl):
    per_player: bool = False
    initial: Any = None
    type: str | None = None
    visibility: str = "all"
    scope: str = "game"  # game; turn or phase: back to `initial` when every turn (phase) begins


@dataclass
class FunctionDecl(Decl):
    params: list = field(default_factory=list)
    body: Text | None = None


@dataclass
class ProcedureDecl(Decl):
    params: list = field(default_factory=list)
    body: Text | None = None


@dataclass
class EventDecl(Decl):
    params: dict = field(default_factory=dict)


@dataclass
class SetupDecl(Decl):
    effect: Text | None = None


@dataclass
class PhaseDecl(Decl):
    first: Text | None = None
    order: Text | None = None
    on_begin: Text | None = None
    turn: Text | None = None
    end_if: Text | None = None
    on_end: Text | None = None
    next: str | None = None


@dataclass
class ActionDecl(Decl):
    params: list = field(default_factory=list)  # [(name, Text)]
    args: dict = field(default_factory=dict)  # name → type name, given by `act NAME(arg=...)`
    require: Text | None = None
    effect: Text | None = None
    anytime: bool = False
    secret: bool = False
    ask_alone: bool = False  # asked even as a decision's only option (engine/program/decisions.py `_ask`)


@dataclass
class TriggerDecl(Decl):
    on: str = ""
    condition: Text | None = None
    effect: Text | None = None


@dataclass
class ReadingDecl(Decl):
    kind: str | None = None
    question: str | None = None
    text: str = ""


@dataclass
class InvariantDecl(Decl):
    check: Text | None = None


@dataclass
class CheckDecl(Decl):
    check: Text | None = None
    compares: list = field(default_factory=list)
    players: int | None = None


@dataclass
class HeuristicDecl(Decl):
    """A player's estimated value (`p` is the player), for agents that look ahead."""

    value: Text | None = None


@dataclass
class StatisticDecl(Decl):
    """A figure measured at the end of a game: one value, or one per player (`p`)."""

    value: Text | None = None
    per_player: bool = False
    when: str = "end"  # end, turn, round, decision, after ACTION (measures.py)
    aggregate: str | None = None  # how values measured along a game make its figure


@dataclass
class HighlightDecl(Decl):
    """Spaces to mark on the pictures (the winning line): not a rule, so nothing in play reads it."""

    spaces: Text | None = None  # a list of spaces, or a list of such lists (one mark each)
    shape: str = "cells"  # cells: each space outlined and tinted; line: a stroke through their centres
    when: str = "end"  # end: only once the game is over; always: at every position
    colour: str | None = None


@dataclass
class ScoringDecl(Decl):
    score: Text | None = None
    tiebreak: list = field(default_factory=list)


@dataclass
class Ruleset:
    """Everything a ruleset declares, merged from its main file and includes."""

    id: str
    title: str
    version: str
    root: str  # folder of the ruleset
    docs: list[YamlDoc]
    at: At
    description: str = ""
    rulebooks: list = field(default_factory=list)
    min_players: int = 1
    max_players: int = 1
    seats: list = field(default_factory=list)  # {name, say (SEAT_WORDS), other properties} per seat
    map: str | None = None
    map_at: At | None = None
    constants: list[ConstantDecl] = field(default_factory=list)
    components: list[ComponentDecl] = field(default_factory=list)
    zones: list[ZoneDecl] = field(default_factory=list)
    variables: list[VariableDecl] = field(default_factory=list)
    functions: list[FunctionDecl] = field(default_factory=list)
    procedures: list[ProcedureDecl] = field(default_factory=list)
    events: list[EventDecl] = field(default_factory=list)
    setup: list[SetupDecl] = field(default_factory=list)
    phases: list[PhaseDecl] = field(default_factory=list)
    actions: list[ActionDecl] = field(default_factory=list)
    triggers: list[TriggerDecl] = field(default_factory=list)
    readings: list[ReadingDecl] = field(default_factory=list)
    invariants: list[InvariantDecl] = field(default_factory=list)
    checks: list[CheckDecl] = field(default_factory=list)
    heuristics: list[HeuristicDecl] = field(default_factory=list)
    statistics: list[StatisticDecl] = field(default_factory=list)
    highlights: list[HighlightDecl] = field(default_factory=list)
    scoring: ScoringDecl | None = None
    limits: dict = field(default_factory=dict)
    variants: tuple = ()
    variant_files: tuple = ()  # variant files outside the ruleset (--variant PATH): variants/outside.VariantFile
    variant_requests: tuple = ()  # the --variant requests applied, with their parameters' values (for records)
