"""What one game may spend in all: the caller's bound on a ruleset's work, across its actions.

Each action is bounded by the ruleset's limits (`max_work` items, `max_steps` statements), and a
game by `max_decisions`; but those multiply — every action can stay under every limit and a game
still run for days. So whoever plays a game (simulate, serve, a script) gives it a `GameBudget`:
work (items gone through and statements run, as those limits count them) and seconds of rules
running, in all. A game past either ends *unfinished*, as at the turn limit, instead of running on.

The budget is looked at when an action ends, and within a long action every SLICE items or
statements: the per-action work counter (`game.work`, which `lang/runtime.each` draws on) is handed
out a slice at a time, so the look costs nothing on the fast path. The seconds are of rules
running on this state (not of players, or agents, thinking): a copy of the state, an agent's
look-ahead, spends its own. Work is deterministic — the same game ends at the same point wherever
it is played, but for values remembered across games (design.md, memoisation) that a game near the
bound may not have to compute again; seconds are not, which is why work is the bound that
real games are far from and seconds the one that stops what work does not count.
"""
from __future__ import annotations

from dataclasses import dataclass
from time import perf_counter

from ..lang.codegen.runtime import work_exceeded

SLICE = 1_000_000  # items, or statements, between two looks at the budget within one action
DEFAULT_GAME_WORK = 100_000_000  # some 300 times what the longest bundled game does (a random one: about 300,000)
DEFAULT_GAME_SECONDS = 60.0  # some 150 times as long as its rules run (about a third of a second)


@dataclass(frozen=True)
class GameBudget:
    """The most the rules of one game may spend: `work` (items and statements, counted as
    limits.max_work and limits.max_steps count them; at least 1) and `seconds` of rules running (> 0)."""

    work: int = DEFAULT_GAME_WORK
    seconds: float = DEFAULT_GAME_SECONDS

    def __post_init__(self) -> None:
        if isinstance(self.work, bool) or not isinstance(self.work, int) or self.work < 1:
            raise ValueError(f"a game's work budget is a whole number of at least 1, not {self.work!r}")
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)) or not self.seconds > 0:
            raise ValueError(f"a game's budget of seconds is a number above 0, not {self.seconds!r}")


DEFAULT_BUDGET = GameBudget()  # one for every game given none (it never changes)


class BudgetSpent(BaseException):
    """The game's budget ran out within an action: Flow.run ends the game unfinished. Not an
    Exception, so that rules' own handling of a failing value (`except Exception` in generated
    code, lang/runtime.attempt) cannot take it for one and run on."""

    def __init__(self, ending: dict):
        super().__init__(ending)
        self.ending = ending


class Meter:
    """The work of the action running, drawn from the ruleset's per-action limit and the game's budget."""

    def __init__(self, game):
        self.game = game
        self.st = None  # the state whose action runs (None: no action runs, the per-call limit alone holds)
        self.started = 0.0
        self.reserve = 0  # items of limits.max_work not handed out to game.work yet
        self.ending: dict | None = None  # the budget ran out during this action
        self.steps = 0  # statements the action had run when the budget was last looked at

    def begin(self, st) -> None:
        game = self.game
        self.st, self.started = st, perf_counter()
        most = game.max_work
        game.work = first = most if most < SLICE else SLICE
        self.reserve = most - first

    def used(self) -> int:
        """Items the action has gone through so far."""
        work = self.game.work
        return self.game.max_work - self.reserve - (work if work > 0 else 0)

    def end(self, steps: int | None) -> dict | None:
        """The action is over, having run `steps` statements (None: it stopped before the end): what
        it spent is the game's. The ending of a game past its budget, or None. (Every action ends
        here: written for the fewest steps, no call.)"""
        st, game = self.st, self.game
        work = game.work
        spent = st.spent
        spent[0] += game.max_work - self.reserve - (work if work > 0 else 0) + (self.steps if steps is None else steps)
        spent[1] += perf_counter() - self.started
        ending = self.ending
        if ending is None:
            budget = st.budget
            if spent[0] > budget.work or spent[1] > budget.seconds:
                ending = _ending(budget, spent[0], spent[1])
        else:
            self.ending = None
        self.st = None
        self.steps = 0
        game.work = game.max_work  # game.fresh_work()
        return ending

    def refill(self) -> None:
        """game.work ran out: another slice of the action's limit, once the game's budget is looked at."""
        game = self.game
        while game.work < 0 and self.st is not None and self.reserve > 0 and self.ending is None:
            give = min(SLICE, self.reserve)
            self.reserve -= give
            game.work += give
        if self.ending is None and game.work < 0:
            raise work_exceeded(game.max_work)
        self.check(0)

    def check(self, steps: int) -> None:
        """Raise BudgetSpent if the game has spent its budget, this action's `steps` so far included.
        Once it has, every later charge in the action raises again (a rule may have caught it)."""
        self.steps = max(self.steps, steps)
        if self.ending is None:
            st = self.st
            self.ending = _ending(st.budget, st.spent[0] + self.used() + self.steps,
                                  st.spent[1] + perf_counter() - self.started)
        if self.ending is not None:
            self.game.work = -1
            raise BudgetSpent(self.ending)


def _ending(budget: GameBudget, work: int, seconds: float) -> dict | None:
    """The ending of a game that has spent this much (`end_reason`), or None if within its budget."""
    if work > budget.work:
        return {"kind": "budget", "spent": "work", "limit": budget.work}
    if seconds > budget.seconds:
        return {"kind": "budget", "spent": "seconds", "limit": budget.seconds}
    return None
