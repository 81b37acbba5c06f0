"""What every command shares: exit statuses, loading a ruleset from the command line, progress."""
from __future__ import annotations

import os
import sys

from ..text.errors import Diagnostic, LegesError, Position

EXIT_OK, EXIT_FAIL, EXIT_INPUT = 0, 1, 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: leges itself failed


def variants_of(args) -> list[str]:
    """The --variant requests as typed: names of the ruleset's variants (`NAME`, `NAME=VALUE`), or paths of
    variant files outside it (model/variants/outside.py) — the command line may name a file, a page never."""
    return list(getattr(args, "variant", None) or [])


def load_ruleset(path: str, args):
    """The game at `path` under the variants named on the command line; a map or scenario is refused."""
    from .. import load
    kind = kind_of(path)
    if kind != "ruleset":
        raise LegesError(Diagnostic(Position(path, 1, 1), f"this is a {kind} file, not a ruleset",
                                    "give the ruleset's folder (or its ruleset.yaml)" +
                                    ("; a ruleset names its map with `map:`" if kind == "map" else
                                     "; switch a variant on with --variant NAME (or --variant PATH for a file of your own)" if kind == "variant" else
                                     "; run scenarios with `leges test`")))
    return load(path, variants=variants_of(args))


def seat_index(st, name: str) -> int:
    """The seat `--seat NAME` names; a name of no seat is an error of that option."""
    try:
        return st.player_index(name)
    except LegesError as exc:
        raise LegesError(Diagnostic(Position("--seat"), exc.diagnostics[0].message, exc.diagnostics[0].hint)) from None


def kind_of(path: str) -> str:
    from ..text.files import read_head
    if os.path.isdir(path):
        from ..authoring.scenario import find_scenarios
        if not os.path.exists(os.path.join(path, "ruleset.yaml")) and find_scenarios([path]):
            return "scenarios"  # a folder of scenarios (a ruleset's scenarios/)
        if os.path.basename(os.path.normpath(path)) == "variants" and \
                os.path.isfile(os.path.join(os.path.dirname(os.path.abspath(path)), "ruleset.yaml")):
            return "variants"  # a ruleset's variants/
        return "ruleset"
    head = read_head(path)  # "" for what is not a regular file (a FIFO must not block): loading reports why
    for line in head.splitlines():
        if line.startswith("leges_map:"):
            return "map"
        if line.startswith("leges_scenario:"):
            return "scenario"
        if line.startswith("leges_variant:"):
            return "variant"
    return "ruleset"


class Progress:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, done: int, total: int, seconds: float) -> None:
        if not self.enabled or (done % max(1, total // 200) and done != total):
            return
        width = 30
        filled = int(width * done / total)
        rate = done / seconds if seconds > 0 else 0.0
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:.1f}/s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
