"""Which variants a request switches on (`NAME`, `NAME=VALUE`, `NAME.PARAM=VALUE`), with their typed
parameter values, and the one order they are applied in."""
from __future__ import annotations

import re
from typing import NamedTuple

from ...text import numbers
from ...text.errors import Collector, Diagnostic, LegesError, Position, did_you_mean
from .catalogue import Variant

NAME = r"[A-Za-z_][A-Za-z0-9_]*"  # the variant schema's id: ASCII letters, digits and '_'
REQUEST = re.compile(rf"({NAME})(?:\.({NAME}))?(?:=([ -~]*))?\Z")  # \Z: '$' would let a final newline through
MAX_REQUEST = 200  # characters of one request
FORMS = "NAME, NAME=VALUE or NAME.PARAM=VALUE (names of ASCII letters, digits and '_')"


class Request(NamedTuple):
    """One request as written: the variant, the parameter it names (None: the first), the value's text."""

    name: str
    param: str | None
    raw: str | None
    where: Position


def _shown(text: str) -> str:
    """A request as a message may quote it: non-ASCII and control characters escaped, the length bounded."""
    quoted = text[:60].encode("ascii", "backslashreplace").decode("ascii")
    quoted = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in quoted)
    return quoted + ("..." if len(text) > 60 else "")


def parse_request(request: str, number: int = 1, origin: str = "--variant") -> Request:
    """A request read strictly, or a located error: at `origin`:`number`:column (the number-th request,
    the column of the first character that does not fit).

    Strict because a request is echoed into records and pages as written: a name with a newline or a
    look-alike letter would be a second name for the same variant, or a line of its own in a record."""
    where = Position(origin, number, 1)
    if len(request) > MAX_REQUEST:
        raise LegesError(Diagnostic(where, f"a variant request of {len(request):,} characters: at most {MAX_REQUEST}", FORMS))
    for col, char in enumerate(request, 1):
        if not " " <= char <= "~":
            raise LegesError(Diagnostic(Position(origin, number, col),
                                        f"variant request '{_shown(request)}': character U+{ord(char):04X} is not allowed",
                                        "a request is written in printable ASCII: " + FORMS))
    m = REQUEST.match(request)
    if not m:
        good = re.match(rf"{NAME}(?:\.{NAME})?", request)
        col = (good.end() if good else 0) + 1
        raise LegesError(Diagnostic(Position(origin, number, col), f"'{_shown(request)}' is not {FORMS}",
                                    "no spaces around the names or the '='"))
    name, param, raw = m.groups()
    if param is not None and raw is None:
        raise LegesError(Diagnostic(Position(origin, number, len(request) + 1),
                                    f"'{_shown(request)}' names a parameter: it needs '=VALUE'", FORMS))
    return Request(name, param, raw, Position(origin, number, (m.start(3) + 1) if raw is not None else 1))


def check_requests(requests: list[str], origin: str = "--variant") -> list[str]:
    """Requests read strictly (parse_request), each parameter given once where the text alone tells
    (`NAME=V` and `NAME.FIRST=V` are told apart when the variant is known: `chosen`); a request
    repeated word for word is kept once."""
    seen: dict[tuple, tuple[int, str]] = {}
    out: list[str] = []
    for number, request in enumerate(requests, 1):
        r = parse_request(request, number, origin)
        if r.raw is not None:
            key = (r.name, r.param)
            if key in seen and seen[key][1] != request:
                _twice(r, f"parameter '{r.param}'" if r.param else "the first parameter", seen[key][0])
            seen[key] = (number, request)
        if request not in out:
            out.append(request)
    return out


def _twice(r: Request, param: str, first: int) -> None:
    raise LegesError(Diagnostic(Position(r.where.file, r.where.line, 1),
                                f"{param} of variant '{r.name}' is given twice (also by request {first})",
                                "give each parameter once"))


def typed(param: dict, raw: str, where: Position) -> object:
    kind = param["type"]
    value: object  # a number, a truth value or a text, as the parameter's type says
    if kind == "int" and numbers.ASCII_INT.match(raw) and numbers.too_long(raw):
        raise LegesError(Diagnostic(where, f"parameter '{param['id']}': {numbers.too_long(raw)}",
                                    f"a whole number within ±{numbers.MAX_INT}"))
    try:
        if kind == "int":
            if not numbers.ASCII_INT.match(raw):  # int() also reads '٣' and other scripts' digits
                raise ValueError
            value = int(raw)
        elif kind == "bool":
            if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError
            value = raw.lower() in ("true", "yes", "1")
        else:
            value = raw
    except ValueError:
        hint = "a whole number written with the digits 0-9" if kind == "int" else \
            "true or false" if kind == "bool" else None
        raise LegesError(Diagnostic(where, f"parameter '{param['id']}' takes {kind} values, not '{_shown(raw)}'", hint)) from None
    if kind == "int" and ("min" in param and value < param["min"] or "max" in param and value > param["max"]):
        raise LegesError(Diagnostic(where, f"parameter '{param['id']}' must be between {param.get('min', '-∞')} "
                                           f"and {param.get('max', '∞')}, not {value}"))
    if "choices" in param and value not in param["choices"]:
        raise LegesError(Diagnostic(where, f"parameter '{param['id']}' must be one of {param['choices']}, not {value!r}"))
    return value


def chosen(requests: list[str], available: dict[str, Variant], ruleset_file: str) -> list[tuple[Variant, dict]]:
    """The variants requested (`NAME`, `NAME=VALUE`, `NAME.PARAM=VALUE`), with their parameter values;
    each parameter given once."""
    chosen: list[tuple[Variant, dict]] = []
    given: dict[tuple[str, str], int] = {}  # (variant, parameter) → the request that set it
    requests = list(requests)
    check_requests(requests)
    for number, request in enumerate(requests, 1):
        if request in requests[:number - 1]:
            continue  # the same request word for word: once
        name, param, raw, where = parse_request(request, number)
        if name not in available:
            hint = did_you_mean(name, available) or (
                "variants here: " + ", ".join(sorted(available)) if available else "this ruleset has no variants")
            raise LegesError(Diagnostic(Position(where.file, where.line, 1), f"no variant '{name}' in {ruleset_file}", hint))
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
                raise LegesError(Diagnostic(Position(where.file, where.line, len(name) + 2),
                                            f"variant '{name}' has no parameter '{param}'", did_you_mean(param or "", params)))
            if (name, target["id"]) in given:
                _twice(Request(name, param, raw, where), f"parameter '{target['id']}'", given[(name, target["id"])])
            given[(name, target["id"])] = number
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
