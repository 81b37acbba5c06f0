"""Reading a ruleset folder: the main file, its includes and its map, checked by the schemas.

Rulesets are untrusted: only plain YAML is read, includes must stay inside the ruleset folder,
and a map is named, never given as a path.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..board.board import Board, build_board
from ..errors import Collector, Diagnostic, LegesError, Position, did_you_mean
from ..source import YamlDoc, load_yaml_file
from . import decl as d
from .schemas import validate
from .sections import BY_NAME, LIST_SECTIONS, ItemReader

MAIN_FILE = "ruleset.yaml"
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
        known = [p.stem for folder in [root, *root.parents][:4] for p in (folder / "maps").glob("*.yaml")]
        looked = f"looked for maps/{name}.yaml in the ruleset folder and the folders above it"
        close = did_you_mean(name, known)
        errors.error(at.position(), f"no map named '{name}'", f"{close} ({looked})" if close else looked)
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


@dataclass
class Entry:
    """One item of a list section, with the document it comes from (a ruleset file or a variant)."""

    section: str
    doc: YamlDoc
    path: tuple
    item: dict
    overrides: dict = field(default_factory=dict)  # key → (doc, path) of a value a variant set


def entries_of(docs: list[YamlDoc]) -> list[Entry]:
    return [Entry(section, doc, (section, i), item)
            for doc in docs for section in LIST_SECTIONS
            for i, item in enumerate(doc.data.get(section, []) or [])]


def build_ruleset(docs: list[YamlDoc], errors: Collector, entries: list[Entry] | None = None,
                  scalars: dict | None = None) -> d.Ruleset:
    main = docs[0]
    data = main.data
    scalars = scalars if scalars is not None else {}
    players = data.get("players", {})
    limits = dict(data.get("limits", {}))
    limits.update(scalars.get("limits", {}))
    rs = d.Ruleset(id=data.get("id", "unnamed"), title=data.get("title", data.get("id", "")),
                   version=str(data.get("version", "0")), root=str(Path(main.file).parent), docs=docs,
                   at=d.At(main, ()), description=data.get("description", ""),
                   min_players=players.get("min", 1), max_players=players.get("max", 1),
                   seats=players.get("seats", []), map=data.get("map"), map_at=d.At(main, ("map",)),
                   limits=limits)
    if not rs.seats:
        rs.seats = [{"name": f"p{i}"} for i in range(rs.max_players)]
    elif len(rs.seats) < rs.max_players:
        errors.error(main.position(("players", "seats")),
                     f"{len(rs.seats)} seats declared for up to {rs.max_players} players")
    if rs.min_players > rs.max_players:
        errors.error(main.position(("players",)), "players.min is larger than players.max")
    for entry in entries if entries is not None else entries_of(docs):
        _add(rs, entry)
    scoring = scalars.get("scoring") or (Entry("scoring", main, ("scoring",), data["scoring"]) if data.get("scoring") else None)
    if scoring is not None:
        _add(rs, scoring)
    return rs


def _add(rs: d.Ruleset, entry: Entry) -> None:
    section, item = entry.section, entry.item

    def where(*keys) -> tuple[YamlDoc, tuple]:
        if keys and keys[0] in entry.overrides:
            doc, path = entry.overrides[keys[0]]
            return doc, path + tuple(keys[1:])
        return entry.doc, entry.path + tuple(keys)

    def text(*keys):
        value = item
        for k in keys:
            if isinstance(value, list) and isinstance(k, int):
                value = value[k] if k < len(value) else None
            else:
                value = value.get(k) if isinstance(value, dict) else None
        doc, path = where(*keys)
        return _text(doc, path, value)

    at = d.At(entry.doc, entry.path)
    common = dict(id=item.get("id", ""), at=at, source=item.get("source"), description=item.get("description"),
                  patched={k: doc.file for k, (doc, _) in entry.overrides.items()})
    if section == "rulebooks":
        rs.rulebooks.append(dict(item, at=at))
        return
    if section in BY_NAME:
        getattr(rs, section).append(BY_NAME[section].build(ItemReader(item, text, where), common))
    elif section == "scoring":
        common["id"] = "scoring"
        rs.scoring = d.ScoringDecl(**common, score=text("score"),
                                   tiebreak=[text("tiebreak", i) for i in range(len(item.get("tiebreak", [])))])


def load_declarations(path: str, variants=()) -> tuple[d.Ruleset, Board | None, Collector]:
    """Load and schema-check a ruleset (with variants applied) and its map; raises if it cannot be read."""
    from .variants import apply_variants
    errors = Collector()
    docs = load_documents(path, errors)
    errors.raise_if_errors()
    entries, scalars, applied = apply_variants(docs, entries_of(docs), list(variants), errors)
    errors.raise_if_errors()
    rs = build_ruleset(docs, errors, entries, scalars)
    rs.variants = tuple(applied)
    board = None
    if rs.map:
        board = load_map(Path(rs.root).resolve(), rs.map, rs.map_at, errors)
    errors.raise_if_errors()
    return rs, board, errors
