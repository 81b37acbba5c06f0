"""What the parts of `Builder` (declare, setups, rules) share: the ruleset, the symbol table and the
compiler being filled, reporting, and the one check that each list's ids are unique."""
from __future__ import annotations

from typing import Any, Callable

from ...lang.codegen.compiler import Compiler
from ...lang.check.symbols import Symbols
from ...model import decl as d
from ...text.errors import Collector
from ..game import Game, Setup
from ..program import Programs

OUT_OF_GAME = "out_of_game"  # the built-in zone of every ruleset (Builder._zone_decls)


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
        self._out_of_game: d.ZoneDecl | None = None
        self.compiler = Compiler(self.sym, board, errors, optimise)
        self.programs = Programs(self.compiler)
        self.game = Game()

    def error(self, at: d.At, message: str, hint: str | None = None, key: bool = False) -> None:
        self.errors.error(at.position(key=key), message, hint)

    def _zone_decls(self) -> dict:
        """The ruleset's zones, and the built-in one every ruleset has unless it names something so itself:
        `out_of_game` (OUT_OF_GAME), where what leaves the game goes — a scenario's `arrange` puts there
        what its position does not use, without the author declaring a box the rulebook may not have. It is
        open (`visibility: all`): what goes there unseen needs a hidden zone of the ruleset's own."""
        zones = self._unique(self.rs.zones, "zone")
        rs = self.rs
        if OUT_OF_GAME in zones or any(x.id == OUT_OF_GAME for x in [*rs.variables, *rs.constants]) \
                or OUT_OF_GAME in [str(seat.get("name")) for seat in rs.seats] \
                or (self.board is not None and OUT_OF_GAME in self.board.spaces):
            return zones
        if self._out_of_game is None:
            self._out_of_game = d.ZoneDecl(OUT_OF_GAME, d.At(self.rs.docs[0], ()), visibility="all",
                                           description="built in: what has left the game, in the open")
        return {**zones, OUT_OF_GAME: self._out_of_game}

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
