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
`resample_from_infostate` keeps, engine/knowledge.py). `register(ruleset, name=...)` registers any
other ruleset under a name of its own.

- Actions are ids of the ruleset's fixed action space: the same id for the same action in every
  state, `num_distinct_actions()` its real size (9 for tic-tac-toe); chance outcomes have their own
  (`max_chance_outcomes()`). Chance is explicit: every shuffle, draw from a bag and random choice is
  a chance node.
- The game type is read from the ruleset: deterministic when no rule shuffles, draws from a bag or
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
  on a game of hidden information it sees every hidden card; use `ISMCTSBot`.
- `serialize_game_and_state`, `pickle` and `clone()` work; a clone shares the Leges state and the
  seats' memories with the state cloned until either changes (copy on write: `_Inner`).

Needs the `openspiel` extra (`pip install 'leges[openspiel]'`).
"""
from __future__ import annotations

import copy
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

_DEFAULTS = {"ruleset": "tictactoe", "players": 0, "variants": "", "int_bound": 16, "list_length": 8,
             "bounds": "", "forced_moves": True, "memory": True}
_REGISTERED: dict[str, tuple] = {}  # short name → (ruleset, settings)
_CACHE: dict[tuple, tuple] = {}  # (ruleset, variants, players, space settings) → (leges game, space, encoding)


def game_type(short: str, game=None, long_name: str | None = None) -> pyspiel.GameType:
    """The OpenSpiel game type of a Leges game (None: the generic type a name is registered with)."""
    if game is None:
        deterministic, perfect, lo, hi = False, False, 1, 10
    else:
        programs = game.programs
        bags = any(k == "bag" for n in range(game.min_players, game.max_players + 1)
                   for k in game.setup_for(n).zone_kind.values())
        deterministic = programs is not None and not programs.random and not (programs.draws and bags)
        perfect = not has_hidden_information(game)
        lo, hi = game.min_players, game.max_players
    return pyspiel.GameType(
        short_name=short,
        long_name=long_name or (f"Leges: {game.title}" if game is not None else "Leges: any ruleset"),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.DETERMINISTIC if deterministic
                     else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS, ruleset=_REGISTERED.get(short, ("tictactoe",))[0]))


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
    pyspiel.register_game(game_type(short, game), LegesGame)
    return short


def _register_bundled() -> None:
    from ..text import files  # the bundled games' names
    _REGISTERED["leges"] = ("tictactoe",)
    pyspiel.register_game(game_type("leges"), LegesGame)
    for name in files.bundled_names():
        short = f"leges_{name}"
        _REGISTERED[short] = (name,)
        pyspiel.register_game(game_type(short, long_name=f"Leges: {name}"), LegesGame)


def bounds_param(bounds: dict) -> str:
    """The `bounds` game parameter for a dictionary of ActionSpace bounds: `KEY:N` (an int below N) or
    `KEY:LENGTH:VALUES` (a list), space-separated (OpenSpiel's game strings allow no comma)."""
    parts = []
    for key, value in bounds.items():
        parts.append(f"{key}:{value['length']}:{value['values']}" if isinstance(value, dict) else f"{key}:{value}")
    return " ".join(parts)


def parse_bounds(text: str) -> dict:
    out: dict = {}
    for part in text.split():
        fields = part.split(":")
        try:
            if len(fields) == 2:
                out[fields[0]] = int(fields[1])
            elif len(fields) == 3:
                out[fields[0]] = {"length": int(fields[1]), "values": int(fields[2])}
            else:
                raise ValueError(part)
        except ValueError:
            raise LegesError(Diagnostic(Position("leges.adapters.openspiel"), f"'{part}' is not a bound",
                                        "bounds are KEY:N (an int below N) or KEY:LENGTH:VALUES (a list), "
                                        "space-separated")) from None
    return out


def _flag(value) -> bool:
    return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")


class LegesGame(pyspiel.Game):
    """A Leges game for a number of players, as OpenSpiel sees it (`leges`: the Leges game)."""

    def __init__(self, params=None):
        params = dict(params or {})
        short = params.pop("name", None)
        self.params = dict(_DEFAULTS)
        self.params.update(params)
        ruleset = str(self.params["ruleset"])
        variants = tuple(v for v in str(self.params["variants"]).replace(",", " ").split() if v)
        bounds = parse_bounds(str(self.params["bounds"]))
        key = (ruleset, variants, int(self.params["players"]), int(self.params["int_bound"]),
               int(self.params["list_length"]), json.dumps(bounds, sort_keys=True))
        if key not in _CACHE:
            leges = load_game(ruleset, variants)
            players = key[2] or leges.min_players
            if not leges.min_players <= players <= leges.max_players:
                raise LegesError(Diagnostic(Position(leges.ruleset_file),
                                            f"{leges.id} is for {leges.min_players} to {leges.max_players} players, not {players}"))
            space = ActionSpace(leges, players, int_bound=key[3], list_length=key[4], bounds=bounds)
            _CACHE[key] = (leges, players, space, Encoding(leges, players))
        self.leges, self.players, self.space, self.encoding = _CACHE[key]
        self.forced_moves = _flag(self.params["forced_moves"])
        self.memory = _flag(self.params["memory"]) and has_hidden_information(self.leges)
        self.hidden = has_hidden_information(self.leges)
        leges = self.leges
        length = leges.max_decisions or (leges.max_turns or 10_000) * 100
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.space.chance_size,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length)
        registered = short or next((n for n, r in _REGISTERED.items() if r[0] == ruleset and n != "leges"), "leges")
        self.short = registered
        self._initial = None
        super().__init__(game_type(registered, leges), info, self.params)

    def new_initial_state(self):
        first = self._initial
        if first is None:  # the first state, made once: every new one shares it until it changes
            st = self.leges.new_initial_state(players=self.players, seed=0, explicit_chance=True,
                                              forced_moves=self.forced_moves, run=not self.memory)
            memories = None
            if self.memory:
                memories = SeatMemories(self.players)
                memories.set_up(st)
            first = self._initial = _Inner(self, st, memories, owned=False)
        state = _new_state(LegesState)
        _init_state(state, self)
        # OpenSpiel's clone() makes a new state this way, then replaces its `_s` (see _Inner)
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
        return _Observer(self, perfect_recall)

    def __reduce__(self):
        return _load_game, (self.short, {k: v for k, v in self.params.items() if v != _DEFAULTS.get(k)})


_new_state = pyspiel.State.__new__
_init_state = pyspiel.State.__init__
_new_inner = object.__new__


def _load_game(short: str, params: dict):
    return pyspiel.load_game(short, params)


class _Inner:
    """What an OpenSpiel state holds: its whole `__dict__` is one of these, `_s`.

    Copy on write: OpenSpiel's `clone()` of a Python state makes a new state (`new_initial_state`)
    and sets into it `copy.deepcopy` of each entry of the old one's `__dict__`. The deep copy of an
    `_Inner` is the `_Inner` itself, marked not owned: the two states share it, and the first of them
    to change copies the Leges state into an `_Inner` of its own (`LegesState._own`). A clone thus
    costs OpenSpiel's fixed cost of cloning a Python state and no copy; the copy comes with the
    first action applied to either state (benchmarks/adapter_clone.py measures both). What a shared
    `_Inner` may still change is the same for every state sharing it: the legal-ids cache (keyed by
    the position) and the flags `owned` and `shared`, which only ever make a later change copy."""

    __slots__ = ("game", "legal", "memories", "owned", "shared", "st")
    legal: tuple[tuple[int, int, bool], dict[int, str]] | None  # (history length, player, over), the ids then legal

    def __init__(self, game, st, memories, owned: bool = True):
        self.game, self.st, self.memories, self.legal = game, st, memories, None
        self.shared = memories is not None and not owned  # the memories are another's too: copied before a step
        self.owned = owned  # False: `st` may be another state's too, copied before it changes

    def __deepcopy__(self, memo=None):
        self.owned = False
        return self

    def __reduce__(self):
        memories = [(k.player, sorted(k.fixed), sorted(k.known)) for k in self.memories.seats] \
            if self.memories is not None else None
        return _restore_inner, (self.game, self.st.to_json(), memories)


def _share(inner: _Inner, memo=None) -> _Inner:
    inner.owned = False
    return inner


# `copy.deepcopy` looks a type up in this table before it looks for `__deepcopy__`: the same result,
# sooner (CPython's table, private; without it, `__deepcopy__` does the same)
_dispatch = getattr(copy, "_deepcopy_dispatch", None)
if isinstance(_dispatch, dict):
    _dispatch[_Inner] = _share


def _restore_inner(game, text, memories):
    st = game.leges.state_from_json(text)
    seats = None
    if memories is not None:
        seats = SeatMemories(game.players)
        for k, (_, fixed, known) in zip(seats.seats, memories):
            k.fixed, k.known = set(fixed), set(known)
    return _Inner(game, st, seats)


class LegesState(pyspiel.State):
    """An OpenSpiel state around a Leges state (`leges_state`)."""

    def __init__(self, game: LegesGame, st, memories=None):
        super().__init__(game)
        self._s = _Inner(game, st, memories)

    @property
    def leges_state(self):
        """The Leges state inside (engine/state.py): the adapter's own, to read (apply actions through
        the adapter, or OpenSpiel's history will not know them)."""
        inner = self._s
        if not inner.owned:
            inner = self._own()
        return inner.st

    def _own(self) -> _Inner:
        """This state's `_Inner` made its own (see _Inner), before a change."""
        inner = self._s
        mine = self._s = _new_inner(_Inner)
        mine.game, mine.st, mine.memories, mine.legal, mine.owned = inner.game, inner.st.copy(), inner.memories, None, True
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
                inner.memories = _copy_memories(inner.memories)
                inner.shared = False
            inner.memories.step(st, lambda: st.apply_action(taken), taken)

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
        The state returned has the Leges history of this one, not OpenSpiel's `history()`."""
        inner = self._s
        seed = int(probability_sampler() * 2 ** 53) if probability_sampler is not None else random.getrandbits(53)
        rng = random.Random(seed)
        st, game = inner.st, inner.game
        if not game.hidden:
            world = st.copy()
        else:
            pins = inner.memories.seats[player_id].pins(rng=False) if inner.memories is not None else None
            world = (Resampler(st, player_id, pins) if pins is not None else Resampler(st, player_id)).sample(rng)
        other = LegesState(game, world, inner.memories)
        if inner.memories is not None:
            inner.shared = other._s.shared = True
        return other


def _text(st) -> str:
    """The state as text (`str(state)`), its variables in a fixed order: a state read back from JSON
    prints as the one saved."""
    lines = str(st).split("\n")
    zones = 1 + sum(1 for key in st.setup.zone_order if st.zones[key])
    return "\n".join(lines[:zones] + sorted(lines[zones:]))


def _copy_memories(memories: SeatMemories) -> SeatMemories:
    out = SeatMemories.__new__(SeatMemories)
    out.seats = [type(k)(k.player, set(k.fixed), set(k.known), k.forgets) for k in memories.seats]
    return out


class _Observer:
    """OpenSpiel's observer: the seat's vector (adapters/encoding.py; with perfect recall, what it
    remembers too) and its strings."""

    def __init__(self, game: LegesGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.encoding.size
        self.tensor = np.zeros(size + (game.encoding.memory_size if perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["memory"] = self.tensor[size:]

    def set_from(self, state, player):
        inner = state._s
        self.game.encoding.encode(inner.st, player, self.dict["observation"])
        if self.perfect_recall:
            knowledge = inner.memories.seats[player] if inner.memories is not None else None
            self.game.encoding.encode_memory(inner.st, knowledge, self.dict["memory"])

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


_register_bundled()
