"""`leges play`: a game at the terminal against computer opponents.

The human's seat sees only what that seat may see: the screen is built from
`state.observation(seat)`, and other players' moves are shown from `state.record_view(seat)`, so
a sealed secret choice appears as `(sealed)` until the rules reveal it. `screen` and `News` are
also what `leges check-leaks` checks, so the terminal front end is covered by the leak check.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .common import EXIT_OK, load_ruleset


def screen(st, player: int) -> list[str]:
    """The lines shown to `player` when it decides: the position as it may see it, then its options."""
    view = st.observation(player)
    lines = [f"-- {view['phase']}: turn of {view['turn']}"]
    for key, value in view["zones"].items():
        if isinstance(value, dict):
            shown = f"{value['count']} hidden" + (f", top {value['top']}" if value.get("top") else "")
        else:
            shown = " ".join(value) if value else "-"
        lines.append(f"   {key}: {shown}")
    for name, value in view["vars"].items():
        lines.append(f"   {name} = {labelled(st, name, value)}")
    for line in view["log"][-3:]:
        lines.append(f"   log: {line}")
    if st.current_player() == player:
        for i, action in enumerate(st.legal_actions(player), 1):
            lines.append(f"  {i:3}. {action.text}")
    return lines


def labelled(st, name: str, value):
    """A variable's value as a player reads it: components by their labels, not their ids."""
    symbols = st.game.compiler.symbols if st.game.compiler is not None else None
    info = symbols.variables.get(name) if symbols is not None else None
    if info is None:
        return value
    ty = info.type
    depth = 0
    while ty is not None and ty.kind == "list":
        ty, depth = ty.elem, depth + 1
    if ty is None or ty.kind != "component":
        return value
    if info.per_player and isinstance(value, list) and len(value) == st.n:
        return [_label(st, v, depth) for v in value]
    return _label(st, value, depth)


def _label(st, value, depth: int):
    if depth > 0 and isinstance(value, list):
        return [_label(st, v, depth - 1) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(st.setup.clabel):
        return st.setup.clabel[value]
    return value


@dataclass
class News:
    """Other players' moves as one seat sees them, each printed once; a sealed one again when revealed."""

    player: int
    seen: int = 0  # history entries already shown
    sealed: set = field(default_factory=set)  # shown as sealed, not yet revealed

    def lines(self, st) -> list[str]:
        view = st.record_view(self.player)
        me = st.player_name(self.player) + ": "
        out = []
        for i in sorted(self.sealed):
            if i < len(view) and not view[i].endswith(": (sealed)"):
                out.append(f"  revealed: {view[i]}")
                self.sealed.discard(i)
        for i in range(self.seen, len(view)):
            if view[i].startswith(me):
                continue
            out.append(f"  {view[i]}")
            if view[i].endswith(": (sealed)"):
                self.sealed.add(i)
        self.seen = len(view)
        return out


def cmd_play(args) -> int:
    import random
    from ..records import make_record, write_record
    from ..terminal import clean
    game = load_ruleset(args.ruleset, args)
    players = args.players if args.players is not None else game.min_players
    st = game.new_initial_state(players=players, seed=args.seed)
    seats = st.setup.seat_names
    me = st.player_index(args.seat) if args.seat else 0
    rng = random.Random(args.seed)
    news = News(me)
    print(f"{game.title}: you are {seats[me]}; the others play at random. Type a number, an action's text, or q.")
    while not st.is_terminal():
        who = st.current_player()
        actions = st.legal_actions(who)
        if who != me:
            st.apply_action(rng.choice(actions))
            continue
        for line in news.lines(st) + screen(st, me):
            print(line)
        while True:
            try:
                answer = input(clean(f"{seats[me]}> ")).strip()
            except EOFError:
                print()
                return EXIT_OK
            if answer in ("q", "quit", "exit"):
                return EXIT_OK
            choice = None
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                choice = actions[int(answer) - 1]
            else:
                choice = next((a for a in actions if a.text == answer), None)
            if choice is None:
                print(f"  not one of the {len(actions)} actions; type its number")
                continue
            st.apply_action(choice)
            break
    for line in news.lines(st):
        print(line)
    print("game over: " + " > ".join(" = ".join(seats[p] for p in g) for g in st.ranking())
          + f"; scores {st.scores()}")
    if args.record:
        # the record of this seat's game: what this seat saw (a choice still sealed stays sealed)
        write_record(args.record, make_record(game, args.ruleset, players, args.seed, st.record_view(me),
                                              {"ranking": [[seats[p] for p in g] for g in st.ranking()], "scores": st.scores()}))
        print(f"record written to {args.record}")
    return EXIT_OK


def register(sub, variant) -> None:
    p = sub.add_parser("play", parents=[variant], help="play at the terminal against random opponents")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int)
    p.add_argument("--seat", help="your seat (default: the first)")
    p.add_argument("--seed", "-s", type=int, default=0)
    p.add_argument("--record", metavar="FILE", help="write the game's record to FILE at the end")
    p.set_defaults(run=cmd_play)
