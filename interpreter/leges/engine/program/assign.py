"""Statements that set values: `let`, assignments to variables and table entries, `set` of a property."""
from __future__ import annotations

from ...text.errors import did_you_mean
from ...lang.syntax import ast
from ...lang.optimise import memo
from ...lang.check import types as T
from ...lang.check.scope import Scope
from ...lang.codegen.runtime import fit
from .statement import StatementBase


class Assignments(StatementBase):
    def _s_Let(self, node: ast.Let, scope: Scope):
        if node.name in self.sym.variables or node.name in self.sym.zones or node.name in self.sym.constants:
            self.error(node, f"'{node.name}' is already a game variable, zone or constant; choose another local name")
        ty, value = self.expr(node.value, scope)
        old = scope.locals.get(node.name)
        scope.locals[node.name] = ty if old is None else T.join(old, ty)
        name = node.name

        def let(st, fr, pc):
            env = fr[2]
            env[name] = fit(st, value(st, env))
            return pc + 1
        self.emit(let, node)

    def _s_Assign(self, node: ast.Assign, scope: Scope):
        name, op = node.name, node.op
        ty, value = self.expr(node.value, scope)
        if op != "=" and not T.numeric(ty):
            self.error(node, f"'{op}' needs a number, found {ty}")
        if name in scope.locals:
            if node.index is not None:
                self.error(node, f"local '{name}' cannot be indexed in an assignment")
            scope.locals[name] = T.join(scope.locals[name], ty)

            def assign_local(st, fr, pc):
                env = fr[2]
                v = value(st, env)
                env[name] = fit(st, v if op == "=" else env[name] + v if op == "+=" else env[name] - v)
                return pc + 1
            self.emit(assign_local, node)
            return
        var = self.sym.variables.get(name)
        if var is None:
            hint = did_you_mean(name, list(self.sym.variables) + list(scope.locals))
            self.error(node, f"'{name}' is not a variable", hint or "declare game variables under `variables`, locals with `let`")
            return
        if var.type.kind != "any" and not T.compatible(var.type, ty):
            self.error(node.value, f"variable '{name}' holds {var.type}, not {ty}")
        key = memo.var(name)
        if var.per_player:
            if node.index is None:
                self.error(node, f"'{name}' is per player: assign {name}[p]")
                return
            _, index = self.expr(node.index, scope, T.PLAYER)

            def assign_player(st, fr, pc):
                env = fr[2]
                v = value(st, env)
                values = st.vars[name]
                i = index(st, env)
                st.changed(key)
                values[i] = fit(st, v if op == "=" else values[i] + v if op == "+=" else values[i] - v)
                return pc + 1
            self.emit(assign_player, node)
            return
        if node.index is not None:
            self.error(node, f"'{name}' is not per player and cannot be indexed")

        def assign_global(st, fr, pc):
            v = value(st, fr[2])
            st.changed(key)
            st.vars[name] = fit(st, v if op == "=" else st.vars[name] + v if op == "+=" else st.vars[name] - v)
            return pc + 1
        self.emit(assign_global, node)

    def _s_SetProp(self, node: ast.SetProp, scope: Scope):
        ty, obj = self.expr(node.obj, scope)
        _, value = self.expr(node.value, scope)
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

            def set_component(st, fr, pc):
                env = fr[2]
                st.set_cprop(obj(st, env), name, fit(st, value(st, env)))
                return pc + 1
            self.emit(set_component, node)
        elif ty.kind in ("space", "zone"):
            if name not in self.sym.space_props:
                self.error(node, f"spaces have no property '{name}'",
                           did_you_mean(name, self.sym.space_props) or "declare it with a default under the map's space_props")
            elif name not in self.c.dynamic_space_props:
                self.error(node, f"space property '{name}' is fixed in this ruleset; no rule of it changes it",
                           "only properties some rule of the ruleset sets can change")

            def set_space(st, fr, pc):
                env = fr[2]
                st.set_space_prop(obj(st, env), name, fit(st, value(st, env)))
                return pc + 1
            self.emit(set_space, node)
        else:
            self.error(node, f"only components and spaces have settable properties, not {ty}")
