"""What a built-in sees of its call: arguments to translate, errors to report (see builtins/)."""
from __future__ import annotations

from ...text.errors import did_you_mean
from ...text.origin import TextOrigin
from ..syntax import ast
from ..check import types as T
from ..check.scope import Scope

NOTHING = (T.ANY, "None")  # the type and code of an expression that could not be compiled


class Call:
    """What a built-in sees of its call: arguments to translate, errors to report."""

    def __init__(self, compiler, node: ast.Call, scope: Scope, origin: TextOrigin):
        self.c, self.node, self.scope, self.origin = compiler, node, scope, origin
        self.name = node.func
        self.symbols = compiler.symbols

    def arg_node(self, key):
        if isinstance(key, int):
            return self.node.args[key] if key < len(self.node.args) else None
        return self.node.kwargs.get(key)

    def nargs(self) -> int:
        return len(self.node.args)

    def arity(self, lo: int, hi: int, kw: tuple = ()) -> None:
        n = len(self.node.args)
        if not lo <= n <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            self.error(f"{self.name}() takes {want} arguments, {n} given")
        for k in self.node.kwargs:
            if k not in kw:
                self.c.err(self.node.kwargs[k], self.origin, f"{self.name}() has no argument named '{k}'",
                           did_you_mean(k, kw) if kw else None)

    def code(self, key, want: T.Ty | None = None) -> tuple[T.Ty, str]:
        node = self.arg_node(key)
        if node is None:
            return NOTHING
        if isinstance(node, ast.Lambda):
            self.c.err(node, self.origin, f"{self.name}() does not take a function here")
            return NOTHING
        ty, code = self.c.code(node, self.scope, self.origin)
        if want is not None and not T.compatible(ty, want):
            self.c.err(node, self.origin, f"{self.name}() needs {want} here, not {ty}")
        return ty, code

    def lam(self, key, elem: T.Ty, required: bool = False):
        """A function argument `x => body` as (result type, Python lambda source) or None."""
        node = self.arg_node(key)
        if node is None:
            if required:
                self.error(f"{self.name}() needs a function argument such as x => x.value")
            return None
        if not isinstance(node, ast.Lambda):
            self.c.err(node, self.origin, f"{self.name}() needs a function here, such as x => x.value")
            return None
        anchor = self.c.element_anchor(self.arg_node(0), self.scope)  # the list the function goes through
        with self.c.hoisting(None):  # its body may become a function of its own (lang/optimise/hoist.py)
            ty, body = self.c.code(node.body, self.scope.with_py(node.param, elem, anchor), self.origin)
        return ty, node.param, body

    def error(self, message: str, arg=None, hint: str | None = None) -> None:
        node = self.arg_node(arg) if arg is not None else None
        self.c.err(node or self.node, self.origin, message, hint)

    def suggest(self, name, candidates):
        return did_you_mean(str(name), [str(c) for c in candidates])

    def board(self):
        if self.c.board is None:
            self.error(f"{self.name}() needs a board, and this ruleset declares no map")
        return self.c.board

    def const(self, value) -> str:
        return self.c.const(value)

    def formatter(self, ty):
        return self.c.formatter(ty)
