"""Any Leges game as an OpenSpiel game.

    import pyspiel
    import leges.adapters.openspiel                       # registers "leges" and "leges_<bundled game>"
    game = pyspiel.load_game("leges", {"ruleset": "tictactoe"})
    game = pyspiel.load_game("leges_pompeii", {"players": 3})

Parameters: `ruleset` (a bundled game's name, or an explicit path to a ruleset folder — nothing a
parameter names is imported), `players` (the fewest allowed by default), `variants` (their ids,
space-separated), `int_bound`, `list_length` and `bounds` (`bounds_param({...})`) for the fixed action
space (engine/action_space.py), `forced_moves` (default true: single-option decisions are asked,
as in OpenSpiel's own games) and `memory` (default true: the seats' memories that
`resample_from_infostate` keeps, engine/knowledge.py). The bounds a ruleset declares
(`limits.action_bounds`) are the default of `bounds`, so every registered name loads with no
parameter. `register(ruleset, name=...)` registers any other ruleset under a name of its own.

- Actions are ids of the ruleset's fixed action space: the same id for the same action in every
  state, `num_distinct_actions()` its real size (9 for tic-tac-toe); chance outcomes have their own
  (`max_chance_outcomes()`, 0 for a deterministic game). Chance is explicit: every shuffle, draw
  from a bag and random choice is a chance node. `max_game_length()` is the ruleset's stated bound
  (`limits.max_game_length`) or else its decision limit (adapters/spiel_info.py).
- The game type is read from the ruleset, for each registered name too: deterministic when no rule shuffles, draws from a bag or
  chooses at random; perfect information when nothing is hidden (no hidden or owner zone or
  variable, no secret action); constant-sum (zero-sum) returns, Leges' `returns()` in [-1, 1]. The
  dynamics are sequential: secret simultaneous choices (`secret: true`) are asked in seat order,
  each sealed from the others — the sequential form of a simultaneous move.
- Observations: `observation_string`/`observation_tensor` (what that seat may see,
  adapters/encoding.py) and `information_state_string` (its view plus its record of play: others'
  secret actions sealed, chance outcomes left out) / `information_state_tensor` (the observation's
  vector, then what the seat remembers in the zones not visible to all).
- `resample_from_infostate(player, sampler)` is Leges' `state.resample`, keeping what the seat has
  seen (its memory): IS-MCTS (`ISMCTSBot`) works. OpenSpiel's `MCTSBot` searches the true state:
  on a game of hidden information it sees every hidden card; use `ISMCTSBot`. The world drawn has
  this state's `history()`, and pickles with its re-deal (adapters/spiel_parts.py).
- `serialize_game_and_state`, `pickle` and `clone()` work; a clone shares the Leges state and the
  seats' memories with the state cloned until either changes (copy on write: `Inner`).

Needs the `openspiel` extra (`pip install 'leges[openspiel]'`).
"""
from __future__ import annotations

import json
import random

from . import missing_extra

try:
    import numpy as np
    import pyspiel
except ImportError as _exc:  # without the extra: say which install fixes it
    raise missing_extra("openspiel", _exc) from None

from ..engine.action import Action
from ..engine.action_space import ActionSpace
from ..engine.constants import CHANCE, TERMINAL
from ..engine.knowledge import SeatMemories
from ..engine.resample import Resampler, has_hidden_information
from ..text.errors import Diagnostic, LegesError, Position
from . import load_game
from .encoding import Encoding
from .spiel_parts import Inner, Observer, copy_memories, new_inner
from .spiel_info import (DEFAULTS, bounds_param, declared_bounds, deterministic, flag, game_type, max_game_length,
                         parse_bounds, stated_length)

_REGISTERED: dict[str, tuple] = {}  # short name → (ruleset,)
_CACHE: dict[tuple, tuple] = {}  # (ruleset, variants, players, space settings) → (leges game, space, encoding)
# the names of adapters/spiel_info.py, kept importable from here (tests and callers use them)
__all__ = ["LegesGame", "LegesState", "bounds_param", "game_type", "parse_bounds", "register"]


def register(ruleset, *, name: str | None = None) -> str:
    """Register a ruleset (a bundled game's name or a ruleset folder) under its own OpenSpiel name
    (default `leges_<id>`, `_<variant>` for each variant) and return it; the parameters are those of
    "leges" but `ruleset`. Registering the same name again with the same ruleset does nothing."""
    game = load_game(ruleset)
    short = name or f"leges_{game.id}"
    text = str(ruleset)
    if short in _REGISTERED:
        if _REGISTERED[short][0] in (text, game.id):
            return short
        raise ValueError(f"an OpenSpiel game named {short!r} is already registered with another ruleset; give another name=")
    _REGISTERED[short] = (text,)
    pyspiel.register_game(game_type(short, game, ruleset=text), LegesGame)
    return short


def _register_bundled() -> None:
    """`leges` (any ruleset, a parameter) and `leges_<name>` for each bundled game, each with the
    type read from its ruleset: `registered_games()` tells a deterministic game of perfect
    information from one with chance and hidden cards. Loading the bundled games here costs well under a second, once."""
    from ..text import files  # the bundled games' names
    _REGISTERED["leges"] = ("tictactoe",)
    pyspiel.register_game(game_type("leges"), LegesGame)
    for name in files.bundled_names():
        short = f"leges_{name}"
        _REGISTERED[short] = (name,)
        pyspiel.register_game(game_type(short, load_game(name), ruleset=name), LegesGame)


class LegesGame(pyspiel.Game):
    """A Leges game for a number of players, as OpenSpiel sees it (`leges`: the Leges game)."""

    def __init__(self, params=None):
        params = dict(params or {})
        short = params.pop("name", None)
        self.params = dict(DEFAULTS)
        self.params.update(params)
        ruleset = str(self.params["ruleset"])
        variants = tuple(v for v in str(self.params["variants"]).replace(",", " ").split() if v)
        leges = load_game(ruleset, variants)  # cached: what the key below needs, the declared bounds
        bounds = dict(declared_bounds(leges), **parse_bounds(str(self.params["bounds"])))
        key = (ruleset, variants, int(self.params["players"]), int(self.params["int_bound"]),
               int(self.params["list_length"]), json.dumps(bounds, sort_keys=True))
        if key not in _CACHE:
            players = key[2] or leges.min_players
            if not leges.min_players <= players <= leges.max_players:
                raise LegesError(Diagnostic(Position(leges.ruleset_file),
                                            f"{leges.id} is for {leges.min_players} to {leges.max_players} players, not {players}"))
            space = ActionSpace(leges, players, int_bound=key[3], list_length=key[4], bounds=bounds)
            _CACHE[key] = (leges, players, space, Encoding(leges, players))
        self.leges, self.players, self.space, self.encoding = _CACHE[key]
        self.forced_moves = flag(self.params["forced_moves"])
        self.memory = flag(self.params["memory"]) and has_hidden_information(self.leges)
        self.hidden = has_hidden_information(self.leges)
        self.stated_length = stated_length(self.leges)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            # a deterministic game asks no chance node: 0, as OpenSpiel's own tic_tac_toe says
            max_chance_outcomes=0 if deterministic(self.leges) else self.space.chance_size,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(self.leges))
        registered = short or next((n for n, r in _REGISTERED.items() if r[0] == ruleset and n != "leges"), "leges")
        self.short = registered
        self._initial = None
        super().__init__(game_type(registered, self.leges, ruleset=ruleset), info, self.params)

    def new_initial_state(self):
        first = self._initial
        if first is None:  # the first state, made once: every new one shares it until it changes
            st = self.leges.new_initial_state(players=self.players, seed=0, explicit_chance=True,
                                              forced_moves=self.forced_moves, run=not self.memory)
            memories = None
            if self.memory:
                memories = SeatMemories(self.players)
                memories.set_up(st)
            first = self._initial = Inner(self, st, memories, owned=False)
        state = _new_state(LegesState)
        _init_state(state, self)
        # OpenSpiel's clone() makes a new state this way, then replaces its `_s` (see Inner)
        state._s = first
        return state

    def observation_tensor_shape(self):
        return [self.encoding.size]

    def information_state_tensor_shape(self):
        return [self.encoding.size + self.encoding.memory_size]

    def observation_tensor_size(self):
        return self.encoding.size

    def information_state_tensor_size(self):
        return self.encoding.size + self.encoding.memory_size

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, perfect_recall)

    def __reduce__(self):
        return _load_game, (self.short, {k: v for k, v in self.params.items() if v != DEFAULTS.get(k)})


_new_state = pyspiel.State.__new__
_init_state = pyspiel.State.__init__


def _load_game(short: str, params: dict):
    return pyspiel.load_game(short, params)


class LegesState(pyspiel.State):
    """An OpenSpiel state around a Leges state (`leges_state`)."""

    def __init__(self, game: LegesGame, st, memories=None):
        super().__init__(game)
        self._s = Inner(game, st, memories)

    @property
    def leges_state(self):
        """The Leges state inside (engine/state.py): the adapter's own, to read (apply actions through
        the adapter, or OpenSpiel's history will not know them)."""
        inner = self._s
        if not inner.owned:
            inner = self._own()
        return inner.st

    def _own(self) -> Inner:
        """This state's `Inner` made its own (see Inner), before a change."""
        inner = self._s
        mine = self._s = new_inner(Inner)
        mine.game, mine.st, mine.memories, mine.legal, mine.owned = inner.game, inner.st.copy(), inner.memories, None, True
        mine.world = inner.world
        mine.shared = inner.memories is not None
        return mine

    # ------------------------------------------------------------ the game's course
    def _ids(self, player: int) -> dict:
        inner = self._s
        st = inner.st
        key = (len(st.history), player, st.pending is None)
        if inner.legal is None or inner.legal[0] != key:
            inner.legal = (key, inner.game.space.legal(st, player))
        return inner.legal[1]

    def current_player(self):
        player = self._s.st.current_player()
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return player

    def _legal_actions(self, player):
        return list(self._ids(player))

    def chance_outcomes(self):
        ids = self._ids(CHANCE)
        probability = {a.text: p for a, p in self._s.st.chance_outcomes()}
        return [(i, probability[t]) for i, t in ids.items()]

    def _apply_action(self, action):
        inner = self._s
        st = inner.st
        player = st.current_player()
        text = self._ids(player).get(action)
        if text is None:
            raise LegesError(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                        f"action id {action} ({self._action_text(player, action)}) is not legal for "
                                        f"{st.player_name(player)} now"))
        if inner.owned:
            inner.legal = None
        else:
            inner = self._own()
            st = inner.st
        taken = Action(player, text)
        if inner.memories is None:
            st.apply_action(taken)
        else:
            if inner.shared:
                inner.memories = copy_memories(inner.memories)
                inner.shared = False
            inner.memories.step(st, lambda: st.apply_action(taken), taken)
        stated = inner.game.stated_length
        if stated and len(st.history) > stated:  # the bound OpenSpiel was told is wrong: say so, never carry on
            raise LegesError(Diagnostic(Position(st.game.ruleset_file),
                                        f"this game took {len(st.history)} decisions, more than the {stated} its ruleset "
                                        "states (limits.max_game_length)", "correct the bound or its argument"))

    def _action_text(self, player: int, action: int) -> str:
        ids = self._ids(player) if player != TERMINAL else {}
        if action in ids:
            return ids[action]
        try:
            return self._s.game.space.text(action, player)
        except (LegesError, IndexError):
            return f"action {action}"

    def _action_to_string(self, player, action):
        return self._action_text(CHANCE if player == pyspiel.PlayerId.CHANCE else player, action)

    def string_to_action(self, *args):
        """The id of an action's text (for the player to move, or `player, text`)."""
        st = self._s.st
        player, text = (st.current_player(), args[0]) if len(args) == 1 else args
        return self._s.game.space.id(st, CHANCE if player == pyspiel.PlayerId.CHANCE else player, text)

    def is_terminal(self):
        return self._s.st.terminal

    def returns(self):
        return list(self._s.st.returns())

    def rewards(self):
        return self.returns() if self.is_terminal() else [0.0] * self._s.game.players

    def __str__(self):
        return _text(self._s.st)

    # ------------------------------------------------------------ observations
    def observation_string(self, player=None):
        return self._s.st.observation_string(self.current_player() if player is None else player)

    def information_state_string(self, player=None):
        player = self.current_player() if player is None else player
        st = self._s.st
        record = [e for e in st.record_view(player) if not e.startswith("chance: ")]
        return json.dumps([st.observation(player), record], sort_keys=True)

    def observation_tensor(self, player=None):
        return self._s.game.encoding.encode(self._s.st, self.current_player() if player is None else player)

    def information_state_tensor(self, player=None):
        player = self.current_player() if player is None else player
        inner = self._s
        knowledge = inner.memories.seats[player] if inner.memories is not None else None
        return np.concatenate([inner.game.encoding.encode(inner.st, player),
                               inner.game.encoding.encode_memory(inner.st, knowledge)])

    # ------------------------------------------------------------ search
    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state `player_id` cannot tell from this one (Leges' `state.resample`, what the seat has seen
        kept: `memory`); `probability_sampler` (OpenSpiel's: a callable giving numbers in [0, 1)) seeds it.
        The state returned has this one's `history()` (OpenSpiel's) and Leges history."""
        inner = self._s
        seed = int(probability_sampler() * 2 ** 53) if probability_sampler is not None else random.getrandbits(53)
        rng = random.Random(seed)
        st, game = inner.st, inner.game
        if not game.hidden:
            world = st.copy()
        else:
            pins = inner.memories.seats[player_id].pins(rng=False) if inner.memories is not None else None
            world = (Resampler(st, player_id, pins) if pins is not None else Resampler(st, player_id)).sample(rng)
        # a clone keeps OpenSpiel's history(): the world has the same past as this state, as seen by
        # `player_id` (pyspiel keeps the history in C++, where only a clone can copy it)
        owned = inner.owned
        other = self.clone()
        inner.owned = owned  # the clone's `_s` is replaced at once: this state still owns its own
        other._s = Inner(game, world, inner.memories, world=game.hidden)
        if inner.memories is not None:
            inner.shared = other._s.shared = True
        return other


def _text(st) -> str:
    """The state as text (`str(state)`), its variables in a fixed order: a state read back from JSON
    prints as the one saved."""
    lines = str(st).split("\n")
    zones = 1 + sum(1 for key in st.setup.zone_order if st.zones[key])
    return "\n".join(lines[:zones] + sorted(lines[zones:]))


_register_bundled()
