"""An action's legal choices: one generated function that lists them with their texts, memoised.

The list of a player's choices of an action depends on what its parameters' domains and its
`require` read, found while they compile (lang/optimise/memo.py): until the state changes there, the list
is looked up, not rebuilt — a secret share-out among hundreds of splits is listed once a game.

The parts of `require` (its `and`-ed conditions) that name no parameter are tested once, before
the loops: an action not allowed now (a build once the turn's other kind of action began) lists
nothing without first computing the domain of every parameter. Such a test that fails to evaluate
counts as passed, and the whole `require` is still tested innermost, so the choices listed —
and the errors a rule raises where there are choices — are the same.
"""
from __future__ import annotations

from ..text.errors import LegesError, Position
from ..lang.syntax import ast
from ..lang.optimise import memo
from ..lang.check import types as T
from ..lang.codegen.compiler import Compiler
from ..lang.syntax.parser import parse_expression
from ..lang.codegen.formatting import text_source
from ..lang.codegen.loops import for_charged
from ..lang.check.scope import Scope


def options_function(c: Compiler, action_id: str, params: list, require, args_types: dict, where: Position):
    """(fn, parameter types): `fn(st, me, args)` gives the legal choices of `me` as tuples
    in the order of engine/decision.Option's fields, for the action's arguments `args` (given by `act NAME(arg=...)`).

    Nested loops over the parameters' options (each may use the earlier ones), the `require`
    condition innermost. The list is shared by every caller: never change it. Past
    limits.max_options choices, the error located at `where` (the action's parameters), before
    the cross product of long domains fills memory.
    """
    scope = Scope(dict(args_types), me=True, me_code="me")
    lines = ["def {body}(st, me, args):", "    env = args", "    out = []", "    game = st.game", "    most = game.max_options"]
    outer_reads, c.reads = c.reads, set()
    early = _early_test(c, require, scope, [name for name, _ in params]) if params and c.optimise else None
    if early is not None:
        lines += ["    try:", f"        allowed = {early}", "    except H.RULE_FAILED:  # the test innermost says so",
                  "        allowed = True", "    if not allowed:", "        return out"]
    indent = "    "
    text = repr(action_id)
    names = []
    types = {}
    for i, (name, ptext) in enumerate(params):
        ty, code = c.parse_code(ptext, scope)
        elem = T.iter_elem(ty)
        if elem is None:
            c.errors.error(ptext.at.position(), f"the options of '{name}' must be a list or a zone, not {ty}")
            elem = T.ANY
        if ty.kind in ("zone", "space"):
            code = c.contents(ty, code)
        lines += [indent + line for line in for_charged(f"v_{name}", code)]
        indent += "    "
        c.read_labels(elem)
        head = f"{action_id} {name}=" if i == 0 else None  # the first part's words are one constant
        lines.append(f"{indent}t{i} = {head!r} + {text_source(elem, 'v_' + name, c.const)}" if head is not None else
                     f"{indent}t{i} = {text} + {(' ' + name + '=')!r} + {text_source(elem, 'v_' + name, c.const)}")
        text = f"t{i}"
        scope = scope.with_py(name, elem)
        names.append(name)
        types[name] = elem
    if require is not None:
        _, cond = c.parse_code(require, scope)
        lines.append(f"{indent}if {cond}:")
        indent += "    "
    reads, c.reads = frozenset(c.reads), outer_reads
    values = "{" + ", ".join(f"{n!r}: v_{n}" for n in names) + "}"
    lines.append(f"{indent}out.append(({text}, {action_id!r}, {values}, args, None))")
    # past `most` choices, the error: looked at for each choice in nested loops (their product may be
    # vast), after the loop over a single domain (no longer than the domain, a list within the size limits)
    check = indent if len(params) > 1 else "    "
    lines.append(f"{check}if len(out) > most:")
    lines.append(f"{check}    H.too_many_options({c.const(where)}, {('action ' + repr(action_id))!r}, most)")
    lines.append("    return out")
    name = f"O{len(c.memo.keys)}_options"
    if not c.optimise:  # the reference build: worked out afresh every time
        c.define("\n".join(lines).replace("{body}", name, 1) + "\n", f"options:{action_id}")
        return c.namespace[name], types
    slot = c.memo.add(name, reads, ("me", "args"))
    me = "me" if memo.ME in reads else "None"  # choices that do not depend on who chooses are shared
    lines += [f"def {name}(st, me, args):",
              f"    cache = st.memo[{slot}]",
              f"    key = ({me}, H.freeze(args)) if args else {me}",
              "    value = cache.get(key, H.MISSING)",
              "    if value is H.MISSING:",
              f"        value = cache[key] = {name}_body(st, me, args)",
              "    return value"]
    c.define("\n".join(lines).replace("{body}", f"{name}_body", 1) + "\n", f"options:{action_id}")
    return c.namespace[name], types


def _conjuncts(node) -> list:
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _early_test(c: Compiler, require, scope: Scope, names: list) -> str | None:
    """Python source of the `and` of the parts of `require` that name no parameter, or None."""
    if require is None:
        return None
    try:
        node = parse_expression(require.text, require.at.origin())
    except LegesError:
        return None  # reported where the whole condition compiles
    parts = [p for p in _conjuncts(node) if not any(isinstance(n, ast.Name) and n.id in names for n in p.walk())]
    if not parts:
        return None
    errors = len(c.errors.diagnostics)
    codes = [c.code(p, scope, require.at.origin())[1] for p in parts]
    del c.errors.diagnostics[errors:]  # the whole condition reports them
    return " and ".join(f"({code})" for code in codes)
