"""Why an action is not legal now: the condition that fails, the values involved, the rule's citation.

`state.explain(text)` retraces what the rules do to list a player's choices (engine/options.py):
whose decision it is and what it offers; for an action, each parameter's options given the
earlier ones (the first value that is not among them is the reason), then its `require` (the
first of its `and`-ed conditions that is false is the reason). The values of the failing
expression's parts are shown, and the citation is the declaration's own `source` (book, section,
quote): every word of an explanation comes from the ruleset or from the state, none from here.

`values_of` — the values of an expression's parts — serves scenario failures and `leges eval` too.
What a seat may be told of an explanation is in seat_explanation.py.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from ..text.errors import Collector, LegesError, did_you_mean
from ..lang.syntax import ast
from ..lang.check import types as T
from ..lang.syntax.parser import parse_expression
from ..lang.check.scope import Scope
from ..model.rule_ids import declaration_of
from .constants import CHANCE, TERMINAL

MAX_VALUES = 8  # parts of an expression whose values are shown
VALUE_WIDTH = 80  # characters of one value shown
QUOTE_WIDTH = 420  # characters of a quote in the one-line form (most quotes whole: the reason may be in any part)


@dataclass
class Explanation:
    """Why `action` is (not) legal for `player` now.

    `reason`: legal, game_over, not_your_decision, not_offered, no_such_action, malformed, domain
    (a parameter's value is not among its options, given the earlier ones), require (the action's
    `require` is false), cannot_pass. `condition`: the rule text that fails; `values`: (text, value)
    of its parts; `rule`: the declaration (`action:ID`, `procedure:ID`, ...); `source`: its citation.
    """

    action: str
    player: int
    legal: bool
    reason: str
    message: str
    condition: str | None = None
    values: list = field(default_factory=list)
    rule: str | None = None
    description: str | None = None
    source: dict | None = None

    def citation(self, width: int | None = QUOTE_WIDTH) -> str | None:
        return citation(self.source, width)

    def __str__(self) -> str:
        if self.legal:
            return f"legal: {self.action}"
        text = f"not legal: {self.message}"
        if self.values:
            text += " (" + ", ".join(f"{k} = {v}" for k, v in self.values) + ")"
        cited = self.citation()
        if cited:
            text += " — " + cited
        return text


def citation(source: dict | None, width: int | None = QUOTE_WIDTH) -> str | None:
    """`book § section: «quote»` (or the reading it follows) of a declaration's `source`."""
    if not source:
        return None
    parts = []
    if source.get("book") is not None:
        head = f"{source['book']} § {source.get('section', '')}".rstrip(" §")
        quote = source.get("quote")
        if quote:
            quote = " ".join(str(quote).split())
            if width is not None and len(quote) > width:
                quote = quote[:width - 1].rstrip() + "…"
            head += f": «{quote}»"
        parts.append(head)
    if source.get("reading"):
        parts.append(f"reading '{source['reading']}'")
    return "; ".join(parts) or None


# ------------------------------------------------------------------ compiling, once per game
_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _compiled(game, key, make):
    table = _CACHE.setdefault(game, {})
    if key not in table:
        table[key] = make()
    return table[key]


def compile_node(game, node, scope: Scope, origin) -> tuple:
    """(type, fn) of a syntax-tree node compiled against the game's names; LegesError if it does not compile."""
    compiler = game.compiler
    errors = Collector()
    compiler.errors = errors
    ty, fn = compiler.expr(node, scope, origin)
    errors.raise_if_errors()
    if game.memo_grew():
        game.index_memo()  # it calls a function with arguments no rule used: the states' memo grows
    return ty, fn


def evaluate(game, st, fn, env: dict):
    st.grow_memo()
    game.fresh_work()
    return fn(st, env)


def show(game, st, ty, value, width: int = VALUE_WIDTH) -> str:
    """A value as action texts write it; a zone or space with what it holds (`hand.x [red1,blue3]`)."""
    try:
        text = game.compiler.formatter(ty)(st, value)
        if ty.kind in ("zone", "space") and isinstance(value, str) and value in st.zones:
            text += " [" + ",".join(st.setup.clabel[c] for c in st.zones[value]) + "]"
    except Exception:  # noqa: BLE001 — a value of another kind than its type says: shown plainly
        text = repr(value)
    return text if len(text) <= width else text[:width - 1] + "…"


def _parts(node) -> list:
    """The parts of an expression worth a value, outermost first: calls, names, attributes, indexes,
    arithmetic and comparisons; not literals, nor what is inside a function given to a built-in or a
    comprehension (their names are bound there)."""
    out = []

    def walk(n, top: bool) -> None:
        if isinstance(n, (ast.Lambda, ast.Literal)) or not isinstance(n, ast.Expr):
            return
        if not top and not isinstance(n, (ast.BoolOp, ast.Not)):
            out.append(n)
        if isinstance(n, ast.Comprehension):
            return
        for child in n.children():
            walk(child, False)
    walk(node, True)
    return out


def values_of(game, st, node, scope: Scope, origin, env: dict, key=None, limit: int = MAX_VALUES) -> list:
    """[(text, value)] of the parts of expression `node` (see `_parts`) in state `st` with locals `env`.
    A part that does not compile or fails is left out; so is one whose value reads as its text."""
    from ..lang.syntax.unparse import expression
    out: list = []
    seen: set = set()
    for i, part in enumerate(_parts(node)):
        if len(out) >= limit:
            break
        try:
            text = expression(part)
        except Exception:  # noqa: BLE001 — a construct the writer-back does not know yet
            continue
        if text in seen:
            continue
        seen.add(text)
        try:
            ty, fn = (_compiled(game, (key, i, text), lambda p=part: compile_node(game, p, scope, origin))
                      if key is not None else compile_node(game, part, scope, origin))
            value = evaluate(game, st, fn, dict(env))
        except Exception:  # noqa: BLE001 — a part that cannot stand alone or fails here: no value to show
            continue
        shown = show(game, st, ty, value)
        plain = show(game, st, ty, value) if ty.kind not in ("zone", "space") else str(value)
        if plain.replace(" ", "") == text.replace(" ", "") and (shown == plain or not st.zones.get(value)):
            continue  # it reads as it is written (a name, a literal list), and holds nothing worth showing
        out.append((text, shown))
    return out


# ------------------------------------------------------------------ declarations and their citations
def declaration(game, code_id: str | None):
    """The declaration behind a running rule's code id (`action:ID`, `procedure:ID(...)`, `phase:ID:turn`, ...)."""
    return declaration_of(game.ruleset, code_id)


# ------------------------------------------------------------------ explaining
def explain(st, action, player: int | None = None) -> Explanation:
    if isinstance(getattr(action, "text", None), str) and isinstance(getattr(action, "player", None), int):  # an Action
        player, text = action.player, action.text
    else:
        text = str(action).strip()
        if ": " in text and text.split(": ", 1)[0] in ("chance", *st.setup.seat_names):
            who, text = text.split(": ", 1)
            player = st.player_index(who)
    if player is None:
        player = st.current_player()
    return _Explainer(st, text, player).run()


class _Explainer:
    def __init__(self, st, text: str, player: int):
        self.st, self.game, self.text, self.player = st, st.game, text, player
        self.pending = st.pending

    def result(self, reason: str, message: str, **more) -> Explanation:
        me = self.who(self.player) + ": "
        taken = [t for t in self.st.at_once if t.startswith(me) or not self.sealed(t.split(": ", 1)[-1])]
        if taken and reason in ("not_offered", "not_your_decision"):  # the cause may be a decision not asked
            message += (f" (since the last action the engine took {len(taken)} decision{'s' if len(taken) > 1 else ''} "
                        "with a single option by itself: " + "; ".join(f"'{t}'" for t in taken[-3:]) + ")")
        return Explanation(self.text, self.player, reason == "legal", reason, message, **more)

    def sealed(self, text: str) -> bool:
        """Whether an action text is of a secret action: another seat's, taken by the engine as its
        only option, it is sealed from this one as the history seals it (`record_view`)."""
        action = self.game.actions.get(text.split(" ", 1)[0])
        return action is not None and action.secret

    def who(self, player: int) -> str:
        return self.st.player_name(player)

    def run(self) -> Explanation:
        st, text, player = self.st, self.text, self.player
        if st.is_terminal():
            return self.result("game_over", "the game is over")
        if player == TERMINAL:
            return self.result("not_your_decision", "nobody decides now")
        if any(a.text == text for a in st.legal_actions(player)):
            return self.result("legal", "legal")
        head = text.split(" ", 1)[0]
        pending = self.pending
        deciding = pending is not None and pending.player == player
        if head in self.game.actions:
            return self.action(head)
        if deciding and pending.kind == "choose":
            return self.choice(head)
        if deciding and head == "pass":
            return self.not_passable()
        return self.unknown(head)

    # -------------------------------------------------------- the decision asked for
    def asking(self) -> dict:
        """The rule asking for the pending decision: its id, description and citation."""
        if not self.st.frames:
            return {}
        code_id = self.st.frames[-1][0]
        decl = declaration(self.game, code_id)
        rule = code_id.split("(", 1)[0]
        return {"rule": rule, "description": getattr(decl, "description", None), "source": getattr(decl, "source", None)}

    def offered_actions(self) -> tuple | None:
        """The actions the waiting `act` offers (whether or not each has a legal choice now)."""
        if not self.st.frames:
            return None
        code_id, pc, _ = self.st.frames[-1]
        program = self.game.codes.get(code_id)
        return program.offers[pc] if program is not None and pc < program.size else None

    def offered(self) -> str:
        pending = self.pending
        if pending is None:
            return "nothing"
        kind, options = pending.kind, pending.options
        if kind == "act":
            names = list(self.offered_actions() or dict.fromkeys(o.action for o in options if o.action != "pass"))
            optional = any(o.action == "pass" for o in options)
            return "an action: " + ", ".join(names) + (" (or pass)" if optional else "")
        if kind == "chance":
            return "a chance outcome"
        names = [o for o in options if o.action != "pass"]
        label = names[0][0].split(" ", 1)[0] if names else "a choice"
        return f"'{label}'" + (" (or pass)" if any(o.action == "pass" for o in options) else "")

    def not_deciding(self) -> Explanation:
        pending = self.pending
        if pending is None:
            return self.result("not_your_decision", "no decision is pending")
        if pending.player == CHANCE:
            return self.result("not_your_decision", "chance decides now", **self.asking())
        return self.result("not_your_decision", f"it is not {self.who(self.player)}'s decision: "
                           f"{self.who(pending.player)} chooses {self.offered()}", **self.asking())

    def not_passable(self) -> Explanation:
        return self.result("cannot_pass", f"this decision cannot be passed: {self.who(self.player)} chooses "
                           f"{self.offered()}", **self.asking())

    def unknown(self, head: str) -> Explanation:
        pending = self.pending
        if pending is not None and pending.player != self.player:
            return self.not_deciding()
        legal = [a.text for a in self.st.legal_actions(self.player)]
        heads = list(dict.fromkeys(t.split(" ", 1)[0] for t in legal)) + list(self.game.actions)
        hint = did_you_mean(head, heads)
        return self.result("no_such_action", f"no action '{head}' now" + (f" ({hint})" if hint else "")
                           + f"; {self.who(self.player)} chooses {self.offered()}", **self.asking())

    def choice(self, head: str) -> Explanation:
        """A `choose`'s option that is not among the options: its label is wrong, or its value."""
        options = self.pending.options
        named = [o for o in options if o.action != "pass"]
        label = named[0][0].split(" ", 1)[0] if named else None
        asking = self.asking()
        if head != label:
            return self.unknown(head)
        name = next(iter(named[0][2]))
        given = self.text[len(label):].strip()
        value = given.split("=", 1)[1] if given.startswith(name + "=") else given
        shown = [o.text.split("=", 1)[1] if "=" in o.text else o.text for o in named]
        listed = ", ".join(shown[:12]) + (" …" if len(shown) > 12 else "")
        return self.result("domain", f"{name}={value} is not among the options of '{label}': {listed}",
                           condition=None, **asking)

    # -------------------------------------------------------- an action
    def action(self, action_id: str) -> Explanation:
        st, game, player = self.st, self.game, self.player
        compiled = game.actions[action_id]
        decl = compiled.decl
        cite = {"rule": f"action:{action_id}", "description": getattr(decl, "description", None),
                "source": getattr(decl, "source", None)}
        pending = self.pending
        if compiled.anytime:
            if st.flow == "setup" or pending is None or pending.player == CHANCE:
                return self.result("not_offered", f"'{action_id}' may be taken at any decision, but not during "
                                   "set-up or chance", **cite)
            args: dict = {}
        else:
            if pending is None or pending.player != player:
                return self.not_deciding()
            if pending.kind != "act":
                return self.result("not_offered", f"'{action_id}' is not asked for now: {self.who(player)} "
                                   f"chooses {self.offered()}", **self.asking())
            offered = self.offered_actions()
            if offered is not None and action_id not in offered:
                return self.result("not_offered", f"'{action_id}' is not asked for now: {self.who(player)} "
                                   f"chooses {self.offered()}", **self.asking())
            given: dict | None = next((o.args for o in pending.options if o.action == action_id), None)
            if given is None and getattr(decl, "args_types", None):
                return self.result("not_offered", f"'{action_id}' is not among the actions offered now: "
                                   f"{self.offered()}", **self.asking())
            args = given or {}
        found = self.retrace(action_id, decl, dict(args), cite)
        if found is not None:
            return found
        # every condition of the action holds: it is the rule asking that does not offer it now
        return self.result("not_offered", f"'{action_id}' is not among the actions offered now: {self.offered()}",
                           **self.asking())

    def retrace(self, action_id: str, decl, args: dict, cite: dict) -> Explanation | None:
        """Each parameter's options given the earlier ones, then the require: the first that fails."""
        st, game = self.st, self.game
        params = list(getattr(decl, "params", []) or [])
        types = dict(getattr(decl, "args_types", {}) or {})
        env = dict(args)
        env["me"] = self.player
        rest = self.text[len(action_id):]
        written = f"{action_id} " + " ".join(f"{name}=..." for name, _ in params)
        for i, (name, ptext) in enumerate(params):
            prefix = f" {name}="
            if not rest.startswith(prefix):
                return self.result("malformed", f"an action '{action_id}' is written `{written.strip()}`", **cite)
            after = rest[len(prefix):]
            following = f" {params[i + 1][0]}=" if i + 1 < len(params) else None
            try:
                node = parse_expression(ptext.text, ptext.at.origin())
                scope = Scope(dict(types), me=True)
                ty, fn = _compiled(game, (action_id, "param", i),
                                   lambda: compile_node(game, node, scope, ptext.at.origin()))
                elem = T.iter_elem(ty) or T.ANY
                domain = evaluate(game, st, fn, dict(env))
                if ty.kind in ("zone", "space"):
                    domain = list(st.zones[domain])
            except (LegesError, Exception):  # noqa: BLE001 — cannot retrace: say what is known
                return None
            fmt = game.compiler.formatter(elem)
            match, found = None, False
            for value in domain:
                shown = fmt(st, value)
                tail = after[len(shown):] if after.startswith(shown) else None
                if tail is not None and (tail == "" if following is None else tail.startswith(following)):
                    match, found, rest = value, True, tail
                    break
            if not found:
                given = after.split(following, 1)[0] if following and following in after else after
                texts = [fmt(st, v) for v in domain]
                listed = ", ".join(texts[:12]) + (" …" if len(texts) > 12 else "") if texts else "none"
                values = values_of(game, st, node, scope, ptext.at.origin(), env, key=(action_id, "param-values", i))
                more = _described(game, node)
                message = (f"{name}={given} is not among the options of '{name}' ({' '.join(ptext.text.split())}"
                           f"{': ' + more if more else ''}): {listed}")
                return self.result("domain", message, condition=" ".join(ptext.text.split()), values=values, **cite)
            env[name] = match
            types[name] = elem
        if rest:
            return self.result("malformed", f"an action '{action_id}' is written `{written.strip()}`", **cite)
        require = getattr(decl, "require", None)
        if require is None:
            return None
        try:
            tree = parse_expression(require.text, require.at.origin())
        except LegesError:
            return None
        scope = Scope(dict(types), me=True)
        for j, part in enumerate(_conjuncts(tree)):
            try:
                _, fn = _compiled(game, (action_id, "require", j),
                                  lambda p=part: compile_node(game, p, scope, require.at.origin()))
                holds = evaluate(game, st, fn, dict(env))
            except Exception:  # noqa: BLE001
                return None
            if not holds:
                from ..lang.syntax.unparse import expression
                try:
                    text = expression(part)
                except Exception:  # noqa: BLE001
                    text = " ".join(require.text.split())
                values = values_of(game, st, part, scope, require.at.origin(), env, key=(action_id, "require-values", j))
                bound = [(n, show(game, st, types.get(n, T.ANY), env[n])) for n, _ in params]
                return self.result("require", f"the action's condition is false: {text}",
                                   condition=text, values=_merge(bound, values), **cite)
        return None


def _conjuncts(node) -> list:
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _merge(first: list, second: list) -> list:
    seen = {k for k, _ in second}
    return [kv for kv in first if kv[0] not in seen] + second


def _described(game, node) -> str | None:
    """The description of the function a parameter's options come from (`steps_from(...)`: its words)."""
    if isinstance(node, ast.Call) and game.compiler is not None:
        decl = game.compiler.symbols.functions.get(node.func)
        description = getattr(decl, "description", None)
        if description:
            return " ".join(description.split())
    return None
