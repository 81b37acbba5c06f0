"""Syntax tree of the rule language.

Nodes are dataclasses compared by structure only (positions are excluded from equality), so
two rules that say the same thing in different words or layout compare equal — which is what
`leges diff` needs.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Iterator


@dataclass(eq=True)
class Node:
    line: int = field(default=0, compare=False, repr=False, kw_only=True)
    col: int = field(default=0, compare=False, repr=False, kw_only=True)

    def children(self) -> Iterator["Node"]:
        for f in fields(self):
            yield from _nodes_in(getattr(self, f.name))

    def walk(self) -> Iterator["Node"]:
        yield self
        for child in self.children():
            yield from child.walk()


def _nodes_in(value) -> Iterator[Node]:
    """The nodes in a field: a node, or nodes nested in lists, tuples and dicts (if-branches, kwargs)."""
    if isinstance(value, Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _nodes_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _nodes_in(item)


# ------------------------------------------------------------------ expressions
class Expr(Node):
    pass


@dataclass(eq=True)
class Literal(Expr):
    value: Any = None


@dataclass(eq=True)
class Name(Expr):
    id: str = ""


@dataclass(eq=True)
class Attr(Expr):
    obj: Expr
    name: str = ""


@dataclass(eq=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(eq=True)
class Lambda(Expr):
    param: str
    body: Expr


@dataclass(eq=True)
class Call(Expr):
    func: str = ""
    args: list = field(default_factory=list)
    kwargs: dict = field(default_factory=dict)


@dataclass(eq=True)
class ListLit(Expr):
    items: list = field(default_factory=list)


@dataclass(eq=True)
class Clause(Node):
    """`for NAMES in ITERABLE [if CONDITION]` of a comprehension; several names unpack tuples."""

    names: list
    iterable: Expr
    condition: Expr | None = None


@dataclass(eq=True)
class Comprehension(Expr):
    """`[ELEMENT for ... in ... if ... for ... in ...]`: the clauses nest, the first outermost."""

    element: Expr
    clauses: list = field(default_factory=list)


@dataclass(eq=True)
class TupleLit(Expr):
    items: list = field(default_factory=list)


@dataclass(eq=True)
class Binding(Node):
    name: str
    value: Expr


@dataclass(eq=True)
class LetExpr(Expr):
    """`let NAME = VALUE, ... in BODY`: each value may use the names bound before it."""

    bindings: list
    body: Expr


@dataclass(eq=True)
class Neg(Expr):
    operand: Expr


@dataclass(eq=True)
class Not(Expr):
    operand: Expr


@dataclass(eq=True)
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(eq=True)
class Compare(Expr):
    op: str  # == != < <= > >= in notin
    left: Expr
    right: Expr


@dataclass(eq=True)
class BoolOp(Expr):
    op: str  # and / or
    left: Expr
    right: Expr


@dataclass(eq=True)
class IfExpr(Expr):
    condition: Expr
    then: Expr
    otherwise: Expr


# ------------------------------------------------------------------- statements
class Stmt(Node):
    pass


@dataclass(eq=True)
class Position(Node):
    """Where in an ordered zone: `at top`, `at bottom`, `at depth N from top|bottom`."""

    end: str = "top"
    depth: Expr | None = None


@dataclass(eq=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(eq=True)
class Assign(Stmt):
    name: str
    index: Expr | None
    op: str
    value: Expr


@dataclass(eq=True)
class SetProp(Stmt):
    obj: Expr
    name: str
    value: Expr


@dataclass(eq=True)
class Move(Stmt):
    what: Expr
    to: Expr
    where: Position | None = None


@dataclass(eq=True)
class Draw(Stmt):
    count: Expr
    source: Expr
    to: Expr
    where: Position | None = None


@dataclass(eq=True)
class Deal(Stmt):
    count: Expr
    source: Expr
    to: Expr


@dataclass(eq=True)
class Stack(Stmt):
    source: Expr
    to: Expr
    where: Position | None = None


@dataclass(eq=True)
class Shuffle(Stmt):
    zone: Expr
    end: str | None = None  # None: whole zone; else top/bottom `count` items
    count: Expr | None = None


@dataclass(eq=True)
class Choose(Stmt):
    name: str
    domain: Expr
    label: str | None = None
    by: Expr | None = None
    optional: bool = False
    random: bool = False


@dataclass(eq=True)
class ActItem(Node):
    action: str = ""
    kwargs: dict = field(default_factory=dict)


@dataclass(eq=True)
class Act(Stmt):
    items: list = field(default_factory=list)
    by: Expr | None = None
    optional: bool = False
    until_pass: bool = False  # offered again after each action taken, until the player passes
    at_least: Expr | None = None  # actions before `pass` is offered (with until_pass)
    at_most: Expr | None = None  # actions after which the offer stops (with until_pass)


@dataclass(eq=True)
class DropOut(Stmt):
    """`drop out [PLAYER]`: the player takes no more turns in the current phase."""

    player: Expr | None = None


@dataclass(eq=True)
class Emit(Stmt):
    event: str = ""
    kwargs: dict = field(default_factory=dict)


@dataclass(eq=True)
class Goto(Stmt):
    phase: str = ""


@dataclass(eq=True)
class End(Stmt):
    what: str = "turn"


@dataclass(eq=True)
class CallStmt(Stmt):
    call: Call


@dataclass(eq=True)
class Pass(Stmt):
    pass


@dataclass(eq=True)
class Log(Stmt):
    value: Expr


@dataclass(eq=True)
class Reveal(Stmt):
    value: Expr


@dataclass(eq=True)
class Fail(Stmt):
    value: Expr


@dataclass(eq=True)
class If(Stmt):
    branches: list = field(default_factory=list)  # [(condition, body)]
    otherwise: list | None = None


@dataclass(eq=True)
class For(Stmt):
    names: list  # the loop variable, or the names a tuple unpacks into
    iterable: Expr
    body: list = field(default_factory=list)


@dataclass(eq=True)
class While(Stmt):
    condition: Expr
    body: list = field(default_factory=list)


@dataclass(eq=True)
class Repeat(Stmt):
    count: Expr
    body: list = field(default_factory=list)


@dataclass(eq=True)
class Program(Node):
    body: list = field(default_factory=list)


def free_names(node: Node) -> set[str]:
    """The names an expression uses that it does not bind itself (functions' and comprehensions' variables)."""
    out: set[str] = set()
    bound: set[str] = set()
    if isinstance(node, Name):
        return {node.id}
    if isinstance(node, Lambda):
        return free_names(node.body) - {node.param}
    if isinstance(node, Comprehension):
        for clause in node.clauses:
            out |= free_names(clause.iterable) - bound
            bound |= set(clause.names)
            if clause.condition is not None:
                out |= free_names(clause.condition) - bound
        return out | (free_names(node.element) - bound)
    if isinstance(node, LetExpr):
        for binding in node.bindings:
            out |= free_names(binding.value) - bound
            bound.add(binding.name)
        return out | (free_names(node.body) - bound)
    for child in node.children():
        out |= free_names(child)
    return out
