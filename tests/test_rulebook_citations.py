"""Every citation of a rulebook names a section that exists and quotes words that are there — in
that section, not just anywhere in the book.

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


def _citations_in_files(folder):
    """Every rulebook citation written anywhere in a ruleset's folder — its rules (with their `also`
    citations), the players' source, its variants' patches, its scenarios — with the file it is in."""
    import yaml
    for path in sorted(folder.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for d in dicts_in(data):
            src = d.get("source")
            if d.get("key") == "source" and isinstance(d.get("value"), dict):  # a variant's `op: set` of a source
                src = d["value"]
            if isinstance(src, dict):
                for c in [src, *src.get("also", [])]:
                    if isinstance(c, dict) and c.get("book") and c.get("section"):
                        yield f"{path.relative_to(folder)} ({d.get('id') or d.get('rule') or d.get('key') or '?'})", c


@pytest.mark.parametrize("name", RULESETS)
def test_every_quote_lies_in_the_section_it_cites(name):
    """The section a citation names is found from the rulebook's headings alone (leges.authoring.rulebook_coverage.heading_places:
    each heading where it stands as one, not a cross-reference to it); every fragment of the quote (a
    quote joins passages with "...") must lie in that section or in a numbered subsection of it (5.5.2
    in 5.5). A passage of another section is cited in an `also` entry naming that section: one fragment
    inside used to pass for the whole quote, and 83 fragments lay elsewhere."""
    from leges.authoring.rulebook_coverage import heading_places, sections_of_quote, within_section
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / name))
    books = {b["id"]: SHARED / "rulebooks" / b["file"] for b in rs.rulebooks}
    if not all(p.exists() for p in books.values()):
        pytest.skip("the rulebooks are not beside the project (../shared/rulebooks)")
    texts = {k: p.read_text(encoding="utf-8") for k, p in books.items()}
    cites = list(_citations_in_files(ROOT / "rulesets" / name))
    headings = {k: {c["section"] for _, c in cites if c["book"] == k} | set(b.get("sections", []))
                for k, b in ((b["id"], b) for b in rs.rulebooks)}
    places = {k: heading_places(texts[k], headings[k]) for k in texts}
    problems = []
    for where, c in cites:
        book, section = c["book"], c["section"]
        if not any(h == section for _, h in places[book]):
            problems.append(f"{where}: '{section}' never stands as a heading in {books[book].name}")
            continue
        fragments = [f.strip(' "') for f in re.split(r"\.\.\.|…", c.get("quote", "")) if f.strip(' "')]
        found = {f: sections_of_quote(texts[book], places[book], f) for f in fragments}
        for f in fragments:
            if not any(within_section(h, section) for h in found[f]):
                elsewhere = sorted({str(h) for h in found[f]})
                problems.append(f"{where}: cites '{section}', but this fragment lies in {elsewhere}: '{f[:60]}'")
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
    from leges.authoring.rulebook_coverage import coverage
    path = SHARED / "rulebooks" / rulebook
    if not path.exists():
        pytest.skip("the rulebooks are not beside the project (../shared/rulebooks)")
    report = coverage(leges.load(str(ROOT / "rulesets" / name)), str(path), book)
    missing = [f"[{p.section or 'before the first section'}] {p.text}" for p in report.passages if p.status == "missing"]
    assert not missing, "passages neither cited nor marked:\n" + "\n".join(missing)
    assert not report.unmatched, "quotes or marks found nowhere in the rulebook:\n" + "\n".join(report.unmatched)


def _translation_variants():
    """(ruleset, rulebook file, book id, variant) for every translation variant of a bundled ruleset: the
    book it translates to is the one its source cites."""
    import yaml
    out = []
    for name in RULESETS:
        rs = yaml.safe_load((ROOT / "rulesets" / name / "ruleset.yaml").read_text(encoding="utf-8"))
        files = {b["id"]: b["file"] for b in rs["rulebooks"]}
        for path in sorted((ROOT / "rulesets" / name / "variants").glob("*.yaml")):
            v = yaml.safe_load(path.read_text(encoding="utf-8"))
            book = (v.get("source") or {}).get("book")
            if v.get("kind") == "translation" and book in files:
                out.append((name, files[book], book, v["id"]))
    return out


@pytest.mark.parametrize("name, rulebook, book, variant", _translation_variants())
def test_rulebook_is_covered_with_its_translation_variant_on(name, rulebook, book, variant):
    """With a translation variant on (Pompeii's `russian`), its rulebook is still covered whole: the rules
    the variant changes cite that text for everything the base rules cited it for."""
    import leges
    from leges.authoring.rulebook_coverage import coverage
    path = SHARED / "rulebooks" / rulebook
    if not path.exists():
        pytest.skip("the rulebooks are not beside the project (../shared/rulebooks)")
    report = coverage(leges.load(str(ROOT / "rulesets" / name), variants=[variant]), str(path), book)
    missing = [f"[{p.section or 'before the first section'}] {p.text}" for p in report.passages if p.status == "missing"]
    assert not missing, f"with --variant {variant}, passages neither cited nor marked:\n" + "\n".join(missing)
    assert not report.unmatched, "quotes or marks found nowhere in the rulebook:\n" + "\n".join(report.unmatched)


def test_the_bundled_translation_variants_are_found():
    assert ("pompeii", "pompeii.ru.txt", "ru", "russian") in _translation_variants()
