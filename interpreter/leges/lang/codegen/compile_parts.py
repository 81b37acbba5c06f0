"""What the mixins of `compiler.Compiler` (compile_names, compile_reads, compile_loops,
compile_operators) may use of one another: the compiler's state, and the methods each provides.
Declared here, once, so that every part is checked against the same signatures."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...text.errors import Collector
from ...text.origin import TextOrigin
from ..check import types as T

if TYPE_CHECKING:
    from .functions import Functions
    from ..optimise.hoist import Hoisting
    from .loops import LoopFunctions
    from ..check.scope import Scope
    from ..check.symbols import Symbols
    from ..optimise.memo import Read


class CompilerParts:
    symbols: Symbols
    board: Any
    errors: Collector
    optimise: bool
    reads: set[Read]  # memo.py's read keys
    searches: int
    zone_loops: int
    board_index: bool  # loops may go through the state's index of the components on the board
    board_index_used: bool
    hoistings: int
    lets: int  # Python locals bound by `let` and by values computed once (optimise/shared.py)
    iterables: list[str]
    loops: LoopFunctions
    functions: Functions
    hoist: Hoisting | None
    dynamic_space_props: set[str]  # space properties some rule sets

    def err(self, node, origin: TextOrigin, message: str, hint: str | None = None) -> None:
        raise NotImplementedError

    def code(self, node, scope: Scope, origin: TextOrigin) -> tuple[T.Ty, str]:
        raise NotImplementedError

    def const(self, value) -> str:
        raise NotImplementedError

    def define(self, source: str, name: str) -> None:
        raise NotImplementedError

    def read(self, *keys: Read) -> None:
        raise NotImplementedError

    def read_where(self, types, on_spaces: bool = False) -> None:
        raise NotImplementedError

    def read_static(self, types) -> None:
        raise NotImplementedError

    def read_labels(self, ty: T.Ty) -> None:
        raise NotImplementedError

    def contents(self, ty: T.Ty, code: str, typed: str | None = None, node=None, scope: Scope | None = None) -> str:
        raise NotImplementedError

    def anchor_of(self, node, scope: Scope) -> tuple[str, int] | None:
        raise NotImplementedError

    def element_anchor(self, node, scope: Scope) -> tuple[str, int] | None:
        raise NotImplementedError

    def heavy(self) -> None:
        raise NotImplementedError
