"""What `leges validate` checks of a ruleset beyond its own files: every variant set, every scenario.

A variant file is checked by loading the ruleset with it (and with what it requires), and with
each variant it overrides; a scenario is checked without being played (scenario.check_file).
"""
from __future__ import annotations

from ..text.errors import Collector, Diagnostic, LegesError


def check_parts(path: str) -> str:
    """Every variant file of the ruleset (each alone, and the combinations declared) and every scenario
    under it, checked; raises with all their problems, else says what was checked."""
    from .scenario import check_folder
    games: dict = {}
    sets = check_variant_files(path, games)
    scenarios = check_folder(path, games)
    parts = [f"{len(sets)} variant set{'s' if len(sets) != 1 else ''}" if sets else "",
             f"{scenarios} scenario{'s' if scenarios != 1 else ''}" if scenarios else ""]
    parts = [p for p in parts if p]
    return f"; checked {' and '.join(parts)}" if parts else ""


def check_variant_files(path: str, games: dict | None = None) -> list[tuple[str, ...]]:
    """Load the ruleset at `path` under every variant set (`variant_sets`); raises with every problem found
    (each once). `games` receives the games loaded, by (folder, names)."""
    from .. import load
    from ..model.loader import find_ruleset_file
    from ..model.variants.catalogue import check_relations, find_variants, variant_sets
    root = find_ruleset_file(path).resolve().parent
    errors = Collector()
    available = find_variants(root, errors)
    for variant in available.values():
        check_relations(variant, available, errors)
    errors.raise_if_errors()
    sets = variant_sets(available)
    for names in sets:
        try:
            game = load(path, variants=list(names))
        except LegesError as exc:
            mine = {available[n].doc.file for n in names}
            for d in exc.diagnostics:
                if d.position.file not in mine and d.position.file != "--variant":
                    d = Diagnostic(d.position, f"{d.message} (with variant{'s' if len(names) > 1 else ''} "
                                   f"{', '.join(names)})", d.hint, d.severity)
                if d not in errors.diagnostics:
                    errors.diagnostics.append(d)
            continue
        if games is not None:
            games[(str(root), names)] = game
    errors.raise_if_errors()
    return sets
