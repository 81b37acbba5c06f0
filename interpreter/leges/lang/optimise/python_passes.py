"""The passes over the generated code's Python tree, in the order they run (optimised build only).

Each is a pure function from a parsed module to a module, keeping the lines of the generated
source (where a rule failed is read from them), with its own differential test; the reference
build (`optimise=False`) compiles its source as written. `PASSES` names them, so that one can be
switched off to measure it or to find which one a difference comes from.
"""
from __future__ import annotations

import ast
from collections.abc import Callable

from .invariant_reads import bind_invariant_reads

# Two more were written and measured (valgrind, instructions a play-out action of the bundled
# games, each switched off alone): charging a statement's first-evaluated lists in place instead
# of calling `H.each`, and binding a read an expression repeats; neither saved 1.5 % of any game's,
# nor earned its 190 lines (docs/design.md, the road to a generated engine)
PASSES: dict[str, Callable[[ast.Module], ast.Module]] = {
    "invariant_reads": bind_invariant_reads,
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
