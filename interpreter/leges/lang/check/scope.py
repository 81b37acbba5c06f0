"""Scopes: which names a rule may use at a point, their types, and where their values live."""
from __future__ import annotations

from typing import Any, Callable

from . import types as T

Fn = Callable[[Any, dict], Any]  # a compiled expression: fn(state, locals)


class Scope:
    """Names visible at a point of a rule: their types and where their values live.

    Program locals live in the frame's `env` dict (they survive a suspended decision);
    variables of comprehensions, functions given to built-ins and user functions' parameters
    are Python locals of the generated code (`v_name`), and so are the names a `let` expression
    binds (each under a name of its own, `l3_name`, since an inner `let` may bind the same name).
    """

    def __init__(self, locals_: dict[str, T.Ty] | None = None, me: bool = True, me_code: str = "env.get('me')"):
        self.locals = dict(locals_ or {})
        self.py: dict[str, str] = {}  # name → the Python local holding it
        self.me = me
        self.me_code = me_code
        # spaces near a function's space parameter: local → (parameter, greatest distance); what is
        # read of them changes only when a piece moves that near (see memo.py, "near" reads)
        self.anchors: dict[str, tuple[str, int]] = {}
        # components taken from a board space: everyone sees every space, and a resampled world
        # trades the identities of hidden components only, so their fixed properties are the same
        # in every world (see memo.py, static:T)
        self.on_board: frozenset[str] = frozenset()

    def with_py(self, name: str, ty: T.Ty, anchor: tuple[str, int] | None = None, python: str | None = None,
                on_board: bool = False) -> "Scope":
        s = Scope(self.locals, self.me, self.me_code)
        s.py = dict(self.py)
        s.py[name] = python or f"v_{name}"
        s.locals[name] = ty
        s.anchors = {k: v for k, v in self.anchors.items() if k != name}
        if anchor is not None:
            s.anchors[name] = anchor
        s.on_board = self.on_board | {name} if on_board else self.on_board - {name}
        return s

    def ref(self, name: str) -> str:
        return self.py[name] if name in self.py else f"env[{name!r}]"

    def free_names(self) -> list[str]:
        """The Python names that code compiled in this scope may use besides `st` (the parameters of a
        generated loop function, which runs such code away from where it was written)."""
        names = []
        if "env" in self.me_code or any(n not in self.py for n in self.locals):
            names.append("env")
        if self.me_code == "me":
            names.append("me")
        return names + sorted(set(self.py.values()))
