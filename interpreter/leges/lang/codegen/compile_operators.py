"""Compiling operators: arithmetic, comparisons and membership, `and`/`or`/`not`, `if ... else`.
A mixin of `compiler.Compiler`."""
from __future__ import annotations

from ...text.errors import did_you_mean
from ..syntax import ast
from ..optimise import memo, shared
from ..check import types as T
from .compile_parts import CompilerParts
from .call import NOTHING

_ARITH = {"+": "+", "-": "-", "*": "*"}


class OperatorCompiling(CompilerParts):
    def _e_Neg(self, node, scope, origin):
        ty, code = self.code(node.operand, scope, origin)
        if not T.numeric(ty):
            self.err(node, origin, f"cannot negate {ty}")
        return T.INT, f"(-{code})"

    def _e_Not(self, node, scope, origin):
        _, code = self.code(node.operand, scope, origin)
        return T.BOOL, f"(not {code})"

    def _e_BinOp(self, node, scope, origin):
        lt, left = self.code(node.left, scope, origin)
        rt, right = self.code(node.right, scope, origin)
        op = node.op
        if op == "+" and (lt.kind == "list" or rt.kind == "list"):
            if not (T.is_list(lt) and T.is_list(rt)):
                self.err(node, origin, f"cannot add {lt} and {rt}")
            return T.join(lt, rt), f"H.concat(st, {left}, {right})"
        if op == "+" and lt.kind == "str" and rt.kind == "str":
            return T.STR, f"H.concat(st, {left}, {right})"
        if not (T.numeric(lt) and T.numeric(rt)):
            self.err(node, origin, f"'{op}' needs numbers, found {lt} and {rt}")
            return NOTHING
        if op == "/":
            return T.INT, f"H.div({left}, {right})"
        if op == "%":
            return T.INT, f"H.mod({left}, {right})"
        if op == "*":
            return T.INT, f"H.mul({left}, {right})"
        return T.INT, f"({left} {_ARITH[op]} {right})"

    def _e_Compare(self, node, scope, origin):
        lt, left = self.code(node.left, scope, origin)
        rt, right = self.code(node.right, scope, origin)
        op = node.op
        if op in ("in", "notin"):
            elem = T.iter_elem(rt)
            if elem is None:
                self.err(node.right, origin, f"'in' needs a list or a zone on its right, not {rt}")
                return T.BOOL, "False"
            if not T.compatible(lt, elem):
                self.err(node, origin, f"{lt} can never be in a collection of {elem}")
            pyop = "not in" if op == "notin" else "in"
            if rt.kind in ("zone", "space") and lt.kind == "component":
                anchor = self.anchor_of(node.right, scope) if rt.kind == "space" else None
                if anchor is not None and lt.sub and len(lt.sub) == 1:  # is it on a space near the parameter
                    self.read(memo.near(next(iter(lt.sub)), *anchor))
                else:
                    self.read_where(lt.sub, on_spaces=rt.kind == "space")
                eq = "!=" if op == "notin" else "=="
                return T.BOOL, f"(st.where[{left}] {eq} {right})"
            if rt.kind in ("zone", "space"):
                return T.BOOL, f"({left} {pyop} {self.contents(rt, right, None, node.right, scope)})"
            if rt.kind == "table" and T.key_of(rt).kind == "player":
                return T.BOOL, f"({left} {pyop} range(len({right})))"
            if rt.kind == "list":  # looked through: charged when long
                return T.BOOL, f"({'not ' if op == 'notin' else ''}H.member(st, {left}, {right}))"
            return T.BOOL, f"({left} {pyop} {right})"
        if not T.compatible(lt, rt):
            self.err(node, origin, f"comparing {lt} with {rt} is always {'false' if op == '==' else 'meaningless'}")
        self._check_literal_domain(node, origin)
        if op in ("<", "<=", ">", ">=") and not (T.numeric(lt) and T.numeric(rt)) and not (lt.kind == rt.kind == "str"):
            self.err(node, origin, f"'{op}' needs numbers, found {lt} and {rt}")
        if op in ("==", "!=") and "list" in (lt.kind, rt.kind):  # compared item by item: charged when long
            return T.BOOL, f"({'not ' if op == '!=' else ''}H.equal(st, {left}, {right}))"
        return T.BOOL, f"({left} {op} {right})"

    def _check_literal_domain(self, node, origin):
        """`c.type == "crad"` and `c.colour == "gren"`: check the string against known values."""
        for attr, lit in ((node.left, node.right), (node.right, node.left)):
            if isinstance(attr, ast.Attr) and isinstance(lit, ast.Literal) and isinstance(lit.value, str):
                if attr.name == "type":
                    known = set(self.symbols.component_types)
                else:
                    known = self.symbols.prop_values.get(attr.name)
                if known and lit.value not in known:
                    self.err(lit, origin, f"'{lit.value}' is not a known value of '{attr.name}'",
                             did_you_mean(lit.value, known) or "known values: " + ", ".join(sorted(map(str, known))[:12]))

    def _e_BoolOp(self, node, scope, origin):
        once = self.shared(node, node.left, [node.right], scope, origin)
        if once is not None:
            return once
        lt, left = self.code(node.left, scope, origin)
        rt, right = self.code(node.right, scope, origin)
        if lt.kind == rt.kind == "bool":  # already true or false: no bool() call needed
            return T.BOOL, f"({left} {node.op} {right})"
        return T.BOOL, f"bool({left} {node.op} {right})"

    def _e_IfExpr(self, node, scope, origin):
        once = self.shared(node, node.condition, [node.then, node.otherwise], scope, origin)
        if once is not None:
            return once
        _, cond = self.code(node.condition, scope, origin)
        at, a = self.code(node.then, scope, origin)
        bt, b = self.code(node.otherwise, scope, origin)
        if not T.compatible(at, bt):
            self.err(node, origin, f"the two branches give {at} and {bt}")
        return T.join(at, bt), f"({a} if {cond} else {b})"

    def shared(self, node, first, later: list, scope, origin) -> tuple[T.Ty, str] | None:
        """`node` with the value that `first` evaluates before the rest of it, and a `later` part asks
        again, computed once (optimise/shared.py); None if there is none."""
        if not self.optimise:
            return None
        target = shared.common(first, later)
        if target is None:
            return None
        ty, code = self.code(target, scope, origin)
        if code.isidentifier():  # a local already, or hoisted out of a comprehension
            return None
        self.lets += 1
        name, python = f"{shared.NAME}{self.lets}", f"s{self.lets}_shared"
        hoist = self.hoist

        def copied(old, new) -> None:
            if hoist is not None and id(old) in hoist.reached:
                hoist.reached.add(id(new))
        by = ast.Name(name, line=target.line, col=target.col)
        if hoist is not None and id(target) in hoist.reached:
            hoist.reached.add(id(by))
        rewritten = shared.replaced(node, target, by, copied)
        inner = scope.with_py(name, ty, self.anchor_of(target, scope), python)
        rty, body = self.code(rewritten, inner, origin)
        # `is` holds always: it binds the value first, without the tuple a `(x := v, body)[-1]` builds
        return rty, f"({body} if ({python} := {code}) is {python} else None)"
