"""Variants: typed, composable patches over a ruleset, kept in its `variants/` folder.

A variant adds, replaces, changes or removes items of a ruleset by id, and may declare typed
parameters (constants of the patched ruleset). A `set` may address one key of an item, a key
inside it (`params.victim`, `tiebreak.0`), or one labelled statement or expression of a rule
text (`label: contest_price`, for `@contest_price(...)` in the text): the text is rewritten
where the label stands, so a labelled rule compiles as if it had been written that way, and the
rest of the rule keeps following the base ruleset.

Variants switched on together are applied in one order whatever the order of the request:
a variant after those it `requires` or `overrides`, otherwise by id. Two of them touching the
same item and key (or declaring the same parameter) is an error unless one names the other in
`requires`, `conflicts` or `overrides`.

The patched ruleset is checked like any other; every value a variant brought keeps its own file
position (a rule text rewritten at a label maps each of its characters back to the file it came
from), so errors point into the patch.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..text import files
from ..text.errors import Collector, Diagnostic, LegesError, Position, did_you_mean
from ..text.yaml_source import TextOrigin, YamlDoc, load_yaml_file
from .entries import Entry, display_path
from .schemas import schema, validate


FOLDER = "variants"
REQUEST = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?(?:=(.*))?$")
KEY_PART = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)$")
RELATIONS = ("requires", "conflicts", "overrides")
SCALARS = ("scoring", "limits")
# keys of an item that hold prose or data, never rule text (not searched for labels)
NOT_RULE_TEXT = {"id", "source", "description", "provenance", "note", "question", "text", "title", "compares",
                 "on", "next", "kind", "visibility", "type", "start", "initial", "props", "instances",
                 "box", "args", "count", "players", "per_player", "anytime", "secret", "params_list"}


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

    def names(self, relation: str) -> list[str]:
        return [n for n in self.data.get(relation, []) if isinstance(n, str)]

    def names_variant(self, other: str) -> bool:
        return any(other in self.names(r) for r in RELATIONS)

    def citation(self) -> dict | None:
        """What a rule this variant brings cites when it says nothing itself: the variant's source, else its provenance."""
        if isinstance(self.data.get("source"), dict):
            return copy.deepcopy(self.data["source"])
        if isinstance(self.data.get("provenance"), dict):
            return {"provenance": copy.deepcopy(self.data["provenance"])}
        return None


MAX_VARIANTS = 32  # variant files in one ruleset's folder (the bundled games have at most 3)


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


def check_relations(variant: Variant, available: dict[str, Variant], errors: Collector) -> None:
    """Every variant named in `requires`, `conflicts` and `overrides` exists (and is not the variant itself)."""
    for relation in RELATIONS:
        for j, name in enumerate(variant.data.get(relation, [])):
            where = variant.doc.position((relation, j))
            if name == variant.id:
                errors.error(where, f"variant '{variant.id}' names itself in `{relation}`")
            elif name not in available:
                others = [v for v in available if v != variant.id]
                errors.error(where, f"no variant '{name}' in this ruleset (named in `{relation}` of '{variant.id}')",
                             did_you_mean(name, others) or (
                                 "variants here: " + ", ".join(sorted(others)) if others else "this ruleset has no other variants"))


def variant_sets(available: dict[str, Variant]) -> list[tuple[str, ...]]:
    """The sets of variants `leges validate` loads: each variant alone (with those it requires), and each
    with every variant it overrides."""
    def closure(ids: list[str]) -> tuple[str, ...]:
        out = list(ids)
        for name in out:
            out += [n for n in available[name].names("requires") if n in available and n not in out]
        return tuple(out)
    sets = [closure([vid]) for vid in sorted(available)]
    sets += [closure([other, vid]) for vid in sorted(available) for other in available[vid].names("overrides")
             if other in available]
    unique: dict = {}
    for names in sets:
        unique.setdefault(frozenset(names), names)
    return list(unique.values())


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


def _chosen(requests: list[str], available: dict[str, Variant], ruleset_file: str) -> list[tuple[Variant, dict]]:
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
            values[target["id"]] = _typed(target, raw, where)
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


# ------------------------------------------------------------------------------ places of patched values
class OverlayDoc(YamlDoc):
    """Where the parts of one key of an item come from, after a variant set a part inside it.

    Paths under `sub` are the variant's value (`target`); every other path is the key as it was
    (`base`, itself possibly an overlay of an earlier patch)."""

    def __init__(self, base: tuple, sub: tuple, target: tuple):
        super().__init__(file=target[0].file, data=None)
        self.base, self.sub, self.target = base, tuple(sub), target

    def _resolve(self, path) -> tuple:
        path = tuple(path)
        if path[:len(self.sub)] == self.sub:
            doc, at = self.target
            return doc, tuple(at) + path[len(self.sub):]
        doc, at = self.base
        return doc, tuple(at) + path

    def position(self, path, key: bool = False) -> Position:
        doc, at = self._resolve(path)
        return doc.position(at, key=key)

    def text_origin(self, path) -> TextOrigin:
        doc, at = self._resolve(path)
        return doc.text_origin(at)

    def data_at(self, path):
        doc, at = self._resolve(path)
        return doc.data_at(at)


class SpliceOrigin(TextOrigin):
    """A rule text rewritten at a label: every character is located in the file it came from."""

    def __init__(self, text: str, places: list, file: str):
        super().__init__(file, 1, 1)
        self.new_text = text
        self.places = places  # per character of `text`: (origin, text of that origin, offset in it)

    def locate(self, line: int, col: int) -> Position:
        from ..text.yaml_source import _offset
        if not self.places:
            return Position(self.file, 1, 1)
        offset = min(_offset(self.new_text, line, col), len(self.places) - 1)
        origin, text, at = self.places[offset][:3]
        at_line = text.count("\n", 0, at) + 1
        at_col = at - (text.rfind("\n", 0, at) + 1) + 1
        return origin.locate(at_line, at_col)


class SpliceDoc(YamlDoc):
    """The place of a rule text a variant rewrote at a label (the variant's value stands for the whole)."""

    def __init__(self, origin: SpliceOrigin, value: tuple):
        super().__init__(file=value[0].file, data=None)
        self.origin, self.value = origin, value

    def position(self, path, key: bool = False) -> Position:
        doc, at = self.value
        return doc.position(at, key=key)

    def text_origin(self, path) -> TextOrigin:
        if not tuple(path):
            return self.origin
        doc, at = self.value
        return doc.text_origin(at)

    def data_at(self, path):
        return None


# ------------------------------------------------------------------------------ what each patch touches
@dataclass(frozen=True)
class Touch:
    """What one patch (or parameter) of a variant changes: an item, a path inside it, a label in a text there."""

    variant: str
    section: str
    id: str
    path: tuple = ()  # () = the whole item
    labels: frozenset = frozenset()  # the label set, with the labels inside it and around it
    where: Position = field(default=Position(""), compare=False)
    parameter: bool = False

    def overlaps(self, other: "Touch") -> bool:
        if (self.section, self.id) != (other.section, other.id):
            return False
        n = min(len(self.path), len(other.path))
        if self.path[:n] != other.path[:n]:
            return False
        if self.labels and other.labels and self.path == other.path:
            return bool(self.labels & other.labels)
        return True

    def describe(self) -> str:
        if self.parameter and self.section == "constants":
            return f"the constant '{self.id}'"
        what = self.id if self.section not in SCALARS else ""
        text = f"{self.section} {what!r}" if what else self.section
        if self.path:
            text += " " + ".".join(map(str, self.path))
        if self.labels:
            text += " at @" + sorted(self.labels)[0] if len(self.labels) == 1 else " (labelled parts)"
        return text


def _item_def(section: str) -> str | None:
    from .sections import BY_NAME
    return BY_NAME[section].item_def if section in BY_NAME else None


def _item_schema(section: str) -> dict:
    full = schema("ruleset")
    if section in SCALARS:
        sub = full["properties"][section]
    elif _item_def(section):
        sub = full["$defs"][_item_def(section)]
    else:
        sub = full["properties"][section]["items"]
    return dict(sub, **{"$defs": full["$defs"]})


def _keys_of(section: str) -> list[str]:
    sub = _item_schema(section)
    while "$ref" in sub and not sub.get("properties"):
        sub = schema("ruleset")["$defs"][sub["$ref"].rsplit("/", 1)[1]]
    return list(sub.get("properties", {}))


def _requires_source(section: str) -> bool:
    return "source" in (_item_schema(section).get("required") or [])


def _programs(section: str) -> frozenset:
    from .sections import BY_NAME
    return BY_NAME[section].programs if section in BY_NAME else frozenset()


# ------------------------------------------------------------------------------ applying
def apply_variants(docs: list[YamlDoc], entries: list, requests: list[str], errors: Collector,
                   budget: files.Budget | None = None):
    """Apply the requested variants to the ruleset's entries.

    Returns (entries, scalar sections set by variants, the names as requested). The variants are
    applied in `application_order`, whatever the order requested: the result is the same."""
    root = Path(docs[0].file).resolve().parent
    available = find_variants(root, errors, budget) if requests else {}
    errors.raise_if_errors()  # a variant file that cannot be read: say why, not "no such variant"
    chosen = _chosen(requests, available, docs[0].file)
    names = {v.id for v, _ in chosen}
    for variant, _ in chosen:
        check_relations(variant, available, errors)
        for j, need in enumerate(variant.data.get("requires", [])):
            if need in available and need not in names:
                errors.error(variant.doc.position(("requires", j)), f"variant '{variant.id}' requires variant '{need}'",
                             f"add --variant {need}")
        for j, other in enumerate(variant.data.get("conflicts", [])):
            if other in names:
                errors.error(variant.doc.position(("conflicts", j)), f"variant '{variant.id}' conflicts with '{other}'",
                             "switch on one of them only")
    errors.raise_if_errors()
    requested = [v.id for v, _ in chosen]
    chosen = application_order(chosen, errors)
    errors.raise_if_errors()
    patcher = Patcher(docs[0], list(entries), errors)
    for variant, values in chosen:
        patcher.apply(variant, values)
    patcher.check_overlaps({v.id: v for v, _ in chosen})
    scalars: dict = {}
    if patcher.limits:
        scalars["limits"] = patcher.limits
    if patcher.scoring_changed:
        scalars["scoring"] = patcher.scoring
    return patcher.entries, scalars, requested


class Patcher:
    """Applies the patches of variants, in order, to a ruleset's entries, recording what each touches."""

    def __init__(self, main: YamlDoc, entries: list, errors: Collector):
        self.main, self.entries, self.errors = main, entries, errors
        self.limits: dict = {}
        self.scoring = Entry("scoring", main, ("scoring",), main.data.get("scoring") or {}) \
            if isinstance(main.data.get("scoring"), dict) else None
        self.scoring_changed = False
        self.touches: list[Touch] = []

    # -- finding items
    def _index(self) -> dict:
        return {(e.section, e.item.get("id")): n for n, e in enumerate(self.entries)}

    def _ids(self, section: str) -> list[str]:
        return [e.item.get("id") for e in self.entries if e.section == section]

    def apply(self, variant: Variant, values: dict) -> None:
        self.variant = variant
        for i, op in enumerate(variant.data.get("patch", [])):
            self._op(i, op)
        index = self._index()
        for i, p in enumerate(variant.parameters):
            # a parameter is a constant; one of the ruleset's constants with its name is overridden
            item = {"id": p["id"], "value": values[p["id"]], "description": p.get("description", "")}
            if variant.citation() is not None:
                item["source"] = variant.citation()  # the value in force is the variant's
            entry = Entry("constants", variant.doc, ("parameters", i), item)
            self.touches.append(Touch(variant.id, "constants", p["id"], (), where=variant.doc.position(("parameters", i)),
                                      parameter=True))
            if ("constants", p["id"]) in index:
                self.entries[index[("constants", p["id"])]] = entry
            else:
                self.entries.append(entry)
                index[("constants", p["id"])] = len(self.entries) - 1

    def check_overlaps(self, variants: dict[str, Variant]) -> None:
        """Two variants touching the same thing must say how they relate (requires, conflicts, overrides)."""
        reported = set()
        for j, later in enumerate(self.touches):
            for earlier in self.touches[:j]:
                if earlier.variant == later.variant or not earlier.overlaps(later):
                    continue
                a, b = variants[earlier.variant], variants[later.variant]
                if a.names_variant(b.id) or b.names_variant(a.id) or (a.id, b.id) in reported:
                    continue
                reported.add((a.id, b.id))
                if earlier.parameter and later.parameter:
                    message = f"variants '{a.id}' and '{b.id}' both declare the parameter '{later.id}'"
                else:
                    message = f"variants '{a.id}' and '{b.id}' both change {later.describe()}"
                self.errors.error(later.where, message,
                                  f"the other change is at {earlier.where}. If '{b.id}' builds on '{a.id}', add "
                                  f"`overrides: [{a.id}]` (or `requires:`) to '{b.id}', or the other way round; if "
                                  f"they cannot be played together, add `conflicts: [{a.id}]`")

    # -- one patch operation
    def _op(self, i: int, op: dict) -> None:
        kind, section = op["op"], op["section"]
        doc, at = self.variant.doc, ("patch", i)
        label = op.get("label")
        if isinstance(label, str):
            label = label.lstrip("@")
        if section == "limits":
            if kind != "set" or "key" not in op or label:
                self.errors.error(doc.position(at), "limits can only be changed key by key with op: set")
                return
            keys = _keys_of("limits")
            if op["key"] not in keys:
                self.errors.error(doc.position(at + ("key",)), f"limits have no key '{op['key']}'",
                                  did_you_mean(op["key"], keys) or "keys of limits: " + ", ".join(keys))
                return
            self.limits[op["key"]] = op.get("value")
            self.touches.append(Touch(self.variant.id, "limits", "limits", (op["key"],), where=doc.position(at)))
            return
        if section == "scoring":
            if kind not in ("set", "remove") or (kind == "remove" and not label) or self.scoring is None:
                self.errors.error(doc.position(at), "scoring can only be changed key by key (op: set), or at a label",
                                  None if self.scoring is not None else "this ruleset has no scoring to change")
                return
            new = self._set(self.scoring, "scoring", "scoring", op, at, label)
            if new is not None:
                self.scoring, self.scoring_changed = new, True
            return
        index = self._index()
        target = op.get("id")
        if kind in ("replace", "remove", "set"):
            if target is None:
                self.errors.error(doc.position(at), f"op {kind} needs the id of the item")
                return
            if (section, target) not in index:
                self.errors.error(doc.position(at + ("id",)), f"no {section} item '{target}' to {kind}",
                                  did_you_mean(target, self._ids(section)))
                return
        for extra in ("key", "label"):
            if extra in op and kind in ("add", "replace"):
                self.errors.error(doc.position(at + (extra,)), f"op {kind} takes the whole item; `{extra}` is for op set"
                                  + (" and remove" if extra == "label" else ""))
                return
        if kind == "remove" and label is None:
            if "key" in op:
                self.errors.error(doc.position(at + ("key",)), "op remove takes away a whole item, or a labelled statement",
                                  "to change one key, use op: set")
                return
            self.touches.append(Touch(self.variant.id, section, target, (), where=doc.position(at)))
            del self.entries[index[(section, target)]]
        elif kind in ("add", "replace"):
            self._add_or_replace(kind, section, target, op, at, index)
        else:  # set, or remove at a label
            n = index[(section, target)]
            new = self._set(self.entries[n], section, target, op, at, label)
            if new is not None:
                self.entries[n] = new

    def _add_or_replace(self, kind: str, section: str, target, op: dict, at: tuple, index: dict) -> None:
        doc = self.variant.doc
        value = op.get("value")
        if not isinstance(value, dict):
            self.errors.error(doc.position(at + ("value",)), f"op {kind} needs the whole item as value",
                              "a mapping with the item's id and keys" + (
                                  "; to change one key of it, use op: set with key" if kind == "replace" else ""))
            return
        if "source" not in value and _requires_source(section) and self.variant.citation() is not None:
            value = dict(value, source=self.variant.citation())  # a rule the variant brings cites the variant
        if not self._check_item(at + ("value",), (), section, value):
            return
        entry = Entry(section, doc, at + ("value",), value)
        if kind == "replace":
            if value.get("id") != target:
                self.errors.error(doc.position(at + ("value", "id")), f"the replacement's id must be '{target}'")
                return
            self.touches.append(Touch(self.variant.id, section, target, (), where=doc.position(at)))
            self.entries[index[(section, target)]] = entry
            return
        if (section, value.get("id")) in index:
            self.errors.error(doc.position(at + ("value", "id")), f"{section} already has an item '{value.get('id')}'",
                              "use op: replace to change it")
            return
        self.touches.append(Touch(self.variant.id, section, value.get("id"), (), where=doc.position(at)))
        anchor = op.get("after") or op.get("before")
        if anchor is None:
            last = max((n for n, e in enumerate(self.entries) if e.section == section), default=len(self.entries) - 1)
            self.entries.insert(last + 1, entry)
        elif (section, anchor) not in index:
            self.errors.error(doc.position(at + ("after" if op.get("after") else "before",)),
                              f"no {section} item '{anchor}'", did_you_mean(anchor, self._ids(section)))
        else:
            self.entries.insert(index[(section, anchor)] + (1 if op.get("after") else 0), entry)

    # -- set: a key, a key inside it, a label
    def _key_path(self, section: str, target: str, item: dict, key, at: tuple) -> tuple | None:
        """The key path `a.b.0` checked against the item: the first key must be one its section allows,
        every later one must be in the item."""
        doc = self.variant.doc
        name = f"{section} item '{target}'" if section not in SCALARS else section
        parts = str(key).split(".")
        if not all(KEY_PART.match(p) for p in parts):
            self.errors.error(doc.position(at + ("key",)), f"'{key}' is not a key",
                              "a key, or keys inside it separated by dots: effect, params.victim, tiebreak.0")
            return None
        allowed = _keys_of(section)
        if parts[0] not in allowed:
            present = [k for k in item if k in allowed]
            hint = did_you_mean(parts[0], present) or did_you_mean(parts[0], allowed) or (
                f"its keys: {', '.join(present)}" + (f"; others allowed: {', '.join(k for k in allowed if k not in present)}"
                                                     if len(present) < len(allowed) else ""))
            self.errors.error(doc.position(at + ("key",)), f"{name} has no key '{parts[0]}'", hint)
            return None
        path: list = [parts[0]]
        value = item.get(parts[0])
        for part in parts[1:]:
            here = ".".join(map(str, path))
            if isinstance(value, dict):
                found = part if part in value else (int(part) if part.isdigit() and int(part) in value else None)
                if found is None:
                    self.errors.error(doc.position(at + ("key",)), f"{name} has no '{part}' in {here}",
                                      did_you_mean(part, [str(k) for k in value]) or
                                      f"{here} holds: {', '.join(map(str, value)) or 'nothing'}")
                    return None
            elif isinstance(value, list):
                found = int(part) if part.isdigit() else None
                if found is None or found >= len(value):
                    self.errors.error(doc.position(at + ("key",)), f"{name}: {here} has no entry {part}",
                                      f"{here} is a list of {len(value)}: its entries are 0 to {len(value) - 1}"
                                      if value else f"{here} is empty")
                    return None
            else:
                self.errors.error(doc.position(at + ("key",)), f"{name}: {here} holds no keys",
                                  f"set {here} itself")
                return None
            path.append(found)
            value = value[found]
        return tuple(path)

    def _where(self, entry, path: tuple) -> tuple:
        """(document, path) of the value at `path` inside the entry's item, as the loader will see it."""
        if path and path[0] in entry.overrides:
            doc, at = entry.overrides[path[0]]
            return doc, tuple(at) + tuple(path[1:])
        return entry.doc, tuple(entry.path) + tuple(path)

    def _set(self, entry, section: str, target: str, op: dict, at: tuple, label: str | None):
        doc = self.variant.doc
        item = copy.deepcopy(entry.item)
        if label is not None:
            found = self._find_label(entry, section, target, op, at, label)
            if found is None:
                return None
            path, text, found_label, program, covers = found
            new_text, places = self._rewrite(text, found_label, program, op, at, entry, path)
            if new_text is None:
                return None
            value = new_text
        else:
            if op["op"] != "set" or "key" not in op:
                self.errors.error(doc.position(at), f"op {op['op']} needs a key" if op["op"] == "set" else
                                  "op remove takes away a whole item, or a labelled statement")
                return None
            path = self._key_path(section, target, item, op["key"], at)
            if path is None:
                return None
            value, covers, places = op.get("value"), frozenset(), None
        container = item
        for part in path[:-1]:
            container = container[part]
        container[path[-1]] = value
        if label is None and not self._check_item(at + ("value",), path, section, item):
            return None
        if places is not None:
            origin = SpliceOrigin(value, places, doc.file)
            place = (SpliceDoc(origin, (doc, at + ("value",) if "value" in op else at)), ())
            if not self._parses(value, program, origin):
                return None
        else:
            place = (doc, at + ("value",))
        overrides = dict(entry.overrides)
        if len(path) == 1:
            overrides[path[0]] = place
        else:
            base = entry.overrides.get(path[0]) or (entry.doc, tuple(entry.path) + (path[0],))
            overrides[path[0]] = (OverlayDoc(base, path[1:], place), ())
        self.touches.append(Touch(self.variant.id, section, target, path, covers, where=doc.position(at)))
        return Entry(section, entry.doc, entry.path, item, overrides)

    def _check_item(self, value_at: tuple, path: tuple, section: str, item) -> bool:
        """Validate one patched item against the ruleset schema; errors point at the variant's value."""
        import jsonschema
        from .schemas import _describe, inlined
        doc = self.variant.doc
        ok = True
        for error in jsonschema.Draft202012Validator(_item_schema(section)).iter_errors(item):
            ok = False
            where = tuple(error.absolute_path)
            rest = where[len(path):] if where[:len(path)] == tuple(path) else ()
            message, hint, about_key = _describe(error, inlined("ruleset"))
            self.errors.error(doc.position(value_at + rest, key=about_key), message, hint)
        return ok

    # -- labels
    def _find_label(self, entry, section: str, target: str, op: dict, at: tuple, label: str):
        """The text holding @label in the item: (path, text, label, program?, labels it covers)."""
        from ..lang.parser import labels as labels_in
        doc = self.variant.doc
        name = f"{section} item '{target}'" if section not in SCALARS else section
        item = entry.item
        if "key" in op:
            path = self._key_path(section, target, item, op["key"], at)
            if path is None:
                return None
            candidates = [(path, self._value_at(item, path))]
            if not isinstance(candidates[0][1], str):
                self.errors.error(doc.position(at + ("key",)), f"{name}: {op['key']} is not a rule text",
                                  "a label names a statement or expression of a rule text")
                return None
        else:
            candidates = [(path, text) for path, text in _texts(item, ())
                          if not (section == "constants" and path[0] == "value")]  # a constant's value is data
        every: dict[str, list] = {}
        for path, text in candidates:
            program = path[0] in _programs(section)
            wdoc, wpath = self._where(entry, path)
            try:
                found = labels_in(text, program, wdoc.text_origin(wpath))
            except LegesError:
                continue  # the text itself is broken: the ruleset's check reports it
            for lab in found:
                every.setdefault(lab.name, []).append((path, text, lab, program, found))
        places = every.get(label, [])
        if not places:
            hint = did_you_mean(label, every) or (
                f"labels of {name}: " + ", ".join("@" + n for n in sorted(every)) if every else
                f"{name} has no labels: set a whole key (op: set with key), or label the statement or expression "
                "in the ruleset (`@name statement`, `@name(expression)`)")
            self.errors.error(doc.position(at + ("label",)), f"no label '@{label}' in {name}", hint)
            return None
        if len(places) > 1:
            keys = sorted({".".join(map(str, p[0])) for p in places})
            self.errors.error(doc.position(at + ("label",)), f"label '@{label}' appears {len(places)} times in {name}"
                              + (f" ({', '.join(keys)})" if len(keys) > 1 else ""),
                              "name the key with `key:`" if len(keys) > 1 else "each label of a rule text must be unique")
            return None
        path, text, lab, program, found = places[0]
        covers = frozenset(other.name for other in found
                           if other.start <= lab.start < other.end or lab.start <= other.start < lab.end)
        return path, text, lab, program, covers

    @staticmethod
    def _value_at(item, path: tuple):
        value = item
        for part in path:
            value = value[part]
        return value

    def _rewrite(self, text: str, lab, program: bool, op: dict, at: tuple, entry, path: tuple):
        """The text with what @label labels replaced by the op's value (or removed), and where each character came from."""
        doc = self.variant.doc
        wdoc, wpath = self._where(entry, path)
        old_origin = wdoc.text_origin(wpath)
        if op["op"] == "remove":
            if lab.kind != "statement":
                self.errors.error(doc.position(at + ("label",)), f"'@{lab.name}' labels an expression, which cannot be removed",
                                  "set it to another expression")
                return None, None
            raw, value_origin = "pass", TextOrigin(doc.file, *_line_col_of(doc.position(at)))
        else:
            raw = op.get("value")
            if not isinstance(raw, str) or not raw.strip():
                self.errors.error(doc.position(at + ("value",) if "value" in op else at),
                                  f"'@{lab.name}' labels {'a statement' if lab.kind == 'statement' else 'an expression'}: "
                                  "the value must be rule text",
                                  "the new " + lab.kind + (f"; `@{lab.name}` in it stands for the old one"))
                return None, None
            value_origin = doc.text_origin(at + ("value",))
        old = [(old_origin, text, i) for i in range(len(text))]
        value = [(value_origin, raw, i) for i in range(len(raw))]
        inner_start, inner_end = lab.inner
        itself = old[inner_start:inner_end]  # what the label labels, unlabelled
        if lab.kind == "expression":
            plain = re.fullmatch(r"\s*[A-Za-z0-9_.]+\s*", text[inner_start:inner_end]) is not None
            body = _substitute(raw, value, lab.name, itself if plain else [_char("(", value)] + itself + [_char(")", value)])
            if body is None:
                self.errors.error(doc.position(at + ("value",)), f"'@{lab.name}' in the value must stand alone, "
                                  "without parentheses", f"write @{lab.name} where the old expression goes")
                return None, None
            new = [_char(c, value) for c in f"@{lab.name}("] + body + [_char(")", value)]
        else:
            indent = lab.col - 1
            lines = _lines(_strip_blank(value))
            common = min((len(_leading(line)) for line in lines if _str(line).strip()), default=0)
            lines = [line[common:] for line in lines]
            old_lines = _lines(itself)
            old_lines = [old_lines[0]] + [line[min(indent, len(_leading(line))):] for line in old_lines[1:]]
            out: list = []
            labelled = False  # the label stays with the old statement where the value names it, else goes first
            mark = [_char(c, value) for c in f"@{lab.name} "]
            for line in lines:
                if _str(line).strip() == "@" + lab.name:
                    pad = _leading(line)
                    out.append(pad + ([] if labelled else mark) + old_lines[0])
                    out += [pad + rest for rest in old_lines[1:]]
                    labelled = True
                elif _refers(_str(line), lab.name):
                    self.errors.error(doc.position(at + ("value",)), f"'@{lab.name}' stands for the old statement: "
                                      "write it alone on its line", "lines before and after it are added around it")
                    return None, None
                else:
                    out.append(line)
            new = [] if labelled else mark
            for j, line in enumerate(out):
                if j:
                    new.append(_char("\n", value))
                    new += [_char(" ", value)] * indent
                new += line
        places = old[:lab.start] + new + old[lab.end:]
        new_text = text[:lab.start] + "".join(_text_of(p) for p in new) + text[lab.end:]
        return new_text, places

    def _parses(self, text: str, program: bool, origin: TextOrigin) -> bool:
        from ..lang.parser import labels as labels_in
        try:
            found = labels_in(text, program, origin)
        except LegesError as exc:
            self.errors.extend(exc.diagnostics)
            return False
        seen: set = set()
        for lab in found:
            if lab.name in seen:
                self.errors.error(origin.locate(lab.line, lab.col), f"label '@{lab.name}' appears twice in this rule",
                                  "each label of a rule text must be unique")
                return False
            seen.add(lab.name)
        return True


# ------------------------------------------------------------------------------ text helpers
def _line_col_of(position: Position) -> tuple[int, int]:
    return position.line or 1, position.col or 1


def _texts(item, path: tuple):
    """(path, text) of every string inside an item that may be rule text."""
    if isinstance(item, dict):
        for k, v in item.items():
            if not path and k in NOT_RULE_TEXT:
                continue
            yield from _texts(v, path + (k,))
    elif isinstance(item, list):
        for i, v in enumerate(item):
            yield from _texts(v, path + (i,))
    elif isinstance(item, str) and path and "@" in item:
        yield path, item


def _char(c: str, like: list) -> tuple:
    """A character the rewrite adds: located where the value begins."""
    origin, text, _ = like[0] if like else (TextOrigin("", 1, 1), "", 0)
    return (origin, text, 0, c)


def _text_of(place: tuple) -> str:
    if len(place) == 4:
        return place[3]
    origin, text, i = place
    return text[i]


def _substitute(raw: str, places: list, name: str, replacement: list) -> list | None:
    """`places` (one per character of `raw`) with every `@name` outside strings and comments replaced;
    None when `@name(` is written (a new label of the same name)."""
    out: list = []
    i, quote = 0, None
    token = "@" + name
    while i < len(raw):
        ch = raw[i]
        if quote:
            if ch == "\\":
                out += places[i:i + 2]
                i += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            nl = raw.find("\n", i)
            nl = len(raw) if nl < 0 else nl
            out += places[i:nl]
            i = nl
            continue
        elif raw.startswith(token, i) and not re.match(r"[A-Za-z0-9_]", raw[i + len(token):i + len(token) + 1] or " "):
            rest = raw[i + len(token):].lstrip(" ")
            if rest.startswith("("):
                return None
            out += replacement
            i += len(token)
            continue
        out.append(places[i])
        i += 1
    return out


def _str(places: list) -> str:
    return "".join(_text_of(p) for p in places)


def _refers(raw: str, name: str) -> bool:
    """Whether `raw` names `@name` (outside strings and comments)."""
    marks = [None] * len(raw)
    out = _substitute(raw, list(range(len(raw))), name, marks[:1])
    return out is None or None in out


def _strip_blank(places: list) -> list:
    """Without the blank lines at the start and the end."""
    text = "".join(_text_of(p) for p in places)
    start = 0
    while True:
        nl = text.find("\n", start)
        if nl < 0 or text[start:nl].strip():
            break
        start = nl + 1
    end = len(text.rstrip())
    return places[start:end]


def _lines(places: list) -> list[list]:
    lines: list[list] = [[]]
    for p in places:
        if _text_of(p) == "\n":
            lines.append([])
        else:
            lines[-1].append(p)
    return lines


def _leading(line: list) -> list:
    n = 0
    while n < len(line) and _text_of(line[n]) == " ":
        n += 1
    return line[:n]
