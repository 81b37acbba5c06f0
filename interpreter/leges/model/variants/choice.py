"""Which variants a request switches on (`NAME`, `NAME=VALUE`, `NAME.PARAM=VALUE`), with their typed
parameter values, and the one order they are applied in."""
from __future__ import annotations

import re

from ...text.errors import Collector, Diagnostic, LegesError, Position, did_you_mean
from .catalogue import Variant

REQUEST = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?(?:=(.*))?$")


def typed(param: dict, raw: str, where: Position) -> object:
    kind = param["type"]
    value: object  # a number, a truth value or a text, as the parameter's type says
    try:
        if kind == "int":
            value = int(raw)
        elif kind == "bool":
            if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError
            value = raw.lower() in ("true", "yes", "1")
        else:
            value = raw
    except ValueError:
        raise LegesError(Diagnostic(where, f"parameter '{param['id']}' takes {kind} values, not '{raw}'")) from None
    if kind == "int" and ("min" in param and value < param["min"] or "max" in param and value > param["max"]):
        raise LegesError(Diagnostic(where, f"parameter '{param['id']}' must be between {param.get('min', '-∞')} "
                                           f"and {param.get('max', '∞')}, not {value}"))
    if "choices" in param and value not in param["choices"]:
        raise LegesError(Diagnostic(where, f"parameter '{param['id']}' must be one of {param['choices']}, not {value!r}"))
    return value


def chosen(requests: list[str], available: dict[str, Variant], ruleset_file: str) -> list[tuple[Variant, dict]]:
    """The variants requested (`NAME`, `NAME=VALUE`, `NAME.PARAM=VALUE`), with their parameter values."""
    chosen: list[tuple[Variant, dict]] = []
    where = Position("--variant")
    for request in requests:
        m = REQUEST.match(request.strip())
        if not m:
            raise LegesError(Diagnostic(where, f"'{request}' is not NAME, NAME=VALUE or NAME.PARAM=VALUE"))
        name, param, raw = m.groups()
        if name not in available:
            hint = did_you_mean(name, available) or (
                "variants here: " + ", ".join(sorted(available)) if available else "this ruleset has no variants")
            raise LegesError(Diagnostic(where, f"no variant '{name}' in {ruleset_file}", hint))
        variant = available[name]
        values = next((v for vt, v in chosen if vt.id == name), None)
        if values is None:
            values = {p["id"]: p["default"] for p in variant.parameters}
            chosen.append((variant, values))
        if raw is not None:
            params = {p["id"]: p for p in variant.parameters}
            if not params:
                raise LegesError(Diagnostic(where, f"variant '{name}' has no parameters"))
            target = params.get(param) if param else variant.parameters[0]
            if target is None:
                raise LegesError(Diagnostic(where, f"variant '{name}' has no parameter '{param}'", did_you_mean(param, params)))
            values[target["id"]] = typed(target, raw, where)
    return chosen


def application_order(chosen: list[tuple[Variant, dict]], errors: Collector) -> list[tuple[Variant, dict]]:
    """The variants in the order they are applied: after those they require or override, else by id.

    The order of `--variant` flags does not matter."""
    ids = {v.id for v, _ in chosen}
    by_id = {v.id: (v, values) for v, values in chosen}
    before = {v.id: {n for r in ("requires", "overrides") for n in v.names(r) if n in ids} for v, _ in chosen}
    done: list[str] = []
    while len(done) < len(by_id):
        ready = sorted(i for i in by_id if i not in done and before[i] <= set(done))
        if not ready:
            stuck = sorted(i for i in by_id if i not in done)
            v = by_id[stuck[0]][0]
            errors.error(v.doc.position(("overrides",) if "overrides" in v.data else ("requires",)),
                         "variants " + ", ".join(f"'{i}'" for i in stuck) + " require or override each other in a circle",
                         "one of them must come first: remove one of the names")
            return [by_id[i] for i in done + stuck]
        done.append(ready[0])
    return [by_id[i] for i in done]
