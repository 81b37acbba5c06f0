"""`leges play`: a game at the terminal against computer opponents."""
from __future__ import annotations

from .common import EXIT_OK, load_ruleset


def cmd_play(args) -> int:
    import random
    from ..records import make_record, write_record
    game = load_ruleset(args.ruleset, args)
    players = args.players if args.players is not None else game.min_players
    st = game.new_initial_state(players=players, seed=args.seed)
    seats = st.setup.seat_names
    me = st.player_index(args.seat) if args.seat else 0
    rng = random.Random(args.seed)
    print(f"{game.title}: you are {seats[me]}; the others play at random. Type a number, an action's text, or q.")
    while not st.is_terminal():
        who = st.current_player()
        actions = st.legal_actions(who)
        if who != me:
            mine = st.legal_actions(me) if st.pending and st.pending["player"] != me else []
            action = rng.choice(actions)
            print(f"  {seats[who]}: {action.text}")
            st.apply_action(action)
            del mine
            continue
        _show(st, me)
        for i, a in enumerate(actions, 1):
            print(f"  {i:3}. {a.text}")
        while True:
            try:
                answer = input(f"{seats[me]}> ").strip()
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
    print("game over: " + " > ".join(" = ".join(seats[p] for p in g) for g in st.ranking())
          + f"; scores {st.scores()}")
    if args.record:
        write_record(args.record, make_record(game, args.ruleset, players, args.seed, st.history,
                                              {"ranking": [[seats[p] for p in g] for g in st.ranking()], "scores": st.scores()}))
        print(f"record written to {args.record}")
    return EXIT_OK


def _show(st, player: int) -> None:
    view = st.observation(player)
    print(f"-- {view['phase']}: turn of {view['turn']}")
    for key, value in view["zones"].items():
        if isinstance(value, dict):
            shown = f"{value['count']} hidden" + (f", top {value['top']}" if value.get("top") else "")
        else:
            shown = " ".join(value) if value else "-"
        print(f"   {key}: {shown}")
    for line in view["log"][-3:]:
        print(f"   log: {line}")


def register(sub, variant) -> None:
    p = sub.add_parser("play", parents=[variant], help="play at the terminal against random opponents")
    p.add_argument("ruleset", metavar="RULESET")
    p.add_argument("--players", "-p", type=int)
    p.add_argument("--seat", help="your seat (default: the first)")
    p.add_argument("--seed", "-s", type=int, default=0)
    p.add_argument("--record", metavar="FILE", help="write the game's record to FILE at the end")
    p.set_defaults(run=cmd_play)
