"""Compiling a game's rules: actions (their options and effects), triggers, the set-up rules, phases,
scoring, heuristics and statistics, invariants and consistency checks, the variables' starting
values; with the checks that need the compiled rules (phases never reached, functions never used)."""
from __future__ import annotations

from ...lang.check import types as T
from ...lang.check.scope import Scope
from ...model import decl as d
from ...model.rule_ids import RuleId
from ...text.errors import did_you_mean
from ..game import CompiledAction, CompiledPhase, CompiledTrigger, Game
from ..measures import Measure
from ..options import options_function
from ..program import Code
from ..program.generate import Call, Ins
from ..flow import turn_source
from .parts import BuilderParts


class RuleCompiling(BuilderParts):
    def program_texts(self):
        rs = self.rs
        for item in [*rs.procedures, *rs.setup, *rs.actions, *rs.triggers]:
            text = getattr(item, "effect", None) or getattr(item, "body", None)
            if text is not None:
                yield text
        for phase in rs.phases:
            yield from (t for t in (phase.on_begin, phase.turn, phase.on_end) if t is not None)

    def compile(self) -> Game:
        """Every rule compiled into the game, in the order their errors are best reported."""
        sym, game = self.sym, self.game
        self.compiler.note_dynamic_props(self.program_texts())
        for decl in sym.functions.values():
            for p in decl.params:
                if p in sym.variables or p in sym.zones:
                    self.error(decl.at.child("params"), f"parameter '{p}' hides a game variable or zone")
        self.programs.heard = frozenset(t.on for t in self.rs.triggers)
        self._actions()
        self._triggers()
        self._setup_rules()
        phases = list(self._unique(self.rs.phases, "phase").values())
        self._phases(phases)
        self._scoring()
        self._statistics()
        self._highlights()
        self._check_unused()
        self._check_reachable_phases(phases)
        self._checks()
        self._variables_at_start()
        game.codes = {cid: self.programs.generated(cid) for cid in self.programs.codes}
        if self.compiler.optimise:  # (the reference build keeps Flow.after_turn: the harness compares them)
            for number, phase in enumerate(game.phases.values()):
                if phase.turn:
                    self.compiler.define(turn_source(f"T{number}", phase, game), f"turns:{phase.id}")
                    phase.next_turn = self.compiler.namespace[f"T{number}"]
        from ..words import check_phrases
        game.words = check_phrases(self.rs, self.programs.asked, self.sym.events, self.errors)
        game.setup_builder = self.setup_builder()
        return game

    def _actions(self) -> None:
        c, game = self.compiler, self.game
        for action in self.sym.actions.values():
            where = action.at.child("params").position() if action.params else action.at.position()
            options, types = options_function(c, action.id, action.params, action.require, action.args_types, where)
            locals_ = dict(action.args_types)
            locals_.update(types)
            code_id = self.programs.parse_program(action.effect, Scope(locals_, me=True), str(RuleId("action", action.id)))
            compiled = CompiledAction(action.id, code_id, options, action.anytime, action, action.secret, types)
            game.actions[action.id] = compiled
            if action.anytime:
                game.anytime.append(compiled)
            if action.ask_alone:
                game.ask_alone |= {action.id}
            if action.secret:
                game.secret_actions |= {action.id}

    def _triggers(self) -> None:
        sym = self.sym
        for trigger in self._unique(self.rs.triggers, "trigger").values():
            params = sym.events.get(trigger.on)
            if params is None:
                self.error(trigger.at.child("on"), f"unknown event '{trigger.on}'",
                           did_you_mean(trigger.on, sym.events) or "declare it under `events`")
                params = {}
            scope = Scope(dict(params), me=True)
            cond = self.compiler.parse_expr(trigger.condition, scope, T.BOOL)[1] if trigger.condition else None
            code_id = self.programs.parse_program(trigger.effect, Scope(dict(params), me=True), str(RuleId("trigger", trigger.id)))
            self.game.listeners.setdefault(trigger.on, []).append(CompiledTrigger(trigger.id, trigger.on, cond, code_id))

    def _setup_rules(self) -> None:
        rs = self.rs
        if rs.setup:
            self._unique(rs.setup, "set-up rule")
            parts = [self.programs.parse_program(rule.effect, Scope(me=False), str(RuleId("setup", rule.id))) for rule in rs.setup]
            self.game.setup_code = self._chain(parts, "setup")

    def _phases(self, phases: list[d.PhaseDecl]) -> None:
        c, progs, sym = self.compiler, self.programs, self.sym
        for phase in phases:
            pid = phase.id
            order_fn, direction = self._turn_order(phase)
            first_fn = c.parse_expr(phase.first, Scope(me=False), T.PLAYER)[1] if phase.first is not None else None
            end_if = c.parse_code(phase.end_if, Scope(me=False), T.BOOL)[1] if phase.end_if else None
            self.game.phases[pid] = CompiledPhase(
                pid, first_fn, order_fn, direction,
                progs.parse_program(phase.on_begin, Scope(me=False), str(RuleId("phase", pid, "on_begin"))) if phase.on_begin else None,
                progs.parse_program(phase.turn, Scope(me=True), str(RuleId("phase", pid, "turn"))) if phase.turn else None,
                c.function(end_if) if end_if is not None else None,
                progs.parse_program(phase.on_end, Scope(me=False), str(RuleId("phase", pid, "on_end"))) if phase.on_end else None,
                phase.next, phase.at.position(),
                phase.first.at.position() if phase.first is not None else phase.at.position(), end_if)
            if phase.next is not None and phase.next != "end" and phase.next not in sym.phases:
                self.error(phase.at.child("next"), f"unknown phase '{phase.next}'",
                           did_you_mean(phase.next, sym.phases | {"end"}) or "name a phase, or `end`")
        if phases:
            self.game.first_phase = phases[0].id
        else:
            self.error(self.rs.at, "the ruleset declares no phases", "a game needs at least one phase")

    def _turn_order(self, phase: d.PhaseDecl):
        """(order function or None, direction): `clockwise`, `counterclockwise` or an expression."""
        if phase.order is None:
            return None, 1
        text = phase.order.text.strip()
        close = did_you_mean(text, ("clockwise", "counterclockwise")) if text.isidentifier() else None
        if text in ("clockwise", "counterclockwise"):
            return None, 1 if text == "clockwise" else -1
        if close and text not in self.sym.variables and text not in self.sym.constants:
            self.error(phase.at.child("order"), f"unknown turn order '{text}'",
                       close + " (or give an expression for the list of players)")
            return None, 1
        return self.compiler.parse_expr(phase.order, Scope(me=False), T.list_of(T.PLAYER))[1], 1

    def _scoring(self) -> None:
        """Scoring, and the heuristics: estimates for agents."""
        c, game, rs = self.compiler, self.game, self.rs
        if rs.scoring is not None:
            assert rs.scoring.score is not None  # the ruleset schema requires scoring's score
            scope = Scope({"p": T.PLAYER}, me=False)
            game.score_fn = c.parse_expr(rs.scoring.score, scope, T.INT)[1]
            game.score_position = rs.scoring.score.at.position()
            game.tiebreak_fns = [c.parse_expr(t, scope, T.INT)[1] for t in rs.scoring.tiebreak]
        # the heuristics (and what compiles after them) go through the board's index only where the
        # rules' own code does: kept for an agent's estimate alone, it cost a bundled game's every
        # move more than its estimates saved (1 % more bytecodes a random play-out action)
        c.board_index = c.board_index and c.board_index_used
        player_scope = Scope({"p": T.PLAYER}, me=False)
        for h in self._unique(rs.heuristics, "heuristic").values():
            game.heuristics[h.id] = c.parse_expr(h.value, player_scope, T.INT)[1]
            game.positions[f"heuristic:{h.id}"] = h.at.child("value").position()

    def _statistics(self) -> None:
        """Statistics: figures for simulation reports, measured at the end or as the game goes."""
        c, game = self.compiler, self.game
        player_scope = Scope({"p": T.PLAYER}, me=False)
        rs_actions = {a.id for a in self.rs.actions}
        for stat in self._unique(self.rs.statistics, "statistic").values():
            scope = player_scope if stat.per_player else Scope(me=False)
            ty, fn = c.parse_expr(stat.value, scope)
            if not (T.numeric(ty) or T.compatible(ty, T.BOOL)):
                self.error(stat.at.child("value"), f"statistic '{stat.id}' must be a number or a truth value, not {ty}")
            game.positions[f"statistic:{stat.id}"] = stat.at.child("value").position()
            if stat.when == "end":
                if stat.aggregate is not None:
                    self.error(stat.at.child("aggregate"), f"statistic '{stat.id}' is measured once, at the end: "
                               "there is nothing to aggregate", "give `when` (turn, round, decision, after ACTION)")
                game.statistics.append((stat.id, stat.per_player, fn))
                continue
            if stat.when.startswith("after ") and stat.when[6:] not in rs_actions:
                self.error(stat.at.child("when"), f"no action '{stat.when[6:]}' to measure after",
                           did_you_mean(stat.when[6:], rs_actions) or "actions: " + ", ".join(sorted(rs_actions)))
            truth = T.compatible(ty, T.BOOL) and not T.numeric(ty)
            how = stat.aggregate or ("count" if truth else "sum")
            if how == "count" and not truth:
                self.error(stat.at.child("aggregate"), f"statistic '{stat.id}' counts how often it is true: its "
                           f"value must be a truth value, not {ty}", "use sum, mean, max, min, last or series")
            game.measures.append(Measure(stat.id, stat.per_player, fn, stat.when, how))

    def _highlights(self) -> None:
        """Highlights: spaces the pictures mark (a winning line). Compiled and checked like any
        expression, so a wrong one is a located error when the ruleset loads, not a broken picture."""
        c, game = self.compiler, self.game
        for h in self._unique(self.rs.highlights, "highlight").values():
            if self.board is None:
                self.error(h.at, f"highlight '{h.id}' marks spaces, and this ruleset has no map",
                           "highlights are drawn on a map's spaces")
                continue
            ty, fn = c.parse_expr(h.spaces, Scope(me=False))
            if not _gives_spaces(ty):
                self.error(h.at.child("spaces"), f"highlight '{h.id}' must give spaces (a list of spaces, or a list of "
                           f"lists of spaces), not {ty}", "e.g. [s for s in spaces if count(s) > 0]")
            game.positions[f"highlight:{h.id}"] = h.at.child("spaces").position()
            game.highlights.append((h.id, fn, h.shape, h.when, h.colour))

    def _check_unused(self) -> None:
        """Procedures and functions never called are still checked. That one is never used is told only
        when every rule compiled: a rule with an error calls nothing, so beside an error the warning
        would most likely be the error's echo (a call inside the rule that failed to parse)."""
        c, progs, sym = self.compiler, self.programs, self.sym
        for proc in sym.procedures.values():
            if not any(RuleId.parse(k).kind == "procedure" and RuleId.parse(k).name == proc.id for k in progs.codes):
                progs.procedure_code(proc, [T.ANY] * len(proc.params), True)
        for fn in sym.functions.values():
            if not any(k[0] == fn.id for k in c.functions.compiled) and not fn.params:
                c.parse_code(fn.body, Scope(me=True, me_code="me"))
            if not any(k[0] == fn.id for k in c.functions.compiled) and fn.params and not self.errors.errors:
                self.errors.warning(fn.at.position(), f"function '{fn.id}' is never used")

    def _checks(self) -> None:
        """Invariants (checked as the game goes) and consistency checks (on the game as set out)."""
        c = self.compiler
        for inv in self._unique(self.rs.invariants, "invariant").values():
            self.game.invariants.append((inv.id, c.parse_expr(inv.check, Scope(me=False))[1], inv))
        self.checks = [(chk, c.parse_expr(chk.check, Scope(me=False), T.BOOL)[1])
                       for chk in self._unique(self.rs.checks, "check").values()]

    def _variables_at_start(self) -> None:
        sym, game = self.sym, self.game
        for var in self.rs.variables:
            initial = var.initial
            if isinstance(initial, str) and initial in sym.seats and sym.variables[var.id].type.kind == "player":
                initial = sym.seats.index(initial)
            game.variables[var.id] = (var.per_player, initial)
            game.variable_visibility[var.id] = var.visibility
            if var.scope == "turn":
                game.turn_vars.append((var.id, var.per_player, initial))
            elif var.scope == "phase":
                game.phase_vars.append((var.id, var.per_player, initial))

    def _chain(self, parts: list[str], code_id: str) -> str:
        """One code that runs the given codes in order (each pushed as its own frame)."""
        code = Code(code_id)
        for k, part in enumerate(parts):
            code.instructions.append(Ins([Call(repr(part), "{'me': None}", k + 1)]))
            code.positions.append(self.rs.at.position())
        self.programs.codes[code_id] = code
        return code_id

    def _check_reachable_phases(self, phases: list[d.PhaseDecl]) -> None:
        """A phase no `next` and no `goto` leads to; not looked for beside errors, since the `goto` that
        leads to it may lie in a rule that did not compile."""
        if not phases or self.errors.errors:
            return
        targets = self.compiler.goto_targets  # a goto anywhere may be reached from any phase
        reachable = {phases[0].id}
        frontier = [phases[0].id]
        by_id = {p.id: p for p in phases}
        while frontier:
            p = by_id[frontier.pop()]
            for nxt in [p.next, *targets]:
                if nxt in by_id and nxt not in reachable:
                    reachable.add(nxt)
                    frontier.append(nxt)
        for phase in phases:
            if phase.id not in reachable:
                self.error(phase.at.child("id"), f"phase '{phase.id}' can never be reached",
                           "no phase names it as `next` and no rule does `goto " + phase.id + "`")


def _gives_spaces(ty: T.Ty) -> bool:
    """A highlight's type: a list of spaces, or a list of lists of spaces (`any` where not known)."""
    if ty.kind == "any":
        return True
    if ty.kind != "list":
        return False
    elem = ty.elem
    if elem is None or elem.kind in ("space", "any"):
        return True
    return elem.kind == "list" and (elem.elem is None or elem.elem.kind in ("space", "any"))
