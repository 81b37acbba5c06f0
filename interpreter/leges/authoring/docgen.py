"""`leges doc`: a ruleset rendered as a readable Markdown rulebook, every rule with its citation.

Meant for translators and reviewers: read the encoded rules beside the printed ones. Under
variants (`leges doc --variant V`) the rules are the patched ones: every rule a variant changed
says so, cites the variant (its source or provenance) and keeps the citation it had before as
"before the change", and the variants' parameter values in force are listed.

Every text that comes from the ruleset (a title, a description, a quote, a display name, a rule text)
is a stranger's when the ruleset is a mod, and the Markdown is read in browsers and on forges:
prose carries no raw HTML (`<`, `>`, `&` as entities) and no link or image (`[`, `]` escaped), a
table cell no `|`, a one-line place no line break, and code spans and blocks are fenced longer than
any run of backticks inside them, so no text closes its fence.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..model.sections import citations

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ESCAPED = re.compile(r"[&<>\\\[\]]")
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")  # an author's `code`: its text is shown as written, no HTML


def _escaped(text: str) -> str:
    return _ESCAPED.sub(lambda m: _ENTITIES.get(m.group(), "\\" + m.group()), text)


def _md(text) -> str:
    """A ruleset's text as Markdown prose: HTML's `<`, `>`, `&` as entities, `\\`, `[`, `]` escaped (no
    link, no image) outside the author's code spans (whose text Markdown shows as written, HTML and
    all); a line that would open a code fence is escaped (it would swallow the rest of the document)."""
    lines = []
    for line in str(text).split("\n"):
        parts, at = [], 0
        for m in _CODE_SPAN.finditer(line):
            parts += [_escaped(line[at:m.start()]), m.group()]
            at = m.end()
        line = "".join(parts) + _escaped(line[at:])
        lines.append("\\" + line.lstrip() if line.lstrip().startswith(("~~~", "```")) else line)
    return "\n".join(lines)


def _line(text) -> str:
    """A ruleset's text where one line goes (a heading, a list item, a table cell): spaces for its line breaks."""
    return _md(" ".join(str(text).split())).replace("|", "\\|")


def _span(text, cell: bool = False) -> str:
    """A ruleset's text as a code span on one line: fenced by more backticks than it holds in a row."""
    text = " ".join(str(text).split())
    if cell:
        text = text.replace("|", "\\|")  # a table's cells split at '|' even inside code
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cite(item) -> str:
    parts = [part for _, c in citations(item) for part in _parts(c)]
    return "; ".join(parts) if parts else "(no citation)"


def _cite_source(src) -> str:
    """One citation (a `source` mapping) as text."""
    if not isinstance(src, dict):
        return "(no citation)"
    parts = [part for c in [src] + [c for c in src.get("also", []) if isinstance(c, dict)] for part in _parts(c)]
    return "; ".join(parts) if parts else "(no citation)"


def _parts(c: dict) -> list[str]:
    """The pieces of one citation: book § section — “quote”, the reading, the provenance, a note."""
    parts = []
    if "book" in c:
        parts.append(f"{_line(c['book'])} § {_line(c['section'])}" + (f" — “{_line(c['quote'])}”" if c.get("quote") else ""))
    if c.get("reading"):
        parts.append(f"reading {_span(c['reading'])}")
    if c.get("provenance"):
        p = c["provenance"]
        parts.append(f"{_line(p['status'])}" + (f" ({_line(p['confidence'])})" if p.get("confidence") else "")
                     + (f": {_line(p['note'])}" if p.get("note") else ""))
    if c.get("note"):
        parts.append(_line(c["note"]))
    return parts


class _Variants:
    """The variants a ruleset was loaded with, and what each changed (found by the files items come from)."""

    def __init__(self, rs):
        from ..text.errors import Collector
        from ..model.variants.catalogue import find_variants
        found = find_variants(Path(rs.root).resolve(), Collector()) if rs.variants else {}
        self.on = [found[v] for v in rs.variants if v in found]
        self.by_file = {v.doc.file: v for v in self.on}
        self.constants = [c for c in rs.constants if self.changes(c)]  # numbers a variant set or changed

    def uses(self, item) -> list:
        """The constants a variant set that this rule's texts name: its citation still quotes the
        rulebook's number ("two moves") while the rule runs with the variant's."""
        if not self.constants:
            return []
        texts = " ".join(_texts(vars(item)))
        return [c for c in self.constants if re.search(rf"(?<![\w.]){re.escape(c.id)}(?!\w)", texts)]

    def changes(self, item) -> list[tuple]:
        """(variant, what it did) for each variant that brought or changed this item."""
        out: dict = {}
        if item is None or not self.by_file:
            return []
        at = getattr(item, "at", None)
        if at is not None and at.file in self.by_file:
            out.setdefault(at.file, []).append("brings it" if at.path[:1] == ("patch",) else "sets it")
        for key, file in getattr(item, "patched", {}).items():
            if file in self.by_file:
                out.setdefault(file, []).append(key)
        return [(self.by_file[f], keys) for f, keys in out.items()]


def _texts(value) -> list[str]:
    """The rule texts inside an item's fields (conditions, effects, parameters' domains, ...)."""
    from ..model.decl import Text
    if isinstance(value, Text):
        return [value.text]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _texts(v)]
    return []


def _variant_lines(variants: _Variants, item) -> list[str]:
    lines = []
    for variant, keys in variants.changes(item):
        data = variant.data
        what = keys[0] if keys in (["brings it"], ["sets it"]) else "changes " + ", ".join(_span(k) for k in keys)
        citation = variant.citation()
        lines.append(f"*Variant* {_span(variant.id)} ({_line(data['kind']).replace('_', ' ')}) {what}: "
                     + (_cite_source(citation) if citation else "(the variant cites nothing)"))
    return lines


def _code(text) -> list[str]:
    if text is None:
        return []
    body = text.text.rstrip("\n")
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", body)), default=0))
    return [fence, body, fence]


_VARIANTS = None  # the variants of the ruleset being rendered (set by render)
_LANG = "en"  # the language of the phrases and display names shown (set by render; engine/words.py)


def _named(item) -> str:
    """` (its display name)` of a component or zone in the document's language, or nothing."""
    from ..engine.words import pick
    name = pick(item.name, _LANG) if isinstance(getattr(item, "name", None), dict) else None
    return f" ({_line(name)})" if name else ""


def _seat(game, name: str) -> str:
    """A seat as the document names it: its name (the text form rules and records use), its display
    name in the document's language where it differs, then those of the other languages given:
    `red` (hu “vörös”, ru “красный”)."""
    from ..engine.words import seat_called
    called = seat_called(game, name, _LANG)
    said = game.words.seats.get(name, {}) if game.words else {}
    others = [f"{_line(lang)} “{_line(text)}”" for lang, text in said.items() if lang != _LANG and text not in (called, name)]
    return _span(name) + (f" “{_line(called)}”" if called != name else "") + (f" ({', '.join(others)})" if others else "")


def _said(item, game) -> list[str]:
    """An action's or an event's phrase and the phrases of the choices a rule asks, in the document's language."""
    from ..engine.words import as_written, pick
    phrases = getattr(game, "words", None)
    if not phrases:
        return []
    out = []
    said = as_written(pick(phrases.actions.get(item.id), _LANG)) if item in game.ruleset.actions else None
    if item in game.ruleset.events:
        said = as_written(pick(phrases.events.get(item.id), _LANG))
    if said:
        out.append(f"- in words: “{_line(said)}”")
    for label in (getattr(item, "asks", None) or {}):
        said = as_written(pick(phrases.choices.get(label), _LANG))
        if said:
            out.append(f"- asks {_span(label)}, in words: “{_line(said)}”")
    return out


def _rule(lines: list[str], item, kind: str, extra: list[str] | None = None) -> None:
    lines.append(f"#### {kind} {_span(item.id)}")
    lines.append("")
    if item.description:
        lines.append(_md(item.description.strip()))
        lines.append("")
    variants = _VARIANTS  # set while a document is made (None: no variants)
    changed = _variant_lines(variants, item) if variants is not None else []
    own = "source" in getattr(item, "patched", {}) or any(
        keys in (["brings it"], ["sets it"]) for _, keys in (variants.changes(item) if changed and variants is not None else []))
    if changed and not own:  # the rule's text changed, its citation did not: cite the variant, keep the old one
        lines += [*changed, "", f"*Source before the change:* {_cite(item)}", ""]
    else:
        lines += [f"*Source:* {_cite(item)}", ""] + ([*changed, ""] if changed else [])
    uses = variants.uses(item) if variants is not None else []
    if uses and variants is not None:
        lines += ["*Numbers set by variants:* " + "; ".join(
            f"{_span(c.id)} = {_line(_value(c.value))} ({', '.join(f'variant {_span(v.id)}' for v, _ in variants.changes(c))})"
            for c in uses) + ". The quote above gives the rulebook's own.", ""]
    for line in extra or []:
        lines.append(line)


def _cell(item) -> str:
    """A table's source cell: the citation, and the variants that changed the item."""
    changed = _variant_lines(_VARIANTS, item) if _VARIANTS is not None else []
    return "; ".join([_cite(item)] + [x.replace("*Variant*", "variant") for x in changed])


def _value(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 120 else text[:117] + "..."


def render(game, lang: str | None = None) -> str:
    """The ruleset as a Markdown rulebook; `lang`: the language of its phrases and display names (default en)."""
    global _VARIANTS, _LANG
    rs = game.ruleset
    _VARIANTS = variants = _Variants(rs)
    _LANG = lang or "en"
    try:
        return _render(game, rs, variants)
    finally:
        _VARIANTS, _LANG = None, "en"


def _render(game, rs, variants: _Variants) -> str:
    out: list[str] = [f"# {_line(rs.title)}", ""]
    if rs.description:
        out += [_md(rs.description.strip()), ""]
    out += [f"Ruleset {_span(rs.id)} version {_line(rs.version)}" + (f", variants: {', '.join(_line(v) for v in rs.variants)}" if rs.variants else "")
            + f"; {rs.min_players}–{rs.max_players} players"
            + (" (" + ", ".join(_seat(game, str(s['name'])) for s in rs.seats[:rs.max_players]) + ")" if rs.seats else "") + ".", ""]
    out += ["Generated by `leges doc` from the ruleset; do not edit by hand.", ""]
    if variants.on:
        out += ["## Variants in force", ""]
        for v in variants.on:
            data = v.data
            citation = v.citation()
            out.append(f"- {_span(v.id)} ({_line(data['kind']).replace('_', ' ')}): {_line(data['title'])}. "
                       + (f"*Source:* {_cite_source(citation)}." if citation else "It cites nothing."))
            if data.get("description"):
                out.append(f"  {_line(data['description'])}")
            values = {c.id: c.value for c in rs.constants if c.at.file == v.doc.file}
            for p in v.parameters:
                shown = _value(values.get(p["id"], p["default"]))
                out.append(f"  - parameter {_span(p['id'])} = {_line(shown)}" + (f" (default {_line(_value(p['default']))})"
                                                                      if values.get(p["id"], p["default"]) != p["default"] else "")
                           + (f": {_line(p['description'])}" if p.get("description") else ""))
        out.append("")
    if rs.rulebooks:
        out += ["## Rulebooks", ""]
        out += [f"- {_span(b['id'])}: {_line(b.get('title', b['file']))} ({_span(b['file'])})" for b in rs.rulebooks]
        out.append("")
    if rs.constants:
        out += ["## Constants", "", "The numbers and lists the rules name; a variant's parameter is one of them.", "",
                "| constant | value | source |", "|---|---|---|"]
        for c in rs.constants:
            changed = _variant_lines(variants, c)
            cite = _cite(c) if c.source else ""
            if any(keys == ["sets it"] for _, keys in variants.changes(c)):  # a variant's parameter
                variant = variants.by_file[c.at.file]
                cite = f"parameter of variant {_span(variant.id)} ({_line(variant.data['kind']).replace('_', ' ')}): {cite}"
            elif changed:
                cite = "; ".join([x.replace("*Variant*", "variant") for x in changed] + ([f"before: {cite}"] if cite else []))
            out.append(f"| {_span(c.id, True)} | {_span(_value(c.value), True)} | {cite or '—'} |")
        out.append("")
    out += ["## Components", "", "| component | per player | how many | kinds | source |", "|---|---|---|---|---|"]
    for c in rs.components:
        count = c.count if not isinstance(c.count, dict) else ", ".join(f"{k} players: {v}" for k, v in c.count.items())
        kinds = "; ".join(", ".join(f"{k} {v}" for k, v in values.items()) + f" ×{cnt}" for values, cnt, _ in c.instances)
        out.append(f"| {_span(c.id, True)}{_named(c)} | {'yes' if c.per_player else 'no'} | {_line(count)} | {_line(kinds) or '—'} | {_cell(c)} |")
    out += ["", "## Zones", "", "| zone | kind | per player | seen by | source |", "|---|---|---|---|---|"]
    for z in rs.zones:
        out.append(f"| {_span(z.id, True)}{_named(z)}{f' ×{z.count}' if z.count else ''} | {_line(z.kind)} | {'yes' if z.per_player else 'no'} "
                   f"| {_line(z.visibility)} | {_cell(z)} |")
    if game.board is not None:
        b = game.board
        out += ["", "## Board", "", f"{_span(b.id)}: {_line(b.topology)} board of {len(b.spaces)} spaces"
                + (f"; areas: {', '.join(f'{_line(k)} ({len(v)})' for k, v in b.areas.items())}" if b.areas else "") + "."]
        if b.provenance:
            out.append(f"Provenance: {_line(b.provenance.get('status'))}"
                       + (f" — {_line(b.provenance.get('note'))}" if b.provenance.get("note") else ""))
    out += ["", "## Set-up", ""]
    for rule in rs.setup:
        _rule(out, rule, "Set-up", _said(rule, game) + _code(rule.effect) + [""])
    out += ["## Phases", ""]
    for ph in rs.phases:
        extra = _said(ph, game)
        if ph.first is not None:
            extra.append(f"- first player: {_span(ph.first.text)}")
        if ph.order is not None:
            extra.append(f"- order: {_span(ph.order.text)}")
        if ph.end_if is not None:
            extra.append(f"- ends when: {_span(ph.end_if.text)}")
        extra.append(f"- then: {_span(ph.next or 'end')}")
        extra.append("")
        for label, text in (("At its beginning", ph.on_begin), ("A turn", ph.turn), ("At its end", ph.on_end)):
            if text is not None:
                extra += [f"{label}:", ""] + _code(text) + [""]
        _rule(out, ph, "Phase", extra)
    out += ["## Actions", ""]
    for a in rs.actions:
        extra = _said(a, game)
        for name, text in a.params:
            extra.append(f"- choose {_span(name)} from {_span(text.text)}")
        if a.require is not None:
            extra.append(f"- allowed when {_span(a.require.text)}")
        if a.anytime:
            extra.append("- any player, at any decision (out of turn too)")
        if a.secret:
            extra.append("- secret: sealed from the others until the phase ends")
        extra.append("")
        extra += _code(a.effect) + [""]
        _rule(out, a, "Action", extra)
    if rs.events:
        out += ["## Events", "", "What `emit` fires and triggers listen to; one with words is told to the players as it happens.", ""]
        for e in rs.events:
            params = ", ".join(f"{_span(k)}: {_line(v)}" for k, v in e.params.items()) or "none"
            _rule(out, e, "Event", _said(e, game) + [f"- parameters: {params}", ""])
    if rs.triggers:
        out += ["## Triggers", ""]
        for t in rs.triggers:
            extra = [f"- on {_span(t.on)}" + (f" if {_span(t.condition.text)}" if t.condition else ""), ""]
            _rule(out, t, "Trigger", _said(t, game) + extra + _code(t.effect) + [""])
    if rs.procedures or rs.functions:
        out += ["## Procedures and functions", ""]
        for p in rs.procedures:
            _rule(out, p, "Procedure", _said(p, game) + [f"Parameters: {_line(', '.join(p.params)) or 'none'}", ""]
                  + _code(p.body) + [""])
        for f in rs.functions:
            _rule(out, f, "Function", [f"{_span(f'{f.id}(' + ', '.join(f.params) + ')')} = {_span(f.body.text)}", ""])
    if rs.scoring is not None:
        sc = rs.scoring
        out += ["## Winning", "", _md((sc.description or "").strip()), "", f"*Source:* {_cite(sc)}", "",
                f"- score of player `p`: {_span(sc.score.text)}"]
        out += [f"- then: {_span(t.text)}" for t in sc.tiebreak]
        out.append("")
    if rs.readings:
        out += ["## Readings", "", "Where the rulebook is silent, ambiguous or contradicts itself.", "",
                "| reading | kind | question | reading chosen | source |", "|---|---|---|---|---|"]
        for r in rs.readings:
            out.append(f"| {_span(r.id, True)} | {_line(r.kind or '')} | {_line(r.question or '')} | {_line(r.text)} | {_cell(r)} |")
        out.append("")
    if rs.invariants:
        out += ["## Invariants", ""]
        out += [f"- {_span(i.id)}: {_line(i.description or '')} — {_span(i.check.text)}" for i in rs.invariants]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def render_variants(variants) -> str:
    lines = []
    for v in variants.values():
        data = v.data
        lines.append(f"{v.id} ({data['kind']}): {data['title']}")
        if data.get("description"):
            lines.append("    " + " ".join(data["description"].split()))
        prov = data.get("provenance")
        if prov:
            lines.append(f"    provenance: {prov['status']}" + (f", {prov['confidence']} confidence" if prov.get("confidence") else "")
                         + (f" — {prov['note']}" if prov.get("note") else ""))
        for p in data.get("parameters", []):
            bounds = "" if "min" not in p and "max" not in p else f" ({p.get('min', '')}..{p.get('max', '')})"
            lines.append(f"    parameter {p['id']}: {p['type']}, default {p['default']}{bounds}"
                         + (f" — {p['description']}" if p.get("description") else ""))
        if data.get("requires"):
            lines.append(f"    requires: {', '.join(data['requires'])}")
        if data.get("conflicts"):
            lines.append(f"    conflicts with: {', '.join(data['conflicts'])}")
        if data.get("overrides"):
            lines.append(f"    overrides: {', '.join(data['overrides'])}")
    return "\n".join(lines)
