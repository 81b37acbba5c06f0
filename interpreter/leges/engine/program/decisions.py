"""Statements that ask a player: `choose` and `act`."""
from __future__ import annotations

from operator import itemgetter

from ...text.errors import did_you_mean
from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.check.scope import Scope
from ...lang.codegen.runtime import chars, too_many_options
from ..constants import MISSING, PUSHED, SUSPEND
from .statement import StatementBase


_text = itemgetter(0)  # an option's text (no comprehension's frame: `offered` runs at every decision)


class Decisions(StatementBase):
    def _s_Choose(self, node: ast.Choose, scope: Scope):
        """`choose`: its checks (domain, label, `by`, optional, random) and its instruction; one
        branch a clause of the statement."""
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
        """`act`: the actions offered checked one by one, then the instruction (with its `until pass`,
        `at least` and `at most` variants) built from closures over them. The instruction's
        closures share the checked values: splitting them apart would pass a dozen of them along."""
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
                options.extend(st.game.actions[aid].options(st, player, {k: f(st, env) for k, f in kw} if kw else {}))
            if len(set(map(_text, options))) != len(options):  # equal texts (identical cards): one option each
                options = list({o[0]: o for o in options}.values())
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


def _ask(st, env: dict, player: int, options: list, pc: int) -> int:
    """An `act`'s decision: asked of `player`, or a lone option taken at once (and counted) unless
    the state asks forced moves too; then the instruction runs again with the answer."""
    if len(options) == 1 and not st.forced_moves and options[0][1] not in st.game.ask_alone:
        st.forced += 1
        st.at_once = st.at_once + [f"{st.player_name(player)}: {options[0][0]}"]  # never changed in place
        env["$answer"] = options[0]
        return pc
    st.suspend(player, "act", options)
    return SUSPEND
