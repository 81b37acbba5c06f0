"""`leges play`: a game at the terminal against computer opponents.

The human's seat sees only what that seat may see: the screen is built from the seat's view
(render/view.py, itself built from `state.observation(seat)`), and other players' moves are shown
from `state.record_view(seat)`, so a sealed secret choice appears as `(sealed)` until the rules
reveal it. The screen (render/screen.py) is also what `leges check-leaks` checks, so the
terminal front end is covered by the leak check.

The screen: the phase and whose turn, the board as text (squares and hexes; in colour where the
terminal has it), each player's zones and variables in one line (counts, not repeated names; the
seat's own first), what lies on the table, then the seat's actions. Between two screens the
other players' moves, the log and what changed in view are printed; at the end, the scores.

Every text from the ruleset (title, labels, log lines, the scoring's texts) is `shown` where it is
put into a line (terminal.py), and the screen is painted on a stream that lets only Leges' own
colour codes through: on a terminal, in colour or not, nothing from a file is obeyed.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from ..engine.words import seat_called
from ..render.screen import safe_view, screen
from ..text.terminal import WIDE, coloured, shown
from .common import EXIT_OK, load_ruleset, seat_index
from .play_answers import cell_choice, match_answer, why_not


@dataclass
class News:
    """Other players' moves as one seat sees them, each printed once (a sealed one again when revealed),
    and the decisions the engine took at once because they had a single option (`state.at_once`: the
    seat's own too, "you, at once: ..."), in words where the ruleset gives phrases (`lang`)."""

    player: int
    lang: str | None = "en"
    seen: int = 0  # history entries already noted
    sealed: set = field(default_factory=set)  # shown as sealed, not yet revealed
    waiting: list = field(default_factory=list)  # lines noted, not yet printed
    forced: object = None  # the `state.at_once` list last noted (replaced, never changed in place)

    def said(self, st, entry: str) -> str:
        from ..engine.words import worded_entry
        return worded_entry(st.game, entry, self.lang) or entry

    def note(self, st) -> None:
        """Note what happened since the last note: call after every action applied."""
        view = st.record_view(self.player)
        me = st.player_name(self.player) + ": "
        for i in range(self.seen, len(view)):
            if view[i].startswith(me):
                continue
            self.waiting.append(f"  {shown(self.said(st, view[i]), WIDE)}")
            if view[i].endswith(": (sealed)"):
                self.sealed.add(i)
        self.seen = len(view)
        if st.at_once is self.forced:
            return
        self.forced = st.at_once
        for entry in st.at_once:
            who, _, text = entry.partition(": ")
            said = self.said(st, entry).partition(": ")[2] or text
            whom = "you" if who == st.player_name(self.player) else seat_called(st.game, who, self.lang)
            self.waiting.append(f"  {shown(whom, 60)}, at once (the only choice): {shown(said, WIDE)}")

    def lines(self, st) -> list[str]:
        self.note(st)
        view = st.record_view(self.player)
        out = []
        for i in sorted(self.sealed):
            if i < len(view) and not view[i].endswith(": (sealed)"):
                out.append(f"  revealed: {shown(self.said(st, view[i]), WIDE)}")
                self.sealed.discard(i)
        out, self.waiting = self.waiting + out, []
        return out


@dataclass
class Changes:
    """What changed in a seat's view between two of its screens — the game's own moves (cards
    dealt, pieces moved by a rule) that no player's action names —, what came into and went out of
    the seat's own zones (`your hand: +10 −2`: a card drawn, one played) and the new log lines."""

    player: int
    zones: dict | None = None
    spaces: dict | None = None
    log: int = 0
    lang: str | None = None  # the log lines the engine wrote, in words (engine/words.py)
    contents: dict | None = None  # the seat's own zones it sees into: key → {label: how many}

    def lines(self, st) -> list[str]:
        from ..render.text import pieces_text
        from ..render.view import seat_view
        view = safe_view(seat_view(st, self.player))
        zones = {z.key: (z.count, pieces_text(z.pieces, view.seats) if z.pieces is not None else None) for z in view.zones}
        spaces = {s: pieces_text(p, view.seats) for s, p in view.spaces.items()}
        spaces.update({s: f"{n} hidden" for s, n in view.hidden_spaces.items()})
        out = []
        new_log = st.log[self.log:] if len(st.log) >= self.log else st.log[-3:]
        from ..engine.words import worded_log
        seats = st.setup.seat_names
        out += [f"  log: {shown(worded_log(st.game, line, self.lang, seats) or line if self.lang else line)}" for line in new_log]
        self.log = len(st.log)
        if self.zones is not None:
            moved = []
            for key, (count, inside) in zones.items():
                before = self.zones.get(key)
                if before is not None and before[0] != count:
                    moved.append(f"{key} {before[0]}→{count}")
            before_spaces = self.spaces or {}
            for s in sorted(set(spaces) | set(before_spaces), key=lambda s: s):
                if spaces.get(s, "") != before_spaces.get(s, ""):
                    moved.append(f"{s} {before_spaces.get(s) or '-'}→{spaces.get(s) or '-'}")
            if moved:
                out.append("  changed: " + " · ".join(moved[:24]) + (" ..." if len(moved) > 24 else ""))
        contents = {z.key: _counts(z.pieces) for z in view.zones if z.owner == self.player and z.pieces is not None}
        if self.contents is not None:
            phrases = st.game.words
            for key, now in contents.items():
                before = self.contents.get(key)
                if before is None or before == now:
                    continue
                came = [label for label, n in now.items() for _ in range(n - before.get(label, 0))]
                went = [label for label, n in before.items() for _ in range(n - now.get(label, 0))]
                if all(label == view.seats[self.player] for label in came + went):
                    continue  # one's own pieces (a supply of them): the counts above say it
                name = key.split(".", 1)[0]
                name = (phrases.name(name, self.lang) if phrases and self.lang else None) or name
                parts = [f"+{label}" for label in came[:12]] + [f"−{label}" for label in went[:12]]
                out.append(f"  your {shown(name, 60)}: " + " ".join(parts))
        self.zones, self.spaces, self.contents = zones, spaces, contents
        return out


def _counts(pieces) -> dict:
    out: dict = {}
    for p in pieces or []:
        out[p.label] = out.get(p.label, 0) + p.count
    return out


def score_lines(st, lang: str | None = None) -> list[str]:
    """The end: the ranking, then each seat's score and tie-breaks, with what they count (the seats
    by their display names in `lang`)."""
    seats = [shown(seat_called(st.game, s, lang)) for s in st.setup.seat_names]
    lines = ["game over: " + " > ".join(" = ".join(seats[p] for p in g) for g in st.ranking())
             + f"; scores {st.scores()}"]
    scoring = st.game.ruleset.scoring if st.game.ruleset is not None else None
    if scoring is None:
        return lines
    if scoring.description:
        lines.append("  " + shown(" ".join(scoring.description.split()), WIDE))
    keys = []
    for p in range(st.n):
        try:
            keys.append(tuple(st._score_keys(p)))  # the score and the tie-breaks, as the ranking compares them
        except Exception:  # noqa: BLE001 - the breakdown is a courtesy: the scores above are the result
            keys.append((st.scores()[p],))
    heads = ["score"] + [f"tie-break {i + 1}" for i in range(len(keys[0]) - 1)]
    width = max(len("seat"), *(len(s) for s in seats)) + 2
    place = {p: i + 1 for i, g in enumerate(st.ranking()) for p in g}
    lines.append("  " + "place  " + "seat".ljust(width) + "  ".join(h.rjust(max(5, len(h))) for h in heads))
    for p in sorted(range(st.n), key=lambda p: place[p]):
        cells = "  ".join(str(v).rjust(max(5, len(h))) for v, h in zip(keys[p], heads))
        lines.append(f"  {place[p]:>5}  " + seats[p].ljust(width) + cells)
    texts = [("score", scoring.score.text if scoring.score else None)]
    texts += [(f"tie-break {i + 1}", t.text) for i, t in enumerate(scoring.tiebreak)]
    lines.append("  (" + "; ".join(f"{h}: {shown(' '.join(str(t).split()), WIDE)}" for h, t in texts if t) + ")")
    return lines


def use_colour(choice: str, stream) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


COMMANDS = (
    ("N", "take option N (its number in the list)"),
    ("TEXT", ("an option's text form as the records write it (`place square=r1c1`), or words of it that pick "
              "out one option (`r1c1`, `card=6 r3c2`), or a cell of the board for an option whose choice the map "
              "relates to cells (`r3c2` for Connect Four's column 2); an action not legal now is answered with why not")),
    ("why N", "the rule behind option N: the rulebook, its section and words, and where the ruleset says it"),
    ("texts", "list the options by their text forms (as they are typed), or in words again"),
    ("more", "the next page of options, when they do not all fit on the screen"),
    ("help, ?", "this help"),
    ("q", "quit"),
)


def help_lines(st, player: int, lang: str | None = "en") -> list[str]:
    """The commands, how a move is written (every action of the game with its parameters, in words
    where the ruleset gives a phrase) and how the board is read."""
    from ..engine.words import pick
    game = st.game
    out = ["  commands:"]
    from ..render.text import wrap
    for name, text in COMMANDS:
        parts = wrap(text, 86)
        out += [f"    {name:<8} {parts[0]}"] + [f"    {'':<8} {part}" for part in parts[1:]]
    out.append("  a move is written NAME param=value ..., the parameters in order (the names may be left out:")
    out.append("  `place r1c1`); this game's actions:")
    phrases = game.words
    for aid, action in game.actions.items():
        params = [name for name, _ in (getattr(action.decl, "params", None) or [])]
        form = " ".join([aid] + [f"{p}=..." for p in params])
        said = pick(phrases.actions.get(aid), lang) if phrases else None
        words = "".join(t if n is None else "{" + n + "}" for t, n in said.parts) if said is not None else ""
        out.append(f"    {shown(form, 80)}" + (f"  ({shown(words, WIDE)})" if words else ""))
    pending = st.pending
    if pending is not None and pending.player == player and pending.kind == "choose":
        first = next((o.text for o in pending.options if o.action != "pass"), None)
        if first is not None:
            out.append(f"    now a choice: {shown(first.split('=', 1)[0], 80)}=... (or its number)")
    out.append("  the board: a square shows what stands on it (R2: two of red's pieces; a tile by its text in")
    out.append("  capitals), else the map's own label for it (an area's, a mark's), else the map's sign for it.")
    return out


def why_lines(st, player: int, answer: str) -> list[str] | None:
    """`why N`: the citation of option N (None when the answer is not `why N`)."""
    words = answer.split()
    if len(words) != 2 or words[0] not in ("why", "why?") or not words[1].isdigit():
        return None
    from ..render.actions import describe_actions
    infos = describe_actions(st, player)
    n = int(words[1])
    if not 1 <= n <= len(infos):
        return [f"  not one of the {len(infos)} options; `why N` with N from 1 to {len(infos)}"]
    info = infos[n - 1]
    cite = info.citation
    if cite is None:
        return [f"  {shown(info.text)}: no rule cited"]
    out = [f"  {shown(info.text)} — {shown(cite.rule or '', 80)}"]
    head = " § ".join(x for x in (cite.title or cite.book, cite.section) if x)
    out.append(f"    {shown(head, WIDE)}")
    if cite.quote:
        out.append(f"    “{shown(cite.quote, WIDE)}”")
    if cite.reading:
        out.append(f"    (reading {shown(cite.reading, 80)})")
    if cite.where:
        out.append(f"    written at {shown(cite.where, WIDE)}")
    return out


def screen_size(stream) -> tuple[int, int]:
    """(width, height) of the terminal, or of the screen Leges fits when it cannot tell (COLUMNS and LINES count)."""
    import shutil
    from ..render.screen import HEIGHT, WIDTH
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty and not (os.environ.get("COLUMNS") or os.environ.get("LINES")):
        return WIDTH, HEIGHT
    cols, rows = shutil.get_terminal_size((WIDTH, HEIGHT))
    return max(40, min(cols, 200)), max(20, rows)


def cmd_play(args) -> int:
    import random
    from ..lab.records import make_record, write_record
    game = load_ruleset(args.ruleset, args)
    from ..engine.rng import secret_seed
    players = args.players if args.players is not None else game.min_players
    seed = secret_seed() if args.seed is None else args.seed  # a known seed tells every hidden card
    st = game.new_initial_state(players=players, seed=seed)
    seats = st.setup.seat_names
    me = seat_index(st, args.seat) if args.seat else 0
    lang = getattr(args, "lang", None) or "en"
    rng = random.Random(seed)
    news = News(me, lang)
    changes = Changes(me, lang=lang)
    colour = use_colour(getattr(args, "colour", "auto"), sys.stdout)
    painted = coloured(sys.stdout) if colour else sys.stdout  # Leges' colour codes pass, nothing else
    width, height = screen_size(sys.stdout)
    texts = False

    def show(lines):
        for line in lines:
            painted.write(line + "\n")
        painted.flush()

    called = [shown(seat_called(game, s, lang)) for s in seats]  # the seats' display names; `seats` their names
    print(f"{shown(game.title)}: you are {called[me]}; the others play at random. Type a number, an action's text "
          f"(or words that pick out one, such as a square), help (or ?) for the commands, or q.")
    if args.seed is not None:
        print(f"The deal is not secret: seed {seed} (whoever knows it can compute every hidden card).")
    news.note(st)
    while not st.is_terminal():
        who = st.current_player()
        actions = st.legal_actions(who)
        if who != me:
            st.apply_action(rng.choice(actions))
            news.note(st)
            continue
        page = 0
        told = news.lines(st) + changes.lines(st)
        show(told + screen(st, me, colour, lang, texts, page, height, width))
        while True:
            try:
                answer = input(f"{called[me]}> ").strip()
            except EOFError:
                print()
                return EXIT_OK
            if answer in ("q", "quit", "exit"):
                return EXIT_OK
            if answer in ("help", "?", "h"):
                show(help_lines(st, me, lang))
                continue
            if answer in ("texts", "words"):
                texts = not texts if answer == "texts" else False
                show(screen(st, me, colour, lang, texts, page, height, width))
                continue
            if answer in ("more", "m"):
                page += 1
                show(screen(st, me, colour, lang, texts, page, height, width))
                continue
            why = why_lines(st, me, answer)
            if why is not None:
                show(why)
                continue
            choice, problem = match_answer(answer, actions)
            if choice is None:  # a cell of the board, for an action its choice maps to spaces (a column)?
                choice, said = cell_choice(st, me, answer, actions)
                if said is not None:
                    print(f"  {shown(said, WIDE)}")
                    if choice is None:
                        continue
            if choice is None:
                why_not_legal = why_not(st, answer, me)  # an action named: why it is not legal (the rule, its values, its citation)
                if why_not_legal is not None:
                    print(f"  {shown(why_not_legal, WIDE)}")
                print(f"  {shown(problem, WIDE)}")
                continue
            if choice.text != answer and not answer.isdigit():
                print(f"  → {shown(choice.text)}")
            st.apply_action(choice)
            news.note(st)
            for line in changes.lines(st):  # what the player's move brought about (a card drawn, a piece moved)
                print(line.replace("  changed: ", "  then: ", 1))
            break
    for line in news.lines(st) + changes.lines(st):
        print(line)
    show(screen(st, me, colour, lang, texts, 0, height, width))  # the last position, a winning line marked
    for line in score_lines(st, lang):
        print(line)
    if args.record:
        # the record of this seat's game: what this seat saw (a choice still sealed stays sealed)
        write_record(args.record, make_record(game, args.ruleset, players, seed, st.record_view(me),
                                              {"ranking": [[seats[p] for p in g] for g in st.ranking()], "scores": st.scores()}))
        print(f"record written to {args.record}")
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("play", parents=[variant], help="play at the terminal against random opponents")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int)
    p.add_argument("--seat", help="your seat (default: the first)")
    p.add_argument("--seed", "-s", type=int, metavar="N",
                   help="deal from seed N, to play a deal again (then not secret); default: a seed from the operating "
                        "system's secure source, written into the record at the end")
    p.add_argument("--record", metavar="FILE", help="write the game's record to FILE at the end")
    p.add_argument("--colour", "--color", choices=["auto", "always", "never"], default="auto",
                   help="the board in colour: auto (when the output is a terminal and NO_COLOR is not set), always, never")
    p.add_argument("--lang", metavar="LANG",
                   help="the language of the moves' and components' words (en, hu, ru, ...: those the ruleset gives; "
                        "default en, else the text forms)")
    p.set_defaults(run=cmd_play)
