"""The passes over the generated code's Python tree, in the order they run (optimised build only).

Each is a pure function from a parsed module to a module, keeping the lines of the generated
source (where a rule failed is read from them), with its own differential test; the reference
build (`optimise=False`) compiles its source as written. `PASSES` names them, so that one can be
switched off to measure it or to find which one a difference comes from.
"""
from __future__ import annotations

import ast
from collections.abc import Callable

from .charges_in_place import charge_in_place
from .common_reads import bind_common_reads
from .invariant_reads import bind_invariant_reads

# charges first: the lists it binds are then plain locals that the reads pass leaves alone
PASSES: dict[str, Callable[[ast.Module], ast.Module]] = {
    "charges_in_place": charge_in_place,
    "invariant_reads": bind_invariant_reads,
    "common_reads": bind_common_reads,  # after invariant_reads: `_st_zones[s]` is then one read
}
OFF: set[str] = set()  # names of passes switched off (tests and measurements)


class _Passes:
    """The passes as one transform; `cache_key` names those that run (compiled code is cached by it)."""

    @property
    def cache_key(self) -> str:
        return "python_passes:" + ",".join(name for name in PASSES if name not in OFF)

    def __call__(self, module: ast.Module) -> ast.Module:
        for name, run in PASSES.items():
            if name not in OFF:
                module = run(module)
        return module


python_passes = _Passes()
