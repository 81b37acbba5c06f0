"""Reads of the state that cannot change while a generated function runs, bound once to a local.

Generated code reads the state through attribute chains (`st.zones[s]`, `st.setup.cowner[c]`) and
the acting player through its locals (`env.get('me')`). Inside a loop each read costs an attribute
lookup (or a method call) per item: in a three-in-a-row test over a board's lines, about half the test's
time. This pass binds each such read to a local at the function's start, where the function reads
it in a loop or more than once, and replaces the reads by the local. It also writes `H.top(x)` of
a name (or a name indexed by a name) as `(x[-1] if x else None)`, what `top` does, without the call;
and where only a list's truth counts (a test), `len(xs) > 0` as `xs` and `len(xs) == 0` as `not xs`.

What is bound cannot change during the call:
- `st.zones`, `st.where`, `st.vars`, `st.sprops`, `st.cprops`, `st.setup` and `st.game` are each
  one object for the state's life (rules change what they hold, never which object they are), and
  every `st.setup.X` is fixed for a game and a number of players;
- `env.get(K)` with a constant K (not `env[K]`, which fails where K is missing: bound ahead, it
  would fail where the read was never reached), only in a function that neither writes `env` nor
  hands it to another function (then nothing can change it while the function runs).
Nothing else is touched: a function that rebinds `st` or `env`, a nested function's body.

A pure tree-to-tree function over Python's own syntax tree (the generated source's), so the
lines of the generated source keep their numbers (where a rule failed is read from them); the
reference build (`optimise=False`) does not run it, and tests/test_invariant_reads.py checks it
changes no value.
"""
from __future__ import annotations

import ast
import copy

STABLE = frozenset({"zones", "where", "vars", "sprops", "cprops", "setup", "game"})
LOOPS = (ast.For, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def bind_invariant_reads(module: ast.Module) -> ast.Module:
    """`module` with every top-level function's invariant reads bound (the module is changed in place)."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef):
            _bind(node)
    return ast.fix_missing_locations(module)


def _key(node: ast.AST, env_ok: bool) -> str | None:
    """The local's name for a read this pass binds, or None."""
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
        base = node.value
        if isinstance(base, ast.Name) and base.id == "st" and node.attr in STABLE:
            return f"_st_{node.attr}"
        if isinstance(base, ast.Attribute) and _key(base, env_ok) == "_st_setup":
            return f"_st_setup_{node.attr}"
        return None
    if not env_ok:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "env" and len(node.args) == 1 \
            and not node.keywords and isinstance(node.args[0], ast.Constant):
        constant = node.args[0].value
        if isinstance(constant, str) and constant.isidentifier():
            return f"_env_{constant}"
    return None


def _env_read_only(fn: ast.FunctionDef) -> bool:
    """Whether `env` is only read in `fn`: never rebound, written, deleted, or handed on."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == "env" and not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "env" \
                and not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, ast.Call):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Name) and arg.id == "env":
                    return False
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id == "env" and node.func.attr != "get":
                return False
    return True


def _rebinds(fn: ast.FunctionDef, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in ast.walk(fn))


class _Counter(ast.NodeVisitor):
    """Each bindable read's count, and whether one sits in a loop (a nested function's are skipped)."""

    def __init__(self, env_ok: bool):
        self.env_ok = env_ok
        self.seen: dict[str, list] = {}  # local → [count, in a loop, a node of the read]
        self.depth = 0

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.Lambda, ast.AsyncFunctionDef)):
            return
        key = _key(node, self.env_ok)
        if key is not None:
            entry = self.seen.setdefault(key, [0, False, node])
            entry[0] += 1
            entry[1] = entry[1] or self.depth > 0
            if key.startswith("_st_setup_"):  # its `st.setup` is read too, but through this local
                return
            return
        # a program's `while True:` round its instructions is not a loop over items: each of them
        # runs once a call
        loop = isinstance(node, LOOPS) and not (self.depth == 0 and isinstance(node, ast.While)
                                                and isinstance(node.test, ast.Constant) and node.test.value is True)
        self.depth += loop
        super().generic_visit(node)
        self.depth -= loop


class _Replace(ast.NodeTransformer):
    def __init__(self, bound: set[str], env_ok: bool):
        self.bound = bound
        self.env_ok = env_ok

    def visit_FunctionDef(self, node):  # a nested function: left alone
        return node

    def visit_Lambda(self, node):
        return node

    def generic_visit(self, node):
        key = _key(node, self.env_ok)
        if key is not None and key in self.bound:
            return ast.copy_location(ast.Name(key, ast.Load()), node)
        node = super().generic_visit(node)
        for field, tested in _TESTS.get(type(node), ()):
            if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
                continue
            value = getattr(node, field)
            setattr(node, field, [_truth(v) for v in value] if tested == "each" else _truth(value))
        if isinstance(node, ast.Call) and _is_top(node):
            item = node.args[0]
            return ast.copy_location(ast.IfExp(item, ast.Subscript(
                _copy(item), ast.UnaryOp(ast.USub(), ast.Constant(1)), ast.Load()), ast.Constant(None)), node)
        return node


# where only a value's truth counts: an `if`'s and a loop's test, a comprehension's conditions, `not`'s operand
_TESTS: dict[type, tuple[tuple[str, str], ...]] = {
    ast.If: (("test", "one"),), ast.While: (("test", "one"),), ast.IfExp: (("test", "one"),),
    ast.comprehension: (("ifs", "each"),), ast.UnaryOp: (("operand", "one"),)}


def _truth(node: ast.expr) -> ast.expr:
    """`node` where only its truth counts: `len(x) > 0` (or `!= 0`) as `x`, `len(x) == 0` as `not x` —
    a list's truth is whether it has items, without the call; `and`/`or`/`not` of such, each operand."""
    if isinstance(node, ast.BoolOp):
        node.values = [_truth(v) for v in node.values]
        return node
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.comparators[0], ast.Constant) \
            and node.comparators[0].value == 0 and type(node.comparators[0].value) is int \
            and isinstance(node.left, ast.Call) and isinstance(node.left.func, ast.Name) and node.left.func.id == "len" \
            and len(node.left.args) == 1 and not node.left.keywords and _a_list(node.left.args[0]):
        item = node.left.args[0]
        if isinstance(node.ops[0], (ast.Gt, ast.NotEq)):
            return item
        if isinstance(node.ops[0], ast.Eq):
            return ast.copy_location(ast.UnaryOp(ast.Not(), item), node)
    return node


def _a_list(node: ast.expr) -> bool:
    """Whether `node` is a list whatever the state: a zone's contents (`st.zones[z]`), a list
    comprehension. Of anything else `len` may fail (on none), where its truth would not."""
    if isinstance(node, ast.ListComp):
        return True
    if isinstance(node, ast.Subscript):
        base = node.value
        return (isinstance(base, ast.Name) and base.id == "_st_zones") or \
            (isinstance(base, ast.Attribute) and base.attr == "zones" and isinstance(base.value, ast.Name) and base.value.id == "st")
    return False


def _is_top(node: ast.Call) -> bool:
    """`H.top(x)`, of a name or a name indexed by a name (inlined, it is read twice: a lookup, cheaper than the call)."""
    if not (isinstance(node.func, ast.Attribute) and node.func.attr == "top" and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "H" and len(node.args) == 1 and not node.keywords):
        return False
    item = node.args[0]
    return isinstance(item, ast.Name) or (isinstance(item, ast.Subscript) and isinstance(item.value, ast.Name)
                                          and isinstance(item.slice, ast.Name))


def _copy(node: ast.expr) -> ast.expr:
    return copy.deepcopy(node)  # with its place in the source


def _bind(fn: ast.FunctionDef) -> None:
    if _rebinds(fn, "st"):
        return
    env_ok = not _rebinds(fn, "env") and _env_read_only(fn)
    counter = _Counter(env_ok)
    for statement in fn.body:
        counter.visit(statement)
    bound = {key for key, (count, in_loop, _) in counter.seen.items() if in_loop or count > 1}
    replace = _Replace(bound, env_ok)
    fn.body = [replace.visit(statement) for statement in fn.body]
    if not bound:
        return
    first = fn.body[0]
    setup = [key for key in bound if key.startswith("_st_setup_")]
    order = sorted(bound - set(setup)) + sorted(setup)  # `_st_setup` before what is read through it
    head = []
    for key in order:
        node = counter.seen[key][2]
        value = ast.Attribute(ast.Name("_st_setup", ast.Load()) if "_st_setup" in bound else node.value, node.attr, ast.Load()) \
            if key.startswith("_st_setup_") else node
        head.append(ast.copy_location(ast.Assign([ast.Name(key, ast.Store())], value), first))
    fn.body[:0] = head
