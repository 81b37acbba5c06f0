"""`leges diff --for-translators`: two rulebooks' versions of the rules, difference by difference, for people.

A translation variant (`kind: translation`) re-reads the rules in
another rulebook. For whoever checks it, each difference is shown as the two rulebooks' quotes side
by side (wrapped), the readings each side rests on (their question and answer), the rule change in
words (the item named by its phrase, `say:`, when the ruleset has one), and what the change alone
does in play: the base ruleset with that one item taken from the other side, played in lock-step
against the base (`diff.lockstep`) over the same seeds — so each change has its own figure, with
an interval, and no change hides another (the first one met in every game would, played all at
once). Then the items whose citations differ while their rules are the same: said differently,
encoded the same.
"""
from __future__ import annotations

import copy
import textwrap
from dataclasses import dataclass, field
from itertools import zip_longest

from .diff import Difference, compared_fields, lockstep
from .plain_words import words as plain
from .translation_same import Quote, books, column_quotes, in_both, quotes, sort_unchanged, unnoted

WIDTH = 100  # characters of a line of the report

SECTION_NAMES = {"actions": "action", "phases": "phase", "triggers": "trigger", "functions": "function",
                 "procedures": "procedure", "setup": "set-up rule", "variables": "variable",
                 "constants": "constant", "components": "component", "zones": "zone", "events": "event",
                 "readings": "reading", "invariants": "invariant", "checks": "check", "heuristics": "heuristic",
                 "highlights": "highlight", "scoring": "scoring", "players": "players"}
FIELD_WORDS = {"require": "may be taken only when", "effect": "does", "condition": "applies when",
               "end_if": "ends when", "turn": "plays a turn as", "on_begin": "does as it begins",
               "on_end": "does as it ends", "body": "is", "first": "starts with the player",
               "next": "is followed by", "value": "is", "score": "scores each player", "order": "plays in the order",
               "check": "checks", "count": "counts", "initial": "starts at", "start": "starts in",
               "instances": "comes as", "visibility": "is seen by", "kind": "is of the kind", "params": "takes"}
# sections whose items change no game: their differences are not played
NOT_PLAYED = ("readings", "heuristics", "checks", "invariants", "highlights")


def side_by_side(left: list[str], right: list[str], width: int = WIDTH) -> list[str]:
    """Two texts in two columns, each wrapped to its half of `width`, divided by │."""
    col = max(10, (width - 3) // 2)

    def wrapped(paragraphs: list[str], size: int) -> list[str]:
        lines: list[str] = []
        for p in paragraphs:
            lines += textwrap.wrap(" ".join(p.split()), size) or [""]
        return lines
    rows = zip_longest(wrapped(left, col), wrapped(right, max(10, width - 3 - col)), fillvalue="")
    return [f"{a:<{col}} │ {b}".rstrip() for a, b in rows]


def wrap(text: str, indent: str, width: int = WIDTH, more: str | None = None) -> list[str]:
    """A paragraph wrapped to `width`, its first line after `indent`, the others after `more` (default: the same)."""
    more = indent if more is None else more
    return textwrap.wrap(" ".join(str(text).split()), max(20, width), initial_indent=indent,
                         subsequent_indent=more) or [indent.rstrip()]


def _quoted(q: Quote) -> list[str]:
    return [q.head(), f"“{q.quote}”"] if q.quote else [q.head()]


def _column(qs: list[Quote], side: str, book: str = "") -> list[str]:
    """A side's column: the quotes of its own rulebook (`book`; else the item's first citation's), not the
    others' it cites too (`also`); a borrowed fact says where it comes from."""
    own = column_quotes(qs, book)
    lines = [t for q in own for t in _quoted(q)] or [f"({side} cites no rulebook here)"]
    lines += [f"borrowed{' from ' + q.borrowed_from if q.borrowed_from else ''}: {q.borrowed}" for q in own if q.borrowed]
    return [f"{side}: {lines[0]}", *lines[1:]]


def phrase(item, languages: list[str]) -> str | None:
    """The item's phrase (`say:`), in the first of `languages` it gives, else English, else its first;
    its parameters as {name}."""
    say = getattr(item, "say", None)
    if not isinstance(say, dict) or not say:
        return None
    for lang in [*languages, "en"]:
        if isinstance(say.get(lang), str):
            return say[lang]
    first = next(iter(say.values()))
    return first if isinstance(first, str) else None


def named(section: str, key: str, item, languages: list[str]) -> str:
    """How the report names an item: its phrase when it has one, then what it is."""
    kind = SECTION_NAMES.get(section, section)
    if section in ("scoring", "players"):
        return f"the {kind}"
    said = phrase(item, languages) if item is not None else None
    return f"“{said}” ({kind} {key})" if said else f"the {kind} {key}"


@dataclass
class Alone:
    """What one change does in play on its own: the games (of `seeds`) where it and the base part."""

    parted: int = 0
    seeds: int = 0
    low: float = 0.0
    high: float = 0.0
    first: str = ""  # where the first parting game parts
    error: str = ""  # why it cannot be played alone

    def to_json(self) -> dict:
        return {"parted": self.parted, "seeds": self.seeds, "rate": self.parted / self.seeds if self.seeds else None,
                "low": self.low, "high": self.high, "first": self.first, "error": self.error,
                "never_reached": self.never_reached}

    @property
    def never_reached(self) -> bool:
        """Played, and no game parted: random play never met the case the change is about."""
        return bool(self.seeds) and not self.parted and not self.error

    def words(self) -> str:
        if self.error:
            return f"not played alone: {self.error}"
        if not self.seeds:
            return "not played (it changes no game)"
        rate = self.parted / self.seeds
        if self.never_reached:
            return (f"never reached in {self.seeds} random games: no game parted from the base, so random play "
                    f"did not meet a case where the change matters (95 % interval of the share that part "
                    f"{self.low:.0%}–{self.high:.0%}); a scenario must show it")
        text = (f"play parts from the base in {self.parted} of {self.seeds} games ({rate:.0%}; 95 % interval "
                f"{self.low:.0%}–{self.high:.0%})")
        return text + (f"; the first: {self.first}" if self.first else "")


@dataclass
class Entry:
    difference: Difference
    title: str
    quotes_a: list = field(default_factory=list)
    quotes_b: list = field(default_factory=list)
    readings_a: list = field(default_factory=list)  # (id, kind, question, answer)
    readings_b: list = field(default_factory=list)
    words: list = field(default_factory=list)  # the change in words, line by line
    alone: Alone | None = None
    shared: list = field(default_factory=list)  # (section, id) encoded the same whose passages ground this change

    def to_json(self) -> dict:
        q = lambda qs: [vars(x) for x in qs]
        r = lambda rs: [dict(zip(("id", "kind", "question", "answer"), x)) for x in rs]
        return {"section": self.difference.section, "id": self.difference.id, "kind": self.difference.kind,
                "title": self.title, "quotes_a": q(self.quotes_a), "quotes_b": q(self.quotes_b),
                "readings_a": r(self.readings_a), "readings_b": r(self.readings_b), "change": self.words,
                "alone": self.alone.to_json() if self.alone else None,
                "shared": [{"section": s, "id": k} for s, k in self.shared]}


def _items(rs, section: str) -> dict:
    if section == "scoring":
        return {"scoring": rs.scoring} if rs.scoring is not None else {}
    return {x.id: x for x in getattr(rs, section, [])}


def _readings(rs, qs: list[Quote]) -> list[tuple]:
    by_id = {r.id: r for r in rs.readings}
    out = []
    for rid in dict.fromkeys(q.reading for q in qs if q.reading):
        r = by_id.get(rid)
        out.append((rid, r.kind or "", r.question or "", " ".join((r.text or "").split())) if r else (rid, "", "", ""))
    return out


def _change_words(x: Difference, thing: str, width: int) -> list[str]:
    if x.kind == "only_a":
        return wrap(f"Only A has {thing}: B's rulebook, as this ruleset reads it, has no such rule.", "", width)
    if x.kind == "only_b":
        return wrap(f"Only B has {thing}: A's rulebook, as this ruleset reads it, has no such rule.", "", width)
    if x.section == "players":
        return ["The number of players differs."]
    lines: list[str] = []
    for change in x.changes:
        base = change.field.split(".")[0]
        verb = FIELD_WORDS.get(base, f"has as its {change.field}")
        if base == "params":
            verb = f"takes {change.field.split('.', 1)[1]} from"
        lines += wrap(f"{thing[0].upper()}{thing[1:]} {verb}:", "", width)
        lines += _in_words(change, width)
        lines.append("    as rule text:")
        if change.program and change.a is not None and change.b is not None:
            for line in change.lines():
                mark, text = line[:2], line[2:]
                label = {"- ": "in A:  ", "+ ": "in B:  ", "  ": "both:  "}.get(mark, "       ")
                if line.strip() == "...":
                    lines.append("    ...")
                    continue
                body = text.lstrip()
                lead = "    " + label + " " * (len(text) - len(body))  # the program's own indentation kept
                lines += wrap(body, lead, width, " " * len(lead) + "    ")
        else:
            lines += wrap(change.a if change.a is not None else "(nothing)", "    in A:  ", width, " " * 15)
            lines += wrap(change.b if change.b is not None else "(nothing)", "    in B:  ", width, " " * 15)
    return lines


def _in_words(change, width: int) -> list[str]:
    """A change read out: each side's changed lines in plain words (plain_words.py), the lines both
    sides share left out."""
    if change.program and change.a is not None and change.b is not None:
        sides: dict[str, list[str]] = {"A": [], "B": []}
        for line in change.lines():
            if line[:2] in ("- ", "+ "):
                sides["A" if line[0] == "-" else "B"].append(plain(line[2:].strip()))
        said = {k: "; ".join(v) or "(nothing more)" for k, v in sides.items()}
    else:
        said = {"A": plain(change.a) if change.a is not None else "(nothing)",
                "B": plain(change.b) if change.b is not None else "(nothing)"}
    return [*wrap(said["A"], "    in words, A:  ", width, " " * 22), *wrap(said["B"], "    in words, B:  ", width, " " * 22)]


def _descriptions(a, b, width: int) -> list[str]:
    """The items' own descriptions, when they differ: the change in the author's words."""
    da, db = (" ".join(str(getattr(x, "description", "") or "").split()) for x in (a, b))
    if da == db or not (da or db):
        return []
    return [*wrap(da or "(no description)", "   A describes it:  ", WIDTH, " " * 21),
            *wrap(db or "(no description)", "   B describes it:  ", WIDTH, " " * 21)]


def play_alone(rs_a, board, rs_b, x: Difference, game_a, players: int, seeds: int, seed: int) -> Alone:
    """The base ruleset with this one difference taken from B, played in lock-step against the base."""
    from ..engine.builder import build_game
    from ..lab.stats import wilson
    from ..text.errors import Collector
    if x.section in NOT_PLAYED:
        return Alone()
    hybrid = copy.copy(rs_a)
    # readings change no game; B's are there for the rules citing them
    hybrid.readings = [*rs_a.readings, *[r for r in rs_b.readings if r.id not in {x.id for x in rs_a.readings}]]
    if x.section == "scoring":
        hybrid.scoring = rs_b.scoring
    elif x.section == "players":
        hybrid.min_players, hybrid.max_players = rs_b.min_players, rs_b.max_players
    else:
        mine = list(getattr(rs_a, x.section))
        theirs = _items(rs_b, x.section).get(x.id)
        if x.kind == "only_a":
            mine = [item for item in mine if item.id != x.id]
        elif x.kind == "only_b":
            mine.append(theirs)
        else:
            mine = [theirs if item.id == x.id else item for item in mine]
        setattr(hybrid, x.section, mine)
    errors = Collector()
    try:
        game = build_game(hybrid, board, errors)
    except Exception as exc:  # a change that needs another to be read
        return Alone(error=str(exc).splitlines()[0])
    problems = [d for d in errors.diagnostics if d.severity == "error"]
    if problems:
        return Alone(error=f"{problems[0].message} (it goes with another change)")
    found = [lockstep(game_a, game, players, seed + i) for i in range(seeds)]
    parted = [p for p in found if p is not None]
    interval = wilson(len(parted), seeds)
    first = ""
    if parted:
        p = parted[0]
        if p.only_a or p.only_b:
            allowed = (f"only B allows {p.only_b[0]}" if p.only_b else f"only A allows {p.only_a[0]}")
            first = f"seed {p.seed}, decision {p.step}: {allowed}"
        else:
            first = f"seed {p.seed}, decision {p.step}: the games end differently"
    return Alone(len(parted), seeds, interval.low, interval.high, first)


def _languages(qs: list[Quote], rs) -> list[str]:
    langs = {str(b.get("id")): str(b.get("language") or b.get("id")) for b in rs.rulebooks if isinstance(b, dict)}
    return list(dict.fromkeys(langs.get(q.book, q.book) for q in qs if q.book))


def report(rs_a, rs_b, board_a, game_a, diffs: list[Difference], players: int, seeds: int, seed: int,
           width: int = WIDTH, play: bool = True) -> dict:
    """The translators' report: an entry per difference (readings that only go with a changed rule are
    shown there), then the items said differently and encoded the same."""
    cited_a = {q.reading for x in diffs for q in quotes(_items(rs_a, x.section).get(x.id))}
    cited_b = {q.reading for x in diffs for q in quotes(_items(rs_b, x.section).get(x.id))}
    entries = []
    for x in diffs:
        if x.section == "readings" and (x.id in cited_a or x.id in cited_b):
            continue  # shown with the rules that rest on it
        a, b = _items(rs_a, x.section).get(x.id), _items(rs_b, x.section).get(x.id)
        qa, qb = quotes(a), quotes(b)
        langs = _languages(qb or qa, rs_b)
        thing = named(x.section, x.id, b if b is not None else a, langs)
        entry = Entry(x, thing, qa, qb, _readings(rs_a, qa), _readings(rs_b, qb))
        if x.section == "readings":
            r = b if b is not None else a
            citing = _citing(rs_b if b is not None else rs_a, x.id)
            entry.words = wrap(f"{'Only B' if b is not None else 'Only A'} reads its rulebook so; no changed rule "
                               f"cites it" + (f"; {', '.join(citing)} (encoded the same) "
                                             f"{'does' if len(citing) == 1 else 'do'}." if citing else "."),
                               "", width)
            entry.readings_a = [(a.id, a.kind or "", a.question or "", " ".join(a.text.split()))] if a else []
            entry.readings_b = [(b.id, b.kind or "", b.question or "", " ".join(b.text.split()))] if b else []
            del r
        else:
            entry.words = _descriptions(a, b, width) + _change_words(x, thing, width)
        if play:
            entry.alone = play_alone(rs_a, board_a, rs_b, x, game_a, players, seeds, seed)
        entries.append(entry)
    items_a = {(sec, k): v for sec in _SECTIONS for k, v in _items(rs_a, sec).items()}
    items_b = {(sec, k): v for sec in _SECTIONS for k, v in _items(rs_b, sec).items()}
    book_a, book_b = books(rs_a, rs_b, items_a, items_b)
    changed = {(e.difference.section, e.difference.id): (e.quotes_a, e.quotes_b) for e in entries}
    sorted_ = sort_unchanged(said_differently(rs_a, rs_b, diffs, book_a, book_b), changed, book_a, book_b)
    for e in entries:
        e.shared = sorted_["shared"].get((e.difference.section, e.difference.id), [])
    return {"entries": entries, "same": sorted_["same"], "borrowed": sorted_["borrowed"], "books": (book_a, book_b)}


def _citing(rs, reading: str) -> list[str]:
    """The items of a ruleset that cite a reading: "the action place_lava", ..."""
    from ..model.sections import declarations
    out = []
    for item in declarations(rs):
        if any(q.reading == reading for q in quotes(item)):
            section = next((name for name, kind in SECTION_NAMES.items()
                            if item in getattr(rs, name, []) or (name == "scoring" and item is rs.scoring)), "")
            out.append(named(section, item.id, None, []))
    return out


_SECTIONS = ("components", "zones", "variables", "constants", "functions", "procedures", "setup", "phases",
             "actions", "triggers", "events", "invariants", "checks", "heuristics", "highlights", "scoring")


def said_differently(rs_a, rs_b, diffs: list[Difference], book_a: str = "", book_b: str = "") -> list[tuple]:
    """The items whose rules are the same while their citations differ between A and B — or are the
    same and quote both books (translation_same.in_both), noted or not: a rule cited in both books is
    never passed over as "nothing changed" — (section, id, A's quotes, B's quotes), the rules nobody
    noted (translation_same.unnoted) last."""
    from ..model.sections import RULE_SECTIONS
    changed = {(x.section, x.id) for x in diffs}
    out = []
    for section in dict.fromkeys([*RULE_SECTIONS, *_SECTIONS]):
        if section == "readings":
            continue
        a, b = _items(rs_a, section), _items(rs_b, section)
        for key in a:
            if key not in b or (section, key) in changed:
                continue
            qa, qb = quotes(a[key]), quotes(b[key])
            if [vars(q) for q in qa] == [vars(q) for q in qb] and not in_both(qa, qb, book_a, book_b):
                continue
            try:
                same = compared_fields(a[key], section) == compared_fields(b[key], section)
            except Exception:
                same = False
            if same:
                out.append((section, key, qa, qb))
    rows = list({(s, k): (s, k, qa, qb) for s, k, qa, qb in out}.values())
    return sorted(rows, key=lambda row: unnoted(row[2], row[3], book_a, book_b))


def lines(result: dict, name_a: str, name_b: str, width: int = WIDTH) -> list[str]:
    """The report as text."""
    book_a, book_b = result.get("books", ("", ""))
    out = [f"A: {name_a}", f"B: {name_b}", ""]
    entries = result["entries"]
    if not entries:
        out.append("The rules are the same (as syntax trees and values).")
    else:
        out.append(f"{len(entries)} difference{'s' if len(entries) != 1 else ''} in the rules:")

    def columns(qa, qb) -> list[str]:
        return ["   " + line for line in side_by_side(_column(qa, "A", book_a), _column(qb, "B", book_b), width - 3)]
    for i, e in enumerate(entries, 1):
        x = e.difference
        out += ["", f"{i}. {e.title}" + (f" — {', '.join(x.fields)}" if x.fields else "")]
        out += columns(e.quotes_a, e.quotes_b)
        for side, readings in (("A", e.readings_a), ("B", e.readings_b)):
            for rid, kind, question, answer in readings:
                out.append(f"   {side} reads it so ({rid}{', ' + kind if kind else ''}):")
                out += wrap(f"Q: {question}", "     ", width)
                out += wrap(f"A: {answer}", "     ", width)
        out += ["   " + line for line in e.words]
        if e.shared:
            out += wrap("The same passages ground, encoded the same: " + ", ".join(
                f"the {SECTION_NAMES.get(s, s)} {k}" for s, k in e.shared) + " (they go with this change).", "   ", width)
        if e.alone is not None:
            out += wrap(f"Alone: {e.alone.words()}", "   ", width)
    borrowed = result.get("borrowed", [])
    if borrowed:
        out += ["", f"Borrowed ({len(borrowed)}): B's rulebook does not state these; the ruleset takes them from "
                    "another rulebook"]
        for section, key, qa, qb in borrowed:
            out.append(f" - the {SECTION_NAMES.get(section, section)} {key}")
            out += columns(qa, qb)
    same = result["same"]
    out += ["", f"Said differently, encoded the same ({len(same)}): the quotes differ, the rule does not"]
    if not same:
        out.append("   (none)")
    left = sum(unnoted(qa, qb, book_a, book_b) for _, _, qa, qb in same)
    for i, (section, key, qa, qb) in enumerate(same):
        if left and i == len(same) - left:  # the rules nobody noted come last, under a heading of their own
            out += [""] + wrap(f"Cited in both rulebooks with no note on whether the texts agree ({left}): "
                               "nobody has compared these yet", " ", width, "   ")
        out.append(f" - the {SECTION_NAMES.get(section, section)} {key}")
        out += columns(qa, qb)
        for q in qb:
            if q.book == book_b and q.note:
                out += wrap(f"note: {q.note}", "   ", width, "         ")
    return out


def to_json(result: dict) -> dict:
    book_a, book_b = result.get("books", ("", ""))
    listed = lambda rows: [{"section": s, "id": k, "quotes_a": [vars(q) for q in qa],
                            "quotes_b": [vars(q) for q in qb], "unnoted": unnoted(qa, qb, book_a, book_b)}
                           for s, k, qa, qb in rows]
    return {"differences": [e.to_json() for e in result["entries"]], "said_differently": listed(result["same"]),
            "borrowed": listed(result.get("borrowed", []))}
