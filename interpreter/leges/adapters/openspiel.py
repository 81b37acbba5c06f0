"""Any Leges game as an OpenSpiel game: `register(ruleset)`, then `pyspiel.load_game(name)`.

    import pyspiel
    from leges.adapters.openspiel import register
    name = register("rulesets/tictactoe")          # "leges_tictactoe"
    game = pyspiel.load_game(name, {"players": 2})
    state = game.new_initial_state()

The OpenSpiel state wraps a Leges state: an action is an integer id (the index of its text among
the legal actions' texts sorted, `State.action_to_string`), so ids are per state and below
`num_distinct_actions`; chance is explicit (every shuffle, draw from a bag and random choice is a
chance node with `chance_outcomes()`) and single-option decisions are asked (forced moves), as in
OpenSpiel's own games. Returns are Leges' `returns()`: in [-1, 1], summing to zero. Observations are
strings (`observation_string(player)`, what that player may see); no tensors.

Needs the `openspiel` extra (`pip install 'leges[openspiel]'`).
"""
from __future__ import annotations

import numpy as np
import pyspiel

from ..engine.api import Action
from ..engine.constants import CHANCE, TERMINAL
from . import MAX_ACTIONS, check_bound, load_game

_REGISTERED: dict[str, tuple] = {}  # short name → (game, settings)


def register(ruleset, *, name: str | None = None, variants=(), num_distinct_actions: int = MAX_ACTIONS,
             forced_moves: bool = True, explicit_chance: bool = True, max_game_length: int | None = None) -> str:
    """Register a Leges game (a Game, a ruleset folder or a bundled game's name) with OpenSpiel; returns
    the short name to give `pyspiel.load_game` (default `leges_<id>`). Game parameters: `players` (the
    fewest allowed by default) and `seed` (the generator of a game whose chance is not explicit).

    Registering the same name again with the same game and settings does nothing; OpenSpiel keeps a
    registration for the life of the process."""
    game = load_game(ruleset, variants)
    short = name or f"leges_{game.id}" + "".join(f"_{v}" for v in game.variants)
    settings = (num_distinct_actions, forced_moves, explicit_chance, max_game_length)
    if short in _REGISTERED:
        known, known_settings = _REGISTERED[short]
        if (known.id, known.version, known.variants) == (game.id, game.version, game.variants) and \
                known_settings == settings:
            return short
        raise ValueError(f"an OpenSpiel game named {short!r} is already registered with other rules or settings; "
                         "give another name=")
    hidden = _hides_anything(game)
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"Leges: {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if explicit_chance
                     else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": game.min_players, "seed": 0})
    length = max_game_length or game.max_decisions or (game.max_turns or 10_000) * 100

    class LegesGame(_Game):
        pass
    LegesGame.leges = game
    LegesGame.game_type = game_type
    LegesGame.settings = dict(num_distinct_actions=num_distinct_actions, forced_moves=forced_moves,
                              explicit_chance=explicit_chance, max_game_length=length)
    pyspiel.register_game(game_type, LegesGame)
    _REGISTERED[short] = (game, settings)
    return short


def _hides_anything(game) -> bool:
    setups = [game.setup_for(n) for n in range(game.min_players, game.max_players + 1)]
    zones = any(v != "all" for s in setups for v in s.zone_visibility.values())
    return zones or any(v != "all" for v in game.variable_visibility.values())


class _Game(pyspiel.Game):
    leges = None
    game_type = None
    settings: dict = {}

    def __init__(self, params=None):
        params = dict(params or {})
        self.players = int(params.get("players", self.leges.min_players))
        self.seed = int(params.get("seed", 0))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.settings["num_distinct_actions"],
            max_chance_outcomes=self.settings["num_distinct_actions"] if self.settings["explicit_chance"] else 0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.settings["max_game_length"])
        super().__init__(self.game_type, info, params)

    def new_initial_state(self):
        st = self.leges.new_initial_state(players=self.players, seed=self.seed,
                                          explicit_chance=self.settings["explicit_chance"],
                                          forced_moves=self.settings["forced_moves"])
        return LegesState(self, st)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer()


class LegesState(pyspiel.State):
    """An OpenSpiel state around a Leges state (`leges_state`)."""

    def __init__(self, game: _Game, st):
        super().__init__(game)
        self.leges_state = st
        self._bound = game.settings["num_distinct_actions"]
        self._texts: tuple | None = None  # (player, history length, sorted legal texts)

    def _ids(self, player: int) -> list[str]:
        st = self.leges_state
        key = (player, len(st.history), st.pending is None)
        if self._texts is None or self._texts[0] != key:
            texts = st._id_texts(player)
            check_bound(st, player, len(texts), self._bound)
            self._texts = (key, texts)
        return self._texts[1]

    def current_player(self):
        player = self.leges_state.current_player()
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return player

    def _legal_actions(self, player):
        return list(range(len(self._ids(player))))

    def chance_outcomes(self):
        texts = self._ids(CHANCE)
        probability = {a.text: p for a, p in self.leges_state.chance_outcomes()}
        return [(i, probability[t]) for i, t in enumerate(texts)]

    def _apply_action(self, action):
        player = self.leges_state.current_player()
        text = self._ids(player)[action]
        self._texts = None
        self.leges_state.apply_action(Action(player, text))

    def _action_to_string(self, player, action):
        texts = self._ids(CHANCE if player == pyspiel.PlayerId.CHANCE else player)
        return texts[action] if 0 <= action < len(texts) else f"action {action}"

    def is_terminal(self):
        return self.leges_state.is_terminal()

    def returns(self):
        return list(self.leges_state.returns())

    def __str__(self):
        return str(self.leges_state)


class _Observer:
    """Observation strings only: what a player may see (`State.observation_string`)."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state.leges_state.observation_string(player)
