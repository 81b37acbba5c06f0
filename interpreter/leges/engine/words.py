"""Moves and events in words: the phrases a ruleset gives its actions, events and choices, and the
display names of its components, zones and seats, per language (`say:`, `asks:`, `name:`, a seat's
`say:`; docs/language.md).

The phrases are for people only: an action's text form (`move_citizen from=r3c7 to=r2c7`) is what
the API, the records and the agents use, and it never changes. A phrase is worded from that text
form: `{name}` is the value of the parameter `name` as the text form writes it (a component's or a
zone's id, or a seat's name, is replaced by its display name in the language). A seat's display name
is for people alone too: `red` stays the text form of the player in every action, record and rule,
and the page, `leges play` and `leges doc` show `vörös` for it. A language the ruleset does not give
falls back to English, then to the first language given; an action with no phrase has none (a front
end then shows its text form).

Checked when the game is built: a `{name}` that is not a parameter of the action (of the event, or
the name of the choice's value) is an error located in the phrase, with a did-you-mean hint; a
brace that opens no placeholder is one too. The phrases come from an untrusted file: they are
filled in, never evaluated, and a front end `shown`s the result before a terminal gets it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import TypeVar

from ..model.decl import SEAT_WORDS
from ..text.errors import Collector, did_you_mean

DEFAULT = "en"
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_WORDED = 400  # characters of one worded action

# The engine's own words (the pass every optional decision offers, a sealed move), not a game's.
OWN = {
    "pass": {"en": "Pass", "hu": "Passz", "ru": "Пас"},
    "sealed": {"en": "(sealed)", "hu": "(lepecsételve)", "ru": "(скрыто)"},
    "shows": {"en": "shows", "hu": "megmutatja:", "ru": "показывает:"},  # a `reveal`'s log line
}


def pick(texts: Mapping[str, T] | None, lang: str | None) -> T | None:
    """The text in `lang`, else in English, else in the first language given; None without texts."""
    if not texts:
        return None
    lang = lang or DEFAULT
    if lang in texts:
        return texts[lang]
    base = lang.split("-", 1)[0]
    if base in texts:
        return texts[base]
    if DEFAULT in texts:
        return texts[DEFAULT]
    return next(iter(texts.values()))


T = TypeVar("T")  # what pick chooses among: a phrase's Template, a name's text


@dataclass
class Template:
    """A phrase cut into literal texts and placeholders: [(text, None) | (None, name)]."""

    parts: list

    def fill(self, values: dict, word) -> str:
        out = []
        for text, name in self.parts:
            out.append(text if name is None else word(values.get(name, "?")))
        return "".join(out)[:MAX_WORDED]


def parse_template(text: str) -> tuple[Template | None, tuple[int, str, str] | None]:
    """The template, or None and (offset, the bad piece, what is wrong) for the first fault."""
    parts: list[tuple[str | None, str | None]] = []
    last = 0
    for m in PLACEHOLDER.finditer(text):
        if m.start() > last:
            parts.append((text[last:m.start()], None))
        last = m.end()
        piece = m.group(0)
        if piece in ("{{", "}}"):
            parts.append((piece[0], None))
        elif m.group(1) is None:
            return None, (m.start(), piece, "a lone brace")
        elif not NAME.match(m.group(1).strip()):
            return None, (m.start(), piece, "a placeholder is a name in braces, such as {square}")
        else:
            parts.append((None, m.group(1).strip()))
    if last < len(text):
        parts.append((text[last:], None))
    return Template(parts), None


@dataclass
class Phrases:
    """A game's phrases and display names, checked; what front ends word actions with."""

    actions: dict[str, dict[str, Template]] = field(default_factory=dict)  # action id → {lang: Template}
    choices: dict[str, dict[str, Template]] = field(default_factory=dict)  # choice label → {lang: Template}
    events: dict[str, dict[str, Template]] = field(default_factory=dict)  # event id → {lang: Template}
    event_params: dict[str, list[str]] = field(default_factory=dict)  # event id → its parameters, in order
    names: dict[str, dict[str, str]] = field(default_factory=dict)  # component type or zone id → {lang: name}
    seats: dict[str, dict[str, str]] = field(default_factory=dict)  # seat name → {lang: its display name}
    languages: list[str] = field(default_factory=list)  # every language a phrase or name is given in, in order met

    def __bool__(self) -> bool:
        return bool(self.actions or self.choices or self.events or self.names or self.seats)

    def name(self, ident: str, lang: str | None) -> str | None:
        """The display name of a component type or a zone (a numbered zone `pile.2`: `pile 2`), or None."""
        head, dot, rest = ident.partition(".")
        found = pick(self.names.get(head), lang)
        if found is None:
            return None
        return f"{found} {' '.join(self.seat(x, lang) for x in rest.split('.'))}" if dot else found

    def seat(self, name: str, lang: str | None) -> str:
        """A seat as people read it: its display name in `lang`, else its name (the text form)."""
        return pick(self.seats.get(name), lang) or name

    def value(self, text: str, lang: str | None) -> str:
        """A value as a phrase shows it: a component type's, a zone's or a seat's display name, else as written."""
        return self.name(text, lang) or (self.seat(text, lang) if text in self.seats else text)

    def say(self, text: str, lang: str | None, action_ids=()) -> str | None:
        """The action text `text` (`play card=6 square=r3c2`, `take_pile k=2`, `pass`) in words, or None
        when the ruleset gives it no phrase. `action_ids`: the game's actions (a head that is one is an
        action, else a choice's label)."""
        head, _, rest = text.partition(" ")
        templates = self.actions.get(head) if head in action_ids else self.choices.get(head)
        if templates is None and head not in action_ids:
            templates = self.actions.get(head)
        if templates is None:
            if text == "pass":
                return pick(OWN["pass"], lang)
            return None
        template = pick(templates, lang)
        assert template is not None  # a checked phrase has its text in at least one language
        values = dict(token.split("=", 1) for token in rest.split() if "=" in token)
        return template.fill(values, lambda v: self.value(v, lang))

    def event(self, event: str, values: dict, lang: str | None) -> str | None:
        """An event with its values (texts) in words, or None."""
        template = pick(self.events.get(event), lang)
        return None if template is None else template.fill(values, lambda v: self.value(str(v), lang))

    def told(self, line: str) -> tuple[str, dict] | None:
        """A log line an emit of a phrased event wrote (`laid player=x card=red3`, engine/program/
        signals.py) as (event, {parameter: value}), or None for any other line. The parameters are
        read in their declared order, so a value may hold a space."""
        head, _, rest = line.partition(" ")
        names = self.event_params.get(head)
        if names is None:
            return None
        values: dict[str, str] = {}
        for i, name in enumerate(names):
            if not rest.startswith(name + "="):
                return None
            rest = rest[len(name) + 1:]
            following = f" {names[i + 1]}=" if i + 1 < len(names) else None
            cut = rest.find(following) if following else len(rest)
            if cut < 0:
                return None
            values[name], rest = rest[:cut], rest[cut + 1:]
        return head, values


def as_written(template: Template | None) -> str | None:
    """A template as its phrase was written (`Move a piece from {from} to {to}`), for documents."""
    if template is None:
        return None
    return "".join(text if name is None else "{" + name + "}" for text, name in template.parts)


def worded(game, text: str, lang: str | None) -> str | None:
    """An action's text form in words, or None when the ruleset gives it no phrase."""
    phrases = getattr(game, "words", None) or Phrases()
    return phrases.say(text, lang, game.actions)


def seat_called(game, name: str, lang: str | None) -> str:
    """A seat's name as people read it in `lang` (its display name), else the name itself."""
    phrases = getattr(game, "words", None)
    return phrases.seat(name, lang) if phrases else name


def worded_entry(game, entry: str, lang: str | None) -> str | None:
    """A history entry (`seat: text`, as `state.record_view` gives it) in words, or None; the seat
    by its display name."""
    who, sep, text = entry.partition(": ")
    if not sep:
        return None
    called = seat_called(game, who, lang)
    if text == "(sealed)":
        return f"{called}: {pick(OWN['sealed'], lang)}"
    said = worded(game, text, lang)
    if said is None:  # no phrase: the text form, its seat by its display name (if it has one)
        return None if called == who else f"{called}: {text}"
    return f"{called}: {said}"


def worded_log(game, line: str, lang: str | None, seats=()) -> str | None:
    """A log line in words where the engine wrote it: an event the ruleset gives a phrase (`laid
    player=x card=red3`: its phrase, filled), a `reveal` by a seat (`red shows card7`: the seat, the
    engine's word for "shows", the values by their display names); else None: a `log` statement's
    text is the ruleset's own."""
    phrases = getattr(game, "words", None) or Phrases()
    told = phrases.told(line) if phrases.event_params else None
    if told is not None:
        return phrases.event(told[0], told[1], lang)
    who, sep, rest = line.partition(" shows ")
    if not sep or who not in seats:
        return None
    values = [phrases.value(v, lang) for v in rest.strip("[]").split(",")] if rest.startswith("[") else [phrases.value(rest, lang)]
    return f"{phrases.seat(who, lang)} {pick(OWN['shows'], lang)} {', '.join(values)}"


def check_phrases(rs, asked: list, events: dict, errors: Collector) -> Phrases:
    """The ruleset's phrases, each checked against what it may name (errors located in the phrase)."""
    out = Phrases()
    seen_langs: list = []

    def note(langs):
        for lang in langs:
            if lang not in seen_langs:
                seen_langs.append(lang)

    def templates(texts, at, allowed: list, what: str) -> dict:
        result: dict[str, Template] = {}
        if not isinstance(texts, dict):
            errors.error(at.position(), f"the phrase of {what} must be a mapping of languages to texts",
                         "write it as {en: \"...\", hu: \"...\"}")
            return result
        note(texts)
        for lang, text in texts.items():
            here = at.child(lang)
            template, fault = parse_template(str(text))
            if fault is not None:
                offset, piece, why = fault
                errors.error(_inside(here, offset), f"'{piece}' in the {lang} phrase of {what}: {why}",
                             "write a brace itself as {{ or }}")
                continue
            assert template is not None  # parse_template gives a template or a fault
            for _, name in template.parts:
                if name is not None and name not in allowed:
                    offset = str(text).find("{" + name)
                    hint = did_you_mean(name, allowed)
                    listed = ", ".join(allowed) if allowed else "none"
                    errors.error(_inside(here, max(offset, 0)),
                                 f"'{{{name}}}' in the {lang} phrase of {what} is not one of its parameters",
                                 hint or f"its parameters: {listed}")
            result[lang] = template
        return result

    for action in rs.actions:
        if action.say is not None:
            out.actions[action.id] = templates(action.say, action.at.child("say"),
                                               [n for n, _ in action.params], f"action '{action.id}'")
    for event in rs.events:
        if event.say is not None:
            out.events[event.id] = templates(event.say, event.at.child("say"), list(events.get(event.id, {})),
                                             f"event '{event.id}'")
            out.event_params[event.id] = list(events.get(event.id, {}))
    # the code ids of a declaration's programs: a phase's parts and a procedure's typings by prefix, the others exactly
    prefixes = {"phases": "phase:{}:", "setup": "setup:{}", "procedures": "procedure:{}(", "triggers": "trigger:{}",
                "actions": "action:{}"}
    for section, prefix in prefixes.items():
        for decl in getattr(rs, section):
            if not decl.asks:
                continue
            start = prefix.format(decl.id)
            mine: dict[str, list[str]] = {}
            for code_id, label, name in asked:
                if code_id == start or start.endswith((":", "(")) and code_id.startswith(start):
                    mine.setdefault(label, []).append(name)
            for label, texts in decl.asks.items():
                here = decl.at.child("asks", label)
                if label not in mine:
                    errors.error(here.position(key=True),
                                 f"'{label}': no `choose ... as {label}` in {section.rstrip('s')} '{decl.id}'",
                                 did_you_mean(label, mine) or (f"its choices: {', '.join(sorted(mine))}" if mine
                                                               else "asks names the label of a choose in this rule"))
                    continue
                out.choices[label] = templates(texts, here, sorted(set(mine[label])), f"choice '{label}'")
    for decl in [*rs.components, *rs.zones]:
        if isinstance(decl.name, dict):
            note(decl.name)
            out.names[decl.id] = {k: str(v) for k, v in decl.name.items()}
    for seat in rs.seats:
        said = seat.get(SEAT_WORDS) if isinstance(seat, dict) else None
        if isinstance(said, dict) and said:  # the schema checked it: a text per language
            note(said)
            out.seats[str(seat["name"])] = {k: str(v) for k, v in said.items()}
    out.languages = seen_langs
    return out


def _inside(at, offset: int):
    """The place of character `offset` of the text at `at` (the text's own place when it cannot be told)."""
    try:
        return at.origin().locate(1, offset + 1)
    except Exception:  # noqa: BLE001 - a place to point at is a courtesy: the value's own will do
        return at.position()
