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
    def _items(self, node, scope) -> list[str]:
        """Lines setting `todo` to the list of components `node` names."""
        ty, code = self.src(node, scope)
        if ty.kind == "component":
            return [f"c = {code}", "todo = [] if c is None else [c]"]
        if ty.kind == "list" and (ty.elem is None or ty.elem.kind in ("component", "any", "none")):
            return [f"todo = list({code})"]
        if ty.kind == "any":
            return [f"c = {code}", "todo = [] if c is None else c if isinstance(c, list) else [c]"]
        if ty.kind in ("zone", "space"):
            self.error(node, "move takes components; to move a whole zone use `stack ZONE onto ZONE`")
        else:
            self.error(node, f"expected a component or a list of components, found {ty}")
        return ["todo = []"]

    def _at(self, node, scope) -> str:
        """Where in the zone `to` an item goes: the source of its index, or None (on top)."""
        where = self.position(node.where, scope)
        return "None" if where is None else f"{self.c.const(where)}(st, env, st.zones[to])"

    def _s_Move(self, node: ast.Move, scope: Scope):
        items = self._items(node.what, scope)
        dest = self.zone(node.to, scope)
        at = self._at(node, scope)
        heard = self.programs.heard
        if heard is not None and "moved" not in heard:  # nothing listens: no stop between the items
            if items[-1] == "todo = [] if c is None else [c]":  # one component, or none
                self.emit([items[0], f"to = {dest}", "if c is not None:", f"    st.place(c, to, {at})"], node)
            else:
                self.emit([*items, f"to = {dest}", "for c in todo:", f"    st.place(c, to, {at})"], node)
            return
        k = self.here
        key = repr(f"$m{k}")
        after = self.c.const(_after_triggers)
        self.emit([f"r = env.pop({key}, None)",
                   "if r is None:",
                   *("    " + line for line in items),
                   f"    to = {dest}",
                   "else:",
                   "    to, todo = r",
                   "me = env.get('me')",
                   "for i, c in enumerate(todo):",
                   "    source = st.where[c]",
                   f"    st.place(c, to, {at})",
                   "    if st.game.listeners.get('moved') and st.fire('moved', {'item': c, 'source': source, 'to': to, 'player': me}, me):",
                   f"        return {after}(fr, {k}, {key}, [to, todo[i + 1:]] if i + 1 < len(todo) else None), n"], node)

    def _s_Draw(self, node: ast.Draw, scope: Scope):
        _, count = self.src(node.count, scope, T.INT)
        source = self.zone(node.source, scope)
        dest = self.zone(node.to, scope)
        at = self._at(node, scope)
        k = self.here
        key = repr(f"$d{k}")
        after = self.c.const(_after_triggers)
        self.programs.draws = True
        self.emit([f"r = env.pop({key}, None)",
                   f"remaining, src, to = ({count}, {source}, {dest}) if r is None else r",
                   "me = env.get('me')",
                   "while remaining > 0:",
                   "    items = st.zones[src]",
                   "    if not items:",
                   "        break",
                   "    if st.setup.zone_kind.get(src) == 'bag':",
                   f"        c = st.random_item(fr, {key}, items, [remaining, src, to])",
                   f"        if c is {self.c.const(MISSING)}:",
                   f"            fr[1] = {k}",
                   f"            return {SUSPEND}, n",
                   "    else:",
                   "        c = items[-1]",
                   f"    st.place(c, to, {at})",
                   "    remaining -= 1",
                   *(["    if st.game.listeners.get('drawn') and st.fire('drawn', {'item': c, 'source': src, 'to': to, 'player': me}, me):",
                      f"        return {after}(fr, {k}, {key}, [remaining, src, to] if remaining > 0 else None), n"]
                     if self.programs.heard is None or "drawn" in self.programs.heard else [])], node)

    def _s_Deal(self, node: ast.Deal, scope: Scope):
        _, count = self.src(node.count, scope, T.INT)
        source = self.zone(node.source, scope)
        ty, targets = self.src(node.to, scope)
        if ty.kind != "list":
            self.error(node.to, f"deal needs a list of zones to deal to, found {ty}")
        self.emit([f"st.deal({source}, {targets}, {count})"], node)

    def _s_Stack(self, node: ast.Stack, scope: Scope):
        source = self.zone(node.source, scope)
        dest = self.zone(node.to, scope)
        bottom = node.where is not None and node.where.end == "bottom" and node.where.depth is None
        if node.where is not None and node.where.depth is not None:
            self.error(node.where, "stack puts a zone on the top or at the bottom; for a depth, move the items")
        self.emit([f"st.stack({source}, {dest}, {bottom})"], node)

    def _s_Shuffle(self, node: ast.Shuffle, scope: Scope):
        self.programs.random = True
        zone = self.zone(node.zone, scope)
        k = self.here
        key = repr(f"$s{k}")
        lines = [f"r = {zone}", "i = len(st.zones[r])"]
        if node.count is None:
            lines.append("lo, hi = 0, i")
        else:
            _, count = self.src(node.count, scope, T.INT)
            lines += [f"c = max(0, min(i, {count}))", f"lo, hi = {'(i - c, i)' if node.end == 'top' else '(0, c)'}"]
        self.emit(lines + [f"if not st.shuffle_range(fr, {key}, r, lo, hi):", f"    fr[1] = {k}",
                           f"    return {SUSPEND}, n"], node)
