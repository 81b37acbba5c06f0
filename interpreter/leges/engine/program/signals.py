"""Statements that tell the game something: drop out, emit, goto, end, a procedure call, pass, log,
reveal, fail."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...text.errors import Diagnostic, RuleError, did_you_mean
from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.codegen.builtins import BUILTINS
from ...lang.codegen.compiler import BUILTIN_EVENTS
from ...lang.check.scope import Scope
from ..constants import PUSHED, UNWIND
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
        who = self.expr(node.player, scope, T.PLAYER)[1] if node.player is not None else None
        if who is None and not scope.me:
            self.error(node, "no player is acting here: say who drops out with `drop out PLAYER`")

        def drop_out(st, fr, pc):
            env = fr[2]
            st.drop_out(who(st, env) if who is not None else env.get("me"))
            return pc + 1
        self.emit(drop_out, node)

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
            args.append((k, self.expr(v, scope, params[k])[1]))
        for k in params:
            if k not in node.kwargs:
                self.error(node, f"event '{node.event}' needs parameter '{k}'")
        event = node.event
        if event in self.sym.told:  # an event with a phrase: news, a log line in its text form (engine/words.py)
            self.emit(self._told(event, args, params), node)
            return

        def emit(st, fr, pc):
            env = fr[2]
            values = {k: f(st, env) for k, f in args}
            if st.fire(event, values, env.get("me")):
                fr[1] = pc + 1
                return PUSHED
            return pc + 1
        self.emit(emit, node)

    def _told(self, event: str, args: list, params: dict) -> Callable:
        """An emit of an event the ruleset gives a phrase: before its triggers run, every player is
        told it as a log line, `event name=value ...` (its parameters in declared order, each value
        as an action text writes it), which front ends word by the phrase (engine/words.worded_log).
        A log line is seen by every seat, as a `log` statement's is: the leak check reads it too."""
        formats = {k: self.c.formatter(params[k]) for k in params}

        def emit(st, fr, pc):
            env = fr[2]
            values = {k: f(st, env) for k, f in args}
            st.log_line(" ".join([event] + [f"{k}={formats[k](st, values[k])}" for k in params if k in values]))
            if st.fire(event, values, env.get("me")):
                fr[1] = pc + 1
                return PUSHED
            return pc + 1
        return emit

    def _s_Goto(self, node: ast.Goto, scope: Scope):
        if node.phase not in self.sym.phases:
            self.error(node, f"unknown phase '{node.phase}'", did_you_mean(node.phase, self.sym.phases))
        phase = node.phase
        self.c.goto_targets.add(phase)

        def goto(st, fr, pc):
            st.goto(phase)
            return UNWIND
        self.emit(goto, node)

    def _s_End(self, node: ast.End, scope: Scope):
        what = node.what

        def end(st, fr, pc):
            st.end(what)
            return UNWIND

        def end_game(st, fr, pc):
            st.ending = {"kind": "end_game", "rule": fr[0].split("(", 1)[0]}  # procedure:NAME(types) → procedure:NAME
            st.end(what)
            return UNWIND
        self.emit(end_game if what == "game" else end, node)

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
        compiled = [self.expr(a, scope) for a in call.args]
        code_id = self.programs.procedure_code(decl, [t for t, _ in compiled], scope.me)
        params = decl.params
        args = [f for _, f in compiled]

        def call_proc(st, fr, pc):
            env = fr[2]
            local = {p: a(st, env) for p, a in zip(params, args)}
            local["me"] = env.get("me")
            fr[1] = pc + 1
            st.frames.append([code_id, 0, local])
            return PUSHED
        self.emit(call_proc, node)

    def _s_Pass(self, node, scope):
        pass

    def _s_Log(self, node: ast.Log, scope: Scope):
        ty, value = self.expr(node.value, scope)
        fmt = self.c.formatter(ty)

        def log(st, fr, pc):
            st.log_line(fmt(st, value(st, fr[2])))
            return pc + 1
        self.emit(log, node)

    def _s_Reveal(self, node: ast.Reveal, scope: Scope):
        ty, value = self.expr(node.value, scope)
        fmt = self.c.formatter(ty)

        components = _revealed_components(ty)

        def reveal(st, fr, pc):
            env = fr[2]
            who = env.get("me")
            prefix = "" if who is None else st.setup.seat_names[who] + " shows "
            shown = value(st, env)
            st.reveal(prefix + fmt(st, shown), components(shown))
            return pc + 1
        self.emit(reveal, node)

    def _s_Fail(self, node: ast.Fail, scope: Scope):
        ty, value = self.expr(node.value, scope)
        position = self.origin.locate(node.line or 1, node.col or 1)

        def fail(st, fr, pc):
            raise RuleError(Diagnostic(position, f"rule failed: {value(st, fr[2])}"))
        self.emit(fail, node)
