"""What compiled code reads of the state (memo.py's read keys), and the anchors that make a read near:
a space one or more steps from a function's space parameter. A mixin of `compiler.Compiler`."""
from __future__ import annotations

from ..syntax import ast
from ..optimise import memo
from ..check import types as T
from .compile_parts import CompilerParts
from ..check.scope import Scope


class ReadRecording(CompilerParts):
    # ------------------------------------------------------- state reads
    def read(self, *keys: memo.Read) -> None:
        """The code being compiled reads these parts of the state (memo.py's read keys)."""
        self.reads.update(keys)

    def read_where(self, types, on_spaces: bool = False) -> None:
        """It reads where components of these types are (None or empty: of any type); `on_spaces`:
        only which board spaces hold them, which changes only when such a component moves to, from
        or between spaces."""
        key = memo.on_spaces if on_spaces else memo.where
        self.reads.update(key(t) for t in types) if types else self.reads.add(key(None))

    def read_static(self, types) -> None:
        """It reads fixed properties or labels of components of these types (None or empty: of any
        type): a resampled world, which trades them among hidden components, forgets its values."""
        self.reads.update(memo.static(t) for t in types) if types else self.reads.add(memo.static(None))

    def read_labels(self, ty: T.Ty) -> None:
        """It writes values of type `ty` as text: components among them by their labels."""
        kind = ty.kind
        if kind == "component":
            self.read_static(ty.sub)
        elif kind in ("list", "table"):
            self.read_labels(ty.elem or T.ANY)
        elif kind == "tuple":
            for item in ty.items or ():
                self.read_labels(item)
        elif kind == "any":
            self.read_static(None)

    def contents(self, ty: T.Ty, code: str, typed: str | None = None, node=None, scope: Scope | None = None) -> str:
        """Source reading the contents of the zone or space `code` (of type `ty`, written as `node`
        in `scope`), the read recorded.

        `typed`: the reader keeps only components of this type, so what it reads changes only
        when such components move; a space near a function's space parameter is a near read.
        """
        space = ty.kind == "space"
        ctype = typed if typed is not None and typed in self.symbols.component_types else None
        anchor = self.anchor_of(node, scope) if space and node is not None and scope is not None else None
        if anchor is not None:
            self.read(memo.near(ctype, *anchor))
        elif ctype is not None:
            self.read_where({ctype}, on_spaces=space)
        elif space:
            self.read(memo.on_spaces(None))
        elif ty.kind == "zone" and ty.sub:  # declared zones, known by name: a move elsewhere keeps the value
            self.read(*(memo.zone(name) for name in ty.sub))
        else:
            self.read(memo.ZONES)
        return f"st.zones[{code}]"

    NEAR_QUERIES = ("neighbors", "ring")  # built-ins giving the spaces one step from a space

    def anchor_of(self, node, scope: Scope) -> tuple[str, int] | None:
        """(space parameter, greatest distance) of a space near a function's space parameter, else None."""
        if isinstance(node, ast.Name) and node.id in scope.py:
            return scope.anchors.get(node.id)
        return None

    def element_anchor(self, node, scope: Scope) -> tuple[str, int] | None:
        """The anchor of every item of the list `node`: the spaces around an anchored space, or some
        of them (a comprehension or `filter` keeping its items as they are), a list of anchored
        spaces, two such lists joined, or what a user function gives that is one of these."""
        if isinstance(node, ast.Call) and node.func in self.symbols.functions:
            return self.functions.element_anchor(node, scope)
        if isinstance(node, ast.Call) and node.args:
            if node.func in self.NEAR_QUERIES and len(node.args) == 1:
                inner = self.anchor_of(node.args[0], scope)
                return (inner[0], inner[1] + 1) if inner is not None else None
            if node.func == "filter":
                return self.element_anchor(node.args[0], scope)
        if isinstance(node, ast.ListLit) and node.items:
            anchors = [self.anchor_of(item, scope) for item in node.items]
            return _farthest(anchors)
        if isinstance(node, ast.BinOp) and node.op == "+":
            return _farthest([self.element_anchor(node.left, scope), self.element_anchor(node.right, scope)])
        if isinstance(node, ast.Comprehension) and len(node.clauses) == 1 and node.clauses[0].names == [
                getattr(node.element, "id", None)] and isinstance(node.element, ast.Name):
            return self.element_anchor(node.clauses[0].iterable, scope)
        return None

    def heavy(self) -> None:
        """The code being compiled loops or searches (a board query): worth memoising."""
        self.searches += 1


def _farthest(anchors: list) -> tuple[str, int] | None:
    """The anchor of items each near one of `anchors`: the same space, at the greatest distance."""
    if not anchors or any(a is None for a in anchors) or len({a[0] for a in anchors}) != 1:
        return None
    return anchors[0][0], max(a[1] for a in anchors)
