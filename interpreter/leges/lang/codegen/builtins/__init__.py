"""Built-in functions of the rule language, by family: lists, values, players, zones, board.

Each built-in is one documented keyword (Ludii's ludeme idea): its entry carries a signature,
a one-line meaning and an example that `docs/language.md` shows and the tests run. A built-in
translates its call into Python source, choosing the fast form for the argument types given.
"""
from __future__ import annotations

from .registry import BUILTINS, Builtin, builtin

# each family registers its built-ins on import, in the order docs/language.md lists them
from . import lists, values, players, zones, board  # noqa: E402, F401, I001

__all__ = ["BUILTINS", "Builtin", "builtin"]
