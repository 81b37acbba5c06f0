"""Applying variants: each patch operation (add, replace, remove, set a key or a label) on the
ruleset's entries, in the variants' order, and the check that two variants touching one thing say
how they relate."""
from __future__ import annotations

import copy
import re
from pathlib import Path

from ...text import files
from ...text.errors import Collector, did_you_mean
from ...text.yaml_source import YamlDoc
from ..entries import Entry
from .catalogue import Variant, check_relations, find_variants
from .choice import application_order, chosen as chosen_variants
from .labels import LabelPatches
from .outside import resolve_paths
from .positions import OverlayDoc, SpliceDoc, SpliceOrigin
from .touch import SCALARS, Touch, item_schema, keys_of, requires_source

KEY_PART = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)$")


# ------------------------------------------------------------------------------ applying
def apply_variants(docs: list[YamlDoc], entries: list, requests: list[str], errors: Collector,
                   budget: files.Budget | None = None):
    """Apply the requested variants to the ruleset's entries.

    Returns (entries, scalar sections set by variants, the requests with their parameters, the variant files
    outside the ruleset that were read: outside.VariantFile). The variants are applied in
    `application_order`, whatever the order requested: the result is the same."""
    root = Path(docs[0].file).resolve().parent
    available = find_variants(root, errors, budget) if requests else {}
    errors.raise_if_errors()  # a variant file that cannot be read: say why, not "no such variant"
    requests, outside_files = resolve_paths(list(requests), available, errors, budget)
    errors.raise_if_errors()
    chosen = chosen_variants(requests, available, docs[0].file)
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
    # as requested, parameters and all (paths already named by their ids): what a record replays
    requested = list(dict.fromkeys(r.strip() for r in requests)) if chosen else []
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
    return patcher.entries, scalars, requested, outside_files


class Patcher(LabelPatches):
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
        """One patch operation: limits and scoring first (changed key by key), then the checks of an
        item's op (its id, the keys it may take) before it is applied; one branch a kind of mistake."""
        kind, section = op["op"], op["section"]
        doc, at = self.variant.doc, ("patch", i)
        label = op.get("label")
        if isinstance(label, str):
            label = label.lstrip("@")
        if section == "limits":
            if kind != "set" or "key" not in op or label:
                self.errors.error(doc.position(at), "limits can only be changed key by key with op: set")
                return
            keys = keys_of("limits")
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
            assert target is not None  # checked above, for replace, remove and set
            self.touches.append(Touch(self.variant.id, section, target, (), where=doc.position(at)))
            del self.entries[index[(section, target)]]
        elif kind in ("add", "replace"):
            self._add_or_replace(kind, section, target, op, at, index)
        else:  # set, or remove at a label
            assert target is not None  # checked above, for replace, remove and set
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
        if "source" not in value and requires_source(section) and self.variant.citation() is not None:
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
        allowed = keys_of(section)
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
            place: tuple[SpliceDoc | YamlDoc, tuple] = (SpliceDoc(origin, (doc, at + ("value",) if "value" in op else at)), ())
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
        from ..schemas import describe_error, inlined
        doc = self.variant.doc
        ok = True
        for error in jsonschema.Draft202012Validator(item_schema(section)).iter_errors(item):
            ok = False
            where = tuple(error.absolute_path)
            rest = where[len(path):] if where[:len(path)] == tuple(path) else ()
            message, hint, about_key = describe_error(error, inlined("ruleset"))
            self.errors.error(doc.position(value_at + rest, key=about_key), message, hint)
        return ok
