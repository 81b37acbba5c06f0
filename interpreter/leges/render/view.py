"""What one seat may see of a game, as the data every picture is drawn from.

Every front end — the SVG picture, the web page, the terminal — draws from a `SeatView` and
from nothing else of the state. A `SeatView` is built from `state.observation(seat)`: the zones
it shows as lists are the ones the seat may see, and only for those are the components' types
and owners read (to draw them in their owner's colour); the others are counts. Without a seat
the view is public: what every player may see (zones visible to their owner only are counts,
variables visible to their owner only are "?"). Board spaces' changing properties (a tile laid)
lie on the table for everybody.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .style import Style, rgb, style_of


@dataclass
class Piece:
    """Components alike (same type, owner and label) in one place, and how many."""

    type: str
    owner: int | None
    label: str
    count: int = 1
    props: dict = field(default_factory=dict, compare=False)  # the numbers and colours its type declares (drawn on a face)


@dataclass
class ZoneView:
    key: str  # e.g. hand.red
    name: str  # the zone's declared id, e.g. hand
    owner: int | None
    count: int
    pieces: list[Piece] | None  # None: the seat may not see what is in it
    top: str | None = None  # the top item of a zone showing only its top
    kind: str = "set"
    top_piece: Piece | None = None  # that item as a piece (its face drawn on the table)


@dataclass
class SeatView:
    title: str
    ruleset: str
    seat: int | None  # None: the public view
    seats: list[str]
    colours: list[str]
    phase: str | None
    turn: str
    to_move: str
    terminal: bool
    spaces: dict[str, list[Piece]] = field(default_factory=dict)
    hidden_spaces: dict[str, int] = field(default_factory=dict)  # spaces whose contents are hidden: counts
    zones: list[ZoneView] = field(default_factory=list)
    vars: dict[str, Any] = field(default_factory=dict)
    per_player_vars: set = field(default_factory=set)
    sprops: dict[str, dict] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    scores: list | None = None
    ranking: list[list[int]] | None = None
    style: Style | None = None
    last: dict[str, str] = field(default_factory=dict)  # zone or space → "from" / "to": what the last action changed
    highlights: list = field(default_factory=list)  # highlights.Mark: the spaces the ruleset's `highlights:` mark now

    @property
    def who(self) -> str:
        return self.seats[self.seat] if self.seat is not None else "everybody"

    def phase_name(self) -> str:
        if self.terminal:
            return "game over"
        return self.phase if self.phase else "set-up"

    def space_props(self, board, space: str) -> dict:
        props = dict(board.props.get(space, {}))
        props.update(self.sprops.get(space, {}))
        props["id"] = space
        return props


def public_observation(st) -> dict:
    """What every player may see: a seat's observation less what only that seat sees."""
    obs = st.observation(0)
    setup = st.setup
    for key, value in list(obs["zones"].items()):
        if isinstance(value, list) and setup.zone_visibility.get(key, "all") not in ("all",):
            obs["zones"][key] = {"count": len(value)}
    for name, value in list(obs["vars"].items()):
        if st.game.variable_visibility.get(name, "all") == "owner" and isinstance(value, list) and len(value) == st.n:
            obs["vars"][name] = ["?"] * st.n
    obs.pop("options", None)
    obs["you"] = None
    return obs


def observe(st, seat: int | None) -> dict:
    return st.observation(seat) if seat is not None else public_observation(st)


def history(st, seat: int | None) -> list[str]:
    """The actions so far as `seat` saw them (without a seat: every secret choice sealed)."""
    if seat is not None:
        return st.record_view(seat)
    sealed = set(st.sealed)
    out = []
    for i, entry in enumerate(st.history):
        who = entry.split(": ", 1)[0]
        out.append(f"{who}: (sealed)" if i in sealed else entry)
    return out


def words_view(st, seat: int | None) -> dict:
    """What the page needs to show the game in words (engine/words.py), for the seat `history` is for:
    `languages` (those the ruleset gives, in order; English first where given), `history` (each entry of
    `history(st, seat)` as {"text": entry, "words": {language: entry in words}}) and `names` (each
    component type's and zone's display name: {id: {language: name}}), `seats` (each seat's display name:
    {seat: {language: name}}; the page shows it for the seat's name) and `log` (each log line the seat
    sees, `view.log`, as {"text": line, "words": {language: line in words}} where the engine wrote it)."""
    from ..engine.words import worded_log
    from .actions import words_in
    phrases = getattr(st.game, "words", None)
    languages = list(phrases.languages) if phrases else []
    if "en" in languages:
        languages = ["en"] + [x for x in languages if x != "en"]
    seats = st.setup.seat_names
    log = list((st.observation(seat) if seat is not None else public_observation(st)).get("log", []))
    return {"languages": languages,
            "history": [{"text": entry, "words": words_in(st.game, entry)} for entry in history(st, seat)],
            "names": dict(phrases.names) if phrases else {},
            "seats": {name: dict(phrases.seats.get(name, {})) for name in seats} if phrases else {},
            "log": [{"text": line, "words": {lang: said for lang in languages
                                             if (said := worded_log(st.game, line, lang, seats)) is not None}}
                    for line in log]}


def new_lines(before: list[str], after: list[str]) -> list[str]:
    """The log lines `after` holds that `before` did not: its tail past their overlap (a log keeps its
    last lines only, so the overlap may have lost lines at its front)."""
    if len(after) >= len(before) and after[:len(before)] == before:
        return after[len(before):]
    for k in range(1, len(after) + 1):  # the first lines were dropped: the longest tail of before they continue
        keep = after[:len(after) - k]
        if keep == before[len(before) - len(keep):]:
            return after[len(after) - k:]
    return list(after)


def told_view(game, told: dict[int, list[str]], upto: int, seats: list[str]) -> list[dict]:
    """The log lines front ends tell as events (an event's phrase, a card shown: those the engine
    words, engine/words.worded_log), each after the history entry it came with: {"after": number of
    entries before it, "text": the line, "words": {language: the line in words}}, for entries up to `upto`.
    `told`: number of entries → the lines written then (a Match's or a Replay's). The log is public:
    every seat is told the same."""
    from ..engine.words import worded_log
    phrases = getattr(game, "words", None)
    languages = list(phrases.languages) if phrases else []
    out = []
    for after in sorted(k for k in told if k <= upto):
        for line in told[after]:
            words = {lang: said for lang in languages if (said := worded_log(game, line, lang, seats)) is not None}
            if words:
                out.append({"after": after, "text": line, "words": words})
    return out


def labelled(st, name: str, value):
    """A variable's value as a player reads it: components by their labels, not their ids."""
    return _shown(st, name, value, "component", lambda v: st.setup.clabel[v] if 0 <= v < len(st.setup.clabel) else v)


def named(st, name: str, value):
    """A variable's value with seats by name (a variable of players, or lists of them)."""
    return _shown(st, name, value, "player", lambda v: st.setup.seat_names[v] if 0 <= v < st.n else v)


def _shown(st, name: str, value, kind: str, show):
    """`value` of variable `name` with every id of `kind` (at the depth its type says) shown by `show`."""
    symbols = st.game.compiler.symbols if st.game.compiler is not None else None
    info = symbols.variables.get(name) if symbols is not None else None
    if info is None or info.type is None:
        return value
    ty, depth = info.type, 0
    while ty is not None and ty.kind == "list":
        ty, depth = ty.elem, depth + 1
    if ty is None or ty.kind != kind:
        return value

    def one(v, depth: int):
        if depth > 0 and isinstance(v, list):
            return [one(x, depth - 1) for x in v]
        return show(v) if isinstance(v, int) and not isinstance(v, bool) else v
    if info.per_player and isinstance(value, list) and len(value) == st.n:
        return [one(v, depth) for v in value]
    return one(value, depth)


def face_props(static: dict) -> dict:
    """The properties of a component drawn on its face: the numbers and the colours its type declares."""
    out = {}
    for name, value in static.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) or (isinstance(value, str) and rgb(value) is not None):
            out[name] = value
    return out


def _pieces(st, items: list[int], keep_order: bool) -> list[Piece]:
    """Components grouped by type, owner and label, with counts (in stacking order, or sorted)."""
    setup = st.setup
    groups: dict[tuple, Piece] = {}
    for c in items:
        key = (setup.ctype[c], setup.cowner[c], setup.clabel[c])
        if key in groups:
            groups[key].count += 1
        else:
            static = setup.cstatic[c] if c < len(setup.cstatic) and isinstance(setup.cstatic[c], dict) else {}
            groups[key] = Piece(*key, props=face_props(static))
    pieces = list(groups.values())
    if not keep_order:
        pieces.sort(key=lambda p: (p.type, -1 if p.owner is None else p.owner, p.label))
    return pieces


def zone_name(st, key: str) -> str:
    """The declared zone of a zone key: hand.red → hand, pile.3 → pile."""
    base, dot, rest = key.rpartition(".")
    return base if dot and base else key


def seat_view(st, seat: int | None = None, style: Style | None = None, before=None) -> SeatView:
    """What `seat` may see of `st` (None: what everybody may see). With `before`, the state before the
    last action, `last` holds what that action changed as the seat saw it (`last_changes`)."""
    game = st.game
    setup = st.setup
    obs = observe(st, seat)
    if style is None:
        style = style_of(game.board)
    spaces = setup.spaces
    view = SeatView(
        title=game.title, ruleset=game.id, seat=seat, seats=list(setup.seat_names),
        colours=style.player_colours(setup.seat_names, setup.seat_props),
        phase=obs.get("phase"), turn=obs.get("turn", ""), to_move=obs.get("to_move", ""),
        terminal=st.is_terminal(), style=style,
    )
    for key, shown in obs["zones"].items():
        kind = setup.zone_kind.get(key, "set")
        if key in spaces:
            if isinstance(shown, list):
                view.spaces[key] = _pieces(st, st.zones[key], keep_order=True)
            else:
                view.hidden_spaces[key] = shown.get("count", 0)
            continue
        owner = setup.zone_owner.get(key)
        if isinstance(shown, list):
            pieces = _pieces(st, st.zones[key], keep_order=kind not in ("bag", "set"))
            view.zones.append(ZoneView(key, zone_name(st, key), owner, len(shown), pieces, kind=kind))
        else:
            top_piece = None
            if shown.get("top") is not None and st.zones.get(key):  # its top lies face up: drawn as a face
                top_piece = _pieces(st, st.zones[key][-1:], keep_order=True)[0]
            view.zones.append(ZoneView(key, zone_name(st, key), owner, shown.get("count", 0), None,
                                       top=shown.get("top"), kind=kind, top_piece=top_piece))
    symbols = game.compiler.symbols if game.compiler is not None else None
    declared = {name: i for i, name in enumerate(game.variables)}  # in the order the ruleset declares them
    for name, value in sorted(obs["vars"].items(), key=lambda kv: (declared.get(kv[0], len(declared)), kv[0])):
        view.vars[name] = named(st, name, labelled(st, name, value))
        info = symbols.variables.get(name) if symbols is not None else None
        if info is not None and info.per_player:
            view.per_player_vars.add(name)
    view.sprops = {s: dict(v) for s, v in st.sprops.items() if s in spaces}
    view.log = list(obs.get("log", []))
    if st.is_terminal():
        view.scores = list(obs.get("scores") or st.scores())
        view.ranking = [list(g) for g in st.ranking()]
    if game.highlights:
        from .highlights import highlights
        view.highlights = highlights(st)
    if before is not None:
        view.last = last_changes(seat_view(before, seat, style), view)
    return view


def _seen(view: SeatView) -> dict[str, tuple]:
    """Every zone and space as the view shows it: its count and what the seat sees of it."""
    out: dict[str, tuple] = {}
    for z in view.zones:
        shown = [(p.type, p.owner, p.label, p.count) for p in z.pieces] if z.pieces is not None else None
        out[z.key] = (z.count, shown, z.top)
    for s, pieces in view.spaces.items():
        out[s] = (sum(p.count for p in pieces), [(p.type, p.owner, p.label, p.count) for p in pieces], None)
    for s, n in view.hidden_spaces.items():
        out[s] = (n, None, None)
    return out


def last_changes(old: SeatView, new: SeatView) -> dict[str, str]:
    """The zones and spaces that changed between two views of one seat: "from" where fewer components
    lie now, "to" where more do or what lies there changed. Only what the seat sees is compared (a
    count, a visible zone's contents, a top), so the marks tell it nothing its two views do not."""
    if old.seat != new.seat:
        raise ValueError("the views of two different seats")
    a, b = _seen(old), _seen(new)
    out = {}
    for key in list(a) + [k for k in b if k not in a]:
        was, now = a.get(key, (0, [], None)), b.get(key, (0, [], None))
        if was == now:
            continue
        out[key] = "from" if now[0] < was[0] else "to"
    return out
