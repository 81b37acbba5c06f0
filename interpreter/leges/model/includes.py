"""The gate an `include` goes through, for a ruleset's files and a variant's alike.

Rulesets and variant files are untrusted: an include names a file by a path relative to the
including file's folder, and that path must stay inside the folder it is confined to (a ruleset's
own folder; a variant file's own folder) — `..` and absolute paths are refused before anything is
read, and the file is then read through the file gate (`files.py`: a regular file, size-capped,
counted in the budget, no symbolic link leading out). Only plain YAML is read. One function for both,
so the two kinds of include can never drift apart in what they let through.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..text import files
from ..text.errors import Collector, LegesError, Position, did_you_mean
from ..text.yaml_source import YamlDoc, load_yaml_file

MAX_INCLUDES = 64


def read_include(root: files.Root, name: object, at: Position, errors: Collector, budget: files.Budget | None,
                 place: str, hint: str) -> YamlDoc | None:
    """The file `name` names inside `root`, read through the file gate, or None with the reason in
    `errors`, located at `at` (the include's entry). `place` words the folder in a message ("the
    ruleset folder"); `hint` says where includes may lead."""
    if not isinstance(name, str) or not name or "\0" in name:
        errors.error(at, "an include names a file by its path, as text", hint)
        return None
    target = Path(os.path.normpath(root.path / name))
    if not root.holds(target) or target == root.path:
        errors.error(at, f"include '{name}' is outside {place}", hint)
        return None
    if not target.exists() and not target.is_symlink():
        candidates = [str(p.relative_to(root.path)) for p in target.parent.glob("*.yaml")] if target.parent.is_dir() else []
        errors.error(at, f"included file '{name}' does not exist", did_you_mean(name, candidates))
        return None
    try:
        return load_yaml_file(str(target), files.display(target), roots=[root], budget=budget)
    except LegesError as exc:
        errors.extend(exc.diagnostics)
        return None


def too_many(includes: list, at: Position, errors: Collector, what: str) -> list:
    """The includes to read: the first MAX_INCLUDES, the rest reported at the first one past it."""
    if len(includes) > MAX_INCLUDES:
        errors.error(at, f"more than {MAX_INCLUDES} included files", f"the limit of includes per {what}; merge some files")
    return includes[:MAX_INCLUDES]
