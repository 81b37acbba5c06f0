"""The mutation operators of `leges mutate` that need the syntax tree and the types of its names.

mutate.py flips what one token says (a comparison, a number, `and`/`or`, `true`/`false`) and drops
statements. These change more of an expression, on the same parsed tree (lark's, which keeps every
token and where it lies), each written back as a change of the rule's own text — its layout, its
comments and its labels (`@name`, which a variant's patch addresses) kept:

- `conjunct`  — one side of `a and b` dropped (→ `a`, → `b`); of `a or b` too;
- `argument`  — a call's argument (or an index) that is a name replaced by another name in scope
  there of the same type (a parameter, a `let`, a lambda's variable, a variable, a constant,
  `me`, `current`); a keyword argument dropped (`blocked=`, `by=`: they are the optional ones);
  a property replaced by a sibling property of the same type (`region.first` → `region.last`);
- `function`  — a built-in replaced by its sibling of the same signature (`min`↔`max`,
  `count`↔`sum`, `any`↔`all`, `first`↔`last`, `top`↔`bottom`, ...);
- `boundary`  — `==` widened to `>=` and `<=`, `!=` narrowed to `<` and `>`; an ordered comparison
  with a bound that is not a plain number shifted by one (`x < n` → `x < n + 1`, `x < n - 1`);
- `arithmetic` — `+`↔`-`, `*`↔`/`, and one term of a sum dropped (`a + b` → `a`, → `b`);
- `filter`    — a comprehension's `if` dropped; `branch` — `if c then a else b` → `a`, → `b`;
- `value`     — the last resort, for a rule that has no other mutant: the whole text replaced by
  another value of its type (a number one more, a condition negated, a list emptied, `none`).

The types come from checking the ruleset once with the compiler watched (`Typing.of`): for each
name where it stands, its type and the names in scope there with theirs. A mutant the checker
still rejects is stillborn, and not counted.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SIBLINGS = {"min": ["max"], "max": ["min"], "minima": ["maxima"], "maxima": ["minima"], "count": ["sum"],
            "sum": ["count"], "any": ["all"], "all": ["any"], "first": ["last"], "last": ["first"],
            "top": ["bottom"], "bottom": ["top"], "take": ["drop"], "drop": ["take"],
            "next_player": ["previous_player"], "previous_player": ["next_player"]}
WIDEN = {"==": [">=", "<="], "!=": ["<", ">"]}
ORDERED = ("<", "<=", ">", ">=")
ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*"}
MAX_SUBSTITUTES = 2  # another name for one argument: at most this many (the nearest in scope first)


@dataclass
class Typing:
    """What checking the ruleset found of its rule texts, by text (file, line, column of its start)."""

    names: dict = field(default_factory=dict)  # (text key, line, col) → (type, [names of that type in scope])
    roots: dict = field(default_factory=dict)  # (text key, line, col) → the type of the outermost node there
    props: dict = field(default_factory=dict)  # (text key, line, col, property) → [sibling properties]
    numbers: set = field(default_factory=set)  # (text key, line, col) of the calls whose first argument is a list of int
    zones: list = field(default_factory=list)  # the ruleset's shared zones (not one per player)
    texts: dict = field(default_factory=dict)  # text key → the type of the whole text (an expression's)

    @staticmethod
    def of(folder: str) -> "Typing":
        """Check (load) the ruleset at `folder` with the compiler watched; an empty Typing when it fails."""
        from .. import load
        from ..lang.syntax import ast
        from ..lang.codegen import compiler as module
        found = Typing()
        cls = module.Compiler
        plain = cls.code
        started: set = set()
        by_node: dict = {}  # id(node) → its type, while the ruleset is checked (its trees live as long)
        within: list = []  # the texts being compiled, innermost last (a function's body inside its caller's)

        def watched(self, node, scope, origin):
            text = (origin.file, origin.line, origin.col)
            at = (text, node.line, node.col)
            outer = at not in started
            started.add(at)
            whole = not within or within[-1] != text  # the first node of a text is the whole of it
            within.append(text)
            try:
                ty, code = plain(self, node, scope, origin)
            finally:
                within.pop()
            if whole and text not in found.texts:
                found.texts[text] = ty
            by_node[id(node)] = ty
            if not found.zones:
                found.zones = sorted(z for z, info in self.symbols.zones.items() if not info.per_player
                                     and info.count is None and z != "out_of_game")
            if outer:
                found.roots[at] = ty
            if isinstance(node, ast.Name) and at not in found.names:
                found.names[at] = (ty, _same_type(self, scope, ty, node.id))
            elif isinstance(node, ast.Call) and node.args and not isinstance(node.args[0], ast.Lambda):
                first = by_node.get(id(node.args[0]))
                if first is not None and first.kind == "list" and first.elem is not None and first.elem.kind == "int":
                    found.numbers.add(at)
            elif isinstance(node, ast.Attr):
                obj = by_node.get(id(node.obj))
                found.props[(*at, node.name)] = _sibling_props(self.symbols, obj, ty, node.name)
            return ty, code

        cls.code = watched  # type: ignore[method-assign]  # watched while this ruleset is checked, restored below
        try:
            load(folder)
        except Exception:  # the checker's complaint is reported by the run itself
            pass
        finally:
            cls.code = plain  # type: ignore[method-assign]  # the compiler's own method again
        return found


def _same_type(compiler, scope, ty, name: str) -> list[str]:
    """The names in scope of type `ty` other than `name`: the nearest locals first, then the game's."""
    out = [n for n, t in reversed(list(scope.locals.items())) if t == ty and n != name]
    sym = compiler.symbols
    if ty.kind == "player":
        out += [n for n in ("me", "current") if n != name and (n != "me" or scope.me)]
    out += [v.id for v in sym.variables.values() if not v.per_player and v.type == ty and v.id != name
            and v.id not in scope.locals]
    out += [c for c, (t, _) in sym.constants.items() if t == ty and c != name and c not in scope.locals]
    return list(dict.fromkeys(out))


def _sibling_props(sym, obj, ty, name: str) -> list[str]:
    if obj is None:
        return []
    tables = []
    if obj.kind == "component":
        tables = [sym.component_types.get(t, {}) for t in (obj.sub or sym.component_types)]
    elif obj.kind == "area":
        tables = [sym.area_kinds.get(k, {}) for k in (obj.sub or sym.area_kinds)]
    elif obj.kind == "space":
        tables = [sym.space_props]
    elif obj.kind == "player":
        tables = [sym.seat_props]
    if not any(name in table for table in tables):  # a built-in attribute (type, owner, zone, space): no sibling
        return []
    return sorted({p for table in tables for p, t in table.items() if t == ty and p != name})


def _start(tok) -> int:
    """Where a token of lark's parse begins (lark types it optional: None only for a token made by hand)."""
    pos = tok.start_pos
    assert pos is not None
    return pos


def _end(tok) -> int:
    """Where a token of lark's parse ends (see _start)."""
    pos = tok.end_pos
    assert pos is not None
    return pos


def edits(tree, source: str, text: str, program: bool, typing: Typing | None, key: tuple | None,
          span) -> list[tuple[str, int, int, str]]:
    """The changes these operators make to one rule text: (operator, start, end, replacement).

    `tree` is lark's parse of `source` (the text as parsed), `span(node)` where a node lies in it,
    `key` the text's place for `typing` (None: no types known: no argument changes)."""
    from lark import Token, Tree
    from ..text.offsets import line_col
    found: list[tuple[str, int, int, str]] = []

    def piece(node) -> str:
        where = span(node)
        return source[where[0]:where[1]] if where else ""

    def place(offset: int) -> tuple:
        line, col = line_col(text, offset) if not program else line_col(source, offset)
        return (key, line, col)

    def name_of(node) -> Token | None:
        if isinstance(node, Tree) and node.data == "name":
            tok = node.children[0]
            return tok if isinstance(tok, Token) else None
        return None

    def substitutes(node) -> None:
        tok = name_of(node)
        if tok is None or typing is None:
            return
        known = typing.names.get(place(_start(tok)))
        if known:
            for other in known[1][:MAX_SUBSTITUTES]:
                found.append(("argument", _start(tok), _end(tok), other))

    for node in tree.iter_subtrees_topdown():
        data, kids = node.data, node.children
        trees = [c for c in kids if isinstance(c, Tree)]
        where = span(node)
        if where is None:
            continue
        start, end = where
        if data in ("and_", "or_") and len(trees) == 2:
            for kept in trees:
                found.append(("conjunct", start, end, piece(kept)))
        elif data == "binop" and len(trees) == 2:
            op = next(c for c in kids if isinstance(c, Token) and c.type in ("ADD_OP", "MUL_OP"))
            if str(op) in ARITHMETIC:
                found.append(("arithmetic", _start(op), _end(op), ARITHMETIC[str(op)]))
            if str(op) in ("+", "-"):
                found.append(("arithmetic", start, end, piece(trees[0])))
                if str(op) == "+":
                    found.append(("arithmetic", start, end, piece(trees[1])))
        elif data == "compare":
            op = next(c for c in kids if isinstance(c, Token) and c.type == "COMP_OP")
            plain = all(t.data not in ("none", "string", "true", "false") for t in trees)
            if plain and typing is not None and trees:  # only numbers are ordered
                left = typing.roots.get(place(span(trees[0])[0]))
                plain = left is None or left.kind == "int"
            for wider in WIDEN.get(str(op), []) if plain else []:  # none, a text or a truth value has no order
                if wider == "<=" and _never_negative(trees[0]) and piece(trees[1]).strip() == "0":
                    continue  # count(xs) <= 0 is count(xs) == 0: an equivalent mutant
                found.append(("boundary", _start(op), _end(op), wider))
            bound = trees[1] if len(trees) == 2 else None
            numeric = str(op) in ORDERED
            if bound is not None and bound.data != "int_" and not (bound.data == "neg" and piece(bound)[1:].strip().isdigit()):
                tok = name_of(bound)
                if not numeric and tok is not None and typing is not None:
                    known = typing.names.get(place(_start(tok)))
                    numeric = bool(known and known[0].kind == "int")
                if numeric:
                    b0, b1 = span(bound)
                    bound_text = source[b0:b1]
                    wrapped = bound_text if tok is not None or bound.data in ("call", "attr", "index") else f"({bound_text})"
                    found.append(("boundary", b0, b1, f"{wrapped} + 1"))
                    found.append(("boundary", b0, b1, f"{wrapped} - 1"))
            for operand in trees:
                substitutes(operand)
        elif data == "call":
            fn = kids[0]
            # count(xs) → sum(xs) only for numbers: the checker lets sum() add up components' ids
            summed = str(fn) != "count" or (typing is not None and place(_start(fn)) in typing.numbers
                                             and len(trees[0].children) < 3 if trees else False)
            if isinstance(fn, Token) and str(fn) in SIBLINGS and summed:
                for other in SIBLINGS[str(fn)]:
                    found.append(("function", _start(fn), _end(fn), other))
            args = next((c for c in trees if c.data == "args"), None)
            if args is not None:
                items = [c for c in args.children if isinstance(c, Tree)]
                for i, arg in enumerate(items):
                    if arg.data == "kwarg":
                        a0, a1 = span(arg)
                        commas = [c for c in args.children if isinstance(c, Token) and str(c) == ","]
                        # the argument and the comma before it (or, for the first, the one after it)
                        before = [c for c in commas if _end(c) <= a0]
                        after = [c for c in commas if _start(c) >= a1]
                        if before:
                            found.append(("argument", _start(before[-1]), a1, ""))
                        elif after:
                            nxt = items[i + 1] if i + 1 < len(items) else None
                            found.append(("argument", a0, span(nxt)[0] if nxt is not None else _end(after[0]), ""))
                        value = [c for c in arg.children if isinstance(c, Tree)]
                        if value:
                            substitutes(value[-1])
                    else:
                        substitutes(arg)
        elif data == "index" and len(trees) == 2:
            substitutes(trees[1])
        elif data == "attr" and typing is not None:
            prop = kids[-1]
            if isinstance(prop, Token):  # the syntax tree places an attribute at its name
                for other in typing.props.get((*place(_start(prop)), str(prop)), [])[:MAX_SUBSTITUTES]:
                    found.append(("argument", _start(prop), _end(prop), other))
        elif data == "clause":
            exprs = [c for c in kids if isinstance(c, Tree) and c.data != "names"]
            words = [c for c in kids if isinstance(c, Token) and str(c) == "if"]
            if words and len(exprs) >= 2:
                found.append(("filter", _start(words[0]), span(exprs[-1])[1], ""))
        elif data == "ifexpr" and len(trees) == 3:
            for kept in trees[1:]:
                found.append(("branch", start, end, f"({piece(kept)})"))
    return found


def _never_negative(node) -> bool:
    """An expression that is never below 0: a count()."""
    from lark import Token
    return getattr(node, "data", None) == "call" and isinstance(node.children[0], Token) and str(node.children[0]) == "count"


def value_edit(tree, source: str, text: str, program: bool, typing: Typing | None, key: tuple | None,
               span) -> list[tuple[str, int, int, str]]:
    """The last resort for a text with no other mutant: the whole expression as another value of its type."""
    if program:
        return []
    body = tree.children[0] if tree.children else None
    where = span(body) if body is not None else None
    if where is None:
        return []
    start, end = where
    ty = typing.texts.get(key) if typing is not None else None
    whole = source[start:end]
    kind = ty.kind if ty is not None else None
    if kind == "int":
        return [("value", start, end, f"({whole}) + 1")]
    if kind == "bool":
        return [("value", start, end, f"not ({whole})")]
    if kind == "list":
        return [("value", start, end, "[]")]
    if kind == "str":
        return [("value", start, end, '""')]
    if kind == "zone" and typing is not None:  # another of the ruleset's zones
        others = [z for z in typing.zones if z != whole.strip()]
        if others:
            return [("value", start, end, others[0])]
    return [("value", start, end, "none")]
