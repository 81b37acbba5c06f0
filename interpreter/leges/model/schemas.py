"""JSON Schema validation of ruleset, map and scenario files, reported at file:line:col.

jsonschema's `iter_errors` gives every violation with its `absolute_path`; the YAML document
knows the node at that path, so each violation points at the offending value.
"""
from __future__ import annotations

import itertools
import json
import re
from functools import lru_cache
from typing import Any
from pathlib import Path

import jsonschema
from jsonschema.exceptions import ValidationError, relevance

from ..text.errors import Collector, did_you_mean
from ..text.json_source import JsonDoc
from ..text.yaml_source import YamlDoc


MAX_REPORTED = 100  # schema violations described for one file


def _schema_dir() -> Path:
    from ..text.files import bundled
    return bundled("schemas") or Path(__file__).resolve().parents[3] / "schemas"  # package data, or the checkout's


@lru_cache(maxsize=None)
def schema(name: str) -> dict:
    with open(_schema_dir() / f"{name}.schema.json", encoding="utf-8") as handle:
        return json.load(handle)


@lru_cache(maxsize=None)
def _whole(pattern: str) -> "re.Pattern[str]":
    """A schema's pattern as JSON Schema means it (ECMA-262): a final `$` ends the text. Python's `$`
    also matches before a final line break, which let `id: "mayfair\\n"` pass as a name."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


def _pattern(validator, pattern: str, instance, _schema):
    if validator.is_type(instance, "string") and not _whole(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema(name))
    cls = jsonschema.validators.extend(cls, {"pattern": _pattern})
    return cls(inlined(name))


@lru_cache(maxsize=None)
def inlined(name: str) -> dict:
    """The schema with every `$ref` replaced by what it names (our schemas have no cycles): a local
    one (`#/$defs/X`), or one into a sibling schema (`ruleset.schema.json#/$defs/X`).

    Following a `$ref` costs jsonschema a registry lookup each time; a ruleset of thousands of
    items made validation take seconds. Inlined, the same checks run several times faster and
    report the same errors.
    """
    def walk(node, root: dict, depth: int = 0):
        if depth > 64:  # a cycle after all: leave the reference to jsonschema
            return node
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and "#/$defs/" in ref:
                other, definition = ref.split("#/$defs/", 1)
                home = schema(other.removesuffix(".schema.json")) if other else root
                target = walk(home["$defs"][definition], home, depth + 1)
                rest = {k: walk(v, root, depth + 1) for k, v in node.items() if k != "$ref"}
                return dict(target, **rest) if not set(rest) & set(target) else {"allOf": [target], **rest}
            return {k: (v if k == "$defs" else walk(v, root, depth + 1)) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, root, depth + 1) for v in node]
        return node

    return walk(schema(name), schema(name))


_TYPE_NAMES = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "a whole number",
               "number": "a number", "boolean": "a boolean (true or false)", "null": "null"}


def _shown(instance, width: int = 60) -> str:
    """A value as a message may quote it: one line, at most `width` characters (repr escapes controls)."""
    if isinstance(instance, (dict, list)):
        return "{...}" if isinstance(instance, dict) else "[...]"
    shown = repr(instance)
    return shown if len(shown) <= width else shown[:width - 3] + "..."


def _found(instance) -> str:
    kind = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a number", type(None): "null"}.get(type(instance), type(instance).__name__)
    return f"{kind} {_shown(instance)}" if instance is not None else kind


def _resolve(node, root: dict):
    """Follow a local `$ref` (#/$defs/name)."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 16:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            break
        node = root
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        seen += 1
    return node


def _description(error: ValidationError, root: dict) -> str | None:
    """The description nearest to the failing part of the schema (the innermost one on its path)."""
    node: Any = root  # a schema's part: a mapping, a list, a value
    found = None
    for part in error.absolute_schema_path:
        if isinstance(node, dict) and part not in node:
            node = _resolve(node, root)
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            break
        resolved = _resolve(node, root) if isinstance(node, dict) else node
        if isinstance(resolved, dict) and isinstance(resolved.get("description"), str):
            found = resolved["description"]
    return found


def _branch_types(errors: list[ValidationError]) -> list[str]:
    types: list[str] = []
    for e in errors:
        wanted = e.validator_value if e.validator == "type" else None
        for t in ([wanted] if isinstance(wanted, str) else wanted or []):
            if t not in types:
                types.append(t)
    return types


def _misspelt(error: ValidationError, missing: str) -> str | None:
    """A hint when a key of the mapping looks like a misspelling of the missing key."""
    if not isinstance(error.instance, dict):
        return None
    allowed = error.schema.get("properties", {})
    unknown = [str(k) for k in error.instance if k not in allowed]
    close = [k for k in unknown if did_you_mean(k, [missing])]
    return f"is '{close[0]}' a misspelling of '{missing}'?" if close else None


def describe_error(error: ValidationError, root: dict | None = None) -> tuple[str, str | None, bool]:
    """Message, hint, and whether the message is about a key rather than a value: one branch a
    schema keyword (oneOf, required, additionalProperties, enum, type, ...)."""
    root = root or {}
    while error.validator in ("oneOf", "anyOf") and error.context:
        if all(e.validator == "required" for e in error.context) and isinstance(error.instance, dict):
            # alternatives of required keys (book+section, or reading, ...): name the one begun, else all
            alternatives = [s.get("required", []) for s in error.schema.get(error.validator, [])]
            begun = [o for o in alternatives if any(k in error.instance for k in o)]
            if len(begun) == 1:
                absent = [k for k in begun[0] if k not in error.instance]
                present = [k for k in begun[0] if k in error.instance]
                return f"missing required key '{absent[0]}'", _misspelt(error, absent[0]) or (
                    f"with '{present[0]}' this needs " + " and ".join(f"'{k}'" for k in begun[0])), False
            return "needs " + ", or ".join(" and ".join(f"'{k}'" for k in o) for o in alternatives), None, False
        # prefer what went wrong in the branch whose type fits the value
        fitting = [e for e in error.context if e.validator != "type"]
        if not fitting:
            types = _branch_types(error.context)
            if types:
                names = [_TYPE_NAMES.get(t, t) for t in types]
                wanted = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
                return f"expected {wanted}, found {_found(error.instance)}", _description(error, root), False
            break
        error = max(fitting, key=relevance)
    validator = error.validator
    if validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extras = [k for k in error.instance if k not in allowed] if isinstance(error.instance, dict) else []
        patterns = list(error.schema.get("patternProperties", {}))
        import re
        extras = [k for k in extras if not any(re.search(p, str(k)) for p in patterns)]
        name = extras[0] if extras else "?"
        hint = did_you_mean(str(name), allowed) or (
            "allowed keys here: " + ", ".join(allowed) if allowed else None)
        if hint is None and patterns:
            hint = _description(error, root) or "keys here must match " + " or ".join(patterns)
        shown = str(name) if len(str(name)) <= 60 else str(name)[:57] + "..."
        return f"unknown key {shown!r}" if not str(name).isprintable() else f"unknown key '{shown}'", hint, True
    if validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"missing required key '{missing}'", _misspelt(error, missing), False
    if validator == "enum":
        options = ", ".join(repr(o) for o in error.validator_value)
        hint = did_you_mean(str(error.instance), [str(o) for o in error.validator_value])
        return f"{_shown(error.instance)} is not one of {options}", hint, False
    if validator == "type" and _is_rule_text(error.schema) and error.absolute_path:
        return _not_rule_text(error, root)
    if validator == "type":
        wanted = error.validator_value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        if not error.absolute_path:  # the whole file: never quote it (it may be any file at all)
            return (f"the file is not a YAML mapping of keys (found {_TYPE_NAMES.get(_json_type(error.instance), 'a value')})",
                    "a Leges file starts with keys such as `leges: 1`, `id: ...`", False)
        return f"expected {wanted}, found {type(error.instance).__name__} {_shown(error.instance)}", None, False
    if validator == "pattern":
        if "A-Za-z_" in error.validator_value:
            hint = "names start with a letter or '_' and contain only letters, digits and '_'"
        else:
            hint = _description(error, root) or f"expected to match {error.validator_value}"
        return f"{_shown(error.instance)} does not have the required form", hint, False
    if validator == "const":
        return f"expected {error.validator_value!r}, found {_shown(error.instance)}", None, False
    if validator in ("maximum", "minimum"):
        name = _name_of(error)
        relation = "more than the maximum" if validator == "maximum" else "less than the minimum"
        return f"{_shown(error.instance)} is {relation} {error.validator_value}{name}", _description(error, root), False
    if validator in ("maxItems", "maxLength", "maxProperties"):
        size = len(error.instance) if isinstance(error.instance, (list, str, dict)) else "?"
        unit = {"maxItems": "items", "maxLength": "characters", "maxProperties": "keys"}[validator]
        return (f"{size} {unit} are more than the {error.validator_value} allowed{_name_of(error)}",
                _description(error, root), False)
    if validator in ("minLength", "minItems", "minProperties"):
        unit = {"minItems": "items", "minLength": "characters", "minProperties": "keys"}[validator]
        return f"needs at least {error.validator_value} {unit}{_name_of(error)}", _description(error, root), False
    if validator == "uniqueItems":
        return f"a value appears twice in this list{_name_of(error)}", "each may appear once", False
    if validator == "anyOf" and error.schema.get("anyOf") and all("required" in s for s in error.schema["anyOf"]):
        options = " or ".join("+".join(s["required"]) for s in error.schema["anyOf"])
        return f"needs {options}", None, False
    return error.message[:300], None, False


def _is_rule_text(node: Any) -> bool:
    """Whether a schema node is the rule language's text (an expression or a program)."""
    defs = schema("ruleset").get("$defs", {})
    return isinstance(node, dict) and any(node == defs.get(k) for k in ("expr", "program"))


def _not_rule_text(error: ValidationError, root: dict) -> tuple[str, str | None, bool]:
    """A YAML value (true, 3, null, a list) where rule text is expected: YAML read it as a value of its
    own before the rule language could. Said with the key and how to write it as text, and — when the
    key may be left out and then means what was written (`require: true`) — that it may be left out."""
    keys = [k for k in error.absolute_path if isinstance(k, str)]
    key = keys[-1] if keys else None
    value = error.instance
    written = ("true" if value else "false") if isinstance(value, bool) else str(value)
    prop, optional = _property_schema(error, root)
    if value is None:
        return (f"`{key}` is empty: write its rule text" + (", or leave the key out" if optional else "")
                if key else "this rule text is empty", None, False)
    if isinstance(value, (dict, list)):
        return (f"`{key}` is rule text: one string, not a YAML " + ("mapping" if isinstance(value, dict) else "list"),
                "quote it as one string, or for several lines write `KEY: |` and indent the lines under it"
                .replace("KEY", str(key or "...")),
                False)
    left_out = optional and prop is not None and str(prop.get("default")) == written
    where = f"`{key}`" if key else "this"
    message = f"{where} is rule text: write it as `{key}: \"{written}\"`" if key else \
        f"this is rule text: write it as \"{written}\""
    return (message + (" or leave it out" if left_out else ""),
            f"YAML reads a bare {written} as " + ("a truth value" if isinstance(value, bool) else "a number") +
            ", not as text: quote it", False)


def _property_schema(error: ValidationError, root: dict) -> tuple[dict | None, bool]:
    """The schema of the key whose value broke a rule (its `default` in particular) and whether the key
    may be left out, found along the schema path the validator took through `root` (its `$ref`s
    inlined, so the path walks plain nodes)."""
    path = list(error.absolute_schema_path)
    node: Any = root
    found, optional = None, False
    for i, step in enumerate(path):
        if isinstance(node, dict) and step == "properties" and i + 1 < len(path) and isinstance(node.get(step), dict):
            found = node[step].get(path[i + 1])
            optional = path[i + 1] not in node.get("required", [])
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None, False
    return (found, optional) if isinstance(found, dict) else (None, False)


def _json_type(value) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number",
            type(None): "null"}.get(type(value), "value")


def _name_of(error: ValidationError) -> str:
    """' for limits.max_steps': the key (with its parent) whose value broke a bound, to name the limit."""
    keys = [str(k) for k in error.absolute_path if not isinstance(k, int)]
    return f" for '{'.'.join(keys[-2:])}'" if keys else ""


def _duplicate(items: list) -> int | None:
    """Index of the first item equal to an earlier one."""
    seen: list = []
    for i, item in enumerate(items):
        if item in seen:
            return i
        seen.append(item)
    return None


def validate(doc: YamlDoc | JsonDoc, name: str, errors: Collector) -> bool:
    """Check `doc` against schema `name`; report every violation. True when it is valid."""
    if doc.data is None:
        errors.error(doc.position(()), "the file is empty")
        return False
    found = False
    # a file broken everywhere: the first MAX_REPORTED violations are enough to act on, and
    # describing thousands would take longer than the check itself
    first = list(itertools.islice(_validator(name).iter_errors(doc.data), MAX_REPORTED + 1))
    if len(first) > MAX_REPORTED:
        first = first[:MAX_REPORTED]
        errors.error(doc.position(()), f"more than {MAX_REPORTED} problems with the shape of this file; "
                     f"the first {MAX_REPORTED} are shown", "fix these, then check again")
    for error in sorted(first, key=lambda e: list(map(str, e.absolute_path))):
        found = True
        message, hint, about_key = describe_error(error, inlined(name))
        path = tuple(error.absolute_path)
        if error.validator == "uniqueItems" and isinstance(error.instance, list):
            i = _duplicate(error.instance)
            if i is not None:
                earlier = error.instance.index(error.instance[i])
                what = "parameter" if path and path[-1] == "params" else "value"
                errors.error(doc.position(path + (i,)), f"{what} {_shown(error.instance[i])} is named twice",
                             f"the first is at {doc.position(path + (earlier,))}; each may appear once")
                continue
        if about_key and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            extras = [k for k in error.instance if k not in allowed]
            if extras:
                errors.error(doc.position(path + (extras[0],), key=True), message, hint)
                continue
        errors.error(doc.position(path), message, hint)
    return not found
