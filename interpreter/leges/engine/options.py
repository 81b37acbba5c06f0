"""An action's legal choices: one generated function that lists them with their texts."""
from __future__ import annotations

from ..lang import types as T
from ..lang.compiler import Compiler
from ..lang.formatting import text_source
from ..lang.scope import Scope


def options_function(c: Compiler, action_id: str, params: list, require, args_types: dict):
    """One generated function that lists an action's legal parameter choices with their texts.

    Nested loops over the parameters' options (each may use the earlier ones), the
    `require` condition innermost: `fn(st, env, out)` appends [text, id, params, args]
    for `env["me"]` and the action's arguments in `env`.
    """
    scope = Scope(dict(args_types), me=True, me_code="me")
    lines = ["def _options(st, env, out):", "    me = env['me']", "    args = env['$args']"]
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
            code = f"st.zones[{code}]"
        lines.append(f"{indent}for v_{name} in {code}:")
        indent += "    "
        lines.append(f"{indent}t{i} = {text} + {(' ' + name + '=')!r} + {text_source(elem, 'v_' + name, c.const)}")
        text = f"t{i}"
        scope = scope.with_py(name, elem)
        names.append(name)
        types[name] = elem
    if require is not None:
        _, cond = c.parse_code(require, scope)
        lines.append(f"{indent}if {cond}:")
        indent += "    "
    values = "{" + ", ".join(f"{n!r}: v_{n}" for n in names) + "}"
    lines.append(f"{indent}out.append([{text}, {action_id!r}, {values}, args])")
    return c.define_function("\n".join(lines) + "\n", "_options", f"<options:{action_id}>"), types

