"""Variants: typed, composable patches over a ruleset, kept in its `variants/` folder.

A variant adds, replaces, changes or removes items of a ruleset by id, and may declare typed
parameters (constants of the patched ruleset). The patched ruleset is checked like any other;
items a variant brought keep their own file positions, so errors point into the patch.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path

from .. import files
from ..errors import Collector, Diagnostic, LegesError, Position, did_you_mean
from ..source import YamlDoc, load_yaml_file
from .schemas import schema, validate


def display_path(path: Path) -> str:
    from .loader import _display
    return _display(path)

FOLDER = "variants"
REQUEST = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?(?:=(.*))?$")


@dataclass
class Variant:
    id: str
    doc: YamlDoc

    @property
    def data(self) -> dict:
        return self.doc.data

    @property
    def parameters(self) -> list[dict]:
        return self.data.get("parameters", [])


MAX_VARIANTS = 256  # variant files in one ruleset's folder


def find_variants(root: Path, errors: Collector, budget: files.Budget | None = None) -> dict[str, Variant]:
    """Every variant file of a ruleset folder, schema-checked (read through the file gate, inside the folder)."""
    found: dict[str, Variant] = {}
    folder = root / FOLDER
    if not folder.is_dir():
        return found
    inside = [files.Root.of(root, "the ruleset's folder")]
    paths = sorted(folder.glob("*.yaml"))
    if len(paths) > MAX_VARIANTS:
        errors.error(Position(display_path(folder)), f"more than {MAX_VARIANTS} variant files",
                     "the limit of variants per ruleset")
        return found
    for path in paths:
        try:
            doc = load_yaml_file(str(path), display_path(path), roots=inside, budget=budget)
        except LegesError as exc:
            errors.extend(exc.diagnostics)
            continue
        if not validate(doc, "variant", errors):
            continue
        vid = doc.data["id"]
        if vid in found:
            errors.error(doc.position(("id",)), f"variant '{vid}' is declared twice", f"also in {found[vid].doc.file}")
            continue
        found[vid] = Variant(vid, doc)
    return found


def _typed(param: dict, raw: str, where: Position) -> object:
    kind = param["type"]
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


def apply_variants(docs: list[YamlDoc], entries: list, requests: list[str], errors: Collector,
                   budget: files.Budget | None = None):
    """Apply the requested variants (in order) to the ruleset's entries.

    Returns (entries, scalar sections set by variants, names applied)."""
    from .loader import Entry
    root = Path(docs[0].file).resolve().parent
    available = find_variants(root, errors, budget) if requests else {}
    errors.raise_if_errors()  # a variant file that cannot be read: say why, not "no such variant"
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
            raise LegesError(Diagnostic(where, f"no variant '{name}' in {docs[0].file}", hint))
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
            values[target["id"]] = _typed(target, raw, where)
    names = [v.id for v, _ in chosen]
    for variant, _ in chosen:
        for need in variant.data.get("requires", []):
            if need not in names:
                errors.error(variant.doc.position(("requires",)), f"variant '{variant.id}' requires variant '{need}'",
                             f"add --variant {need}")
        for other in variant.data.get("conflicts", []):
            if other in names:
                errors.error(variant.doc.position(("conflicts",)), f"variant '{variant.id}' conflicts with '{other}'",
                             "switch on one of them only")
    entries = list(entries)
    scalars: dict = {}
    for variant, values in chosen:
        doc = variant.doc
        for i, op in enumerate(variant.data.get("patch", [])):
            _apply(entries, scalars, docs[0], doc, i, op, errors)
        for i, p in enumerate(variant.parameters):
            # a parameter is a constant; one of the ruleset's constants with its name is overridden
            entries[:] = [e for e in entries if not (e.section == "constants" and e.item.get("id") == p["id"])]
            entries.append(Entry("constants", doc, ("parameters", i),
                                 {"id": p["id"], "value": values[p["id"]], "description": p.get("description", "")}))
    return entries, scalars, names


def _item_def(section: str) -> str | None:
    from .sections import BY_NAME
    return BY_NAME[section].item_def if section in BY_NAME else None


def _check_item(doc: YamlDoc, path: tuple, section: str, item, errors: Collector) -> bool:
    """Validate one patched item against the ruleset schema; errors point at `path` in the variant."""
    import jsonschema
    full = schema("ruleset")
    if section in ("scoring", "limits"):
        sub = full["properties"][section]
    elif _item_def(section):
        sub = full["$defs"][_item_def(section)]
    else:
        sub = full["properties"][section]["items"]
    sub = dict(sub, **{"$defs": full["$defs"]})
    ok = True
    for error in jsonschema.Draft202012Validator(sub).iter_errors(item):
        ok = False
        errors.error(doc.position(path + tuple(error.absolute_path)), error.message[:300])
    return ok


def _apply(entries: list, scalars: dict, main: YamlDoc, doc: YamlDoc, i: int, op: dict, errors: Collector) -> None:
    from .loader import Entry
    kind, section = op["op"], op["section"]
    at = ("patch", i)
    if section in ("scoring", "limits"):
        if kind != "set" or "key" not in op:
            errors.error(doc.position(at), f"{section} can only be changed key by key with op: set")
            return
        if section == "limits":
            scalars.setdefault("limits", {})[op["key"]] = op.get("value")
            return
        old = scalars.get("scoring") or Entry("scoring", main, ("scoring",), main.data.get("scoring") or {})
        item = copy.deepcopy(old.item)
        item[op["key"]] = op.get("value")
        if not _check_item(doc, at + ("value",), "scoring", item, errors):
            return
        overrides = dict(old.overrides)
        overrides[op["key"]] = (doc, at + ("value",))
        scalars["scoring"] = Entry("scoring", old.doc, old.path, item, overrides)
        return
    index = {(e.section, e.item.get("id")): n for n, e in enumerate(entries)}
    target = op.get("id")
    if kind in ("replace", "remove", "set"):
        if target is None:
            errors.error(doc.position(at), f"op {kind} needs the id of the item")
            return
        if (section, target) not in index:
            ids = [e.item.get("id") for e in entries if e.section == section]
            errors.error(doc.position(at + ("id",)), f"no {section} item '{target}' to {kind}", did_you_mean(target, ids))
            return
    if kind == "remove":
        del entries[index[(section, target)]]
    elif kind in ("add", "replace"):
        value = op.get("value")
        if not isinstance(value, dict) or not _check_item(doc, at + ("value",), section, value, errors):
            if not isinstance(value, dict):
                errors.error(doc.position(at), f"op {kind} needs the whole item as value")
            return
        entry = Entry(section, doc, at + ("value",), value)
        if kind == "replace":
            if value.get("id") != target:
                errors.error(doc.position(at + ("value", "id")), f"the replacement's id must be '{target}'")
                return
            entries[index[(section, target)]] = entry
        else:
            if (section, value.get("id")) in index:
                errors.error(doc.position(at + ("value", "id")), f"{section} already has an item '{value.get('id')}'",
                             "use op: replace to change it")
                return
            anchor = op.get("after") or op.get("before")
            if anchor is None:
                last = max((n for n, e in enumerate(entries) if e.section == section), default=len(entries) - 1)
                entries.insert(last + 1, entry)
            elif (section, anchor) not in index:
                ids = [e.item.get("id") for e in entries if e.section == section]
                errors.error(doc.position(at + ("after" if op.get("after") else "before",)),
                             f"no {section} item '{anchor}'", did_you_mean(anchor, ids))
            else:
                entries.insert(index[(section, anchor)] + (1 if op.get("after") else 0), entry)
    else:  # set
        if "key" not in op:
            errors.error(doc.position(at), "op set needs a key")
            return
        old = entries[index[(section, target)]]
        item = copy.deepcopy(old.item)
        item[op["key"]] = op.get("value")
        if not _check_item(doc, at + ("value",), section, item, errors):
            return
        overrides = dict(old.overrides)
        overrides[op["key"]] = (doc, at + ("value",))
        entries[index[(section, target)]] = Entry(section, old.doc, old.path, item, overrides)
