"""Statements that move components: move, draw, deal, stack, shuffle."""
from __future__ import annotations

from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.check.scope import Scope
from ..constants import MISSING, PUSHED, SUSPEND
from .statement import StatementBase


def _after_triggers(fr: list, pc: int, key: str, rest) -> int:
    """Triggers were pushed mid-statement: come back to finish `rest` (kept in the locals), or go on."""
    if rest is None:
        fr[1] = pc + 1
    else:
        fr[2][key] = rest
        fr[1] = pc
    return PUSHED


class Moves(StatementBase):
    def _items(self, node, scope):
        ty, fn = self.expr(node, scope)
        if ty.kind == "component":
            return lambda st, env: [] if (c := fn(st, env)) is None else [c]
        if ty.kind == "list" and (ty.elem is None or ty.elem.kind in ("component", "any", "none")):
            return lambda st, env: list(fn(st, env))
        if ty.kind == "any":
            return lambda st, env: (lambda v: [] if v is None else v if isinstance(v, list) else [v])(fn(st, env))
        if ty.kind in ("zone", "space"):
            self.error(node, "move takes components; to move a whole zone use `stack ZONE onto ZONE`")
        else:
            self.error(node, f"expected a component or a list of components, found {ty}")
        return lambda st, env: []

    def _s_Move(self, node: ast.Move, scope: Scope):
        items = self._items(node.what, scope)
        dest = self.zone(node.to, scope)
        where = self.position(node.where, scope)
        key = f"$m{self.here}"

        def move(st, fr, pc):
            env = fr[2]
            saved = env.pop(key, None)
            if saved is None:
                todo, to = items(st, env), dest(st, env)
            else:
                to, todo = saved
            me = env.get("me")
            for i, c in enumerate(todo):
                source = st.where[c]
                st.place(c, to, where(st, env, st.zones[to]) if where else None)
                if st.game.listeners.get("moved") and st.fire("moved", {"item": c, "source": source, "to": to, "player": me}, me):
                    return _after_triggers(fr, pc, key, [to, todo[i + 1:]] if i + 1 < len(todo) else None)
            return pc + 1
        self.emit(move, node)

    def _s_Draw(self, node: ast.Draw, scope: Scope):
        _, count = self.expr(node.count, scope, T.INT)
        source = self.zone(node.source, scope)
        dest = self.zone(node.to, scope)
        where = self.position(node.where, scope)
        key = f"$d{self.here}"
        self.programs.draws = True

        def draw(st, fr, pc):
            env = fr[2]
            saved = env.pop(key, None)
            if saved is None:
                remaining, src, to = count(st, env), source(st, env), dest(st, env)
            else:
                remaining, src, to = saved
            me = env.get("me")
            while remaining > 0:
                items = st.zones[src]
                if not items:
                    break
                if st.setup.zone_kind.get(src) == "bag":
                    c = st.random_item(fr, key, items, [remaining, src, to])
                    if c is MISSING:
                        return SUSPEND
                else:
                    c = items[-1]
                st.place(c, to, where(st, env, st.zones[to]) if where else None)
                remaining -= 1
                if st.game.listeners.get("drawn") and st.fire("drawn", {"item": c, "source": src, "to": to, "player": me}, me):
                    return _after_triggers(fr, pc, key, [remaining, src, to] if remaining > 0 else None)
            return pc + 1
        self.emit(draw, node)

    def _s_Deal(self, node: ast.Deal, scope: Scope):
        _, count = self.expr(node.count, scope, T.INT)
        source = self.zone(node.source, scope)
        ty, targets = self.expr(node.to, scope)
        if ty.kind != "list":
            self.error(node.to, f"deal needs a list of zones to deal to, found {ty}")

        def deal(st, fr, pc):
            env = fr[2]
            src = source(st, env)
            zones = targets(st, env)
            for _ in range(count(st, env)):
                for z in zones:
                    items = st.zones[src]
                    if not items:
                        return pc + 1
                    st.place(items[-1], z, None)
            return pc + 1
        self.emit(deal, node)

    def _s_Stack(self, node: ast.Stack, scope: Scope):
        source = self.zone(node.source, scope)
        dest = self.zone(node.to, scope)
        bottom = node.where is not None and node.where.end == "bottom" and node.where.depth is None
        if node.where is not None and node.where.depth is not None:
            self.error(node.where, "stack puts a zone on the top or at the bottom; for a depth, move the items")

        def stack(st, fr, pc):
            env = fr[2]
            st.stack(source(st, env), dest(st, env), bottom)
            return pc + 1
        self.emit(stack, node)

    def _s_Shuffle(self, node: ast.Shuffle, scope: Scope):
        self.programs.random = True
        zone = self.zone(node.zone, scope)
        count = self.expr(node.count, scope, T.INT)[1] if node.count is not None else None
        end = node.end
        key = f"$s{self.here}"

        def shuffle(st, fr, pc):
            env = fr[2]
            z = zone(st, env)
            n = len(st.zones[z])
            if count is None:
                lo, hi = 0, n
            else:
                k = max(0, min(n, count(st, env)))
                lo, hi = (n - k, n) if end == "top" else (0, k)
            return pc + 1 if st.shuffle_range(fr, key, z, lo, hi) else SUSPEND
        self.emit(shuffle, node)
