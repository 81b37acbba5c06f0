"""JSON Schema validation of ruleset, map and scenario files, reported at file:line:col.

jsonschema's `iter_errors` gives every violation with its `absolute_path`; the YAML document
knows the node at that path, so each violation points at the offending value.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from ..errors import Collector, did_you_mean
from ..source import YamlDoc


def _schema_dir() -> Path:
    try:
        import importlib.resources as resources

        path = Path(str(resources.files("leges._schemas")))
        if (path / "ruleset.schema.json").exists():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parents[3] / "schemas"


@lru_cache(maxsize=None)
def schema(name: str) -> dict:
    with open(_schema_dir() / f"{name}.schema.json", encoding="utf-8") as handle:
        return json.load(handle)


@lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema(name))
    return cls(schema(name))


def _describe(error: ValidationError) -> tuple[str, str | None, bool]:
    """Message, hint, and whether the message is about a key rather than a value."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        # prefer what went wrong in the branch whose type fits the value
        fitting = [e for e in error.context if e.validator != "type"]
        if not fitting:
            break
        error = best_match(fitting)
    validator = error.validator
    if validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extras = [k for k in error.instance if k not in allowed] if isinstance(error.instance, dict) else []
        name = extras[0] if extras else "?"
        hint = did_you_mean(str(name), allowed) or (
            "allowed keys here: " + ", ".join(allowed) if allowed else None)
        return f"unknown key '{name}'", hint, True
    if validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return f"missing required key '{missing}'", None, False
    if validator == "enum":
        options = ", ".join(repr(o) for o in error.validator_value)
        hint = did_you_mean(str(error.instance), [str(o) for o in error.validator_value])
        return f"{error.instance!r} is not one of {options}", hint, False
    if validator == "type":
        wanted = error.validator_value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        return f"expected {wanted}, found {type(error.instance).__name__} {error.instance!r}"[:200], None, False
    if validator == "pattern":
        return f"{error.instance!r} does not have the required form", (
            "names start with a letter or '_' and contain only letters, digits and '_'"
            if "A-Za-z_" in error.validator_value else f"expected to match {error.validator_value}"), False
    if validator == "const":
        return f"expected {error.validator_value!r}, found {error.instance!r}", None, False
    if validator == "anyOf" and error.schema.get("anyOf") and all("required" in s for s in error.schema["anyOf"]):
        options = " or ".join("+".join(s["required"]) for s in error.schema["anyOf"])
        return f"needs {options}", None, False
    return error.message[:300], None, False


def validate(doc: YamlDoc, name: str, errors: Collector) -> bool:
    """Check `doc` against schema `name`; report every violation. True when it is valid."""
    if doc.data is None:
        errors.error(doc.position(()), "the file is empty")
        return False
    found = False
    for error in sorted(_validator(name).iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path))):
        found = True
        message, hint, about_key = _describe(error)
        path = tuple(error.absolute_path)
        if about_key and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            extras = [k for k in error.instance if k not in allowed]
            if extras:
                errors.error(doc.position(path + (extras[0],), key=True), message, hint)
                continue
        errors.error(doc.position(path), message, hint)
    return not found
