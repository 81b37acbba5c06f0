"""Differential check: the hand-written Pompeii (pompeii.py) against the ruleset, decision by decision.

    python benchmarks/reference/check_pompeii.py                 # 1,000 games, 2 to 4 players
    python benchmarks/reference/check_pompeii.py --games 30 -p 3 # fewer

Leges runs in explicit-chance mode: every shuffle step and lava draw is a chance decision, and
the outcome picked (at random, by its probability) is queued and fed to the reference through
its `Chance` object, so both games see the same cards and tiles. At every decision the legal
options of every player must be the same sets of texts, and the public state (board, saved,
volcano, supplies, hands, counts of deck and bag) the same; the action taken is drawn at random
from them (a four-joker declaration, being rare, is taken half the time it is offered). Every
other round of games is a stress game (`compare_game`): A.D. 79 sinks to the bottom of the
deck and players crowd the buildings, to reach jokers, full boards, empty supplies and
four-joker declarations. Prints the number of decisions compared; exits with status 1 at the
first difference.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
try:
    import leges
except ImportError:  # not installed: use the source tree
    sys.path.insert(0, str(ROOT / "interpreter"))
    import leges


def _load_reference():
    """The reference module, loaded from its file (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location("reference_pompeii", Path(__file__).with_name("pompeii.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load_reference()


class Mismatch(AssertionError):
    """The reference and the ruleset disagree (the message says where)."""


class ReplayedChance(ref.Chance):
    """Chance outcomes taken from a queue of labels (Leges' explicit-chance outcomes, in order)."""

    def __init__(self) -> None:
        self.queue: deque[str] = deque()

    def _next(self) -> str:
        if not self.queue:
            raise Mismatch("the reference wants a chance outcome that Leges did not ask for")
        return self.queue.popleft()

    def shuffle(self, items: list, lo: int, hi: int) -> None:
        # Leges' explicit shuffle: for position i from the top down, an outcome names which
        # remaining item goes there; equal labels are equal items, so the first one is taken
        # (the reference shuffles only the deck: its items are cards, labelled by CARD_TEXT)
        labels = ref.CARD_TEXT
        for i in range(hi - 1, lo, -1):
            label = self._next()
            j = next((k for k in range(lo, i + 1) if labels[items[k]] == label), None)
            if j is None:
                raise Mismatch(f"shuffle outcome {label!r} is not among the reference's "
                               f"{[labels[c] for c in items[lo:i + 1]]}")
            items[i], items[j] = items[j], items[i]

    def pick(self, items: list) -> int:
        # (the reference draws only from the lava bag: its items are symbols, labelled by SYMBOLS)
        label = self._next()
        for k, item in enumerate(items):
            if ref.SYMBOLS[item] == label:
                return k
        raise Mismatch(f"draw outcome {label!r} is not among the reference's {sorted(ref.SYMBOLS[i] for i in items)}")


def resolve_chance(state, rng: random.Random, queue: deque, stress: bool = False) -> None:
    """Decide Leges' chance nodes (by their probabilities) up to the next player decision.

    Under `stress`, A.D. 79 is never picked while another card can be: shuffled back, it sinks
    to the bottom of the deck, so the settling phase runs as long as it can (full buildings,
    jokers, empty supplies, four-joker hands).
    """
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        if stress and len(outcomes) > 1:
            outcomes = [o for o in outcomes if o[0].text != "chance ad79"]
        action = rng.choices([a for a, _ in outcomes], weights=[w for _, w in outcomes])[0]
        queue.append(action.text.removeprefix("chance "))
        state.apply_action(action)


def leges_view(state, n: int) -> dict:
    """The public facts compared at every decision, from Leges' observations."""
    seats = ref.SEATS[:n]
    zones = state.observation(0)["zones"]
    board = {s: sorted(zones[s]) for s in ref.SQUARES if zones.get(s)}
    hands = [sorted(state.observation(p)["zones"][f"hand.{seats[p]}"]) for p in range(n)]
    return {
        "board": board,
        "saved": [len(zones[f"saved.{s}"]) for s in seats],
        "volcano": sorted(zones["volcano"]),
        "supply": [len(zones[f"supply.{s}"]) for s in seats],
        "hands": hands,
        "deck": zones["deck"]["count"],
        "bag": zones["bag"]["count"],
    }


def reference_view(game) -> dict:
    """The same facts from the reference's integers (and its own counts checked against each other)."""
    n = game.n
    seats = ref.SEATS[:n]
    board = {}
    for s in ref.CITY:
        labels = [seats[p] for p in range(n) for _ in range(game.pos[p].get(s, 0))]
        if game.lava[s] >= 0:
            labels.append(ref.SYMBOLS[game.lava[s]])
        if labels:
            board[ref.SQUARE_TEXT[s]] = sorted(labels)
        if game.tot[s] != sum(game.pos[p].get(s, 0) for p in range(n)):
            raise Mismatch(f"the reference's count of citizens on {ref.SQUARE_TEXT[s]} is off")
    if game.onb != [sum(pos.values()) for pos in game.pos] or any(0 in pos.values() for pos in game.pos):
        raise Mismatch("the reference's counts of citizens on the board are off")
    if game.phase == "settle":
        free = [ref.CIRCLES[s] - game.tot[s] for s in range(ref.NSQ)]
        numfree = [sum(free[s] for s in ref.NUMBER_SQUARES[k]) for k in range(1, 12)]
        if game.free != free or game.numfree[1:] != numfree:
            raise Mismatch("the reference's counts of free circles are off")
    hands = [[ref.CARD_TEXT[c] for c in hand] for hand in game.hands]
    if game.ad79_in_hand:  # Leges holds A.D. 79 in the hand until its replacement is drawn
        hands[game.turn].append(ref.CARD_TEXT[ref.AD79])
    return {
        "board": board,
        "saved": list(game.saved),
        "volcano": sorted(seats[p] for p in range(n) for _ in range(game.volcano[p])),
        "supply": list(game.supply),
        "hands": [sorted(h) for h in hands],
        "deck": len(game.deck),
        "bag": len(game.bag),
    }


def _crowding(game, choices: list) -> list:
    """The choices that fill the board fastest: no passing, plays into the most crowded building."""
    if len(choices) > 1:
        choices = [c for c in choices if c[1] != "pass"]

    def crowd(choice) -> int:
        if choice[1].startswith("relative"):  # numbered buildings first: their cards become jokers
            return ref.NUMBER_AT[ref.SQUARE[choice[1].rsplit("=", 1)[1]]] != 0
        if not choice[1].startswith("play card="):
            return 0
        square = ref.SQUARE[choice[1].rsplit("square=", 1)[1]]
        return sum(game.tot[s] for s in ref.B_SQUARES[ref.BUILDING_AT[square]])

    most = max(crowd(c) for c in choices)
    return [c for c in choices if crowd(c) == most]


def compare_game(rules, players: int, seed: int, stress: bool = False) -> int:
    """Play one random game in lock-step; return the number of decisions compared.

    Actions are drawn uniformly from every player's legal ones; a four-joker declaration is
    taken half the time it is offered. Under `stress` (see resolve_chance) citizens go where
    the most relatives follow and relatives are never passed (and go to numbered buildings first),
    so the board and supplies run out.
    """
    rng = random.Random(seed * 7919 + players)
    state = rules.new_initial_state(players=players, seed=seed, explicit_chance=True)
    chance = ReplayedChance()
    resolve_chance(state, rng, chance.queue, stress)
    game = ref.new_game(players, chance=chance)
    decisions = 0
    step = 0
    while True:
        where = f"{players} players, seed {seed}, after {step} actions ({state.history[-1] if state.history else 'start'})"
        if chance.queue:
            raise Mismatch(f"{where}: the reference did not use Leges' chance outcomes {list(chance.queue)}")
        if game.terminal != state.is_terminal():
            raise Mismatch(f"{where}: terminal is {game.terminal} in the reference, {state.is_terminal()} in Leges")
        if game.current_player != state.current_player():
            raise Mismatch(f"{where}: {game.current_player} decides in the reference, {state.current_player()} in Leges")
        ours, theirs = reference_view(game), leges_view(state, players)
        if ours != theirs:
            diff = {k: (ours[k], theirs[k]) for k in ours if ours[k] != theirs[k]}
            raise Mismatch(f"{where}: states differ (reference, Leges): {diff}")
        if game.terminal:
            if game.returns() != state.returns() or game.scores() != state.scores():
                raise Mismatch(f"{where}: results differ: {game.scores()} {game.returns()} vs "
                               f"{state.scores()} {state.returns()}")
            return decisions
        choices = []
        for p in range(players):
            texts = game.legal(p)
            mine = set(texts)
            if len(mine) != len(texts):
                raise Mismatch(f"{where}: the reference offers {ref.SEATS[p]} an action twice: {sorted(texts)}")
            leges_texts = {a.text for a in state.legal_actions(p)}
            if mine != leges_texts:
                raise Mismatch(f"{where}: legal actions of {ref.SEATS[p]} differ: only in the reference "
                               f"{sorted(mine - leges_texts)}, only in Leges {sorted(leges_texts - mine)}")
            choices.extend((p, t) for t in sorted(mine))
        decisions += 1
        declare = [c for c in choices if c[1] == "declare_eruption"]
        if stress:
            choices = _crowding(game, choices)
        player, text = rng.choice(declare) if declare and rng.random() < 0.5 else rng.choice(choices)
        state.apply_action(leges.Action(player, text))
        resolve_chance(state, rng, chance.queue, stress)
        game.apply(text, player)
        step += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", "-g", type=int, default=1000, help="games in all (default 1000)")
    parser.add_argument("--players", "-p", type=int, action="append", help="player counts (default 2, 3 and 4)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    args = parser.parse_args()
    counts = args.players or [2, 3, 4]
    rules = leges.load(str(ROOT / "rulesets" / "pompeii"))
    start = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        players = counts[i % len(counts)]
        stress = (i // len(counts)) % 2 == 1  # every other round of player counts
        try:
            decisions += compare_game(rules, players, args.seed + i, stress)
        except Mismatch as exc:
            print(f"DIFFERENCE after {decisions} decisions agreed: {exc}")
            sys.exit(1)
        if (i + 1) % 100 == 0:
            print(f"{i + 1} games, {decisions} decisions, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"{args.games} games ({', '.join(map(str, counts))} players): {decisions} decisions compared, "
          f"no difference ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
