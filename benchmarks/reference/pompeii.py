"""The Downfall of Pompeii written straight in Python: the yardstick for Leges' speed.

This is the default ruleset of `rulesets/pompeii` (no variants, every reading of
`readings.yaml` as encoded there) by hand, with plain lists and dicts and no import of
`leges`. It exists so that the benchmark can say how much the generic interpreter costs: a
fair yardstick must do the same work, so it offers exactly the decisions Leges offers, with the
same texts (`play card=6 building=6b square=r4c3`, `relative square=r1c3`, `pass`, ...):

- a decision with a single option is taken at once and never shown, one with none is skipped;
- options with equal texts (two cards of the same number) are one option;
- `declare_eruption` is offered to every player whose four cards are all jokers, at any
  decision of the settling phase (reading `anytime_means_any_decision`).

Chance (shuffles, lava draws) goes through a `Chance` object. The default one uses Python's
`random`, so games differ from Leges' for the same seed; `tests/test_reference_pompeii.py`
passes one that replays the outcomes Leges chose in explicit-chance mode, which is why shuffles
here are the same Fisher-Yates, from the top down, as Leges' (`State.shuffle_range`).

    game = new_game(3, seed=1)
    while not game.terminal:
        game.apply(rng.choice(game.legal()))
    game.scores()
"""
from __future__ import annotations

import random
from collections import deque

SEATS = ("red", "black", "yellow", "blue")
CITIZENS = {2: 36, 3: 30, 4: 25}
TERMINAL = -4  # the "player" to move once the game is over (OpenSpiel's and Leges' value)

# Pompeii cards are their numbers; how many of each (components.yaml, in that order: Leges'
# deck starts in this order, so replayed shuffles give the same deck).
CARD_COUNTS = ((1, 4), (2, 4), (3, 5), (4, 7), (5, 4), (6, 7), (7, 3), (8, 5), (9, 4), (10, 5), (11, 5))
OMEN, AD79 = "omen", "ad79"
OMENS = 7
LAVA_COUNTS = (("vase", 7), ("helmet", 7), ("mask", 7), ("scroll", 8), ("column", 8), ("coin", 8))
OPENING_TILES = 6

# ------------------------------------------------------------------ the board (maps/pompeii.yaml)
ROWS, COLS = 7, 11
OUTSIDE = {(0, 8), (0, 9), (0, 10), (1, 10), (6, 0), (6, 1), (6, 2)}
SQUARES = [f"r{r}c{c}" for r in range(ROWS) for c in range(COLS) if (r, c) not in OUTSIDE]
NEIGHBOURS: dict[str, list[str]] = {
    f"r{r}c{c}": [f"r{r + dr}c{c + dc}" for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                  if 0 <= r + dr < ROWS and 0 <= c + dc < COLS and (r + dr, c + dc) not in OUTSIDE]
    for r in range(ROWS) for c in range(COLS) if (r, c) not in OUTSIDE
}
CIRCLES = {
    "r0c1": 1, "r0c4": 2, "r0c6": 2, "r1c0": 2, "r1c1": 2, "r1c3": 3, "r1c4": 2, "r1c7": 2,
    "r2c0": 2, "r2c2": 3, "r2c3": 2, "r2c4": 2, "r2c5": 3, "r2c6": 4, "r2c8": 4, "r3c1": 3,
    "r3c2": 2, "r3c3": 2, "r3c6": 3, "r3c7": 3, "r3c9": 2, "r3c10": 1, "r4c2": 1, "r4c3": 2,
    "r4c5": 3, "r4c6": 2, "r5c1": 2, "r5c3": 2, "r5c4": 4, "r5c5": 3, "r5c7": 2, "r5c8": 1,
    "r5c10": 2, "r6c5": 2, "r6c8": 1, "r6c10": 1,
}
GATES = ("r0c0", "r0c5", "r1c9", "r4c0", "r4c10", "r6c6", "r6c8")
VENTS = {"scroll": "r0c7", "coin": "r1c2", "vase": "r2c10", "column": "r3c4", "mask": "r6c3", "helmet": "r6c9"}
# (id, number or None for a neutral building, colour, squares)
BUILDINGS = [
    ("1", 1, "grey", ("r1c0", "r1c1")), ("2", 2, "purple", ("r0c4", "r1c4")),
    ("3a", 3, "purple", ("r2c2",)), ("3b", 3, "purple", ("r2c3",)),
    ("4a", 4, "grey", ("r2c5",)), ("4b", 4, "grey", ("r2c6",)), ("5", 5, "purple", ("r2c8",)),
    ("6a", 6, "turquoise", ("r3c2", "r4c2")), ("6b", 6, "turquoise", ("r3c3", "r4c3")),
    ("7", 7, "purple", ("r4c5",)), ("8a", 8, "grey", ("r3c6",)), ("8b", 8, "grey", ("r4c6",)),
    ("9", 9, "turquoise", ("r5c4",)), ("10a", 10, "brown", ("r5c5",)), ("10b", 10, "brown", ("r6c5",)),
    ("11a", 11, "brown", ("r5c8", "r6c8")), ("11b", 11, "brown", ("r5c10", "r6c10")),
    ("n01", None, "neutral", ("r0c1",)), ("n02", None, "neutral", ("r0c6",)), ("n03", None, "neutral", ("r1c3",)),
    ("n04", None, "neutral", ("r1c7",)), ("n05", None, "neutral", ("r2c0",)), ("n06", None, "neutral", ("r2c4",)),
    ("n07", None, "neutral", ("r3c1",)), ("n08", None, "neutral", ("r3c7",)), ("n09", None, "neutral", ("r3c9",)),
    ("n10", None, "neutral", ("r3c10",)), ("n11", None, "neutral", ("r5c1",)), ("n12", None, "neutral", ("r5c3",)),
    ("n13", None, "neutral", ("r5c7",)),
]
BUILDING_OF = {s: b for b in BUILDINGS for s in b[3]}
NUMBERED = {n: [b for b in BUILDINGS if b[1] == n] for n, _ in CARD_COUNTS}


class Chance:
    """Where the game's randomness comes from; the test replaces it to follow Leges' outcomes."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def shuffle(self, items: list, lo: int, hi: int) -> None:
        """Shuffle items[lo:hi] in place (Fisher-Yates from the top down, as Leges does)."""
        for i in range(hi - 1, lo, -1):
            j = lo + self.rng.randrange(i - lo + 1)
            items[i], items[j] = items[j], items[i]

    def pick(self, items: list) -> int:
        """The index of an item drawn at random (a lava tile from the bag)."""
        return self.rng.randrange(len(items))


class Game:
    """One game: plain state plus the decision waiting to be taken (`player`, `options`)."""

    def __init__(self, players: int, chance: Chance):
        if players not in CITIZENS:
            raise ValueError("The Downfall of Pompeii is for 2 to 4 players")
        self.n = players
        self.chance = chance
        # cards: the draw pile (top last), the seven piles of the set-up, the hands
        self.deck: list = []
        self.piles: list[list] = []
        self.hands: list[list] = [[] for _ in range(players)]
        self.ad79_drawn = 0
        self.ad79_in_hand = False  # drawn the first time, waiting for its replacement before going back
        # citizens: supply counts, the board (square -> owners of the citizens on it), saved, volcano
        self.supply = [CITIZENS[players]] * players
        self.board: dict[str, list[int]] = {s: [] for s in SQUARES}
        self.saved = [0] * players
        self.volcano = [0] * players
        # lava: the bag, the tile drawn, the squares covered (square -> symbol)
        self.bag = [symbol for symbol, count in LAVA_COUNTS for _ in range(count)]
        self.tile: str | None = None
        self.lava: dict[str, str] = {}
        self.gate_distance: dict[str, int] = {}  # fewest steps to an open gate, for squares that reach one
        # flow
        self.phase = "setup"
        self.turn = 0
        self.chooser = 0
        self.erupter = 0
        self.last_lava = 0
        self.opening_tiles = 0
        # relatives being placed after a play: how many, how many so far, the building joined, buildings used
        self.relatives = 0
        self.relatives_placed = 0
        self.joined: tuple | None = None
        self.used: list[tuple] = []
        # the escape turn: moves made, where the citizen moved first is, and whether it was alone
        self.acts_done = 0
        self.moves_made = 0
        self.first_square: str | None = None
        self.first_alone = False
        # the decision waiting: who decides, what kind, and its options (text -> what it does)
        self.stage = ""
        self.player = 0
        self.options: dict[str, tuple] = {}
        self.terminal = False

    # ------------------------------------------------------------------ public API
    @property
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.player

    def legal(self, player: int | None = None) -> list[str]:
        """The texts `player` (default: the one deciding) may play now, out-of-turn ones included."""
        if self.terminal:
            return []
        if player is None:
            player = self.player
        texts = list(self.options) if player == self.player else []
        if self.may_declare(player):
            texts.append("declare_eruption")
        return texts

    def apply(self, text: str, player: int | None = None) -> None:
        """Take one of the options of `legal(player)`, then run on to the next decision."""
        if player is None:
            player = self.player
        if text == "declare_eruption" and self.may_declare(player):
            self.erupter = player
            self.erupt()
        elif player == self.player and text in self.options:
            self.answer(self.options[text])
        else:
            raise ValueError(f"{text!r} is not legal for {SEATS[player]}; legal: {self.legal(player)}")
        self.run()

    def scores(self) -> list[int]:
        """Citizens saved (the ranking breaks ties by fewer citizens in the volcano)."""
        return list(self.saved)

    def returns(self) -> list[float]:
        """+1 for a sole winner ... -1 for a sole loser, shared places shared (as Leges' returns())."""
        if not self.terminal:
            return [0.0] * self.n
        keys = [(self.saved[p], -self.volcano[p]) for p in range(self.n)]
        return [(sum(k < keys[p] for k in keys) - sum(k > keys[p] for k in keys)) / (self.n - 1)
                for p in range(self.n)]

    # ------------------------------------------------------------------ running
    def run(self) -> None:
        """Work through stages until a decision with two or more options is waiting."""
        while not self.terminal:
            self.options = self.stage_options()
            if len(self.options) > 1:
                return
            if len(self.options) == 1:
                self.answer(next(iter(self.options.values())))
            else:
                self.answer(None)

    def stage_options(self) -> dict[str, tuple]:
        stage = self.stage
        if stage == "pile":
            return {f"take_pile k={i}": (i,) for i in range(2, 7) if self.piles[i]}
        if stage == "play":
            return self.play_options(self.turn)
        if stage == "relative":
            return self.relative_options()
        if stage == "sacrifice":
            return self.sacrifice_options(self.turn)
        if stage == "lava":
            return {f"place_lava square={s}": (s,) for s in self.lava_squares(self.tile)} if self.tile else {}
        if stage == "move":
            return self.move_options(self.turn)
        raise AssertionError(stage)

    def answer(self, choice: tuple | None) -> None:
        """Carry out the choice made at the current stage (None: the stage had no option)."""
        stage = self.stage
        if stage == "pile":
            self.take_pile(choice)
        elif stage == "play":
            self.play(choice)
        elif stage == "relative":
            self.place_relative(choice)
        elif stage == "sacrifice":
            self.sacrifice(choice)
        elif stage == "lava":
            self.place_lava(choice)
        elif stage == "move":
            self.move(choice)

    def ask(self, stage: str, player: int) -> None:
        self.stage = stage
        self.player = player

    # ------------------------------------------------------------------ set-up
    def set_up(self) -> None:
        deck = [number for number, count in CARD_COUNTS for _ in range(count)]
        self.chance.shuffle(deck, 0, len(deck))
        self.piles = [[] for _ in range(7)]
        for _ in range(4):  # dealt one at a time, from the top, round the seven piles
            for pile in self.piles:
                pile.append(deck.pop())
        deck.extend([OMEN] * OMENS)
        self.chance.shuffle(deck, 0, len(deck))
        deck.append(AD79)
        deck.extend(self.piles[0])
        deck.extend(self.piles[1])
        self.piles[0], self.piles[1] = [], []
        self.deck = deck
        self.chooser = 0  # the dealer is the last seat; piles are chosen from the seat on its left
        self.ask("pile", 0)

    def take_pile(self, choice: tuple | None) -> None:
        if choice is not None:
            self.hands[self.chooser].extend(self.piles[choice[0]])
            self.piles[choice[0]] = []
        self.chooser += 1
        if self.chooser < self.n:
            self.ask("pile", self.chooser)
            return
        self.piles = []  # the unused piles go back to the box unseen
        self.phase = "settle"
        self.turn = 0
        self.ask("play", 0)

    # ------------------------------------------------------------------ settling
    def free_circles(self, square: str) -> int:
        return CIRCLES.get(square, 0) - len(self.board[square])

    def has_room(self, building: tuple) -> bool:
        return any(self.free_circles(s) > 0 for s in building[3])

    def is_joker(self, card) -> bool:
        return (self.ad79_drawn > 0 and isinstance(card, int)
                and not any(self.has_room(b) for b in NUMBERED[card]))

    def targets(self, card) -> list[tuple]:
        """Buildings a card may put a citizen in: its number's, or any with room for a joker."""
        if self.is_joker(card):
            return [b for b in BUILDINGS if self.has_room(b)]
        return [b for b in NUMBERED[card] if self.has_room(b)]

    def play_options(self, p: int) -> dict[str, tuple]:
        options: dict[str, tuple] = {}
        for card in self.hands[p]:
            if not isinstance(card, int):
                continue
            targets = self.targets(card)
            if self.supply[p] > 0:
                for b in targets:
                    for s in b[3]:
                        if self.free_circles(s) > 0:
                            options[f"play card={card} building={b[0]} square={s}"] = (card, b, s)
            if self.supply[p] == 0 or not targets:
                options[f"play_without_citizen card={card}"] = (card, None, None)
        return options

    def play(self, choice: tuple | None) -> None:
        p = self.turn
        if choice is None:
            self.refill()
            return
        card, building, square = choice
        self.hands[p].remove(card)
        if building is None:  # a card that places nobody is still played
            self.refill()
            return
        joker = self.is_joker(card)
        already = sum(len(self.board[s]) for s in building[3])
        self.supply[p] -= 1
        self.board[square].append(p)
        if self.ad79_drawn > 0 and not joker and already > 0:
            self.relatives, self.relatives_placed = already, 0
            self.joined, self.used = building, [building]
            self.ask("relative", p)
        else:
            self.refill()

    def relative_options(self) -> dict[str, tuple]:
        p = self.turn
        if self.relatives_placed >= self.relatives or self.supply[p] == 0:
            return {}
        colour = self.joined[2]
        options = {}
        for s in SQUARES:
            b = BUILDING_OF.get(s)
            if (b is not None and self.free_circles(s) > 0 and b not in self.used
                    and (b[2] == colour or b[2] == "neutral")):
                options[f"relative square={s}"] = (s,)
        if options:
            options["pass"] = (None,)
        return options

    def place_relative(self, choice: tuple | None) -> None:
        if choice is None or choice[0] is None:  # passing (or nowhere left) ends the relatives
            self.refill()
            return
        square = choice[0]
        self.supply[self.turn] -= 1
        self.board[square].append(self.turn)
        self.used.append(BUILDING_OF[square])
        self.relatives_placed += 1
        self.ask("relative", self.turn)

    def refill(self) -> None:
        """Draw back up to four cards; an omen (sacrifice) or A.D. 79 may interrupt."""
        p = self.turn
        while len(self.hands[p]) < 4 and self.deck:
            if not self.draw(p):
                return
        self.turn = (self.turn + 1) % self.n
        self.ask("play", self.turn)

    def draw(self, p: int) -> bool:
        """One draw into p's hand, with what A.D. 79 and omens bring; False if the turn stopped."""
        hand = self.hands[p]
        while self.deck:
            item = self.deck.pop()
            if item == AD79:
                if self.ad79_drawn == 0:  # shown, replaced, then shuffled back among the bottom 15
                    self.ad79_drawn = 1
                    self.ad79_in_hand = True
                    continue
                self.ad79_drawn = 2
                self.erupter = p
                self.erupt()
                return False
            if item == OMEN and self.ad79_drawn > 0:  # discarded; a sacrifice, then a card instead
                self.ask("sacrifice", p)
                return False
            hand.append(item)
            break
        if self.ad79_in_hand:
            self.ad79_in_hand = False
            self.deck.insert(0, AD79)
            self.chance.shuffle(self.deck, 0, min(16, len(self.deck)))
        return True

    def sacrifice_options(self, p: int) -> dict[str, tuple]:
        options = {}
        for s, owners in self.board.items():
            for victim in range(self.n):
                if victim != p and victim in owners:
                    options[f"sacrifice square={s} victim={SEATS[victim]}"] = (s, victim)
        return options

    def sacrifice(self, choice: tuple | None) -> None:
        if choice is not None:
            square, victim = choice
            self.board[square].remove(victim)
            self.volcano[victim] += 1
        if self.draw(self.turn):  # the card drawn instead of the omen
            self.refill()

    def may_declare(self, p: int) -> bool:
        """Four jokers in hand: Vesuvius may be made to erupt, at any decision of the settling phase."""
        hand = self.hands[p]
        return (self.phase == "settle" and not self.terminal and len(hand) == 4
                and not (self.ad79_in_hand and p == self.turn)
                and all(self.is_joker(card) for card in hand))

    # ------------------------------------------------------------------ the eruption and the lava
    def erupt(self) -> None:
        """Hands are discarded and unplaced citizens boxed; six opening tiles from the erupter's left."""
        self.hands = [[] for _ in range(self.n)]
        self.supply = [0] * self.n
        self.ad79_in_hand = False
        self.phase = "opening"
        self.opening_tiles = 0
        self.update_gate_distances()
        self.start_lava_turn((self.erupter + 1) % self.n)

    def start_lava_turn(self, p: int) -> None:
        self.turn = p
        self.tile = self.bag.pop(self.chance.pick(self.bag)) if self.bag else None
        self.ask("lava", p)

    def lava_squares(self, symbol: str) -> list[str]:
        """Next to a tile of the same symbol, or its start square for the first one; never on lava."""
        own = [s for s, t in self.lava.items() if t == symbol]
        if not own:
            vent = VENTS[symbol]
            return [] if vent in self.lava else [vent]
        squares = []
        for s in own:
            for t in NEIGHBOURS[s]:
                if t not in self.lava and t not in squares:
                    squares.append(t)
        return squares

    def place_lava(self, choice: tuple | None) -> None:
        p = self.turn
        if self.tile is not None:
            if choice is not None:  # a tile that fits nowhere goes back to the box
                square = choice[0]
                self.lava[square] = self.tile
                for owner in self.board[square]:
                    self.volcano[owner] += 1
                self.board[square] = []
                self.update_gate_distances()
            self.tile = None
            self.last_lava = p
            self.cut_off()
        if self.phase == "opening":
            self.opening_tiles += 1
            if self.opening_tiles < OPENING_TILES:
                self.start_lava_turn((p + 1) % self.n)
                return
            self.phase = "escape"
            if self.nobody_can_escape():  # the early end holds before the first escape turn too
                self.finish()
                return
            self.start_lava_turn((self.last_lava + 1) % self.n)
            return
        self.acts_done = 0
        self.moves_made = 0
        self.first_square = None
        self.first_alone = False
        self.ask("move", p)

    def update_gate_distances(self) -> None:
        """Breadth-first from the open gates, around the lava."""
        lava = self.lava
        distance = {g: 0 for g in GATES if g not in lava}
        frontier = deque(distance)
        while frontier:
            here = frontier.popleft()
            for there in NEIGHBOURS[here]:
                if there not in distance and there not in lava:
                    distance[there] = distance[here] + 1
                    frontier.append(there)
        self.gate_distance = distance

    def cut_off(self) -> None:
        """Citizens with no lava-free way to an open gate go to the volcano."""
        for s, owners in self.board.items():
            if owners and s not in self.gate_distance:
                for owner in owners:
                    self.volcano[owner] += 1
                self.board[s] = []

    # ------------------------------------------------------------------ escape
    def reachable(self, start: str, steps: int) -> list[str]:
        """Squares within `steps` orthogonal steps of `start`, never onto lava (start excluded)."""
        lava = self.lava
        seen = {start}
        frontier = [start]
        out = []
        for _ in range(steps):
            nxt = []
            for here in frontier:
                for there in NEIGHBOURS[here]:
                    if there not in seen and there not in lava:
                        seen.add(there)
                        nxt.append(there)
            if not nxt:
                break
            out.extend(nxt)
            frontier = nxt
        return out

    def on_board(self, p: int) -> int:
        return sum(owners.count(p) for owners in self.board.values())

    def move_options(self, p: int) -> dict[str, tuple]:
        # after the first move, the citizen moved first may not move again, unless it was alone on
        # its square or it is the player's last citizen in the city
        held = (self.first_square if self.moves_made > 0 and not self.first_alone and self.on_board(p) != 1
                else None)
        options = {}
        for s, owners in self.board.items():
            if p not in owners or (s == held and owners.count(p) == 1):
                continue
            points = len(owners)
            for t in self.reachable(s, points):
                options[f"move_citizen from={s} to={t}"] = (s, t)
            to_gate = self.gate_distance.get(s)
            if to_gate is not None and to_gate + 1 <= points:
                options[f"leave_city from={s}"] = (s, None)
        return options

    def move(self, choice: tuple | None) -> None:
        p = self.turn
        if choice is not None:
            start, end = choice
            if self.moves_made == 0:
                self.first_alone = len(self.board[start]) == 1
            self.board[start].remove(p)
            if end is None:
                self.saved[p] += 1
            else:
                self.board[end].append(p)
            if self.moves_made == 0:
                self.first_square = end
            self.moves_made += 1
        self.acts_done += 1
        if self.acts_done < 2:
            self.ask("move", p)
            return
        if not self.bag or self.nobody_can_escape():
            self.finish()
            return
        self.start_lava_turn((p + 1) % self.n)

    def nobody_can_escape(self) -> bool:
        """The early end: no citizen left on the board, or every gate under lava."""
        return not any(self.board.values()) or not any(g not in self.lava for g in GATES)

    def finish(self) -> None:
        """The citizens left on the board go to the volcano; the game is over."""
        for owners in self.board.values():
            for owner in owners:
                self.volcano[owner] += 1
        self.board = {s: [] for s in SQUARES}
        self.phase = "over"
        self.terminal = True
        self.options = {}


def new_game(players: int, seed: int = 0, chance: Chance | None = None) -> Game:
    """A game set up and run to its first decision."""
    game = Game(players, chance if chance is not None else Chance(seed))
    game.set_up()
    game.run()
    return game


def random_playout(players: int, seed: int) -> Game:
    """One game of uniformly random legal moves (of the player deciding), to the end."""
    rng = random.Random(seed)
    game = new_game(players, seed)
    while not game.terminal:
        game.apply(rng.choice(game.legal()))
    return game


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    start = time.process_time()
    games = 200
    for seed in range(games):
        random_playout(n, seed)
    print(f"{games / (time.process_time() - start):.0f} random {n}-player games per second")
