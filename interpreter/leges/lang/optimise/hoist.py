"""Loop-invariant code of a comprehension: computed once for the whole list, not once per item.

A listing such as `[s for s in free_hexes() if affordable(b, s)]`, where `affordable(b, s)` is
`payable(kinds(b.owner), need(b, s), ...)`, asked the owner's hand again for every hex and paid
for a fresh lookup of the same payment question each time — most of the cost of listing every
building × every free hex. Five moves, made while the comprehension compiles:

- a small plain user function called in it (no loop, no `let`, no function argument: nothing in
  its body binds a name) is compiled in place, its parameters bound to the caller's names, so
  that the calls inside it are seen where the items are;
- a call of a user function whose arguments do not depend on the items, at a place that every
  item's evaluation reaches (not behind `and`, `or` or `if`, not inside a function given to a
  built-in), is computed once before the first item — and not at all for an empty list, so a
  rule that would fail on it fails exactly as before (rules are pure: the value is the same);
- a memoised function filed by space (memo.py), called with an item as its space and other
  arguments that do not depend on the items, is looked up in place: its table and key are taken
  once, and only a missing value calls it;
- a memoised call with such arguments that not every item reaches has its cached value, if
  any, taken once: an item calls it only when there was none;
- `payable(pool, need, ...)` whose pool does not depend on the items becomes a prepared check
  (`payments.payable_from`) that keeps its answers by the needed list, for the items alike in it;
  a need written as a cost and what is added to it (`need + extra`) is checked without joining them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax import ast

HASHABLE = ("space", "component", "player", "int", "str", "bool")  # kinds of values a lookup in place may key by
INLINE_BUILTINS = frozenset({"payable", "without", "drop"})  # compiled in place, every argument computed


def keeps_inline(node: ast.Call) -> bool:
    """Whether a built-in's call is compiled in place with all its arguments computed: others may
    move an argument into a generated function of its own (a loop), where nothing hoisted is seen."""
    return node.func in INLINE_BUILTINS or node.func == "count" and len(node.args) == 1 and not node.kwargs


@dataclass
class Hoisting:
    """The comprehension being compiled: the Python names bound outside it (its invariants), the
    syntax nodes every item reaches (by id), and the values hoisted so far, in order."""

    number: int  # of this comprehension in the game: its hoisted values are h{number}_{i}
    outer: set[str]  # (and constants a parameter of an inlined function stands for)
    functions: frozenset[str]  # user function names: their arguments are computed on every call
    reached: set[int] = field(default_factory=set)
    parts: list[tuple[str, str]] = field(default_factory=list)  # (Python name, source)
    temporaries: int = 0  # names an item's evaluation assigns (t{number}_{i})

    def reach(self, node: ast.Node) -> None:
        """`node`, and what evaluating it always evaluates, are reached on every item."""
        self.reached.add(id(node))
        if isinstance(node, ast.Call):
            if node.func in self.functions or keeps_inline(node):
                for arg in [*node.args, *node.kwargs.values()]:
                    if not isinstance(arg, ast.Lambda):
                        self.reach(arg)
        elif isinstance(node, (ast.BinOp, ast.Compare)):
            self.reach(node.left)
            self.reach(node.right)
        elif isinstance(node, ast.BoolOp):
            self.reach(node.left)
        elif isinstance(node, (ast.Not, ast.Neg)):
            self.reach(node.operand)
        elif isinstance(node, ast.Attr):
            self.reach(node.obj)
        elif isinstance(node, ast.IfExpr):
            self.reach(node.condition)

    def invariant(self, node: ast.Node, py: dict[str, str]) -> bool:
        """Whether `node` (compiled where `py` maps names to Python locals) reads no name bound in
        the comprehension: its parameters' and lets' Python names must all come from outside."""
        return all(py[name] in self.outer for name in ast.free_names(node) if name in py)

    def add(self, source: str) -> str:
        """The name of a value computed once (the same source twice: one name)."""
        for name, known in self.parts:
            if known == source:
                return name
        name = f"h{self.number}_{len(self.parts)}"
        self.parts.append((name, source))
        return name

    def temporary(self) -> str:
        """A name an item's evaluation may assign (`:=`), used nowhere else."""
        self.temporaries += 1
        return f"t{self.number}_{self.temporaries}"

    # ------------------------------------------------------------ a user function's call
    def call(self, fn, node: ast.Call, args: list, py: dict[str, str], source: str) -> str:
        """The source standing for `source`, a call of the compiled user function `fn` (functions.py)
        with `args` (type, source), where `py` maps the names in scope to Python locals."""
        if id(node) in self.reached and self.invariant(node, py):
            return self.add(source)  # the same for every item
        if fn.filed is not None:
            return self._looked_up(fn, node, args, py, source) or source
        if fn.flat is not None:
            if self.invariant(node, py):
                return self._prefetched(fn, args, source)
            if (len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in py
                    and args[0][0].kind in HASHABLE and not fn.keyed):  # a function of the item alone: looked up in place
                table, missing = self.add(f"st.memo[{fn.flat}]"), self.add("H.MISSING")
                value = self.temporary()
                return f"({value} if ({value} := {table}.get({args[0][1]}, {missing})) is not {missing} else {source})"
        return source

    def _prefetched(self, fn, args: list, source: str) -> str:
        """A memoised call not every item reaches, of arguments that do not depend on the items: its
        cached value, if any, is taken once (a key that fails to compute is taken as no value: the
        call itself then fails as it would have); an item calls it only if there was none."""
        codes = [_key(fn, p, code) for p, (_, code) in zip(fn.params, args)]
        key = codes[0] if len(codes) == 1 else "(" + ", ".join(codes) + ")"
        missing = self.add("H.MISSING")
        value = self.add(f"H.prefetched(st.memo[{fn.flat}], lambda: {key})")
        return f"({value} if {value} is not {missing} else {source})"

    def _looked_up(self, fn, node: ast.Call, args: list, py: dict[str, str], source: str) -> str | None:
        """A call of a function whose values are filed by space, the item being its space: the table
        and key taken once, each item a lookup in place, the call made only where the value is
        missing. The space must be a name (it is used twice); the other arguments must not depend
        on the items. A key not every item would compute is taken only if it can be (else each item
        makes the call, which fails as it would have)."""
        slot, space = fn.filed
        at_node = node.args[fn.params.index(space)]
        others = [(a, _key(fn, p, code)) for p, a, (_, code) in zip(fn.params, node.args, args) if p != space]
        if (not (isinstance(at_node, ast.Name) and at_node.id in py) or not all(self.invariant(a, py) for a, _ in others)
                or not all(t.kind in HASHABLE for t, _ in args)):
            return None
        at = args[fn.params.index(space)][1]
        table, missing = self.add(f"st.memo[{slot}]"), self.add("H.MISSING")
        key = others[0][1] if len(others) == 1 else "(" + ", ".join(code for _, code in others) + ")"
        guard = ""
        if not key.isidentifier():  # (a component's key fails for none: then each item makes the call)
            safe = not fn.keyed and (id(node) in self.reached or all(isinstance(a, (ast.Name, ast.Literal)) for a, _ in others))
            key = self.add(key if safe else f"H.attempt(lambda: {key})")
            guard = "" if safe else f"{key} is not {missing} and "
        row, value = self.temporary(), self.temporary()
        return (f"({value} if {guard}({row} := {table}.get({at})) is not None"
                f" and ({value} := {row}.get({key}, {missing})) is not {missing} else {source})")


def _key(fn, param: str, code: str) -> str:
    """The source of what `fn`'s cache key holds for an argument `code` given to `param`: the
    argument, or for a projected component what stands for it (functions.py)."""
    template = fn.keyed.get(param)
    return code if template is None else template.replace("{}", f"({code})")
