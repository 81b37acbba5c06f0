"""A variant file's `include`: other YAML files whose patch operations follow its own.

A long house rule (or several variants sharing a set of operations) splits into files the way a
ruleset does. Each included file is a mapping with only `patch:`, named by a path inside the variant
file's own folder — for a variant of a ruleset's `variants/` folder that folder, for `--variant PATH`
the folder holding PATH — and read through the gate a ruleset's includes go through
(model/includes.py): nothing outside the folder, no link leading out, plain YAML only.

The variant is then one document (`VariantDoc`): its data with the operations of its includes
appended, every path still located in the file it came from, so a mistake in an included operation
is reported at its own file and line.
"""
from __future__ import annotations

import os
from pathlib import Path

from ...text import files
from ...text.errors import Collector
from ...text.yaml_source import YamlDoc
from ..includes import MAX_INCLUDES, read_include, too_many
from .positions import RoutedDoc

HINT = ("a variant's includes are confined to its own folder: put the file beside the variant "
        "(in a subfolder, for a ruleset's variants/ folder) and name it by a path inside that folder")


class VariantDoc(RoutedDoc):
    """A variant file with its includes: `patch` holds its own operations then each included file's;
    a path into `patch` is located in the file that operation came from, any other in the variant file."""

    def __init__(self, main: YamlDoc, places: list[tuple[YamlDoc, tuple]], parts: list[YamlDoc]):
        data = dict(main.data)
        data["patch"] = [doc.data_at(at) for doc, at in places]
        super().__init__(file=main.file, data=data, nodes=main.nodes, key_nodes=main.key_nodes,
                         lines=main.lines, text=main.text)
        self.main, self.places, self.parts = main, places, parts

    def _resolve(self, path) -> tuple[YamlDoc, tuple]:
        path = tuple(path)
        if len(path) >= 2 and path[0] == "patch" and isinstance(path[1], int) and 0 <= path[1] < len(self.places):
            doc, at = self.places[path[1]]
            return doc, tuple(at) + path[2:]
        return self.main, path

    def included_text(self) -> str:
        """The included files' texts, in order (what a record's digest of the variant covers too)."""
        return "".join("\0" + (part.text or "") for part in self.parts)


def folder_root(doc: YamlDoc) -> files.Root:
    """The folder a variant file's includes must stay in: the one holding it."""
    return files.Root.of(Path(os.path.abspath(doc.file)).parent, "the variant file's folder")


def included_paths(doc: YamlDoc, root: files.Root) -> set[Path]:
    """The files a variant names in `include` (as paths, unchecked): its folder's listing skips them."""
    names = doc.data.get("include") if isinstance(doc.data, dict) else None
    if not isinstance(names, list):
        return set()
    return {Path(os.path.normpath(root.path / n)) for n in names[:MAX_INCLUDES] if isinstance(n, str) and n}


def with_includes(doc: YamlDoc, errors: Collector, budget: files.Budget | None = None,
                  root: files.Root | None = None) -> YamlDoc | None:
    """The variant `doc` (already checked by the variant schema) with its includes' operations
    appended; `doc` itself when it includes nothing; None with the reasons in `errors`."""
    names = doc.data.get("include") or []
    if not names:
        return doc
    root = root or folder_root(doc)
    places: list[tuple[YamlDoc, tuple]] = [(doc, ("patch", i)) for i in range(len(doc.data.get("patch") or []))]
    parts: list[YamlDoc] = []
    ok = True
    for i, name in enumerate(too_many(names, doc.position(("include", MAX_INCLUDES)), errors, "variant")):
        part = read_include(root, name, doc.position(("include", i)), errors, budget, "the variant file's folder", HINT)
        if part is None or not _is_part(part, errors):
            ok = False
            continue
        parts.append(part)
        places += [(part, ("patch", j)) for j in range(len(part.data["patch"]))]
    return VariantDoc(doc, places, parts) if ok else None


def _is_part(part: YamlDoc, errors: Collector) -> bool:
    """An included file holds `patch:`, a list of operations, and nothing else (the variant's own
    keys — its id, title, parameters — belong in the variant file)."""
    data = part.data
    if not isinstance(data, dict) or not isinstance(data.get("patch"), list):
        errors.error(part.position(()), "an included variant file holds `patch:`, a list of operations",
                     "e.g. patch: [{op: set, section: constants, id: NAME, key: value, value: 3}]")
        return False
    extra = [k for k in data if k != "patch"]
    if extra:
        errors.error(part.position((extra[0],), key=True), f"'{extra[0]}' belongs in the variant file, not in an included file",
                     "an included file holds only `patch:`")
        return False
    return True
