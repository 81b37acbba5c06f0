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

It is written to be as fast as plain Python can be while speaking Leges' texts at the edge
only. Inside, everything is an integer: squares are `r * 11 + c`, cards are their numbers
(`OMEN`, `AD79` after them), lava symbols are indices into `SYMBOLS`, the board is a count of
citizens per square (all colours, `tot`) and a square -> count dict per player (`pos`), with the
free circles per square and per card number kept up to date for the settling phase. No text is
ever formatted during play: every action text there can be is made once, at import, in tables
indexed by those integers (`PLAY_TEXT[card][square]`, `MOVE_TEXT[start][end]`, ...), and a
decision's options are a list of these shared strings, `DECODE` turning one back into its
integers when it is taken. So `legal()` hands out real `str`s (they compare, hash, sort and
print as the text) for the cost of a list copy, and `apply(text)` costs a search of that short
list and a dict look-up. `legal_count()` / `apply_index(i)` skip even that (the same game as
`apply(rng.choice(legal()))` with `apply_index(rng.randrange(legal_count()))`).

Chance (shuffles, lava draws) goes through a `Chance` object. The default one uses Python's
`random`, so games differ from Leges' for the same seed; `tests/test_reference_pompeii.py`
passes one that replays the outcomes Leges chose in explicit-chance mode, which is why shuffles
here are the same Fisher-Yates, from the top down, as Leges' (`State.shuffle_range`). A
`Chance` sees the integers: `CARD_TEXT[card]` and `SYMBOLS[symbol]` are their labels.

    game = new_game(3, seed=1)
    while not game.terminal:
        game.apply(rng.choice(game.legal()))
    game.scores()
"""
from __future__ import annotations

import random

SEATS = ("red", "black", "yellow", "blue")
CITIZENS = {2: 36, 3: 30, 4: 25}
TERMINAL = -4  # the "player" to move once the game is over (OpenSpiel's and Leges' value)

# Pompeii cards are their numbers; how many of each (components.yaml, in that order: Leges'
# deck starts in this order, so replayed shuffles give the same deck).
CARD_COUNTS = ((1, 4), (2, 4), (3, 5), (4, 7), (5, 4), (6, 7), (7, 3), (8, 5), (9, 4), (10, 5), (11, 5))
OMEN, AD79 = 12, 13  # the other cards, after the numbers (a card <= 11 is a number)
OMENS = 7
CARD_TEXT = (None,) + tuple(str(k) for k in range(1, 12)) + ("omen", "ad79")  # Leges' labels
LAVA_COUNTS = (("vase", 7), ("helmet", 7), ("mask", 7), ("scroll", 8), ("column", 8), ("coin", 8))
SYMBOLS = tuple(symbol for symbol, _ in LAVA_COUNTS)  # a lava tile is its index here
SYMBOL = {symbol: i for i, symbol in enumerate(SYMBOLS)}
OPENING_TILES = 6

# ------------------------------------------------------------------ the board (maps/pompeii.yaml)
ROWS, COLS = 7, 11
NSQ = ROWS * COLS  # squares are r * COLS + c; the seven outside the city are never used
OUTSIDE = frozenset(r * COLS + c for r, c in ((0, 8), (0, 9), (0, 10), (1, 10), (6, 0), (6, 1), (6, 2)))
CITY = tuple(s for s in range(NSQ) if s not in OUTSIDE)  # row by row
SQUARE_TEXT = tuple(None if s in OUTSIDE else f"r{s // COLS}c{s % COLS}" for s in range(NSQ))
SQUARE = {SQUARE_TEXT[s]: s for s in CITY}
SQUARES = tuple(SQUARE_TEXT[s] for s in CITY)


def _neighbours(s: int) -> tuple[int, ...]:
    r, c = divmod(s, COLS)
    return tuple((r + dr) * COLS + c + dc for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                 if 0 <= r + dr < ROWS and 0 <= c + dc < COLS and (r + dr) * COLS + c + dc not in OUTSIDE)


NEIGHBOURS = tuple(() if s in OUTSIDE else _neighbours(s) for s in range(NSQ))
_CIRCLES = {
    "r0c1": 1, "r0c4": 2, "r0c6": 2, "r1c0": 2, "r1c1": 2, "r1c3": 3, "r1c4": 2, "r1c7": 2,
    "r2c0": 2, "r2c2": 3, "r2c3": 2, "r2c4": 2, "r2c5": 3, "r2c6": 4, "r2c8": 4, "r3c1": 3,
    "r3c2": 2, "r3c3": 2, "r3c6": 3, "r3c7": 3, "r3c9": 2, "r3c10": 1, "r4c2": 1, "r4c3": 2,
    "r4c5": 3, "r4c6": 2, "r5c1": 2, "r5c3": 2, "r5c4": 4, "r5c5": 3, "r5c7": 2, "r5c8": 1,
    "r5c10": 2, "r6c5": 2, "r6c8": 1, "r6c10": 1,
}
CIRCLES = tuple(_CIRCLES.get(t, 0) if t else 0 for t in SQUARE_TEXT)
GATES = tuple(SQUARE[t] for t in ("r0c0", "r0c5", "r1c9", "r4c0", "r4c10", "r6c6", "r6c8"))
IS_GATE = tuple(s in GATES for s in range(NSQ))
_VENTS = {"scroll": "r0c7", "coin": "r1c2", "vase": "r2c10", "column": "r3c4", "mask": "r6c3", "helmet": "r6c9"}
VENT = tuple(SQUARE[_VENTS[symbol]] for symbol in SYMBOLS)
COLOURS = ("grey", "purple", "turquoise", "brown", "neutral")
NEUTRAL = COLOURS.index("neutral")
_BUILDINGS = [
    ("1", 1, "grey", ("r1c0", "r1c1")), ("2", 2, "purple", ("r0c4", "r1c4")),
    ("3a", 3, "purple", ("r2c2",)), ("3b", 3, "purple", ("r2c3",)),
    ("4a", 4, "grey", ("r2c5",)), ("4b", 4, "grey", ("r2c6",)), ("5", 5, "purple", ("r2c8",)),
    ("6a", 6, "turquoise", ("r3c2", "r4c2")), ("6b", 6, "turquoise", ("r3c3", "r4c3")),
    ("7", 7, "purple", ("r4c5",)), ("8a", 8, "grey", ("r3c6",)), ("8b", 8, "grey", ("r4c6",)),
    ("9", 9, "turquoise", ("r5c4",)), ("10a", 10, "brown", ("r5c5",)), ("10b", 10, "brown", ("r6c5",)),
    ("11a", 11, "brown", ("r5c8", "r6c8")), ("11b", 11, "brown", ("r5c10", "r6c10")),
    ("n01", 0, "neutral", ("r0c1",)), ("n02", 0, "neutral", ("r0c6",)), ("n03", 0, "neutral", ("r1c3",)),
    ("n04", 0, "neutral", ("r1c7",)), ("n05", 0, "neutral", ("r2c0",)), ("n06", 0, "neutral", ("r2c4",)),
    ("n07", 0, "neutral", ("r3c1",)), ("n08", 0, "neutral", ("r3c7",)), ("n09", 0, "neutral", ("r3c9",)),
    ("n10", 0, "neutral", ("r3c10",)), ("n11", 0, "neutral", ("r5c1",)), ("n12", 0, "neutral", ("r5c3",)),
    ("n13", 0, "neutral", ("r5c7",)),
]
# a building is its index here: (id, number or 0 for a neutral one, colour index, squares)
BUILDINGS = tuple((bid, number, COLOURS.index(colour), tuple(SQUARE[t] for t in squares))
                  for bid, number, colour, squares in _BUILDINGS)
B_SQUARES = tuple(b[3] for b in BUILDINGS)
BUILDING_AT = tuple(next((i for i, b in enumerate(BUILDINGS) if s in b[3]), -1) for s in range(NSQ))
NUMBER_AT = tuple(BUILDINGS[b][1] if b >= 0 else 0 for b in BUILDING_AT)
# the squares a card may put a citizen on (building by building): its number's, or, a joker, any
NUMBER_SQUARES = (None,) + tuple(tuple(s for b in BUILDINGS if b[1] == k for s in b[3]) for k in range(1, 12))
ALL_SQUARES = tuple(s for b in BUILDINGS for s in b[3])
# the squares a relative may go to after joining a building of a colour: that colour's or neutral
RELATIVE_SQUARES = tuple(tuple(s for s in CITY if BUILDING_AT[s] >= 0
                               and BUILDINGS[BUILDING_AT[s]][2] in (colour, NEUTRAL))
                         for colour in range(len(COLOURS)))
assert all(CIRCLES[s] for s in ALL_SQUARES) and len(CITY) == 70 and sum(CIRCLES) == 80


def _ring(s: int) -> tuple[int, ...]:
    """The eight squares round s, clockwise from the one above (-1: off the board or outside)."""
    r, c = divmod(s, COLS)
    out = []
    for dr, dc in ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)):
        t = (r + dr) * COLS + c + dc
        out.append(t if 0 <= r + dr < ROWS and 0 <= c + dc < COLS and t not in OUTSIDE else -1)
    return tuple(out)


def _ring_joins(bits: int) -> bool:
    """Whether the open squares next to a square (bits 0, 2, 4, 6 of the ring, clockwise) are
    joined through the open corners between them (bits 1, 3, 5, 7): then lava on the square
    cuts no way between any two other squares."""
    sides = [i for i in (0, 2, 4, 6) if bits >> i & 1]
    links = sum(1 for i in (0, 2, 4, 6) if bits >> i & 1 and bits >> (i + 1) % 8 & 1 and bits >> (i + 2) % 8 & 1)
    return len(sides) <= 1 or links == 4 or len(sides) - links <= 1


RING = tuple(_ring(s) if s not in OUTSIDE else () for s in range(NSQ))
RING_JOINS = tuple(_ring_joins(bits) for bits in range(256))

# ------------------------------------------------------------------ every action text, made once
PILE_TEXT = tuple(f"take_pile k={i}" for i in range(7))
PLAY_TEXT = (None,) + tuple(
    tuple(f"play card={k} building={BUILDINGS[BUILDING_AT[s]][0]} square={SQUARE_TEXT[s]}"
          if BUILDING_AT[s] >= 0 else None for s in range(NSQ)) for k in range(1, 12))
PLAY_BARE_TEXT = (None,) + tuple(f"play_without_citizen card={k}" for k in range(1, 12))
RELATIVE_TEXT = tuple(f"relative square={t}" if t else None for t in SQUARE_TEXT)
PASS = "pass"
SACRIFICE_TEXT = tuple(tuple(f"sacrifice square={t} victim={seat}" for seat in SEATS) if t else None
                       for t in SQUARE_TEXT)
LAVA_TEXT = tuple(f"place_lava square={t}" if t else None for t in SQUARE_TEXT)
MOVE_TEXT = tuple(tuple(f"move_citizen from={t} to={u}" if t and u else None for u in SQUARE_TEXT)
                  if t else None for t in SQUARE_TEXT)
LEAVE_TEXT = tuple(f"leave_city from={t}" if t else None for t in SQUARE_TEXT)
DECLARE = "declare_eruption"
# text -> the integers of the choice (its stage knows what they mean)
DECODE: dict[str, object] = {PASS: -1}
DECODE.update((PILE_TEXT[i], i) for i in range(2, 7))
for _k in range(1, 12):
    DECODE[PLAY_BARE_TEXT[_k]] = (_k, -1)
    DECODE.update((PLAY_TEXT[_k][_s], (_k, _s)) for _s in ALL_SQUARES)
for _s in CITY:
    DECODE[RELATIVE_TEXT[_s]] = _s
    DECODE[LAVA_TEXT[_s]] = _s
    DECODE[LEAVE_TEXT[_s]] = (_s, -1)
    DECODE.update((SACRIFICE_TEXT[_s][_v], (_s, _v)) for _v in range(len(SEATS)))
    DECODE.update((MOVE_TEXT[_s][_t], (_s, _t)) for _t in CITY)


class Chance:
    """Where the game's randomness comes from; the test replaces it to follow Leges' outcomes."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def shuffle(self, items: list, lo: int, hi: int) -> None:
        """Shuffle items[lo:hi] in place (Fisher-Yates from the top down, as Leges does).

        `random.shuffle` is that very algorithm (position i from the top takes one of 0..i).
        """
        if lo == 0 and hi == len(items):
            self.rng.shuffle(items)
        else:
            part = items[lo:hi]
            self.rng.shuffle(part)
            items[lo:hi] = part

    def pick(self, items: list) -> int:
        """The index of an item drawn at random (a lava tile from the bag)."""
        return self.rng.randrange(len(items))


class Game:
    """One game: plain integer state plus the decision waiting (`stage`, `player`, `options`)."""

    def __init__(self, players: int, chance: Chance):
        if players not in CITIZENS:
            raise ValueError("The Downfall of Pompeii is for 2 to 4 players")
        self.n = players
        self.chance = chance
        # cards: the draw pile (top last), the seven piles of the set-up, the hands
        self.deck: list[int] = []
        self.piles: list[list[int]] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.ad79_drawn = 0
        self.ad79_in_hand = False  # drawn the first time, waiting for its replacement before going back
        # citizens: supply counts; on the board a square -> count dict per player (`pos`) and the
        # count per square (`tot`); how many each has on the board, saved, in the volcano
        self.supply = [CITIZENS[players]] * players
        self.pos: list[dict[int, int]] = [{} for _ in range(players)]
        self.tot = [0] * NSQ
        self.onb = [0] * players
        self.saved = [0] * players
        self.volcano = [0] * players
        # settling: free circles per square, and per card number (0: none, the number's a joker)
        self.free = list(CIRCLES)
        self.numfree = [0] * 12
        for s in ALL_SQUARES:
            self.numfree[NUMBER_AT[s]] += CIRCLES[s]
        # lava: the bag, the tile drawn (-1: none), the symbol on each square (-1: none), the
        # squares of each symbol in the order laid, the gates still open
        self.bag = [SYMBOL[symbol] for symbol, count in LAVA_COUNTS for _ in range(count)]
        self.tile = -1
        self.lava = [-1] * NSQ
        self.laid: list[list[int]] = [[] for _ in SYMBOLS]
        self.open_gates = len(GATES)
        # the moves from a square with so many citizens on it (its texts) and the squares they
        # reach, key points * NSQ + square; lava on a square reached drops the entry
        self.reach: dict[int, tuple[list[str], set[int]]] = {}
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
        self.joined = -1
        self.used: list[int] = []
        # the escape turn: moves made, where the citizen moved first is, and whether it was alone
        self.acts_done = 0
        self.moves_made = 0
        self.first_square = -1
        self.first_alone = False
        # the decision waiting: who decides, what kind, and its options (texts of the tables)
        self.stage = ""
        self.player = 0
        self.options: list[str] = []
        self.terminal = False

    # ------------------------------------------------------------------ public API
    @property
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.player

    def legal(self, player: int | None = None) -> list[str]:
        """The texts `player` (default: the one deciding) may play now, out-of-turn ones included."""
        if self.terminal:
            return []
        if player is None or player == self.player:
            texts = self.options[:]
            if self.ad79_drawn and self.may_declare(self.player):
                texts.append(DECLARE)
            return texts
        return [DECLARE] if self.ad79_drawn and self.may_declare(player) else []

    def apply(self, text: str, player: int | None = None) -> None:
        """Take one of the options of `legal(player)`, then run on to the next decision."""
        if player is None:
            player = self.player
        if player == self.player and text in self.options:
            ANSWER[self.stage](self, DECODE[text])
        elif text == DECLARE and self.may_declare(player):
            self.erupter = player
            self.erupt()
        else:
            raise ValueError(f"{text!r} is not legal for {SEATS[player]}; legal: {self.legal(player)}")
        self.run()

    def legal_count(self) -> int:
        """len(legal()) without the list: the fast path's half, with `apply_index`."""
        if self.terminal:
            return 0
        return len(self.options) + bool(self.ad79_drawn and self.may_declare(self.player))

    def apply_index(self, i: int) -> None:
        """apply(legal()[i]) without the texts (0 <= i < legal_count(), unchecked beyond that)."""
        options = self.options
        if i < len(options):
            ANSWER[self.stage](self, DECODE[options[i]])
        elif self.may_declare(self.player):
            self.erupter = self.player
            self.erupt()
        else:
            raise IndexError(i)
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

    @property
    def board(self) -> dict[str, list[int]]:
        """The board as texts, for the edge (tests, views): square text -> owners of its citizens."""
        return {SQUARE_TEXT[s]: [p for p in range(self.n) for _ in range(self.pos[p].get(s, 0))] for s in CITY}

    @board.setter
    def board(self, squares: dict[str, list[int]]) -> None:
        """Put citizens on the board, from the same texts (for tests): square text -> owners."""
        self.pos = [{} for _ in range(self.n)]
        self.tot = [0] * NSQ
        self.onb = [0] * self.n
        for text, owners in squares.items():
            s = SQUARE[text]
            for p in owners:
                self.pos[p][s] = self.pos[p].get(s, 0) + 1
                self.tot[s] += 1
                self.onb[p] += 1
        self.free = [CIRCLES[s] - self.tot[s] for s in range(NSQ)]
        self.numfree = [0] * 12
        for s in ALL_SQUARES:
            self.numfree[NUMBER_AT[s]] += self.free[s]

    # ------------------------------------------------------------------ running
    def run(self) -> None:
        """Work through stages until a decision with two or more options is waiting."""
        while not self.terminal:
            stage = self.stage
            options = OPTIONS[stage](self)
            self.options = options
            if len(options) > 1:
                return
            ANSWER[stage](self, DECODE[options[0]] if options else None)

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

    def pile_options(self) -> list[str]:
        return [PILE_TEXT[i] for i in range(2, 7) if self.piles[i]]

    def take_pile(self, choice: int | None) -> None:
        if choice is not None:
            self.hands[self.chooser].extend(self.piles[choice])
            self.piles[choice] = []
        self.chooser += 1
        if self.chooser < self.n:
            self.ask("pile", self.chooser)
            return
        self.piles = []  # the unused piles go back to the box unseen
        self.phase = "settle"
        self.turn = 0
        self.ask("play", 0)

    # ------------------------------------------------------------------ settling
    def place(self, p: int, s: int) -> None:
        """A citizen of p from the supply onto square s (settling)."""
        self.supply[p] -= 1
        pos = self.pos[p]
        pos[s] = pos.get(s, 0) + 1
        self.tot[s] += 1
        self.onb[p] += 1
        self.free[s] -= 1
        self.numfree[NUMBER_AT[s]] -= 1

    def play_options(self) -> list[str]:
        p = self.turn
        free = self.free
        numfree = self.numfree
        jokers = self.ad79_drawn  # before A.D. 79 no card is a joker
        supply = self.supply[p]
        options: list[str] = []
        seen = 0
        for card in self.hands[p]:
            if card > 11 or seen >> card & 1:  # an omen (drawn before A.D. 79), or a number seen
                continue
            seen |= 1 << card
            if supply:
                texts = PLAY_TEXT[card]
                before = len(options)
                options += [texts[s] for s in (ALL_SQUARES if jokers and not numfree[card] else NUMBER_SQUARES[card])
                            if free[s]]
                if len(options) == before:  # nowhere to go: played without a citizen
                    options.append(PLAY_BARE_TEXT[card])
            else:
                options.append(PLAY_BARE_TEXT[card])
        return options

    def play(self, choice: tuple | None) -> None:
        p = self.turn
        if choice is None:
            self.refill()
            return
        card, s = choice
        self.hands[p].remove(card)
        if s < 0:  # a card that places nobody is still played
            self.refill()
            return
        joker = self.ad79_drawn and not self.numfree[card]
        b = BUILDING_AT[s]
        tot = self.tot
        already = 0
        for x in B_SQUARES[b]:
            already += tot[x]
        self.place(p, s)
        if self.ad79_drawn and not joker and already:
            self.relatives, self.relatives_placed = already, 0
            self.joined, self.used = b, [b]
            self.ask("relative", p)
        else:
            self.refill()

    def relative_options(self) -> list[str]:
        if self.relatives_placed >= self.relatives or not self.supply[self.turn]:
            return []
        free = self.free
        used = self.used
        options = [RELATIVE_TEXT[s] for s in RELATIVE_SQUARES[BUILDINGS[self.joined][2]]
                   if free[s] and BUILDING_AT[s] not in used]
        if options:
            options.append(PASS)
        return options

    def place_relative(self, choice: int | None) -> None:
        if choice is None or choice < 0:  # passing (or nowhere left) ends the relatives
            self.refill()
            return
        self.place(self.turn, choice)
        self.used.append(BUILDING_AT[choice])
        self.relatives_placed += 1
        self.ask("relative", self.turn)

    def refill(self) -> None:
        """Draw back up to four cards; an omen (sacrifice) or A.D. 79 may interrupt."""
        p = self.turn
        hand = self.hands[p]
        while len(hand) < 4 and self.deck:
            if not self.draw(p):
                return
        self.turn = (p + 1) % self.n
        self.ask("play", self.turn)

    def draw(self, p: int) -> bool:
        """One draw into p's hand, with what A.D. 79 and omens bring; False if the turn stopped."""
        deck = self.deck
        while deck:
            item = deck.pop()
            if item == AD79:
                if self.ad79_drawn == 0:  # shown, replaced, then shuffled back among the bottom 15
                    self.ad79_drawn = 1
                    self.ad79_in_hand = True
                    continue
                self.ad79_drawn = 2
                self.erupter = p
                self.erupt()
                return False
            if item == OMEN and self.ad79_drawn:  # discarded; a sacrifice, then a card instead
                self.ask("sacrifice", p)
                return False
            self.hands[p].append(item)
            break
        if self.ad79_in_hand:
            self.ad79_in_hand = False
            deck.insert(0, AD79)
            self.chance.shuffle(deck, 0, min(16, len(deck)))
        return True

    def sacrifice_options(self) -> list[str]:
        p = self.turn
        options = []
        for victim in range(self.n):
            if victim != p:
                options += [SACRIFICE_TEXT[s][victim] for s in self.pos[victim]]
        return options

    def sacrifice(self, choice: tuple | None) -> None:
        if choice is not None:
            s, victim = choice
            pos = self.pos[victim]
            if pos[s] == 1:
                del pos[s]
            else:
                pos[s] -= 1
            self.tot[s] -= 1
            self.onb[victim] -= 1
            self.free[s] += 1
            self.numfree[NUMBER_AT[s]] += 1
            self.volcano[victim] += 1
        if self.draw(self.turn):  # the card drawn instead of the omen
            self.refill()

    def may_declare(self, p: int) -> bool:
        """Four jokers in hand: Vesuvius may be made to erupt, at any decision of the settling phase."""
        if not self.ad79_drawn or self.phase != "settle" or self.terminal:
            return False  # (before A.D. 79 no card is a joker)
        hand = self.hands[p]
        if len(hand) != 4 or (self.ad79_in_hand and p == self.turn):
            return False
        numfree = self.numfree
        for card in hand:
            if card > 11 or numfree[card]:
                return False
        return True

    # ------------------------------------------------------------------ the eruption and the lava
    def erupt(self) -> None:
        """Hands are discarded and unplaced citizens boxed; six opening tiles from the erupter's left."""
        self.hands = [[] for _ in range(self.n)]
        self.supply = [0] * self.n
        self.ad79_in_hand = False
        self.phase = "opening"
        self.opening_tiles = 0
        self.start_lava_turn((self.erupter + 1) % self.n)

    def start_lava_turn(self, p: int) -> None:
        self.turn = p
        bag = self.bag
        self.tile = bag.pop(self.chance.pick(bag)) if bag else -1
        self.ask("lava", p)

    def lava_options(self) -> list[str]:
        """Next to a tile of the same symbol, or its start square for the first one; never on lava."""
        tile = self.tile
        if tile < 0:
            return []
        lava = self.lava
        own = self.laid[tile]
        if not own:
            vent = VENT[tile]
            return [] if lava[vent] >= 0 else [LAVA_TEXT[vent]]
        seen: list[int] = []
        for s in own:
            for t in NEIGHBOURS[s]:
                if lava[t] < 0 and t not in seen:
                    seen.append(t)
        return [LAVA_TEXT[t] for t in seen]

    def place_lava(self, choice: int | None) -> None:
        p = self.turn
        if self.tile >= 0:
            if choice is not None:  # a tile that fits nowhere goes back to the box
                self.lay(choice)
            self.tile = -1
            self.last_lava = p
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
        self.first_square = -1
        self.first_alone = False
        self.ask("move", p)

    def lay(self, x: int) -> None:
        """The tile drawn onto square x: its citizens and those it cuts off go to the volcano."""
        lava = self.lava
        lava[x] = self.tile
        self.laid[self.tile].append(x)
        if self.tot[x]:
            self.kill(x)
        if self.reach:
            self.reach = {key: hit for key, hit in self.reach.items() if x not in hit[1]}
        if IS_GATE[x]:
            self.open_gates -= 1
        else:  # every citizen could reach an open gate before: lava that cuts no way cuts off nobody
            bits = 0
            for i, t in enumerate(RING[x]):
                if t >= 0 and lava[t] < 0:
                    bits |= 1 << i
            if RING_JOINS[bits]:
                return
        self.cut_off()

    def kill(self, s: int) -> None:
        """Every citizen on square s goes to the volcano."""
        for q in range(self.n):
            c = self.pos[q].pop(s, 0)
            if c:
                self.volcano[q] += c
                self.onb[q] -= c
        self.tot[s] = 0

    def cut_off(self) -> None:
        """Citizens with no lava-free way to an open gate go to the volcano."""
        if not any(self.onb):
            return
        lava = self.lava
        safe = [False] * NSQ  # flooded from the open gates, around the lava
        stack = [g for g in GATES if lava[g] < 0]
        for g in stack:
            safe[g] = True
        while stack:
            for there in NEIGHBOURS[stack.pop()]:
                if not safe[there] and lava[there] < 0:
                    safe[there] = True
                    stack.append(there)
        for pos in self.pos:
            dead = [s for s in pos if not safe[s]]
            for s in dead:
                self.kill(s)

    # ------------------------------------------------------------------ escape
    def move_options(self) -> list[str]:
        p = self.turn
        # after the first move, the citizen moved first may not move again, unless it was alone on
        # its square or it is the player's last citizen in the city
        held = self.first_square if self.moves_made and not self.first_alone and self.onb[p] != 1 else -1
        tot = self.tot
        reach = self.reach
        options: list[str] = []
        for s, mine in self.pos[p].items():
            if s == held and mine == 1:
                continue
            key = tot[s] * NSQ + s
            hit = reach.get(key)
            if hit is None:
                hit = reach[key] = self.explore(s, tot[s])
            options += hit[0]
        return options

    def explore(self, s: int, points: int) -> tuple[list[str], set[int]]:
        """The moves from s: to every square within `points` steps, never onto lava, and out of
        the city if an open gate is fewer than `points` steps away (s itself one); and the
        squares reached."""
        lava = self.lava
        texts = MOVE_TEXT[s]
        moves = []
        seen = {s}
        leave = IS_GATE[s]
        frontier = [s]
        depth = 1
        while True:
            nxt = []
            for here in frontier:
                for there in NEIGHBOURS[here]:
                    if there not in seen and lava[there] < 0:
                        seen.add(there)
                        nxt.append(there)
                        moves.append(texts[there])
            if not nxt or depth == points:
                break
            if not leave:
                for t in nxt:
                    if IS_GATE[t]:
                        leave = True
                        break
            depth += 1
            frontier = nxt
        if leave:
            moves.append(LEAVE_TEXT[s])
        return moves, seen

    def move(self, choice: tuple | None) -> None:
        p = self.turn
        if choice is not None:
            start, end = choice
            tot = self.tot
            if not self.moves_made:
                self.first_alone = tot[start] == 1
                self.first_square = end
            pos = self.pos[p]
            if pos[start] == 1:
                del pos[start]
            else:
                pos[start] -= 1
            tot[start] -= 1
            if end < 0:
                self.saved[p] += 1
                self.onb[p] -= 1
            else:
                pos[end] = pos.get(end, 0) + 1
                tot[end] += 1
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
        return not any(self.onb) or not self.open_gates

    def finish(self) -> None:
        """The citizens left on the board go to the volcano; the game is over."""
        for q in range(self.n):
            self.volcano[q] += self.onb[q]
            self.onb[q] = 0
            self.pos[q] = {}
        self.tot = [0] * NSQ
        self.phase = "over"
        self.terminal = True
        self.options = []


# what each stage offers and how its choice is carried out (choice: DECODE's integers, or None
# when the stage had no option)
OPTIONS = {"pile": Game.pile_options, "play": Game.play_options, "relative": Game.relative_options,
           "sacrifice": Game.sacrifice_options, "lava": Game.lava_options, "move": Game.move_options}
ANSWER = {"pile": Game.take_pile, "play": Game.play, "relative": Game.place_relative,
          "sacrifice": Game.sacrifice, "lava": Game.place_lava, "move": Game.move}


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
