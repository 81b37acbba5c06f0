"""The information-flow report (`leges check-leaks --explain`): for each seat, every rule that shows it
something it may not see, read from the declarations alone.

Why: the leak check (leaks.py) takes what the rules show on purpose as news — a component put where
a seat sees it, a `reveal`, an action whose public text names what it takes — and compares all the
rest between worlds the seat cannot tell apart. What it trusts is for the author to review, so
this lists it ("trusted"), with the flows the check does compare but an author may want to read
too ("checked"): log lines, public variables and options computed from hidden values, and rules
whose course depends on them.

A value is hidden when it is read from a zone declared `hidden`, `top` (below the top) or `owner`
(another seat's), from a variable declared `hidden` or `owner`, from a secret action's choice, or
from the component a `moved`/`drawn` trigger is about; what a let, a loop or a user function
computes from one is hidden too. How many items a zone holds is public (`count(zone)`), and so is
the top of a `top` zone. This is a reading of the text, not of play: a flow listed may never
happen, and an owner zone is listed for each seat that may own it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..text.errors import LegesError, Position
from ..lang.syntax import ast
from ..lang.syntax.parser import parse_expression, parse_program
from ..lang.syntax.unparse import expression as _unparse

TRUSTED = "trusted"  # the leak check takes it as news
CHECKED = "checked"  # the leak check compares it between worlds
MOVED = ("moved", "drawn")  # built-in events whose `item` may come from a hidden zone


@dataclass(frozen=True)
class Read:
    """A hidden value read: what (`deck`, `hand(p)`, `variable bid`) and whether it is the reader's own."""
    what: str
    own: bool = False  # hand(me), bid[me]: hidden from the other seats only


@dataclass(frozen=True)
class Flow:
    rule: str  # "action place"
    at: Position
    line: str  # the statement as written
    how: str  # what it does with the hidden values: a template of {hidden} and {audience}
    reads: tuple[Read, ...]
    trust: str  # TRUSTED or CHECKED
    audience: str = "every seat"  # or "the owner of hand(p)", "the seat deciding"
    seat: str | None = None  # the one seat it shows it to, when the text names it

    def shown_to(self, seat: str) -> bool:
        return self.seat is None or self.seat == seat

    def format(self) -> str:
        hidden = ", ".join(r.what for r in self.reads) or "nothing hidden"
        return (f"  {self.at}  {self.rule}: {self.line}\n"
                f"      {self.trust}: {self.how.format(hidden=hidden, audience=self.audience)}")


class Rules:
    """What the declarations say is hidden, and the reading of rule texts for hidden values."""

    def __init__(self, game):
        rs = game.ruleset
        self.zones = {z.id: z for z in rs.zones}
        self.hidden_vars = {v.id: v for v in rs.variables if v.visibility != "all"}
        self.public_vars = {v.id for v in rs.variables if v.visibility == "all"}
        self.seats = set(game.setup_for(game.max_players).seat_names)
        self.functions: dict[str, set[Read]] = {}
        bodies = {f.id: _tree(f.body, expression=True) for f in rs.functions}
        for _ in range(len(bodies) + 1):  # functions calling functions: until nothing new is read
            before = dict(self.functions)
            self.functions = {fid: self.reads(body, {}) if body is not None else set() for fid, body in bodies.items()}
            if self.functions == before:
                break

    def zone(self, node) -> tuple[str, str, ast.Expr | None] | None:
        """(zone id, visibility, owner argument) when `node` names a zone."""
        if isinstance(node, ast.Name) and node.id in self.zones:
            return node.id, self.zones[node.id].visibility, None
        if isinstance(node, ast.Call) and node.func in self.zones and len(node.args) == 1 and not node.kwargs:
            return node.func, self.zones[node.func].visibility, node.args[0]
        return None

    def reads(self, node, scope: dict[str, set[Read]]) -> set[Read]:
        """The hidden values an expression reads (`scope`: locals → what they were computed from)."""
        if node is None:
            return set()
        if isinstance(node, ast.Call) and node.func == "count" and len(node.args) == 1 and (counted := self.zone(node.args[0])):
            return self.reads(counted[2], scope)  # how many: public
        if isinstance(node, ast.Call) and node.func == "top" and len(node.args) == 1:
            z = self.zone(node.args[0])
            if z is not None and z[1] in ("top", "all"):
                return self.reads(z[2], scope)
        z = self.zone(node)
        if z is not None:
            found = self.reads(z[2], scope)
            if z[1] != "all":
                owner = z[2]
                text = z[0] if owner is None else f"{z[0]}({_text(owner)})"
                found.add(Read(f"{text} ({z[1]})", own=_is_me(owner) and z[1] == "owner"))
            return found
        if isinstance(node, ast.Name):
            if node.id in scope:
                return set(scope[node.id])
            if node.id in self.hidden_vars:
                return {Read(f"variable {node.id} ({self.hidden_vars[node.id].visibility})")}
            return set()
        if isinstance(node, ast.Compare) and node.op in ("==", "!="):  # which zone it is: no read of what it holds
            return set().union(*(self.reads(side, scope) for side in (node.left, node.right) if not self.zone(side)))
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id in self.hidden_vars \
                and node.obj.id not in scope:
            v = self.hidden_vars[node.obj.id]
            own = v.visibility == "owner" and _is_me(node.index)
            return {Read(f"{node.obj.id}[{_text(node.index)}] ({v.visibility})", own=own)} | self.reads(node.index, scope)
        found = set()
        if isinstance(node, ast.Call) and node.func in self.functions:
            found |= self.functions[node.func]
        for child in node.children():
            found |= self.reads(child, scope)
        return found

    def audience(self, node) -> tuple[str, str | None, bool] | None:
        """Who sees what is put into the zone(s) named in `node`: (audience, seat, owner-only); None: nobody."""
        seen = []
        for n in ([node] if node is not None else []):
            for sub in n.walk():
                z = self.zone(sub)
                if z is not None and z[1] != "hidden":
                    seen.append(z)
        if not seen:
            return None
        if any(z[1] in ("all", "top") for z in seen):
            return "every seat", None, False
        zid, _, owner = seen[0]
        seat = owner.id if isinstance(owner, ast.Name) and owner.id in self.seats else None
        return f"the owner of {zid}({_text(owner)})", seat, True


def _is_me(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "me"


def _text(node) -> str:
    return _unparse(node) if node is not None else ""


def _tree(text, expression: bool = False):
    if text is None:
        return None
    try:
        if expression:
            return parse_expression(text.text, text.at.origin())
        return parse_program(text.text, text.at.origin()).body
    except LegesError:  # a loaded game parsed; a text it does not use needs no report
        return None


class _Reader:
    """Walks one rule's statements, noting its flows."""

    def __init__(self, rules: Rules, rule: str, text, flows: list[Flow]):
        self.rules, self.rule, self.text, self.flows = rules, rule, text, flows
        self.lines = text.text.splitlines()
        self.origin = text.at.origin()

    def note(self, node, how: str, reads: set[Read], trust: str, audience=("every seat", None, False),
             line: str | None = None) -> None:
        who, seat, owner_only = audience
        shown = {r for r in reads if not (owner_only and r.own)}
        if trust == CHECKED and not shown:
            return
        if line is None:
            line = self.lines[node.line - 1].strip() if 0 < node.line <= len(self.lines) else _text(node)
        self.flows.append(Flow(self.rule, self.origin.locate(node.line or 1, node.col or 1), line, how,
                               tuple(sorted(shown, key=lambda r: r.what)), trust, who, seat))

    def block(self, body: list, scope: dict[str, set[Read]]) -> None:
        for stmt in body:
            self.statement(stmt, scope)

    def statement(self, s, scope: dict[str, set[Read]]) -> None:
        rules = self.rules
        if isinstance(s, ast.Let):
            scope[s.name] = rules.reads(s.value, scope)
        elif isinstance(s, ast.Assign):
            reads = rules.reads(s.value, scope) | rules.reads(s.index, scope)
            if s.name in scope:
                scope[s.name] = scope[s.name] | reads
            elif s.name in rules.public_vars:
                self.note(s, f"sets the public variable {s.name} from {{hidden}}", reads, CHECKED)
        elif isinstance(s, (ast.Move, ast.Draw, ast.Deal, ast.Stack)):
            source = s.what if isinstance(s, ast.Move) else s.source
            reads = rules.reads(source, scope)
            audience = rules.audience(s.to)
            if reads and audience is not None and any(not (audience[2] and r.own) for r in reads):
                self.note(s, "puts components from {hidden} where {audience} sees them", reads, TRUSTED, audience)
        elif isinstance(s, ast.Reveal):
            self.note(s, "reveals {hidden} to every seat", rules.reads(s.value, scope), TRUSTED)
        elif isinstance(s, ast.Log):
            self.note(s, "writes a log line, for every seat, from {hidden}", rules.reads(s.value, scope), CHECKED)
        elif isinstance(s, ast.Choose):
            self.note(s, "offers {audience} a choice among {hidden}", rules.reads(s.domain, scope), CHECKED,
                      ("the seat deciding", None, True))
        elif isinstance(s, ast.If):
            for condition, body in s.branches:
                self.note(s, "what it does next, seen by every seat, depends on {hidden}", rules.reads(condition, scope), CHECKED)
                self.block(body, scope)
            self.block(s.otherwise or [], scope)
        elif isinstance(s, ast.While):
            self.note(s, "how often it repeats, seen by every seat, depends on {hidden}", rules.reads(s.condition, scope),
                      CHECKED)
            self.block(s.body, scope)
        elif isinstance(s, ast.For):
            reads = rules.reads(s.iterable, scope)
            for name in s.names:
                scope[name] = reads
            self.block(s.body, scope)
        elif isinstance(s, ast.Repeat):
            self.block(s.body, scope)


def flows(game) -> list[Flow]:
    """Every flow of hidden information in a loaded game's rules, in the order of the ruleset."""
    rs = game.ruleset
    rules = Rules(game)
    found: list[Flow] = []

    def program(rule: str, text, scope: dict[str, set[Read]]) -> None:
        body = _tree(text)
        if body is not None:
            _Reader(rules, rule, text, found).block(body, dict(scope))

    def condition(rule: str, text, how: str, audience=("every seat", None, False), scope=None) -> None:
        node = _tree(text, expression=True)
        if node is not None:
            _Reader(rules, rule, text, found).note(node, how, rules.reads(node, scope or {}), CHECKED, audience)

    for decl in rs.setup:
        program(f"setup {decl.id}", decl.effect, {})
    for decl in rs.phases:
        for key in ("first", "order", "end_if"):
            condition(f"phase {decl.id}", getattr(decl, key), f"the course of play ({key}) depends on {{hidden}}")
        for key in ("on_begin", "turn", "on_end"):
            program(f"phase {decl.id} {key}", getattr(decl, key), {})
    for decl in rs.actions:
        rule = f"action {decl.id}"
        scope: dict[str, set[Read]] = {}
        for name, text in decl.params:
            domain = _tree(text, expression=True)
            reads = rules.reads(domain, scope) if domain is not None else set()
            if decl.secret:
                scope[name] = {Read(f"the secret choice {name}")}
            elif reads and domain is not None:
                _Reader(rules, rule, text, found).note(domain, f"its public text names the {name} chosen from {{hidden}}",
                                                       reads, TRUSTED, line=f"{name}: {text.text.strip()}")
        condition(rule, decl.require, "the options of {audience} depend on {hidden}", ("the seat deciding", None, True),
                  scope)
        program(rule, decl.effect, scope)
    for decl in rs.triggers:
        scope = {"item": {Read(f"the component {decl.on}")}} if decl.on in MOVED else {}
        condition(f"trigger {decl.id}", decl.condition, "whether it runs depends on {hidden}", scope=scope)
        program(f"trigger {decl.id}", decl.effect, scope)
    for decl in rs.procedures:
        program(f"procedure {decl.id}", decl.body, {})
    return found


def hidden_declarations(game) -> list[str]:
    """What the declarations hide: zones, variables, secret actions."""
    rs = game.ruleset
    out = []
    for z in rs.zones:
        if z.visibility == "hidden":
            out.append(f"zone {z.id} (hidden from every seat)")
        elif z.visibility == "top":
            out.append(f"zone {z.id} (all but its top)")
        elif z.visibility == "owner":
            out.append(f"zone {z.id} (each from every seat but its owner)")
    for v in rs.variables:
        if v.visibility != "all":
            out.append(f"variable {v.id} ({'from every seat' if v.visibility == 'hidden' else 'each seat sees its own'})")
    out += [f"action {a.id} (secret: its choice is sealed)" for a in rs.actions if a.secret]
    return out


def report(game, players: int | None = None) -> str:
    """The information-flow report of a game, per seat (seats shown the same are listed together)."""
    n = players or game.max_players
    seats = list(game.setup_for(n).seat_names)
    hidden = hidden_declarations(game)
    lines = [f"Information flow in {game.title}: what the rules show each seat of what it may not see",
             ("(trusted: the leak check takes it as news; checked: it compares it between worlds the seat "
              "cannot tell apart)"), ""]
    if not hidden:
        return "\n".join(lines + ["Nothing is hidden: every zone and variable is seen by every seat."])
    lines += ["Hidden:"] + [f"  {h}" for h in hidden] + [""]
    found = flows(game)
    groups: dict[tuple, list[str]] = {}
    for seat in seats:
        groups.setdefault(tuple(f for f in found if f.shown_to(seat)), []).append(seat)
    for shown, names in groups.items():
        who = f"Every seat ({', '.join(names)})" if len(names) == len(seats) else ", ".join(names)
        lines.append(f"{who} is shown, by {len(shown)} rule statement{'s' if len(shown) != 1 else ''}:")
        lines += [f.format() for f in shown] or ["  nothing hidden"]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
