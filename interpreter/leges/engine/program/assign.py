"""Statements that set values: `let`, assignments to variables and table entries, `set` of a property."""
from __future__ import annotations

from ...text.errors import did_you_mean
from ...lang.syntax import ast
from ...lang.optimise import memo
from ...lang.check import types as T
from ...lang.check.scope import Scope
from .statement import StatementBase


class Assignments(StatementBase):
    def _s_Let(self, node: ast.Let, scope: Scope):
        if node.name in self.sym.variables or node.name in self.sym.zones or node.name in self.sym.constants:
            self.error(node, f"'{node.name}' is already a game variable, zone or constant; choose another local name")
        ty, value = self.src(node.value, scope)
        old = scope.locals.get(node.name)
        scope.locals[node.name] = ty if old is None else T.join(old, ty)
        self.emit([f"env[{node.name!r}] = H.fit(st, {value})"], node)

    def _s_Assign(self, node: ast.Assign, scope: Scope):
        name, op = node.name, node.op
        ty, value = self.src(node.value, scope)
        if op != "=" and not T.numeric(ty):
            self.error(node, f"'{op}' needs a number, found {ty}")
        if name in scope.locals:
            if node.index is not None:
                self.error(node, f"local '{name}' cannot be indexed in an assignment")
            scope.locals[name] = T.join(scope.locals[name], ty)
            self.emit([f"r = {value}", f"env[{name!r}] = H.fit(st, {_combined(op, f'env[{name!r}]')})"], node)
            return
        var = self.sym.variables.get(name)
        if var is None:
            hint = did_you_mean(name, list(self.sym.variables) + list(scope.locals))
            self.error(node, f"'{name}' is not a variable", hint or "declare game variables under `variables`, locals with `let`")
            return
        if var.type.kind != "any" and not T.compatible(var.type, ty):
            self.error(node.value, f"variable '{name}' holds {var.type}, not {ty}")
        key = self.c.memo.id_of(memo.var(name))  # what st.changed is told: the read key's id
        if var.per_player:
            if node.index is None:
                self.error(node, f"'{name}' is per player: assign {name}[p]")
                return
            _, index = self.src(node.index, scope, T.PLAYER)
            self.emit([f"r = {value}", f"values = st.vars[{name!r}]", f"i = {index}", f"st.changed({key})",
                       f"values[i] = H.fit(st, {_combined(op, 'values[i]')})"], node)
            return
        if node.index is not None:
            self.error(node, f"'{name}' is not per player and cannot be indexed")

        self.emit([f"r = {value}", f"st.changed({key})",
                   f"st.vars[{name!r}] = H.fit(st, {_combined(op, f'st.vars[{name!r}]')})"], node)

    def _s_SetProp(self, node: ast.SetProp, scope: Scope):
        ty, obj = self.src(node.obj, scope)
        _, value = self.src(node.value, scope)
        name = node.name
        if ty.kind == "component":
            types = ty.sub or set(self.sym.component_types)
            known = {p for t in types for p in self.sym.component_types.get(t, {})}
            if name not in known:
                self.error(node, f"{ty} has no property '{name}'",
                           did_you_mean(name, known) or "declare it with a default under the component's props")
            elif name not in self.sym.dynamic_component_props:
                self.error(node, f"property '{name}' is fixed in this ruleset; no rule of it changes it",
                           "only properties some rule of the ruleset sets can change")
            self.emit([f"st.set_cprop({obj}, {name!r}, H.fit(st, {value}))"], node)
        elif ty.kind in ("space", "zone"):
            if name not in self.sym.space_props:
                self.error(node, f"spaces have no property '{name}'",
                           did_you_mean(name, self.sym.space_props) or "declare it with a default under the map's space_props")
            elif name not in self.c.dynamic_space_props:
                self.error(node, f"space property '{name}' is fixed in this ruleset; no rule of it changes it",
                           "only properties some rule of the ruleset sets can change")
            self.emit([f"st.set_space_prop({obj}, {name!r}, H.fit(st, {value}))"], node)
        else:
            self.error(node, f"only components and spaces have settable properties, not {ty}")


def _combined(op: str, old: str) -> str:
    """The value an assignment keeps: `r` (the value computed), or `old` plus or minus it."""
    return "r" if op == "=" else f"{old} + r" if op == "+=" else f"{old} - r"
