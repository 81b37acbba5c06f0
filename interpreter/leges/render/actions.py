"""A seat's legal actions as a front end shows them: the spaces, zones and cards each names, and the
rule it cites.

An action's text (`play card=6 building=6a square=r3c2`) names its choices; those that are board
spaces make the action clickable there (an area names its spaces), and so do those the map relates
to spaces (a coordinate's value names the spaces that have it: render/board_choice.py). On a table without a map the
zones and components it names make it clickable there instead: a parameter that is a zone names
that zone, one that is a component names the card and the zone it lies in — where the seat sees it
lie (a card in a hidden zone is not pointed at: that would tell where it is). Its citation is the `source`
of the declaration it comes from: the action, or — for a `choose` inside a rule — the phase,
procedure, trigger or set-up step that asks.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..model.rule_ids import RuleId, declaration_of
from .board_choice import board_choices, spaces_chosen


@dataclass
class Citation:
    book: str = ""
    title: str = ""  # the rulebook's title
    section: str = ""
    quote: str = ""
    reading: str = ""
    where: str = ""  # file:line of the declaration
    rule: str = ""  # what cites it: action play, phase settle, ...

    def short(self, width: int = 90) -> str:
        head = " § ".join(x for x in (self.book, self.section) if x)
        quote = self.quote if len(self.quote) <= width else self.quote[: width - 1].rstrip() + "…"
        text = head + (f": “{quote}”" if quote else "")
        if self.reading:
            text += f" (reading {self.reading})"
        return text

    def to_json(self) -> dict:
        return {"book": self.book, "title": self.title, "section": self.section, "quote": self.quote,
                "reading": self.reading, "where": self.where, "rule": self.rule, "short": self.short()}


@dataclass
class ActionInfo:
    text: str
    player: int
    spaces: list[str] = field(default_factory=list)
    citation: Citation | None = None
    words: dict = field(default_factory=dict)  # language → the action in words (engine/words.py); empty: none given
    zones: list[str] = field(default_factory=list)  # the zones (not spaces) it names, by key
    cards: list[dict] = field(default_factory=list)  # the components it names: {"zone": key, "label": label}
    board: dict = field(default_factory=dict)  # parameter → {space: value}: choices the map relates to spaces (board_choice.py)

    def to_json(self) -> dict:
        out = {"text": self.text, "player": self.player, "spaces": self.spaces,
               "cite": self.citation.to_json() if self.citation else None, "words": self.words,
               "zones": self.zones, "cards": self.cards}
        if self.board:
            out["board"] = self.board
        return out


def decl_for_code(rs, code_id: str):
    """The declaration whose rule a running program comes from (action:play, phase:settle:turn, ...)."""
    return declaration_of(rs, code_id)


def citation_of(game, decl, rule: str = "") -> Citation | None:
    if decl is None:
        return None
    source = decl.source or {}
    books = {b.get("id"): b.get("title", "") for b in (game.ruleset.rulebooks if game.ruleset else [])}
    where = ""
    try:
        pos = decl.at.position()
        where = f"{pos.file}:{pos.line}" if pos.line else pos.file
    except Exception:  # a declaration without a place (built by a variant): no location
        where = ""
    book = str(source.get("book", ""))
    return Citation(book=book, title=str(books.get(book, "")), section=str(source.get("section", "")),
                    quote=" ".join(str(source.get("quote", "")).split()), reading=str(source.get("reading", "") or ""),
                    where=where, rule=rule)


def spaces_named(game, text: str, params: dict | None = None) -> list[str]:
    """The board spaces an action names, in order; an area names its spaces. `params` are the
    action's chosen values when known (an area's id is then told from a number that looks like it);
    else the `key=value` choices of its text are read, and only spaces count."""
    board = game.board
    if board is None:
        return []
    known = set(board.spaces)
    spaces, areas = [], []
    if params is not None:
        values = [v for v in params.values() if isinstance(v, str)]
    else:
        values = [token.partition("=")[2] for token in text.split()[1:] if "=" in token]
    for value in values:
        if value in known:
            if value not in spaces:
                spaces.append(value)
        elif params is not None and value in board.area_spaces:
            areas.append(value)
    if not spaces:
        for area in areas:
            spaces.extend(s for s in board.area_spaces[area] if s not in spaces)
    return spaces


def seen_zones(st, seat: int) -> dict[str, list[int]]:
    """The components of each zone (not space) as far as `seat` sees them: a zone it sees into, all;
    a zone showing its top, the top; else none."""
    obs = st.observation(seat)
    out: dict[str, list[int]] = {}
    for key, shown in obs["zones"].items():
        if key in st.setup.spaces:
            continue
        items = st.zones.get(key, [])
        out[key] = list(items) if isinstance(shown, list) else (items[-1:] if shown.get("top") is not None else [])
    return out


def table_targets(st, text: str, aid: str, params: dict | None, seen: dict[str, list[int]]) -> tuple[list[str], list[dict]]:
    """The zones an action names and the cards it names with the zone each lies in (only where `seen`,
    the zones as the seat sees them, shows it). `params`: its chosen values when known (a component
    by its id), else its text's `key=value` choices are read (a component by its label)."""
    action = st.game.actions.get(aid)
    types = action.param_types if action is not None else {}
    values = dict(token.split("=", 1) for token in text.split()[1:] if "=" in token)
    zones: list[str] = []
    cards: list[dict] = []
    labels = st.setup.clabel
    for name, ty in types.items():
        kind = getattr(ty, "kind", None)
        raw = params.get(name) if params is not None else None
        if kind == "zone":
            key = raw if isinstance(raw, str) else values.get(name)
            if key in seen and key not in zones:
                zones.append(key)
        elif kind == "component":
            label = values.get(name)
            for key, items in seen.items():
                hit = raw in items if isinstance(raw, int) and not isinstance(raw, bool) else \
                    any(labels[c] == label for c in items)
                if hit and label is not None:
                    cards.append({"zone": key, "label": label})
                    break
    return zones, cards


def words_in(game, text: str) -> dict:
    """`text` (an action's text form, or a history entry `seat: text`) in words in every language the
    ruleset gives phrases in ({} when it gives none for it; a language without a phrase of its own
    falls back as engine/words.py says)."""
    from ..engine.words import worded_entry, worded
    phrases = getattr(game, "words", None)
    languages = list(phrases.languages) if phrases else []
    entry = ": " in text and text.split(": ", 1)[0] not in game.actions
    out = {}
    for lang in languages:
        said = worded_entry(game, text, lang) if entry else worded(game, text, lang)
        if said is not None:
            out[lang] = said
    return out


def describe_actions(st, seat: int) -> list[ActionInfo]:
    """`seat`'s legal actions now, each with the spaces it names, its citation and its words."""
    game = st.game
    rs = game.ruleset
    actions = st.legal_actions(seat)
    ids: dict[str, str] = {}
    params: dict[str, dict] = {}
    pending = st.pending
    if pending is not None and pending.player == seat:
        ids = {o.text: o.action for o in pending.options}
        params = {o.text: o.params for o in pending.options if isinstance(o.params, dict)}
    asking = None
    frames = getattr(st, "frames", None)
    if frames:
        asking = frames[-1][0]
    out = []
    seen = seen_zones(st, seat) if actions else {}
    related = board_choices(st, {text: (ids[text], values) for text, values in params.items() if text in ids})
    for action in actions:
        text = action.text
        aid = ids.get(text) or text.split(" ", 1)[0]
        citation = None
        if rs is not None:
            if aid in game.actions:
                citation = citation_of(game, declaration_of(rs, str(RuleId("action", aid))), f"action {aid}")
            elif asking:
                decl = decl_for_code(rs, asking)
                if decl is not None:
                    citation = citation_of(game, decl, f"{asking.split(':', 1)[0]} {decl.id}")
        zones, cards = table_targets(st, text, aid, params.get(text), seen)
        choices = related.get(aid, {})
        spaces = spaces_named(game, text, params.get(text)) or spaces_chosen(choices, text)
        out.append(ActionInfo(text, action.player, spaces, citation, words_in(game, text), zones, cards, choices))
    return out
