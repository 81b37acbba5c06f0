"""What every statement's compilation uses: emitting an instruction with its place, compiling an
expression or a zone, reporting, compiling a block, an insert position."""
from __future__ import annotations

from typing import Any

from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.check.scope import Scope
from ...text.origin import TextOrigin
from .generate import Ins


class StatementBase:
    """The helpers of `StatementCompiler`, which the statement families (assign, moves, decisions,
    signals, control) build on."""

    def __init__(self, programs: Any, code: Any, origin: TextOrigin):  # program.Programs, program.Code
        self.programs = programs
        self.c = programs.c
        self.sym = programs.c.symbols
        self.code = code
        self.origin = origin

    # -------------------------------------------------------------- helpers
    def emit(self, lines: list, node, offers: tuple | None = None) -> int:
        """Add an instruction: its lines of Python for the program's function (generate.py)."""
        k = self.here
        self.code.instructions.append(Ins(lines, offers))
        self.code.positions.append(self.origin.locate(getattr(node, "line", 1) or 1, getattr(node, "col", 1) or 1))
        return k

    @property
    def here(self) -> int:
        return len(self.code.instructions)

    def expr(self, node, scope, want: T.Ty | None = None):
        ty, fn = self.c.expr(node, scope, self.origin)
        if want is not None and not T.compatible(ty, want):
            self.c.err(node, self.origin, f"expected {want} here, found {ty}")
        return ty, fn

    def src(self, node, scope, want: T.Ty | None = None) -> tuple[T.Ty, str]:
        """The type and Python source of an expression, for an instruction's lines."""
        ty, code = self.c.code(node, scope, self.origin)
        if want is not None and not T.compatible(ty, want):
            self.c.err(node, self.origin, f"expected {want} here, found {ty}")
        return ty, f"({code})"

    def zone(self, node, scope, what="a zone") -> str:
        """The Python source of an expression naming a zone."""
        ty, code = self.src(node, scope)
        if ty.kind not in ("zone", "space", "any"):
            self.error(node, f"expected {what}, found {ty}")
        return code

    def error(self, node, message, hint=None):
        self.c.err(node, self.origin, message, hint)

    def block(self, body: list, scope: Scope) -> None:
        for stmt in body:
            method = getattr(self, "_s_" + type(stmt).__name__)
            method(stmt, scope)

    def position(self, where: ast.Position | None, scope):
        """Compile `at top/bottom/depth` into fn(state, env, zone_list) -> insert index."""
        if where is None or (where.depth is None and where.end == "top"):
            return None
        if where.depth is None:
            return lambda st, env, items: 0
        _, depth = self.expr(where.depth, scope, T.INT)
        if where.end == "top":
            return lambda st, env, items: max(0, min(len(items), len(items) - depth(st, env)))
        return lambda st, env, items: max(0, min(len(items), depth(st, env)))

    # ----------------------------------------------------------- statements
