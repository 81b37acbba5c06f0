"""Reading a ruleset folder: the main file, its includes and its map, checked by the schemas.

Rulesets are untrusted: only plain YAML is read, every file goes through the file gate
(`files.py`: regular files only, size-capped, symbolic links may not lead out), includes must
stay inside the ruleset folder, and a map is named, never given as a path.
"""
from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from ..board.board import Board, build_board
from ..text import files
from ..text.errors import Collector, Diagnostic, LegesError, Position, did_you_mean
from ..text.yaml_source import YamlDoc, load_yaml_file
from . import decl as d
from .entries import Entry, entries_of
from .includes import MAX_INCLUDES, read_include, too_many
from .schemas import validate
from .sections import BY_NAME, ItemReader

MAIN_FILE = "ruleset.yaml"
MAIN_ONLY = ("leges", "id", "title", "version", "description", "players", "map", "include", "scoring", "limits")
MAP_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def find_ruleset_file(path: str) -> Path:
    """The main file of the ruleset at `path` (a folder or its main file), or of the bundled game so named."""
    p = Path(path)
    if p.is_dir():
        return p / MAIN_FILE
    if not p.exists() and not p.is_symlink():
        folder = files.bundled_ruleset(str(path))
        if folder is not None:
            return folder / MAIN_FILE
    return p


def ruleset_root(main_path: Path) -> files.Root:
    """The folder a ruleset's files must stay in: the real folder holding its main file."""
    return files.Root.of(main_path.parent, "the ruleset's folder")


def load_documents(path: str, errors: Collector, budget: files.Budget | None = None) -> list[YamlDoc]:
    """The main document and its includes, each valid against the ruleset schema."""
    main_path = find_ruleset_file(path)
    if not main_path.exists() and not main_path.is_symlink():
        names = files.bundled_names()
        raise LegesError(Diagnostic(Position(files.display(main_path)), "no ruleset here",
                                    f"a ruleset is a folder holding {MAIN_FILE}, or that file itself"
                                    + (f"; bundled games go by name: {', '.join(names)}" if names else "")))
    budget = budget if budget is not None else files.Budget()
    root = ruleset_root(main_path)
    main = load_yaml_file(str(main_path), files.display(main_path), roots=[root], budget=budget)
    if not validate(main, "ruleset", errors):
        return [main]
    docs = [main]
    includes = too_many(main.data.get("include", []), main.position(("include", MAX_INCLUDES)), errors, "ruleset")
    for i, name in enumerate(includes):
        doc = read_include(root, name, main.position(("include", i)), errors, budget, "the ruleset folder",
                           "includes are confined to the ruleset's own folder")
        if doc is None:
            continue
        if not validate(doc, "ruleset", errors):
            continue
        for key in doc.data:
            if key in MAIN_ONLY:
                errors.error(doc.position((key,), key=True), f"'{key}' belongs in {MAIN_FILE}, not in an included file")
        docs.append(doc)
    return docs


def map_folders(root: Path) -> list[Path]:
    """The `maps` folders a ruleset may take its map from: its own, those of three folders above, Leges' own."""
    found = [folder / "maps" for folder in [root, *root.parents][:4]]
    own = files.bundled("maps")
    return found + [own] if own is not None and own not in found else found


def find_map(root: Path, name: str) -> Path | None:
    """maps/<name>.yaml in the ruleset folder, else in a `maps` folder of an enclosing folder."""
    for folder in map_folders(root):
        candidate = folder / f"{name}.yaml"
        if candidate.exists() or candidate.is_symlink():
            return candidate
    return None


def _maps_root(path: Path) -> files.Root:
    """The maps folder a map was found in: neither the map nor that folder may be a link elsewhere."""
    return files.Root(Path(os.path.realpath(path.parent.parent)) / path.parent.name, "the maps folder")


def ruleset_tree(path: str | Path) -> tuple[dict[str, bytes], str]:
    """A copy of the ruleset at `path` as files (path → content), laid out to load as the original does.

    Its folder comes as NAME/... and its map, when that lies outside the folder, as maps/MAP.yaml
    beside it; also the ruleset's path in the copy (NAME, or NAME/FILE.yaml). Everything is read
    through the file gate (files.read_tree): `leges mutate` and the `--dask` bundle copy a stranger's
    folder so, never with a copy that follows links out of it or reads a device.
    """
    path = Path(path).resolve()
    folder = path if path.is_dir() else path.parent
    rs, _, _ = load_declarations(str(path))
    tree = {f"{folder.name}/{name}": data for name, data in files.read_tree(folder, files.display(folder)).items()}
    map_file = find_map(folder, rs.map) if rs.map else None
    if map_file is not None and folder not in Path(os.path.realpath(map_file)).parents:
        tree[f"maps/{map_file.name}"] = files.read_bytes(map_file, files.MAX_YAML_BYTES, files.display(map_file),
                                                         roots=[_maps_root(map_file)])
    return tree, folder.name if path.is_dir() else f"{folder.name}/{path.name}"


def load_map(root: Path, name: str, at: d.At, errors: Collector, budget: files.Budget | None = None) -> Board | None:
    if not MAP_NAME.match(name):
        errors.error(at.position(), f"map name '{name}' is not a plain name",
                     "name a map (maps/<name>.yaml); paths are not allowed")
        return None
    path = find_map(root, name)
    if path is None:
        known = [p.stem for folder in map_folders(root) if folder.is_dir() for p in folder.glob("*.yaml")]
        looked = f"looked for maps/{name}.yaml in the ruleset folder and the folders above it"
        close = did_you_mean(name, known)
        errors.error(at.position(), f"no map named '{name}'", f"{close} ({looked})" if close else looked)
        return None
    try:
        doc = load_yaml_file(str(path), files.display(path), roots=[_maps_root(path)], budget=budget)
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
                  say=item.get("say"), name=item.get("name"), asks=item.get("asks"),
                  patched={k: doc.file for k, (doc, _) in entry.overrides.items()})
    if section == "rulebooks":
        rs.rulebooks.append(dict(item, at=at))
        return
    kind = BY_NAME.get(section)
    if kind is not None and kind.build is not None:  # every list section but rulebooks (above) has a build
        getattr(rs, section).append(kind.build(ItemReader(item, text, where), common))
    elif section == "scoring":
        common["id"] = "scoring"
        rs.scoring = d.ScoringDecl(**common, score=text("score"),
                                   tiebreak=[text("tiebreak", i) for i in range(len(item.get("tiebreak", [])))])


MAX_COMPONENTS = 20_000  # components in one game, for any number of players
MAX_RULE_TEXT = 32_000  # characters of rule-language text in one ruleset (the bundled games: 7,000)


def _count(count, n: int) -> int:
    if isinstance(count, bool):
        return 0
    if isinstance(count, int):
        return count
    if isinstance(count, dict):
        value = count.get(str(n), 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0
    return 0


def _texts(obj, seen: set) -> list[d.Text]:
    """Every rule-language text held by a declaration (or anything inside it), in order."""
    if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None), YamlDoc, d.At)):
        return []
    seen.add(id(obj))
    if isinstance(obj, d.Text):
        return [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [t for f in dataclasses.fields(obj) for t in _texts(getattr(obj, f.name), seen)]
    if isinstance(obj, (list, tuple)):
        return [t for x in obj for t in _texts(x, seen)]
    if isinstance(obj, dict):
        return [t for x in obj.values() for t in _texts(x, seen)]
    return []


def check_sizes(rs: d.Ruleset, errors: Collector) -> None:
    """What compiling and playing a ruleset costs stays bounded, whoever wrote it; each limit is named.

    - The rule-language texts together stay under MAX_RULE_TEXT characters: compiling them is the
      slowest part of reading a ruleset (reported at the text that crosses the limit).
    - A game's components together stay under MAX_COMPONENTS (each count has its own maximum in
      the schema): a new game must not build millions of pieces.
    """
    total = 0
    for text in _texts(rs, set()):
        total += len(text.text)
        if total > MAX_RULE_TEXT:
            errors.error(text.at.position(), f"the ruleset's rules together are longer than {MAX_RULE_TEXT:,} "
                         "characters (the limit of rule-language text in one ruleset)",
                         "shorten them: a function can hold what several rules repeat")
            return
    for n in range(max(1, rs.min_players), min(rs.max_players, 64) + 1):
        total = 0
        for comp in rs.components:
            kinds = [c for _, c, _ in comp.instances] if comp.instances else [comp.count]
            total += sum(_count(c, n) for c in kinds) * (n if comp.per_player else 1)
            if total > MAX_COMPONENTS:
                errors.error(comp.at.child("count").position(), f"with {n} players the game would have more than "
                             f"{MAX_COMPONENTS:,} components (the limit for one game)",
                             "lower the counts; a component may stand for a stack of identical tokens via a variable")
                return


def load_declarations(path: str, variants=()) -> tuple[d.Ruleset, Board | None, Collector]:
    """Load and schema-check a ruleset (with variants applied) and its map; raises if it cannot be read."""
    from .variants.patch import apply_variants
    errors = Collector()
    budget = files.Budget()
    docs = load_documents(path, errors, budget)
    errors.raise_if_errors()
    entries, scalars, applied, outside = apply_variants(docs, entries_of(docs), list(variants), errors, budget)
    errors.raise_if_errors()
    rs = build_ruleset(docs, errors, entries, scalars)
    rs.variant_requests = tuple(applied)
    rs.variants = tuple(dict.fromkeys(re.split(r"[.=]", r, maxsplit=1)[0] for r in applied))  # the ids
    rs.variant_files = tuple(outside)  # variant files outside the ruleset (--variant PATH), for records
    check_sizes(rs, errors)
    board = None
    if rs.map:
        assert rs.map_at is not None  # build_ruleset places the map's key with it
        board = load_map(Path(rs.root).resolve(), rs.map, rs.map_at, errors, budget)
    errors.raise_if_errors()
    return rs, board, errors
