"""Control flow: if, for, while, repeat — jumps within one flat instruction list, loop counters
kept in the frame's locals under names starting with '$'."""
from __future__ import annotations

from ...text.errors import Diagnostic, RuleError
from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.check.scope import Scope
from .statement import StatementBase


class Control(StatementBase):
    # ---------------------------------------------------------- control flow
    def _jump(self, node, target: list):
        def jump(st, fr, pc):
            return target[0]
        return self.emit(jump, node)

    def _s_If(self, node: ast.If, scope: Scope):
        end = [0]
        for cond_node, body in node.branches:
            _, cond = self.expr(cond_node, scope)
            skip = [0]

            def test(st, fr, pc, cond=cond, skip=skip):
                return pc + 1 if cond(st, fr[2]) else skip[0]
            self.emit(test, cond_node)
            self.block(body, scope)
            self._jump(node, end)
            skip[0] = self.here
        if node.otherwise:
            self.block(node.otherwise, scope)
        end[0] = self.here

    def _s_For(self, node: ast.For, scope: Scope):
        ty, items = self.expr(node.iterable, scope)
        elem = T.iter_elem(ty)
        if elem is None:
            self.error(node.iterable, f"cannot go through {ty}: a list or a zone is needed")
            elem = T.ANY
        zone = ty.kind in ("zone", "space")
        seats = ty.kind == "table" and T.key_of(ty).kind == "player"  # a table by player goes through the players
        names = node.names
        for name, item_ty in zip(names, self.c.unpack_types(names, elem, node, self.origin)):
            scope.locals[name] = item_ty
        key = f"$f{self.here}"
        end = [0]
        position = self.origin.locate(node.line or 1, node.col or 1)

        def start(st, fr, pc):
            env = fr[2]
            value = items(st, env)
            env[key] = [list(st.zones[value]) if zone else list(range(len(value))) if seats else list(value), 0]
            return pc + 1
        self.emit(start, node)
        head = self.here

        if len(names) == 1:
            var = names[0]

            def step(st, fr, pc):
                env = fr[2]
                loop = env[key]
                if loop[1] >= len(loop[0]):
                    del env[key]
                    return end[0]
                env[var] = loop[0][loop[1]]
                loop[1] += 1
                return pc + 1
        else:
            def step(st, fr, pc):
                env = fr[2]
                loop = env[key]
                if loop[1] >= len(loop[0]):
                    del env[key]
                    return end[0]
                item = loop[0][loop[1]]
                if not isinstance(item, list) or len(item) != len(names):
                    raise RuleError(Diagnostic(position, f"rule failed: cannot unpack {item!r} into {len(names)} names"))
                for name, value in zip(names, item):
                    env[name] = value
                loop[1] += 1
                return pc + 1
        self.emit(step, node)
        self.block(node.body, scope)
        self._jump(node, [head])
        end[0] = self.here

    def _s_While(self, node: ast.While, scope: Scope):
        _, cond = self.expr(node.condition, scope)
        key = f"$w{self.here}"
        end = [0]
        position = self.origin.locate(node.line or 1, node.col or 1)

        def test(st, fr, pc):
            env = fr[2]
            if not cond(st, env):
                env.pop(key, None)
                return end[0]
            n = env.get(key, 0) + 1
            if n > st.game.max_loop:
                raise RuleError(Diagnostic(position, f"while loop ran more than {st.game.max_loop} times",
                                           "check that the loop's condition becomes false; limits.max_loop raises the bound"))
            env[key] = n
            return pc + 1
        head = self.emit(test, node)
        self.block(node.body, scope)
        self._jump(node, [head])
        end[0] = self.here

    def _s_Repeat(self, node: ast.Repeat, scope: Scope):
        _, count = self.expr(node.count, scope, T.INT)
        key = f"$r{self.here}"
        end = [0]

        position = self.origin.locate(node.line or 1, node.col or 1)

        def start(st, fr, pc):
            env = fr[2]
            n = count(st, env)
            if n > st.game.max_loop:
                raise RuleError(Diagnostic(position, f"repeat {n} times is more than {st.game.max_loop}",
                                           "limits.max_loop raises the bound"))
            env[key] = n
            return pc + 1
        self.emit(start, node)

        def step(st, fr, pc):
            env = fr[2]
            if env[key] <= 0:
                del env[key]
                return end[0]
            env[key] -= 1
            return pc + 1
        head = self.emit(step, node)
        self.block(node.body, scope)
        self._jump(node, [head])
        end[0] = self.here
