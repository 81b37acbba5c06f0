"""What every agent shares: the view it decides from, and the interface it implements.

An agent never receives the game state. It receives a `View`: the legal actions of its player,
that player's observation and record of play, and `resample(rng)`, which hands out whole states
in which everything the player cannot see has been drawn afresh (`engine/resample.py`). Search
happens on those; so an agent cannot read what its player may not see, whatever it does.
"""
from __future__ import annotations

import random
from typing import Any, ClassVar

from ..engine import rng as R
from ..engine.api import Action
from ..engine.resample import Resampler, has_hidden_information
from ..engine.seen import seen_pins


class View:
    """One player's view of one decision."""

    __slots__ = ("_actions", "_resampler", "_state", "game", "hidden", "knowledge", "player", "waiting")

    def __init__(self, state, player: int, actions: list[Action] | None = None, knowledge=None):
        self._state = state
        self._resampler: Resampler | None = None
        self.knowledge = knowledge  # what the player has seen (engine/knowledge.Knowledge), kept in its worlds
        self.player = player
        self.game = state.game
        self._actions = actions
        self.hidden = _hidden(state.game)
        self.waiting = 1  # when asked to interrupt: how many moves the player deciding has

    def legal_actions(self) -> list[Action]:
        """The actions this player may take now (in turn, or out of turn when it is asked to interrupt)."""
        if self._actions is None:
            self._actions = self._state.legal_actions(self.player)
        return self._actions

    def observation(self) -> dict:
        return self._state.observation(self.player)

    def history(self) -> list[str]:
        """The actions so far as this player saw them: others' secret ones still sealed."""
        return self._state.record_view(self.player)

    @property
    def players(self) -> int:
        return self._state.n

    def resample(self, rng: random.Random):
        """A whole state this player cannot tell from the real one; its own to play on.

        Everything hidden from the player is drawn afresh, and so is the future chance (the
        random generator is re-seeded), so searching it foretells nothing — but what the player has
        seen stays as it saw it: by the view's `knowledge` when it carries one (the simulator and
        the page keep it along the game), else read off the state's own history (engine/seen.py).
        """
        if not self.hidden:
            st = self._state.copy()
            st.rng = R.seed_state(rng.getrandbits(63))
            st.seed = -1
            st.seen_by = None  # (what the state read off its history: its replay, the real generator)
            return st
        if self._resampler is None:
            pins = self.knowledge.pins(rng=False) if self.knowledge is not None else seen_pins(self._state, self.player)
            self._resampler = Resampler(self._state, self.player, pins)
        return self._resampler.sample(rng)


_HIDDEN: dict[int, bool] = {}


def _hidden(game) -> bool:
    key = id(game)
    if key not in _HIDDEN:
        _HIDDEN[key] = has_hidden_information(game)
    return _HIDDEN[key]


class Agent:
    """Chooses actions for one player. Subclass it, set `name` and `params`, implement `choose`.

    `params` declares the agent's parameters as {name: (type, default, help)}; a spec such as
    `mcts:iterations=200` sets them, and they arrive as attributes of the same names.
    """

    name: ClassVar[str] = "agent"
    params: ClassVar[dict[str, tuple[type, Any, str]]] = {}
    # what it judges positions by, in words (or an agents.evaluation.Evaluation), for the reports of
    # studies and ladders: a function of its spec and the ruleset, never of what ran before it
    evaluation: Any = None

    def __init__(self, **settings):
        for key, (kind, default, _) in self.params.items():
            value = settings.pop(key, default)
            setattr(self, key, value if value is None or isinstance(value, kind) else kind(value))
        if settings:
            from ..text.errors import Diagnostic, LegesError, Position, did_you_mean
            key = next(iter(settings))
            raise LegesError(Diagnostic(Position("--agents"), f"agent '{self.name}' has no parameter '{key}'",
                                        did_you_mean(key, self.params) or
                                        ("parameters: " + ", ".join(self.params) if self.params else "it takes none")))
        self.game = None
        self.player = 0
        self.rng = random.Random(0)

    def start(self, game, player: int, rng: random.Random) -> None:
        """A new game begins, with this agent in seat `player`; `rng` is its own generator."""
        self.game, self.player, self.rng = game, player, rng

    def choose(self, view: View) -> Action | int:
        """One of `view.legal_actions()` (or its index)."""
        raise NotImplementedError

    def interrupt(self, view: View) -> Action | int | None:
        """Asked while another player decides: an out-of-turn action of `view.legal_actions()`, or None."""
        return None
