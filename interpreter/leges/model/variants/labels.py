"""Patching a rule text at a label: finding `@label` in an item's texts and rewriting what it labels,
each character of the result mapped back to where it came from."""
from __future__ import annotations

import re

from ...text.errors import Collector, LegesError, Position, did_you_mean
from ...text.origin import TextOrigin
from ..sections import rule_keys
from .catalogue import Variant
from .touch import SCALARS, programs_of


class LabelPatches:
    """The label half of `patch.Patcher`: what it needs of the patcher is `variant`, `errors`,
    `_key_path` and `_where`."""

    variant: Variant
    errors: Collector

    def _key_path(self, section: str, target: str, item: dict, key, at: tuple) -> tuple | None:  # patch.Patcher
        raise NotImplementedError

    def _where(self, entry, path: tuple) -> tuple:  # patch.Patcher
        raise NotImplementedError

    # -- labels
    def _find_label(self, entry, section: str, target: str, op: dict, at: tuple, label: str):
        """The text holding @label in the item: (path, text, label, program?, labels it covers)."""
        from ...lang.syntax.labels import labels as labels_in
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
            candidates = list(_texts(item, (), rule_keys(section)))
        every: dict[str, list] = {}
        for path, text in candidates:
            program = path[0] in programs_of(section)
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
            given = op.get("value")
            if not isinstance(given, str) or not given.strip():
                self.errors.error(doc.position(at + ("value",) if "value" in op else at),
                                  f"'@{lab.name}' labels {'a statement' if lab.kind == 'statement' else 'an expression'}: "
                                  "the value must be rule text",
                                  "the new " + lab.kind + (f"; `@{lab.name}` in it stands for the old one"))
                return None, None
            raw, value_origin = given, doc.text_origin(at + ("value",))
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
        from ...lang.syntax.labels import labels as labels_in
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


def _texts(item, path: tuple, keys: frozenset):
    """(path, text) of every string with a label inside the keys of an item that hold rule text."""
    if isinstance(item, dict):
        for k, v in item.items():
            if not path and k not in keys:
                continue
            yield from _texts(v, path + (k,), keys)
    elif isinstance(item, list):
        for i, v in enumerate(item):
            yield from _texts(v, path + (i,), keys)
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
