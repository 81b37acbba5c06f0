"""What the translators' report says of the items whose rule did not change: encoded the same, sharing
a passage with a change, or borrowed from the other rulebook.

A translator reads "said differently, encoded the same" as "nothing to check here", so nothing may land
there that is not so:
- an item whose quote shares a passage with a changed item's quote (a variable the changed action sets,
  a function reading it) belongs to that change, and is shown with it;
- a fact a rulebook does not state and the ruleset takes from another one (a citation whose
  `provenance` has `status: borrowed`, `from` naming that rulebook) is listed apart, as borrowed, with
  where it comes from;
- a rule the base already cites in both rulebooks (the other book's quote in `also`) is compared too,
  whether or not the author noted how the texts differ there (a `note` on that citation): identical
  citations on both sides do not hide a difference of wording. Without a note nobody has said the two
  texts agree, so such a rule is sorted like any other (with a change whose passages it shares, else
  said differently) and marked `unnoted`, listed after the rules the author did compare.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..model.sections import citations


@dataclass
class Quote:
    book: str
    section: str
    quote: str
    reading: str = ""
    note: str = ""
    borrowed: str = ""  # the provenance note of a fact taken from another rulebook
    borrowed_from: str = ""  # that rulebook (`provenance.from`)

    def head(self) -> str:
        return f"{self.book} § {self.section}".strip()


def quotes(item) -> list[Quote]:
    """An item's citations, each rulebook's quote (its `also` ones included)."""
    if item is None:
        return []
    out = []
    for _, c in citations(item):
        if "book" in c or c.get("reading"):
            given = c.get("provenance")
            prov: dict = given if isinstance(given, dict) else {}
            borrowed = str(prov.get("note") or "borrowed") if prov.get("status") == "borrowed" else ""
            out.append(Quote(str(c.get("book", "")), str(c.get("section", "")), str(c.get("quote", "") or ""),
                             str(c.get("reading", "") or ""), str(c.get("note", "") or ""), borrowed,
                             str(prov.get("from") or "") if borrowed else ""))
    return out


def fragments(qs: list[Quote], book: str) -> set[str]:
    """The passages a book's quotes join (split at "..."), normalised."""
    out = set()
    for q in qs:
        if q.book == book:
            out |= {" ".join(f.split()).strip(' "').lower() for f in re.split(r"\.\.\.|…", q.quote)}
    return {f for f in out if len(f) > 8}


def overlaps(a: set[str], b: set[str]) -> bool:
    """Two sets of passages share one: the same, or one within the other."""
    return any(x in y or y in x for x in a for y in b)


def books(rs_a, rs_b, items_a: dict, items_b: dict) -> tuple[str, str]:
    """The two sides' rulebooks: A's is the one its items cite first most often; B's the one B's changed
    citations cite most often besides it (A's again when there is none)."""
    first_a = Counter(qs[0].book for qs in (quotes(x) for x in items_a.values()) if qs and qs[0].book)
    book_a = first_a.most_common(1)[0][0] if first_a else ""
    other: Counter = Counter()
    for key, b in items_b.items():
        qa, qb = quotes(items_a.get(key)), quotes(b)
        if [vars(q) for q in qa] != [vars(q) for q in qb]:
            other.update(q.book for q in qb if q.book and q.book != book_a)
    book_b = other.most_common(1)[0][0] if other else book_a
    return book_a, book_b


def column_quotes(qs: list[Quote], book: str) -> list[Quote]:
    """A side's quotes: those of its own rulebook, else those of the item's first cited book."""
    own = [q for q in qs if q.book == book]
    if own:
        return own
    cited = [q for q in qs if q.book]
    return [q for q in cited if q.book == cited[0].book] if cited else []


def sort_unchanged(candidates: list[tuple], changed: dict, book_a: str, book_b: str) -> dict:
    """The unchanged items whose citations a translator should see, sorted: `same` (said differently,
    encoded the same), `shared` ({changed key: [(section, id)]}: their passages ground a change) and
    `borrowed` (a fact this side's rulebook does not state)."""
    out: dict = {"same": [], "shared": {}, "borrowed": []}
    grounds = {k: (fragments(qa, book_a), fragments(qb, book_b)) for k, (qa, qb) in changed.items()}
    for section, key, qa, qb in candidates:
        if any(q.borrowed for q in qb):
            out["borrowed"].append((section, key, qa, qb))
            continue
        fa, fb = fragments(qa, book_a), fragments(qb, book_b)
        owner = next((k for k, (ga, gb) in grounds.items() if overlaps(fa, ga) or overlaps(fb, gb)), None)
        if owner is not None:
            out["shared"].setdefault(owner, []).append((section, key))
        else:
            out["same"].append((section, key, qa, qb))
    return out


def in_both(qa: list[Quote], qb: list[Quote], book_a: str, book_b: str) -> bool:
    """Citations that quote both rulebooks — A's book on A's side, B's on B's — so the two texts can be
    set side by side even where the citations are identical (B's quote an `also` of the base)."""
    return bool(book_a) and bool(book_b) and book_a != book_b and any(q.book == book_a for q in qa) and any(
        q.book == book_b for q in qb)


def noted(qa: list[Quote], qb: list[Quote], book_a: str, book_b: str) -> bool:
    """Both books quoted, and the author's note on the other book's quote says how its text differs."""
    return in_both(qa, qb, book_a, book_b) and any(q.book == book_b and q.note for q in qb)


def unnoted(qa: list[Quote], qb: list[Quote], book_a: str, book_b: str) -> bool:
    """Identical citations of both books with no note on B's text: compared by no one yet — the
    translator is the first to set the two texts side by side."""
    return [vars(q) for q in qa] == [vars(q) for q in qb] and in_both(qa, qb, book_a, book_b) \
        and not noted(qa, qb, book_a, book_b)
