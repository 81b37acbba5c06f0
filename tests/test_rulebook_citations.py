"""Every citation of a rulebook names a section that exists and quotes words that are there.

The rulebooks live beside the project (../shared/rulebooks); without them these tests skip.
"""
from __future__ import annotations

import re

import pytest

from helpers import ROOT, SHARED, dicts_in
from leges.model.loader import load_declarations

RULESETS = ["pompeii", "attika", "alexander"]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _sources(rs):
    from leges.model.sections import citations
    for item in [*rs.components, *rs.zones, *rs.variables, *rs.functions, *rs.procedures, *rs.setup,
                 *rs.phases, *rs.actions, *rs.triggers, *rs.readings, *rs.invariants, *rs.constants,
                 *([rs.scoring] if rs.scoring else [])]:
        for _, source in citations(item):
            yield item, source


@pytest.mark.parametrize("name", RULESETS)
def test_every_citation_is_in_the_rulebook(name):
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / name))
    books = {b["id"]: SHARED / "rulebooks" / b["file"] for b in rs.rulebooks}
    if not all(p.exists() for p in books.values()):
        pytest.skip("the rulebooks are not beside the project (../shared/rulebooks)")
    texts = {k: _norm(p.read_text(encoding="utf-8")) for k, p in books.items()}
    problems = []
    for item, source in _sources(rs):
        book = source.get("book")
        if book is None:
            continue
        text = texts[book]
        where = f"{item.at.position()} ({item.id})"
        if _norm(source["section"]) not in text:
            problems.append(f"{where}: no section '{source['section']}' in {books[book].name}")
        for fragment in re.split(r"\.\.\.|…", source.get("quote", "")):
            fragment = _norm(fragment.strip(' "'))
            if fragment and fragment not in text:
                problems.append(f"{where}: quote not found: '{fragment}'")
    assert not problems, "\n".join(problems)


def _readings_cited(data, out: set) -> None:
    """Every `reading` named by a `source` anywhere in a YAML document (not a reading's own)."""
    for d in dicts_in(data):
        source = d.get("source")
        if isinstance(source, dict) and source.get("reading") and "text" not in d:
            out.add(source["reading"])


@pytest.mark.parametrize("name", RULESETS)
def test_every_reading_is_cited_by_a_rule(name):
    import yaml
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / name))
    cited: set = set()
    for doc in rs.docs:
        _readings_cited(doc.data, cited)
    for path in (ROOT / "rulesets" / name / "variants").glob("*.yaml"):
        _readings_cited(yaml.safe_load(path.read_text()), cited)
    unused = [r.id for r in rs.readings if r.id not in cited]
    assert rs.readings and not unused, f"readings no rule cites: {unused}"


@pytest.mark.parametrize("name, rulebook, book", [
    ("attika", "attika.hu.txt", "hu"),
    ("alexander", "alexander.hu.txt", "hu"),
    ("pompeii", "pompeii.hu.txt", "hu"),
    ("pompeii", "pompeii.ru.txt", "ru"),
])
def test_rulebook_is_covered(name, rulebook, book):
    """Every passage of the rulebook is cited by a rule or marked as flavour, and every quote and
    mark is found in it (`leges coverage` exits 0). The book id is passed: a ruleset may cite
    several rulebooks (Pompeii: hu and its Russian translation ru)."""
    import leges
    from leges.coverage import coverage
    path = SHARED / "rulebooks" / rulebook
    if not path.exists():
        pytest.skip("the rulebooks are not beside the project (../shared/rulebooks)")
    report = coverage(leges.load(str(ROOT / "rulesets" / name)), str(path), book)
    missing = [f"[{p.section or 'before the first section'}] {p.text}" for p in report.passages if p.status == "missing"]
    assert not missing, "passages neither cited nor marked:\n" + "\n".join(missing)
    assert not report.unmatched, "quotes or marks found nowhere in the rulebook:\n" + "\n".join(report.unmatched)
