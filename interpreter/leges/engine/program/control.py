"""Control flow: if, for, while, repeat — jumps within one flat instruction list, loop counters
kept in the frame's locals under names starting with '$'."""
from __future__ import annotations

from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.check.scope import Scope
from .generate import Jump
from .statement import StatementBase


class Control(StatementBase):
    # ---------------------------------------------------------- control flow
    def _jump(self, node, target: list):
        return self.emit([Jump(target)], node)

    def _s_If(self, node: ast.If, scope: Scope):
        end = [0]
        for cond_node, body in node.branches:
            _, cond = self.src(cond_node, scope)
            skip = [0]
            self.emit([f"if not ({cond}):", Jump(skip, "    ")], cond_node)
            self.block(body, scope)
            self._jump(node, end)
            skip[0] = self.here
        if node.otherwise:
            self.block(node.otherwise, scope)
        end[0] = self.here

    def _s_For(self, node: ast.For, scope: Scope):
        ty, items = self.src(node.iterable, scope)
        elem = T.iter_elem(ty)
        if elem is None:
            self.error(node.iterable, f"cannot go through {ty}: a list or a zone is needed")
            elem = T.ANY
        names = node.names
        for name, item_ty in zip(names, self.c.unpack_types(names, elem, node, self.origin)):
            scope.locals[name] = item_ty
        key = repr(f"$f{self.here}")
        end = [0]
        if ty.kind in ("zone", "space"):
            start = f"list(st.zones[{items}])"
        elif ty.kind == "table" and T.key_of(ty).kind == "player":  # a table by player goes through the players
            start = f"list(range(len({items})))"
        else:
            start = f"list({items})"
        self.emit([f"env[{key}] = [{start}, 0]"], node)
        head = [self.here]
        step = [f"loop = env[{key}]",
                "if loop[1] >= len(loop[0]):",
                f"    del env[{key}]",
                Jump(end, "    ")]
        if len(names) == 1:
            step.append(f"env[{names[0]!r}] = loop[0][loop[1]]")
        else:
            step += ["item = loop[0][loop[1]]",
                     f"if not isinstance(item, list) or len(item) != {len(names)}:",
                     f"    H.cannot_unpack(item, {len(names)})"]
            step += [f"env[{name!r}] = item[{i}]" for i, name in enumerate(names)]
        step.append("loop[1] += 1")
        self.emit(step, node)
        self.block(node.body, scope)
        self._jump(node, head)
        end[0] = self.here

    def _s_While(self, node: ast.While, scope: Scope):
        _, cond = self.src(node.condition, scope)
        key = repr(f"$w{self.here}")
        end = [0]
        head = self.emit([f"if not ({cond}):",
                          f"    env.pop({key}, None)",
                          Jump(end, "    "),
                          f"r = env.get({key}, 0) + 1",
                          "if r > st.game.max_loop:",
                          "    H.loop_too_long(st.game.max_loop)",
                          f"env[{key}] = r"], node)
        self.block(node.body, scope)
        self._jump(node, [head])
        end[0] = self.here

    def _s_Repeat(self, node: ast.Repeat, scope: Scope):
        _, count = self.src(node.count, scope, T.INT)
        key = repr(f"$r{self.here}")
        end = [0]
        self.emit([f"r = {count}",
                   "if r > st.game.max_loop:",
                   "    H.repeat_too_long(r, st.game.max_loop)",
                   f"env[{key}] = r"], node)
        head = self.emit([f"if env[{key}] <= 0:",
                          f"    del env[{key}]",
                          Jump(end, "    "),
                          f"env[{key}] -= 1"], node)
        self.block(node.body, scope)
        self._jump(node, [head])
        end[0] = self.here

