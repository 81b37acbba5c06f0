"""Compiling programs — statements that change the game state — into flat instruction lists.

An instruction is a closure `ins(state, frame, pc) -> next pc`, or SUSPEND (a decision is
pending), PUSHED (a frame for a procedure, action or trigger was pushed; this one resumes at
frame[1]) or UNWIND (the frame stack was replaced). Loops keep their counters in the frame's
local variables under names starting with '$', so a suspended program is plain data.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..text.errors import Diagnostic, RuleError, did_you_mean
from ..lang import ast, memo
from ..lang import types as T
from ..lang.builtins import BUILTINS
from ..lang.compiler import BUILTIN_EVENTS, Compiler
from ..lang.scope import Scope
from ..text.yaml_source import TextOrigin
from ..lang.runtime import chars, fit, too_many_options
from .constants import MISSING, PUSHED, SUSPEND, UNWIND


@dataclass
class Code:
    """One compiled program: its instructions and, per instruction, where it was written."""

    id: str
    instructions: list = field(default_factory=list)
    positions: list = field(default_factory=list)


class Programs:
    """The programs of a game (actions' effects, triggers, phases, procedures), compiled once each."""

    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.codes: dict[str, Code] = {}
        # every `choose` that a player answers: (label, name, element type, optional), in the order
        # compiled — what a fixed action space (engine/action_space.py) enumerates besides the actions
        self.choose_sites: list[tuple] = []
        self.random = False  # whether a rule shuffles or chooses at random (the game has chance)
        self.draws = False  # whether a rule draws (from a bag: chance)
        self.passes = False  # whether some decision may be passed (an optional act or choose, `until pass`)
        self.asked: list[tuple[str, str, str]] = []  # (code id, label, name) of every `choose ... as LABEL` (engine/words.py)

    def parse_program(self, text, scope: Scope, code_id: str) -> str:
        tree = self.c.parse_tree(text)
        if tree is None:
            self.codes[code_id] = Code(code_id)
            return code_id
        return self.program(tree.body, scope, text.at.origin(), code_id)

    def program(self, body: list, scope: Scope, origin: TextOrigin, code_id: str) -> str:
        code = Code(code_id)
        self.codes[code_id] = code
        StatementCompiler(self, code, origin).block(body, scope)
        return code_id

    def procedure_code(self, decl, arg_types: list, me: bool) -> str:
        """The code of a procedure compiled for these argument types (compiled once per kind of call)."""
        signature = ",".join(str(t) for t in arg_types)
        code_id = f"procedure:{decl.id}({signature})"
        if code_id not in self.codes:
            self.codes[code_id] = Code(code_id)  # registered first: a recursive call finds it
            scope = Scope(dict(zip(decl.params, arg_types)), me=me)
            self.parse_program(decl.body, scope, code_id)
        return code_id


def _revealed_components(ty: T.Ty) -> Callable[[Any], tuple]:
    """The components a `reveal` of a value of this type shows (the leak check, leaks.py, counts
    them as seen by every seat)."""
    if ty.kind == "component":
        return lambda v: () if v is None else (v,)
    if ty.kind == "list" and ty.elem is not None and ty.elem.kind == "component":
        return lambda v: tuple(c for c in v if c is not None)
    return lambda v: ()


def _after_triggers(fr: list, pc: int, key: str, rest) -> int:
    """Triggers were pushed mid-statement: come back to finish `rest` (kept in the locals), or go on."""
    if rest is None:
        fr[1] = pc + 1
    else:
        fr[2][key] = rest
        fr[1] = pc
    return PUSHED


class StatementCompiler:
    def __init__(self, programs: Programs, code: Code, origin: TextOrigin):
        self.programs = programs
        self.c = programs.c
        self.sym = programs.c.symbols
        self.code = code
        self.origin = origin

    # -------------------------------------------------------------- helpers
    def emit(self, ins, node) -> int:
        self.code.instructions.append(ins)
        self.code.positions.append(self.origin.locate(getattr(node, "line", 1) or 1, getattr(node, "col", 1) or 1))
        return len(self.code.instructions) - 1

    @property
    def here(self) -> int:
        return len(self.code.instructions)

    def expr(self, node, scope, want: T.Ty | None = None):
        ty, fn = self.c.expr(node, scope, self.origin)
        if want is not None and not T.compatible(ty, want):
            self.c.err(node, self.origin, f"expected {want} here, found {ty}")
        return ty, fn

    def zone(self, node, scope, what="a zone"):
        ty, fn = self.c.expr(node, scope, self.origin)
        if ty.kind not in ("zone", "space", "any"):
            self.c.err(node, self.origin, f"expected {what}, found {ty}")
        return fn

    def error(self, node, message, hint=None):
        self.c.err(node, self.origin, message, hint)

    def block(self, body: list, scope: Scope) -> None:
        for stmt in body:
            method = getattr(self, "_s_" + type(stmt).__name__)
            method(stmt, scope)

    def position(self, where: ast.Position | None, scope):
        """Compile `at top/bottom/depth` into fn(state, env, zone_list) -> insert index."""
        if where is None or (where.depth is None and where.end == "top"):
            return None
        if where.depth is None:
            return lambda st, env, items: 0
        _, depth = self.expr(where.depth, scope, T.INT)
        if where.end == "top":
            return lambda st, env, items: max(0, min(len(items), len(items) - depth(st, env)))
        return lambda st, env, items: max(0, min(len(items), depth(st, env)))

    # ----------------------------------------------------------- statements
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

    def _s_Choose(self, node: ast.Choose, scope: Scope):
        ty, domain = self.expr(node.domain, scope)
        elem = T.iter_elem(ty)
        if elem is None:
            self.error(node.domain, f"choose needs a list or a zone of options, found {ty}")
            elem = T.ANY
        if ty.kind in ("zone", "space"):
            zone_fn = domain
            domain = lambda st, env: list(st.zones[zone_fn(st, env)])
        by = self.expr(node.by, scope, T.PLAYER)[1] if node.by is not None else None
        if by is None and not scope.me and not node.random:
            self.error(node, "no player is acting here: say who chooses with `by PLAYER`")
        name, label, optional = node.name, node.label or "choose", node.optional
        self.programs.asked.append((self.code.id, label, name))
        scope.locals[name] = T.join(elem, T.NONE) if optional else elem
        fmt = self.c.formatter(elem)
        if node.random:
            self.programs.random = True
            key = f"$c{self.here}"

            def choose_random(st, fr, pc):
                env = fr[2]
                options = domain(st, env)
                if not options:
                    env[name] = None
                    return pc + 1
                value = st.random_item(fr, key, options, None, fmt)
                if value is MISSING:
                    return SUSPEND
                env[name] = value
                return pc + 1
            self.emit(choose_random, node)
            return

        site = (label, name, elem, optional)
        self.programs.passes = self.programs.passes or optional
        if site not in self.programs.choose_sites:
            self.programs.choose_sites.append(site)
        where = self.origin.locate(node.line or 1, node.col or 1)
        long = elem.kind in ("list", "table", "tuple", "any")  # a text as long as the value: charged

        def choose(st, fr, pc):
            env = fr[2]
            answer = env.pop("$answer", None)
            if answer is not None:
                env[name] = answer[2].get(name)
                return pc + 1
            player = by(st, env) if by is not None else env.get("me")
            seen: dict[str, list] = {}
            most = st.game.max_options
            for value in domain(st, env):
                text = f"{label} {name}={chars(st, fmt(st, value)) if long else fmt(st, value)}"
                if text not in seen:
                    seen[text] = [text, "$choose", {name: value}, {}]
                    if len(seen) > most:
                        too_many_options(where, f"choose {name}", most)
            options = list(seen.values())
            if optional:
                options.append(["pass", "pass", {name: None}, {}])
            if not options:
                env[name] = None
                return pc + 1
            if len(options) == 1 and not st.forced_moves:
                st.forced += 1
                st.at_once = st.at_once + [f"{st.player_name(player)}: {options[0][0]}"]  # never changed in place
                env[name] = options[0][2][name]
                return pc + 1
            st.suspend(player, "choose", options)
            return SUSPEND
        self.emit(choose, node)

    def _s_Act(self, node: ast.Act, scope: Scope):
        items = []
        for item in node.items:
            decl = self.sym.actions.get(item.action)
            if decl is None:
                self.error(item, f"unknown action '{item.action}'", did_you_mean(item.action, self.sym.actions))
                continue
            declared = getattr(decl, "args_types", {})
            kw = []
            for k, v in item.kwargs.items():
                if k not in declared:
                    self.error(v, f"action '{item.action}' takes no argument '{k}'",
                               did_you_mean(k, declared) or "declare it under the action's args")
                    continue
                kw.append((k, self.expr(v, scope, declared[k])[1]))
            for k in declared:
                if k not in item.kwargs:
                    self.error(item, f"action '{item.action}' needs argument '{k}'")
            items.append((item.action, kw))
        by = self.expr(node.by, scope, T.PLAYER)[1] if node.by is not None else None
        if by is None and not scope.me:
            self.error(node, "no player is acting here: say who acts with `by PLAYER`")
        optional = node.optional
        self.programs.passes = self.programs.passes or bool(optional or node.until_pass)
        if not node.until_pass and (node.at_least is not None or node.at_most is not None):
            self.error(node.at_least or node.at_most, "`at least` and `at most` count the actions of `act ... until pass`",
                       "add `until pass`: the actions are offered again after each one, until the player passes")
        if node.until_pass and optional:
            self.error(node, "`act ... until pass` offers `pass` already: `optional` adds nothing",
                       "leave out `optional`; `at least N` keeps `pass` back until N actions are taken")
        at_least = self.expr(node.at_least, scope, T.INT)[1] if node.at_least is not None else None
        at_most = self.expr(node.at_most, scope, T.INT)[1] if node.at_most is not None else None

        def offered(st, env, player) -> list:
            options: list = []
            for aid, kw in items:
                options.extend(st.game.actions[aid].options(st, player, {k: f(st, env) for k, f in kw}))
            by_text = {o[0]: o for o in options}
            if len(by_text) != len(options):  # equal texts (identical cards): one option each
                options = list(by_text.values())
            return options

        def take(st, fr, env, player, answer) -> int:
            """Run the chosen action's effect (a frame of its own) with `me` the player."""
            action = st.game.actions[answer[1]]
            local = dict(answer[3])
            local.update(answer[2])
            local["me"] = player
            st.frames.append([action.code_id, 0, local])
            return PUSHED

        def act(st, fr, pc):
            env = fr[2]
            player = by(st, env) if by is not None else env.get("me")
            answer = env.pop("$answer", None)
            if answer is not None:
                if answer[1] == "pass":
                    return pc + 1
                fr[1] = pc + 1
                return take(st, fr, env, player, answer)
            options = offered(st, env, player)
            if optional:
                options.append(["pass", "pass", {}, {}])
            if not options:
                return pc + 1
            return _ask(st, env, player, options, pc)

        key = f"$a{self.here}"  # actions taken so far by this `act ... until pass`

        def act_until_pass(st, fr, pc):
            env = fr[2]
            player = by(st, env) if by is not None else env.get("me")
            answer = env.pop("$answer", None)
            taken = env.get(key, 0)
            if answer is not None:
                if answer[1] == "pass":
                    env.pop(key, None)
                    return pc + 1
                env[key] = taken + 1
                fr[1] = pc  # offered again once the action's effect has run
                return take(st, fr, env, player, answer)
            if at_most is not None and taken >= at_most(st, env):
                env.pop(key, None)
                return pc + 1
            options = offered(st, env, player)
            if not options:  # nothing (more) to do
                env.pop(key, None)
                return pc + 1
            if at_least is None or taken >= at_least(st, env):
                options.append(["pass", "pass", {}, {}])
            env[key] = taken
            return _ask(st, env, player, options, pc)
        instruction = act_until_pass if node.until_pass else act
        instruction.actions = tuple(aid for aid, _ in items)  # what it offers, for explanations (engine/explain.py)
        self.emit(instruction, node)

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

        def emit(st, fr, pc):
            env = fr[2]
            values = {k: f(st, env) for k, f in args}
            if st.fire(event, values, env.get("me")):
                fr[1] = pc + 1
                return PUSHED
            return pc + 1
        self.emit(emit, node)

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


def _ask(st, env: dict, player: int, options: list, pc: int) -> int:
    """An `act`'s decision: asked of `player`, or a lone option taken at once (and counted) unless
    the state asks forced moves too; then the instruction runs again with the answer."""
    if len(options) == 1 and not st.forced_moves:
        st.forced += 1
        st.at_once = st.at_once + [f"{st.player_name(player)}: {options[0][0]}"]  # never changed in place
        env["$answer"] = options[0]
        return pc
    st.suspend(player, "act", options)
    return SUSPEND
