"""Statements that ask a player: `choose` and `act`."""
from __future__ import annotations

from ...text.errors import did_you_mean
from ...lang.syntax import ast
from ...lang.check import types as T
from ...lang.check.scope import Scope
from ..constants import MISSING, SUSPEND
from ..decision import PASS
from .generate import Call, Jump, indented

PASSING: tuple = (PASS, PASS, {}, {}, None)  # the option of passing an `act` (never changed: shared)
from .statement import StatementBase


class Decisions(StatementBase):
    def _s_Choose(self, node: ast.Choose, scope: Scope):
        """`choose`: its checks (domain, label, `by`, optional, random) and its instruction; one
        branch a clause of the statement."""
        ty, domain = self.src(node.domain, scope)
        elem = T.iter_elem(ty)
        if elem is None:
            self.error(node.domain, f"choose needs a list or a zone of options, found {ty}")
            elem = T.ANY
        if ty.kind in ("zone", "space"):
            domain = f"list(st.zones[{domain}])"
        by = self.src(node.by, scope, T.PLAYER)[1] if node.by is not None else "env.get('me')"
        if node.by is None and not scope.me and not node.random:
            self.error(node, "no player is acting here: say who chooses with `by PLAYER`")
        name, label, optional = node.name, node.label or "choose", node.optional
        self.programs.asked.append((self.code.id, label, name))
        scope.locals[name] = T.join(elem, T.NONE) if optional else elem
        fmt = self.c.const(self.c.formatter(elem))
        k = self.here
        suspend = [f"    fr[1] = {k}", f"    return {SUSPEND}, n"]
        if node.random:
            self.programs.random = True
            self.emit([f"r = {domain}",
                       "if r:",
                       f"    r = st.random_item(fr, {f'$c{k}'!r}, r, None, {fmt})",
                       f"    if r is {self.c.const(MISSING)}:",
                       *indented(suspend, "    "),
                       f"    env[{name!r}] = r",
                       "else:",
                       f"    env[{name!r}] = None"], node)
            return

        site = (label, name, elem, optional)
        self.programs.passes = self.programs.passes or optional
        if site not in self.programs.choose_sites:
            self.programs.choose_sites.append(site)
        where = self.c.const(self.origin.locate(node.line or 1, node.col or 1))
        long = elem.kind in ("list", "table", "tuple", "any")  # a text as long as the value: charged
        text = f"{fmt}(st, value)"
        if long:
            text = f"H.chars(st, {text})"
        prefix = f"{label} {name}="
        self.emit(["r = env.pop('$answer', None)",
                   "if r is not None:",
                   f"    env[{name!r}] = r[2].get({name!r})",
                   "else:",
                   f"    me = {by}",
                   "    seen = {}",
                   "    most = st.game.max_options",
                   f"    for value in {domain}:",
                   f"        text = {prefix!r} + {text}",
                   "        if text not in seen:",
                   f"            seen[text] = (text, '$choose', {{{name!r}: value}}, {{}}, None)",
                   "            if len(seen) > most:",
                   f"                H.too_many_options({where}, {f'choose {name}'!r}, most)",
                   "    options = list(seen.values())",
                   *([f"    options.append({self.c.const((PASS, PASS, {name: None}, {}, None))})"] if optional else []),
                   "    if not options:",
                   f"        env[{name!r}] = None",
                   "    elif len(options) == 1 and not st.forced_moves:",
                   "        st.forced += 1",
                   "        st.at_once = st.at_once + [st.player_name(me) + ': ' + options[0][0]]  # never changed in place",
                   f"        env[{name!r}] = options[0][2][{name!r}]",
                   "    else:",
                   "        st.suspend(me, 'choose', options)",
                   *indented(suspend, "    ")], node)

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
                kw.append((k, self.src(v, scope, declared[k])[1]))
            for k in declared:
                if k not in item.kwargs:
                    self.error(item, f"action '{item.action}' needs argument '{k}'")
            items.append((item.action, kw))
        by = self.src(node.by, scope, T.PLAYER)[1] if node.by is not None else "env.get('me')"
        if node.by is None and not scope.me:
            self.error(node, "no player is acting here: say who acts with `by PLAYER`")
        optional = node.optional
        self.programs.passes = self.programs.passes or bool(optional or node.until_pass)
        if not node.until_pass and (node.at_least is not None or node.at_most is not None):
            self.error(node.at_least or node.at_most, "`at least` and `at most` count the actions of `act ... until pass`",
                       "add `until pass`: the actions are offered again after each one, until the player passes")
        if node.until_pass and optional:
            self.error(node, "`act ... until pass` offers `pass` already: `optional` adds nothing",
                       "leave out `optional`; `at least N` keeps `pass` back until N actions are taken")
        at_least = self.src(node.at_least, scope, T.INT)[1] if node.at_least is not None else None
        at_most = self.src(node.at_most, scope, T.INT)[1] if node.at_most is not None else None
        k = self.here
        key = repr(f"$a{k}")  # actions taken so far by this `act ... until pass`
        passing = f"options.append({self.c.const(PASSING)})"
        offered = []
        for aid, kw in items:
            args = "{" + "".join(f"{name!r}: {code}, " for name, code in kw) + "}"
            offered.append(f"options += st.game.actions[{aid!r}].options(st, me, {args})")
        if len(items) == 1 and not optional and not node.until_pass:  # nothing added: the action's own list (never changed)
            offered = [offered[0].replace("options +=", "options =", 1)]
        else:
            offered.insert(0, "options = []")
        offered += ["if len(set(map(H.option_text, options))) != len(options):  # equal texts (identical cards): one option each",
                    "    options = list({o[0]: o for o in options}.values())"]
        ask = ["if len(options) == 1 and not st.forced_moves and options[0][1] not in st.game.ask_alone:",
               "    st.forced += 1",
               "    st.at_once = st.at_once + [st.player_name(me) + ': ' + options[0][0]]  # never changed in place",
               "    env['$answer'] = options[0]",
               Jump([k], "    "),
               "st.suspend(me, 'act', options)",
               f"fr[1] = {k}",
               f"return {SUSPEND}, n"]
        given = any(kw for _, kw in items)  # arguments given by the `act` (else r[3] is empty)
        take = ["i = dict(r[3])", "i.update(r[2])", "i['me'] = me"] if given else ["i = dict(r[2])", "i['me'] = me"]
        lines: list = [f"me = {by}", "r = env.pop('$answer', None)"]  # (texts, and markers: generate.py)
        if not node.until_pass:
            lines += ["if r is not None:",
                      "    if r[1] != 'pass':",
                      *indented(take, "        "), Call("st.game.actions[r[1]].code_id", "i", k + 1, "        "),
                      "else:",
                      *indented(offered, "    "),
                      *(["    " + passing] if optional else []),
                      "    if options:",
                      *indented(ask, "        ")]
        else:
            lines += [f"taken = env.get({key}, 0)",
                      "if r is not None:",
                      "    if r[1] == 'pass':",
                      f"        env.pop({key}, None)",
                      "    else:",
                      f"        env[{key}] = taken + 1",  # offered again once the action's effect has run
                      *indented(take, "        "), Call("st.game.actions[r[1]].code_id", "i", k, "        "),
                      *([f"elif taken >= {at_most}:", f"    env.pop({key}, None)"] if at_most is not None else []),
                      "else:",
                      *indented(offered, "    "),
                      "    if not options:  # nothing (more) to do",
                      f"        env.pop({key}, None)",
                      "    else:",
                      *([f"        if taken >= {at_least}:", "            " + passing]
                        if at_least is not None else ["        " + passing]),
                      f"        env[{key}] = taken",
                      *indented(ask, "        ")]
        self.emit(lines, node, offers=tuple(aid for aid, _ in items))  # what it offers, for explanations (engine/explain.py)
