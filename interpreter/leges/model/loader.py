"""Reading a ruleset folder: the main file, its includes and its map, checked by the schemas.

Rulesets are untrusted: only plain YAML is read, includes must stay inside the ruleset folder,
and a map is named, never given as a path.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..board.board import Board, build_board
from ..errors import Collector, Diagnostic, LegesError, Position, did_you_mean
from ..source import YamlDoc, load_yaml_file
from . import decl as d
from .schemas import validate

MAIN_FILE = "ruleset.yaml"
LIST_SECTIONS = ("rulebooks", "constants", "components", "zones", "variables", "functions", "procedures",
                 "events", "setup", "phases", "actions", "triggers", "readings", "invariants")
MAIN_ONLY = ("leges", "id", "title", "version", "description", "players", "map", "include", "scoring", "limits")
MAX_INCLUDES = 64
MAP_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def find_ruleset_file(path: str) -> Path:
    p = Path(path)
    if p.is_dir():
        return p / MAIN_FILE
    return p


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def load_documents(path: str, errors: Collector) -> list[YamlDoc]:
    """The main document and its includes, each valid against the ruleset schema."""
    main_path = find_ruleset_file(path)
    if not main_path.exists():
        raise LegesError(Diagnostic(Position(_display(main_path)), "no ruleset here",
                                    f"a ruleset is a folder holding {MAIN_FILE}, or that file itself"))
    main = load_yaml_file(str(main_path), _display(main_path))
    if not validate(main, "ruleset", errors):
        return [main]
    docs = [main]
    root = main_path.parent.resolve()
    for i, name in enumerate(main.data.get("include", [])[:MAX_INCLUDES]):
        target = (root / name).resolve()
        if root not in target.parents:
            errors.error(main.position(("include", i)), f"include '{name}' is outside the ruleset folder",
                         "includes are confined to the ruleset's own folder")
            continue
        if not target.exists():
            candidates = [p.name for p in root.glob("*.yaml")]
            errors.error(main.position(("include", i)), f"included file '{name}' does not exist",
                         did_you_mean(name, candidates))
            continue
        try:
            doc = load_yaml_file(str(target), _display(target))
        except LegesError as exc:
            errors.extend(exc.diagnostics)
            continue
        if not validate(doc, "ruleset", errors):
            continue
        for key in doc.data:
            if key in MAIN_ONLY:
                errors.error(doc.position((key,), key=True), f"'{key}' belongs in {MAIN_FILE}, not in an included file")
        docs.append(doc)
    return docs


def find_map(root: Path, name: str) -> Path | None:
    """maps/<name>.yaml in the ruleset folder, else in a `maps` folder of an enclosing folder."""
    for folder in [root, *root.parents][:4]:
        candidate = folder / "maps" / f"{name}.yaml"
        if candidate.exists():
            return candidate
    return None


def load_map(root: Path, name: str, at: d.At, errors: Collector) -> Board | None:
    if not MAP_NAME.match(name):
        errors.error(at.position(), f"map name '{name}' is not a plain name",
                     "name a map (maps/<name>.yaml); paths are not allowed")
        return None
    path = find_map(root, name)
    if path is None:
        errors.error(at.position(), f"no map named '{name}'",
                     f"looked for maps/{name}.yaml in the ruleset folder and the folders above it")
        return None
    try:
        doc = load_yaml_file(str(path), _display(path))
    except LegesError as exc:
        errors.extend(exc.diagnostics)
        return None
    if not validate(doc, "map", errors):
        return None
    return build_board(doc, errors)


def _text(doc: YamlDoc, path: tuple, value) -> d.Text | None:
    if value is None:
        return None
    return d.Text(str(value), d.At(doc, path))


def build_ruleset(docs: list[YamlDoc], errors: Collector) -> d.Ruleset:
    main = docs[0]
    data = main.data
    players = data.get("players", {})
    rs = d.Ruleset(id=data.get("id", "unnamed"), title=data.get("title", data.get("id", "")),
                   version=str(data.get("version", "0")), root=str(Path(main.file).parent), docs=docs,
                   at=d.At(main, ()), description=data.get("description", ""),
                   min_players=players.get("min", 1), max_players=players.get("max", 1),
                   seats=players.get("seats", []), map=data.get("map"), map_at=d.At(main, ("map",)),
                   limits=data.get("limits", {}))
    if not rs.seats:
        rs.seats = [{"name": f"p{i}"} for i in range(rs.max_players)]
    elif len(rs.seats) < rs.max_players:
        errors.error(main.position(("players", "seats")),
                     f"{len(rs.seats)} seats declared for up to {rs.max_players} players")
    if rs.min_players > rs.max_players:
        errors.error(main.position(("players",)), "players.min is larger than players.max")
    for doc in docs:
        for section in LIST_SECTIONS:
            for i, item in enumerate(doc.data.get(section, []) or []):
                _add(rs, section, doc, (section, i), item)
    sc = data.get("scoring")
    if sc:
        rs.scoring = d.ScoringDecl(id="scoring", at=d.At(main, ("scoring",)), source=sc.get("source"),
                                   description=sc.get("description"),
                                   score=_text(main, ("scoring", "score"), sc["score"]),
                                   tiebreak=[_text(main, ("scoring", "tiebreak", i), t)
                                             for i, t in enumerate(sc.get("tiebreak", []))])
    return rs


def _add(rs: d.Ruleset, section: str, doc: YamlDoc, path: tuple, item: dict) -> None:
    at = d.At(doc, path)
    common = dict(id=item.get("id", ""), at=at, source=item.get("source"), description=item.get("description"))
    if section == "rulebooks":
        rs.rulebooks.append(dict(item, at=at))
    elif section == "constants":
        rs.constants.append(d.ConstantDecl(**common, value=item["value"]))
    elif section == "components":
        instances = [({k: v for k, v in inst.items() if k not in ("count", "provenance")}, inst.get("count", 1),
                      d.At(doc, path + ("instances", j)))
                     for j, inst in enumerate(item.get("instances", []))]
        rs.components.append(d.ComponentDecl(
            **common, per_player=item.get("per_player", False), count=item.get("count", 1),
            props=item.get("props", {}), instances=instances, start=item.get("start"),
            label=_text(doc, path + ("label",), item.get("label")), box=item.get("box"),
            provenance=item.get("provenance")))
    elif section == "zones":
        rs.zones.append(d.ZoneDecl(**common, kind=item.get("kind", "set"), per_player=item.get("per_player", False),
                                   count=item.get("count"), visibility=item.get("visibility", "all")))
    elif section == "variables":
        rs.variables.append(d.VariableDecl(**common, per_player=item.get("per_player", False),
                                           initial=item.get("initial"), type=item.get("type"),
                                           visibility=item.get("visibility", "all")))
    elif section == "functions":
        rs.functions.append(d.FunctionDecl(**common, params=item.get("params", []),
                                           body=_text(doc, path + ("body",), item["body"])))
    elif section == "procedures":
        rs.procedures.append(d.ProcedureDecl(**common, params=item.get("params", []),
                                             body=_text(doc, path + ("body",), item["body"])))
    elif section == "events":
        rs.events.append(d.EventDecl(**common, params=item.get("params", {})))
    elif section == "setup":
        rs.setup.append(d.SetupDecl(**common, effect=_text(doc, path + ("effect",), item["effect"])))
    elif section == "phases":
        rs.phases.append(d.PhaseDecl(
            **common, first=_text(doc, path + ("first",), item.get("first")),
            order=_text(doc, path + ("order",), item.get("order")),
            on_begin=_text(doc, path + ("on_begin",), item.get("on_begin")),
            turn=_text(doc, path + ("turn",), item.get("turn")),
            end_if=_text(doc, path + ("end_if",), item.get("end_if")),
            on_end=_text(doc, path + ("on_end",), item.get("on_end")), next=item.get("next")))
    elif section == "actions":
        params = [(name, _text(doc, path + ("params", name), text)) for name, text in (item.get("params") or {}).items()]
        rs.actions.append(d.ActionDecl(**common, params=params, args=item.get("args", {}), require=_text(doc, path + ("require",), item.get("require")),
                                       effect=_text(doc, path + ("effect",), item["effect"]),
                                       anytime=item.get("anytime", False)))
    elif section == "triggers":
        rs.triggers.append(d.TriggerDecl(**common, on=item["on"], condition=_text(doc, path + ("if",), item.get("if")),
                                         effect=_text(doc, path + ("effect",), item["effect"])))
    elif section == "invariants":
        rs.invariants.append(d.InvariantDecl(**common, check=_text(doc, path + ("check",), item["check"])))
    elif section == "readings":
        rs.readings.append(d.ReadingDecl(**common, kind=item.get("kind"), question=item.get("question"),
                                         text=item.get("text", "")))


def load_declarations(path: str) -> tuple[d.Ruleset, Board | None, Collector]:
    """Load and schema-check a ruleset and its map; raises if the files cannot be read as declared."""
    errors = Collector()
    docs = load_documents(path, errors)
    errors.raise_if_errors()
    rs = build_ruleset(docs, errors)
    board = None
    if rs.map:
        board = load_map(Path(rs.root).resolve(), rs.map, rs.map_at, errors)
    errors.raise_if_errors()
    return rs, board, errors
