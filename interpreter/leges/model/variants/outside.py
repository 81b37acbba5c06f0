"""Variant files outside the ruleset: `--variant path/to/house.yaml`, a house rule kept beside the
player's own files rather than in the game's `variants/` folder (which, for an installed game, lies
in site-packages).

Only the command line names such a file: a request is a path when it ends in .yaml or .yml or holds
a path separator, and `check_requests` (the page's, a record's) never takes one. The file is read
through the same gate as a ruleset's own files — a regular file, size-capped, counted in the
ruleset's budget, confined to its own folder (a symbolic link may not lead out of it) — and checked
by the variant schema, its id as strictly as a requested name. Once read it is one more variant of
the ruleset, named by its id (`house_rule.PARAM=3` sets its parameters); its path as given and the
digest of its bytes go into game records so that a replay finds it, or says which file it needs.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ...text import files
from ...text.errors import Collector, Diagnostic, LegesError, Position
from ...text.terminal import shown
from ...text.yaml_source import load_yaml_text
from ..schemas import validate
from .catalogue import Variant
from .parts import VariantDoc, with_includes

SUFFIXES = (".yaml", ".yml")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class VariantFile:
    """A variant read from a file outside the ruleset: its id, its path as given, its content's digest."""

    id: str
    path: str
    sha256: str

    def as_record(self) -> dict:
        return {"id": self.id, "path": self.path, "sha256": self.sha256}


ASSIGNS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?=")  # NAME=, NAME.PARAM=


def is_path(request: str) -> bool:
    """A request naming a file rather than a variant of the ruleset (names never hold '/', '.yaml' ends
    none); `NAME=VALUE` sets a parameter whatever its value holds (`motto=a/b.yaml`)."""
    if ASSIGNS.match(request):
        return False
    return request.endswith(SUFFIXES) or "/" in request or os.sep in request


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_outside(path: str, number: int, errors: Collector, budget: files.Budget | None = None,
                 origin: str = "--variant") -> tuple[Variant, VariantFile] | None:
    """The variant in the file at `path` (the `number`-th request), read through the file gate, or
    None with the reasons in `errors` (located in the file, or at the request when it cannot be read)."""
    if "\0" in path or len(path) > 4096:
        errors.error(Position(origin, number, 1), "not a valid variant file name", "give the path of a .yaml file")
        return None
    shown = files.display(path)
    real = os.path.expanduser(path)  # '~/house.yaml' quoted, so the shell left the '~'
    folder = _root_of(real)
    try:
        data = files.read_bytes(real, files.MAX_YAML_BYTES, shown, roots=[folder], what="variant file")
        text = files.decode(data, shown, "variant file")
        if budget is not None:
            budget.take(len(text), shown)
        doc = load_yaml_text(text, shown)
        if budget is not None:
            budget.take_values(len(doc.nodes), shown)
    except LegesError as exc:
        errors.extend(exc.diagnostics)
        return None
    if not isinstance(doc.data, dict) or "leges_variant" not in doc.data:
        errors.error(Position(shown, 1, 1), "this file is not a variant (it has no `leges_variant: 1`)",
                     "--variant PATH takes a variant file: leges_variant, id, title, kind, patch")
        return None
    if not validate(doc, "variant", errors):
        return None
    whole = with_includes(doc, errors, budget, folder)  # its includes, confined to its own folder
    if whole is None or not validate(whole, "variant", errors):
        return None
    doc = whole
    vid = doc.data["id"]
    if not isinstance(vid, str) or not NAME.match(vid):  # the schema's pattern, said again: names echo into records
        errors.error(doc.position(("id",)), "a variant id is written with ASCII letters, digits and '_'",
                     "e.g. id: my_house_rule")
        return None
    included = doc.included_text().encode() if isinstance(doc, VariantDoc) else b""  # a changed include changes it too
    return Variant(vid, doc), VariantFile(vid, path, digest(data + included))


def _root_of(path: str) -> files.Root:
    """The folder a variant file may read from: its own (the folder as given, so a link out of it is refused)."""
    return files.Root.of(Path(os.path.abspath(path)).parent, "the variant file's folder")


def resolve_paths(requests: list[str], available: dict[str, Variant], errors: Collector,
                  budget: files.Budget | None = None) -> tuple[list[str], list[VariantFile]]:
    """The requests with each path replaced by the id of the variant its file declares (added to
    `available`), and those files. A file's id may not be one of the ruleset's own variants, nor
    another file's: which would be meant is not clear."""
    out: list[str] = []
    found: list[VariantFile] = []
    for number, request in enumerate(requests, 1):
        if not is_path(request):
            out.append(request)
            continue
        read = read_outside(request, number, errors, budget)
        if read is None:
            continue
        variant, file = read
        if variant.id in available:
            other = available[variant.id].doc.file
            if other == variant.doc.file:
                out.append(variant.id)
                continue
            errors.error(variant.doc.position(("id",)), f"variant '{variant.id}' is declared twice",
                         f"also in {other}: give this house rule an id of its own")
            continue
        available[variant.id] = variant
        found.append(file)
        out.append(variant.id)
    return out, found


def check_recorded(record_files: object, game_files: list[VariantFile], at: Position) -> None:
    """A record's variant files against those the game was loaded with: each the same bytes (digest)."""
    if not record_files:
        return
    if not isinstance(record_files, list):
        raise LegesError(Diagnostic(at, "the record's 'variant_files' should be a list"))
    loaded = {f.id: f for f in game_files}
    for entry in record_files:
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("id", "path", "sha256")):
            raise LegesError(Diagnostic(at, "the record's 'variant_files' holds an entry that is not "
                                            "{id, path, sha256} texts"))
        mine = loaded.get(entry["id"])
        if mine is None:  # the record's texts (a stranger's) shown escaped and bounded
            named = shown(entry["path"], 200)
            raise LegesError(Diagnostic(at, f"the record was played under the variant file "
                                            f"'{named}' (variant '{shown(entry['id'], 60)}'), which is not loaded",
                                        f"give it: --variant {named}"))
        if mine.sha256 != entry["sha256"]:
            raise LegesError(Diagnostic(at, f"the variant file {files.display(mine.path)} is not the one the record "
                                            f"was played under (its content differs: sha256 {mine.sha256[:12]}…, "
                                            f"recorded {entry['sha256'][:12]}…)",
                                        "replay with the variant file as it was when the game was played"))
