"""A seat's legal actions as a front end shows them: the spaces each names, and the rule it cites.

An action's text (`play card=6 building=6a square=r3c2`) names its choices; those that are board
spaces make the action clickable there (an area names its spaces). Its citation is the `source`
of the declaration it comes from: the action, or — for a `choose` inside a rule — the phase,
procedure, trigger or set-up step that asks.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..model.rule_ids import RuleId, declaration_of


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

    def to_json(self) -> dict:
        return {"text": self.text, "player": self.player, "spaces": self.spaces,
                "cite": self.citation.to_json() if self.citation else None, "words": self.words}


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
    if pending is not None and pending.get("player") == seat:
        ids = {o[0]: o[1] for o in pending["options"]}
        params = {o[0]: o[2] for o in pending["options"] if isinstance(o[2], dict)}
    asking = None
    frames = getattr(st, "frames", None)
    if frames:
        asking = frames[-1][0]
    out = []
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
        out.append(ActionInfo(text, action.player, spaces_named(game, text, params.get(text)), citation,
                              words_in(game, text)))
    return out
