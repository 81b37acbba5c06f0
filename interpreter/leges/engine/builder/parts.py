"""What the parts of `Builder` (declare, setups, rules) share: the ruleset, the symbol table and the
compiler being filled, reporting, and the one check that each list's ids are unique."""
from __future__ import annotations

from typing import Any, Callable

from ...lang.compiler import Compiler
from ...lang.symbols import Symbols
from ...model import decl as d
from ...text.errors import Collector
from ..game import Game, Setup
from ..program import Programs


def count_for(count: Any, n: int) -> int | None:
    """A count as declared (a number, or one for each number of players) for `n` players; None if none is given."""
    if isinstance(count, int):
        return count
    if isinstance(count, dict):
        return count.get(str(n))
    return None


class BuilderParts:
    rs: d.Ruleset
    board: Any
    errors: Collector
    sym: Symbols
    compiler: Compiler
    programs: Programs
    game: Game
    readings: dict
    checks: list

    def __init__(self, rs: d.Ruleset, board, errors: Collector, optimise: bool = True):
        self.rs, self.board, self.errors = rs, board, errors
        self.sym = Symbols()
        self._unique_cache: dict[int, dict] = {}
        self.compiler = Compiler(self.sym, board, errors, optimise)
        self.programs = Programs(self.compiler)
        self.game = Game()

    def error(self, at: d.At, message: str, hint: str | None = None, key: bool = False) -> None:
        self.errors.error(at.position(key=key), message, hint)

    def _unique(self, decls, what: str) -> dict:
        key = id(decls)
        if key in self._unique_cache:  # each list is checked (and reported) once
            return self._unique_cache[key]
        seen: dict[str, Any] = {}
        self._unique_cache[key] = seen
        for item in decls:
            if item.id in seen:
                self.error(item.at.child("id"), f"{what} '{item.id}' is declared twice",
                           f"the first is at {seen[item.id].at.position()}")
            else:
                seen[item.id] = item
        return seen

    def setup_builder(self) -> Callable[[int], Setup]:  # setups.SetupBuilding
        raise NotImplementedError
