"""`leges coverage`: which parts of a rulebook the ruleset encodes, which are marked as flavour, which not.

A rulebook's text is cut into sections (at the headings its citations and the ruleset name) and
each section into passages (the sentences of each line). A passage is covered when a
citation's quote lies in it, marked when a flavour mark of the rulebook names it, and missing
otherwise.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..model.sections import citations, declarations

BREAK = re.compile(r"(?<=[.!?:;])\s+")  # where a sentence may end: after its punctuation, before a space
# what may begin the next one, by Unicode category: a capital (Lu, Lt), a digit (Nd), an opening
# bracket or quotation mark (Ps, Pi), a dash (Pd) — in any script; and a straight double quote
STARTS = frozenset({"Lu", "Lt", "Nd", "Ps", "Pi", "Pd"})


def sentences(line: str) -> list[str]:
    """A line cut into sentences: at spaces after . ! ? : ; where the next character may begin a sentence."""
    pieces, start = [], 0
    for m in BREAK.finditer(line):
        following = line[m.end():m.end() + 1]
        if following and (following == '"' or unicodedata.category(following) in STARTS):
            pieces.append(line[start:m.start()])
            start = m.end()
    pieces.append(line[start:])
    return pieces


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


@dataclass
class Passage:
    start: int
    end: int
    text: str
    section: str = ""
    status: str = "missing"  # covered, marked, missing
    why: str = ""


@dataclass
class Report:
    book: str
    file: str
    passages: list[Passage] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)  # quotes and marks found nowhere in the text

    def count(self, status: str) -> int:
        return sum(1 for p in self.passages if p.status == status)


def _collapse(text: str) -> tuple[str, list[int]]:
    """The text lower-cased with runs of white space as one space, and where each character came from."""
    out: list[str] = []
    where: list[int] = []
    space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            if not space and out:
                out.append(" ")
                where.append(i)
            space = True
        else:
            out.append(ch.lower())
            where.append(i)
            space = False
    return "".join(out), where


def passages_of(text: str) -> list[Passage]:
    out = []
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        if not line.strip():
            continue
        pieces = sentences(line)
        pos = start
        for piece in pieces:
            i = text.find(piece, pos)
            if i < 0:
                continue
            pos = i + len(piece)
            if re.search(r"[^\W\d_]", piece):  # page numbers and the like are layout
                out.append(Passage(i, i + len(piece), piece.strip()))
    return out


def _find_all(flat: str, where: list[int], phrase: str) -> list[tuple[int, int]]:
    phrase = norm(phrase)
    spans: list[tuple[int, int]] = []
    k = 0
    if not phrase:
        return spans
    while True:
        k = flat.find(phrase, k)
        if k < 0:
            return spans
        spans.append((where[k], where[min(k + len(phrase), len(where)) - 1] + 1))
        k += len(phrase)


def _citations(game, book: str, extra_docs) -> list[dict]:
    rs = game.ruleset
    found = []
    items = list(declarations(rs))
    for item in items:
        for _, c in citations(item):
            if c.get("book") == book:
                found.append(c)
    for doc in rs.docs:  # sources outside declarations (players, ...)
        players = (doc.data or {}).get("players")
        if isinstance(players, dict):
            _walk_sources(players, book, found)
    for data in extra_docs:
        _walk_sources(data, book, found)
    return found


def _walk_sources(data, book: str, found: list) -> None:
    if isinstance(data, dict):
        src = data.get("source")
        if data.get("key") == "source" and isinstance(data.get("value"), dict):  # a variant's `op: set` of a source
            src = data["value"]
        if isinstance(src, dict):
            for c in [src, *src.get("also", [])]:
                if isinstance(c, dict) and c.get("book") == book:
                    found.append(c)
        for v in data.values():
            _walk_sources(v, book, found)
    elif isinstance(data, list):
        for v in data:
            _walk_sources(v, book, found)


def coverage(game, rulebook_path: str, book_id: str | None = None) -> Report:
    from ..text import files
    from ..text.yaml_source import load_yaml_file
    rs = game.ruleset
    name = Path(rulebook_path).name
    book = next((b for b in rs.rulebooks if b["id"] == book_id or (book_id is None and b["file"] == name)), None)
    if book is None:
        from ..text.errors import Diagnostic, LegesError, Position
        raise LegesError(Diagnostic(Position(rulebook_path), f"{rs.id} declares no rulebook for {name}",
                                    "rulebooks: " + ", ".join(f"{b['id']} ({b['file']})" for b in rs.rulebooks)))
    text = files.read_text(rulebook_path, files.MAX_TEXT_BYTES, what="rulebook")
    flat, where = _collapse(text)
    root = Path(rs.root)
    inside = [files.Root.of(root, "the ruleset's folder")]
    extra = [load_yaml_file(str(p), roots=inside).data for p in
             sorted((root / "variants").glob("*.yaml")) + sorted((root / "scenarios").glob("*.yaml"))]
    cites = _citations(game, book["id"], extra)
    report = Report(book["id"], rulebook_path, passages_of(text))
    # sections: the headings cited or declared, at their first place in the text
    headings = {c["section"] for c in cites if c.get("section")} | set(book.get("sections", [])) | {
        m["section"] for m in book.get("flavour", []) if m.get("section")}
    marks = sorted((_heading_place(flat, where, h, cites), h) for h in headings
                   if _find_all(flat, where, h))
    for p in report.passages:
        current = [h for s, h in marks if s <= p.start]
        p.section = current[-1] if current else ""

    def mark(spans, status, why):
        for a, b in spans:
            for p in report.passages:
                if p.start < b and a < p.end and (p.status == "missing" or status == "covered" and p.status == "marked"):
                    p.status, p.why = status, why

    for p in report.passages:  # headings and bare labels ("Example:", "Important:") are layout
        bare = norm(p.text).rstrip(":!. ")
        if bare in {norm(h).rstrip(":!. ") for h in headings} or (p.text.rstrip().endswith(":") and len(bare.split()) <= 2):
            p.status, p.why = "marked", "heading"
    for m in book.get("flavour", []):
        why = m["reason"]
        if m.get("quote"):
            for fragment in re.split(r"\.\.\.|…", m["quote"]):
                mark(_find_all(flat, where, fragment.strip(' "')), "marked", why)
        elif m.get("from") and m.get("to"):
            a, b = _find_all(flat, where, m["from"]), _find_all(flat, where, m["to"])
            if a and b:
                mark([(a[0][0], max(e for _, e in b if e >= a[0][0]) if any(e >= a[0][0] for _, e in b) else a[0][1])],
                     "marked", why)
        elif m.get("section"):
            mark([(p.start, p.end) for p in report.passages if p.section == m["section"]], "marked", why)
    for c in cites:
        for fragment in re.split(r"\.\.\.|…", c.get("quote", "")):
            spans = _find_all(flat, where, fragment.strip(' "'))
            if fragment.strip(' "') and not spans:
                report.unmatched.append(f"quote of § {c.get('section', '?')}: '{fragment.strip()}'")
            mark(spans, "covered", "cited")
    for m in book.get("flavour", []):
        for key in ("quote", "from", "to", "section"):
            for fragment in re.split(r"\.\.\.|…", m.get(key, "")) if m.get(key) else []:
                if fragment.strip(' "') and not _find_all(flat, where, fragment.strip(' "')):
                    report.unmatched.append(f"flavour {key}: '{fragment.strip()}'")
    return report


def _heading_place(flat: str, where: list[int], heading: str, cites: list[dict]) -> int:
    """Where a section begins: the heading's last occurrence before the first passage cited under it."""
    places = [a for a, _ in _find_all(flat, where, heading)]
    quoted = [a for c in cites if c.get("section") == heading
              for fragment in re.split(r"\.\.\.|…", c.get("quote", "")) if fragment.strip(' "')
              for a, _ in _find_all(flat, where, fragment.strip(' "'))[:1]]
    if quoted:
        before = [a for a in places if a <= min(quoted)]
        if before:
            return before[-1]
    return places[0]


# ------------------------------------------------------------- which section a place lies in
def heading_places(text: str, headings) -> list[tuple[int, str]]:
    """Where each heading stands in a rulebook's text as a heading, sorted: every occurrence as written
    (case kept, runs of white space as one space), not inside a word, and not a cross-reference — not
    after "(" or "lásd "/"см." and not followed by ")". Found from the text alone, never from the
    quotes, so that a quote can be checked against the section it names."""
    flat = re.sub(r"\s+", " ", text)
    out = []
    for h in set(headings):
        h_flat = re.sub(r"\s+", " ", h).strip()
        if not h_flat:
            continue
        for m in re.finditer(re.escape(h_flat), flat):
            a, e = m.start(), m.end()
            if a and flat[a - 1].isalnum() or e < len(flat) and flat[e].isalnum() and h_flat[-1].isalnum():
                continue
            before = flat[max(0, a - 6):a].lower()
            if before.endswith(("(", "lásd ", "см. ")) or flat[e:e + 1] == ")":
                continue
            out.append((a, h))
    return sorted(out)


def section_numbers(heading: str) -> str | None:
    """The number a numbered heading begins with ("5.5.2 A templomok" → "5.5.2")."""
    m = re.match(r"(\d+(?:\.\d+)*)\b", heading.strip())
    return m.group(1) if m else None


def within_section(found: str | None, cited: str) -> bool:
    """A place under heading `found` is in section `cited`: the same heading, or a numbered subsection
    of it (5.5.2 lies in 5.5; a subsection of 5.0 lies in 5.0)."""
    if found is None:
        return False
    if found == cited:
        return True
    a, b = section_numbers(found), section_numbers(cited)
    if not a or not b:
        return False
    parent = b[:-2] if b.endswith(".0") else b
    return a.startswith(parent + ".")


def sections_of_quote(text: str, places: list[tuple[int, str]], fragment: str) -> list[str | None]:
    """The sections (by heading) in which a quoted fragment occurs, once per occurrence."""
    flat = re.sub(r"\s+", " ", text).lower()
    phrase = norm(fragment)
    out, k = [], 0
    while phrase:
        k = flat.find(phrase, k)
        if k < 0:
            break
        before = [h for a, h in places if a <= k]
        out.append(before[-1] if before else None)
        k += len(phrase)
    return out
