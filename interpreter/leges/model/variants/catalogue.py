"""The variants of a ruleset: the files of its `variants/` folder, read and schema-checked, and how they name each other."""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from pathlib import Path

from ...text import files
from ...text.errors import Collector, LegesError, Position, did_you_mean
from ...text.yaml_source import YamlDoc, load_yaml_file
from ..schemas import validate
from .parts import included_paths, with_includes


FOLDER = "variants"
RELATIONS = ("requires", "conflicts", "overrides")


@dataclass
class Variant:
    id: str
    doc: YamlDoc

    @property
    def data(self) -> dict:
        return self.doc.data

    @property
    def parameters(self) -> list[dict]:
        return self.data.get("parameters", [])

    def names(self, relation: str) -> list[str]:
        return [n for n in self.data.get(relation, []) if isinstance(n, str)]

    def names_variant(self, other: str) -> bool:
        return any(other in self.names(r) for r in RELATIONS)

    def citation(self) -> dict | None:
        """What a rule this variant brings cites when it says nothing itself: the variant's source, else its provenance."""
        if isinstance(self.data.get("source"), dict):
            return copy.deepcopy(self.data["source"])
        if isinstance(self.data.get("provenance"), dict):
            return {"provenance": copy.deepcopy(self.data["provenance"])}
        return None


MAX_VARIANTS = 32  # variant files in one ruleset's folder (the bundled games have at most 3)


def find_variants(root: Path, errors: Collector, budget: files.Budget | None = None) -> dict[str, Variant]:
    """Every variant file of a ruleset folder, schema-checked (read through the file gate, inside the folder)."""
    found: dict[str, Variant] = {}
    folder = root / FOLDER
    if not folder.is_dir():
        return found
    inside = [files.Root.of(root, "the ruleset's folder")]
    paths = sorted(folder.glob("*.yaml"))
    if len(paths) > MAX_VARIANTS:
        errors.error(Position(files.display(folder)), f"more than {MAX_VARIANTS} variant files",
                     "the limit of variants per ruleset")
        return found
    docs = []
    for path in paths:
        try:
            docs.append((path, load_yaml_file(str(path), files.display(path), roots=inside, budget=budget)))
        except LegesError as exc:
            errors.extend(exc.diagnostics)
    # a file a variant includes is a part of it, not a variant of its own (variants/parts.py)
    own = files.Root.of(folder, "the variant file's folder")
    parts = set().union(*(included_paths(doc, own) for _, doc in docs)) if docs else set()
    for path, doc in docs:
        if Path(os.path.normpath(own.path / path.name)) in parts:
            continue
        if not validate(doc, "variant", errors):
            continue
        whole = with_includes(doc, errors, budget, own)
        if whole is None or not validate(whole, "variant", errors):
            continue
        doc = whole
        vid = doc.data["id"]
        if vid in found:
            errors.error(doc.position(("id",)), f"variant '{vid}' is declared twice", f"also in {found[vid].doc.file}")
            continue
        found[vid] = Variant(vid, doc)
    return found


def check_relations(variant: Variant, available: dict[str, Variant], errors: Collector) -> None:
    """Every variant named in `requires`, `conflicts` and `overrides` exists (and is not the variant itself)."""
    for relation in RELATIONS:
        for j, name in enumerate(variant.data.get(relation, [])):
            where = variant.doc.position((relation, j))
            if name == variant.id:
                errors.error(where, f"variant '{variant.id}' names itself in `{relation}`")
            elif name not in available:
                others = [v for v in available if v != variant.id]
                errors.error(where, f"no variant '{name}' in this ruleset (named in `{relation}` of '{variant.id}')",
                             did_you_mean(name, others) or (
                                 "variants here: " + ", ".join(sorted(others)) if others else "this ruleset has no other variants"))


def variant_sets(available: dict[str, Variant]) -> list[tuple[str, ...]]:
    """The sets of variants `leges validate` loads: each variant alone (with those it requires), and each
    with every variant it overrides."""
    def closure(ids: list[str]) -> tuple[str, ...]:
        out = list(ids)
        for name in out:
            out += [n for n in available[name].names("requires") if n in available and n not in out]
        return tuple(out)
    sets = [closure([vid]) for vid in sorted(available)]
    sets += [closure([other, vid]) for vid in sorted(available) for other in available[vid].names("overrides")
             if other in available]
    unique: dict = {}
    for names in sets:
        unique.setdefault(frozenset(names), names)
    return list(unique.values())
