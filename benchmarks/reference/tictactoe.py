"""Tic-Tac-Toe written straight in Python, with the decisions and texts of rulesets/tictactoe.

The yardstick for Leges' smallest game when OpenSpiel's pure-Python `python_tic_tac_toe` is
not installed (`pip install -e '.[bench]'`). Like Leges, it names a move by its square
(`place square=r1c1`) and takes a decision with a single option at once: the ninth mark,
when the game gets that far, is placed without being offered.

    game = new_game()
    while not game.terminal:
        game.apply(rng.choice(game.legal()))
    game.scores()
"""
from __future__ import annotations

import random

SEATS = ("x", "o")
TERMINAL = -4
SQUARES = [f"r{r}c{c}" for r in range(3) for c in range(3)]
LINES = ([(3 * r, 3 * r + 1, 3 * r + 2) for r in range(3)] + [(c, c + 3, c + 6) for c in range(3)]
         + [(0, 4, 8), (2, 4, 6)])


class Game:
    def __init__(self) -> None:
        self.board: list[int | None] = [None] * 9  # the owner of the mark on each square
        self.player = 0
        self.winner: int | None = None
        self.terminal = False
        self.options: dict[str, int] = {}

    @property
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.player

    def legal(self) -> list[str]:
        return [] if self.terminal else list(self.options)

    def apply(self, text: str) -> None:
        self.place(self.options[text])
        self.run()

    def scores(self) -> list[int]:
        return [1 if self.winner == p else 0 for p in range(2)]

    def run(self) -> None:
        """On to the next decision with two or more options (or the end)."""
        while not self.terminal:
            self.options = {f"place square={SQUARES[i]}": i for i in range(9) if self.board[i] is None}
            if len(self.options) > 1:
                return
            self.place(next(iter(self.options.values())))

    def place(self, square: int) -> None:
        me = self.player
        self.board[square] = me
        if any(all(self.board[s] == me for s in line) for line in LINES if square in line):
            self.winner = me
        if self.winner is not None or all(owner is not None for owner in self.board):
            self.terminal = True
            self.options = {}
        else:
            self.player = 1 - me


def new_game(players: int = 2, seed: int = 0) -> Game:
    """A new game (no chance in Tic-Tac-Toe: `seed` is accepted for a uniform API)."""
    game = Game()
    game.run()
    return game


def random_playout(seed: int) -> tuple[Game, int]:
    """One game of uniformly random moves; the game and the number of moves applied."""
    rng = random.Random(seed)
    game = new_game()
    steps = 0
    while not game.terminal:
        game.apply(rng.choice(game.legal()))
        steps += 1
    return game, steps
