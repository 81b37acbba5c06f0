"""Statements that tell the game something: drop out, emit, goto, end, a procedure call, pass, log,
reveal, fail."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...text.errors import did_you_mean
from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.codegen.builtins import BUILTINS
from ...lang.codegen.compiler import BUILTIN_EVENTS
from ...lang.check.scope import Scope
from ..constants import PUSHED, UNWIND
from .generate import Call
from .statement import StatementBase


def _revealed_components(ty: T.Ty) -> Callable[[Any], tuple]:
    """The components a `reveal` of a value of this type shows (the leak check, leaks.py, counts
    them as seen by every seat)."""
    if ty.kind == "component":
        return lambda v: () if v is None else (v,)
    if ty.kind == "list" and ty.elem is not None and ty.elem.kind == "component":
        return lambda v: tuple(c for c in v if c is not None)
    return lambda v: ()


class Signals(StatementBase):
    def _s_DropOut(self, node: ast.DropOut, scope: Scope):
        who = self.src(node.player, scope, T.PLAYER)[1] if node.player is not None else None
        if who is None and not scope.me:
            self.error(node, "no player is acting here: say who drops out with `drop out PLAYER`")
        self.emit([f"st.drop_out({who or 'env.get(' + repr('me') + ')'})"], node)

    def _s_Emit(self, node: ast.Emit, scope: Scope):
        params = self.sym.events.get(node.event)
        if params is None or node.event in BUILTIN_EVENTS:
            hint = did_you_mean(node.event, self.sym.events)
            if node.event in BUILTIN_EVENTS:
                self.error(node, f"'{node.event}' is emitted by the interpreter itself; declare an event of your own")
            else:
                self.error(node, f"unknown event '{node.event}'", hint or "declare it under `events`")
            return
        args = []
        for k, v in node.kwargs.items():
            if k not in params:
                self.error(v, f"event '{node.event}' has no parameter '{k}'", did_you_mean(k, params))
                continue
            args.append((k, self.src(v, scope, params[k])[1]))
        for k in params:
            if k not in node.kwargs:
                self.error(node, f"event '{node.event}' needs parameter '{k}'")
        event = node.event
        k = self.here
        lines = ["values = {" + "".join(f"{name!r}: {code}, " for name, code in args) + "}"]
        if event in self.sym.told:  # an event with a phrase: news, a log line in its text form (engine/words.py)
            lines.append(f"st.log_line({self._told(event, params)}(st, values))")
        self.emit(lines + [f"if st.fire({event!r}, values, env.get('me')):", f"    fr[1] = {k + 1}",
                           f"    return {PUSHED}, n"], node)

    def _told(self, event: str, params: dict) -> str:
        """An emit of an event the ruleset gives a phrase: before its triggers run, every player is
        told it as a log line, `event name=value ...` (its parameters in declared order, each value
        as an action text writes it), which front ends word by the phrase (engine/words.worded_log).
        A log line is seen by every seat, as a `log` statement's is: the leak check reads it too.
        The source of the function making that line."""
        formats = {k: self.c.formatter(params[k]) for k in params}

        def line(st, values: dict) -> str:
            return " ".join([event] + [f"{k}={formats[k](st, values[k])}" for k in params if k in values])
        return self.c.const(line)

    def _s_Goto(self, node: ast.Goto, scope: Scope):
        if node.phase not in self.sym.phases:
            self.error(node, f"unknown phase '{node.phase}'", did_you_mean(node.phase, self.sym.phases))
        self.c.goto_targets.add(node.phase)
        self.emit([f"st.goto({node.phase!r})", f"return {UNWIND}, n"], node)

    def _s_End(self, node: ast.End, scope: Scope):
        lines = [f"st.end({node.what!r})", f"return {UNWIND}, n"]
        if node.what == "game":  # the rule that ended it: procedure:NAME(types) → procedure:NAME
            lines.insert(0, "st.ending = {'kind': 'end_game', 'rule': fr[0].split('(', 1)[0]}")
        self.emit(lines, node)

    def _s_CallStmt(self, node: ast.CallStmt, scope: Scope):
        call = node.call
        decl = self.sym.procedures.get(call.func)
        if decl is None:
            if call.func in self.sym.functions or call.func in BUILTINS:
                self.error(call, f"'{call.func}' is a function: its value would be lost; use it in an expression")
            else:
                self.error(call, f"unknown procedure '{call.func}'", did_you_mean(call.func, self.sym.procedures))
            return
        if call.kwargs or len(call.args) != len(decl.params):
            self.error(call, f"procedure '{decl.id}' takes {len(decl.params)} arguments by position")
            return
        compiled = [self.src(a, scope) for a in call.args]
        code_id = self.programs.procedure_code(decl, [t for t, _ in compiled], scope.me)
        local = "".join(f"{p!r}: {code}, " for p, (_, code) in zip(decl.params, compiled))
        k = self.here
        self.emit([Call(repr(code_id), f"{{{local}'me': env.get('me')}}", k + 1)], node)

    def _s_Pass(self, node, scope):
        pass

    def _s_Log(self, node: ast.Log, scope: Scope):
        ty, value = self.src(node.value, scope)
        fmt = self.c.const(self.c.formatter(ty))
        self.emit([f"st.log_line({fmt}(st, {value}))"], node)

    def _s_Reveal(self, node: ast.Reveal, scope: Scope):
        ty, value = self.src(node.value, scope)
        fmt = self.c.const(self.c.formatter(ty))
        components = self.c.const(_revealed_components(ty))
        self.emit(["r = env.get('me')", "i = '' if r is None else st.setup.seat_names[r] + ' shows '",
                   f"r = {value}", f"st.reveal(i + {fmt}(st, r), {components}(r))"], node)

    def _s_Fail(self, node: ast.Fail, scope: Scope):
        _, value = self.src(node.value, scope)
        self.emit([f"H.rule_fails({value})"], node)
