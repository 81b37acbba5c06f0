"""Any Leges game as a PettingZoo AEC environment, with action masks.

    from leges.adapters.pettingzoo import env
    e = env("tictactoe")
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(info["action_mask"])
        e.step(action)

- Agents are `player_0`, `player_1`, ... in seat order; each agent's seat name is in
  `infos[agent]["seat"]` (and `seat(agent)`).
- An action is an id of the ruleset's fixed action space (engine/action_space.py): the same id for
  the same action in every state, `Discrete(num_distinct_actions)`. `infos[agent]["action_mask"]`
  (an int8 vector of that size; `action_mask(agent)` too) marks the legal ids of the agent to move,
  all zeros for the others; `infos[agent]["legal_actions"]` lists the same ids (a list of ints, empty
  for the others), so an agent need not scan a mask of millions of entries. Actions other players may take out of turn (`anytime`) are offered
  when it is their turn.
- The observation is a `Box` of float32: the seat's view encoded as adapters/encoding.py lays it
  out (`encoding.layout()`), only what that seat may see. `observation_text(agent)` is the same
  view as Leges writes it. With `mask_in_observation=True` the observation is instead a dict in
  PettingZoo's classic-environment convention, `{"observation": that Box's array, "action_mask":
  the agent's mask}`, and `observation_space` a `Dict` of the two (the mask a `Box(0, 1, (size,),
  int8)`), so tools that look for the mask there (`pettingzoo.test.parallel_api_test`'s sampling)
  find it; the default keeps the plain array. `infos` hold the mask and the list either way.
- Chance is sampled from the state's generator (`reset(seed=...)`); single-option decisions are
  asked (forced moves) unless `forced_moves=False`. Rewards come at the end: Leges' `returns()`. A
  game stopped by `limits.max_turns`, `max_decisions` or its budget is truncated, any other end
  terminates.
- `state()` is the global state, every seat's observation side by side (`state_space`); the Leges
  state itself is `leges_state`. `parallel_env` (adapters/pettingzoo_parallel.py) is the same game
  through PettingZoo's Parallel API, where seats deciding in secret decide in one step.
- `render_mode="ansi"` gives the state as text; `"rgb_array"` the SVG picture of the board
  (leges.render) rasterised by resvg (`pip install 'leges[raster]'`: a wheel, no system library)
  or else cairosvg (which needs the Cairo library), when one is installed (else a LegesError
  saying so).

Needs the `pettingzoo` extra (`pip install 'leges[pettingzoo]'`).
"""
from __future__ import annotations

import random

from . import missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as _exc:  # without the extra: say which install fixes it
    raise missing_extra("pettingzoo", _exc) from None

from ..engine.action import Action
from ..engine.action_space import ActionSpace
from ..text.errors import Diagnostic, LegesError, Position
from . import declared_bounds, load_game
from .encoding import Encoding


def env(ruleset, **kwargs) -> AECEnv:
    """The environment (see `raw_env`) in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(ruleset, **kwargs))


class raw_env(AECEnv):
    """A Leges game (a Game, a bundled game's name or a ruleset folder) for `players` players.
    `int_bound`, `list_length` and `bounds` shape the fixed action space (engine/action_space.py);
    the bounds the ruleset declares (`limits.action_bounds`) hold unless `bounds` overrides them."""

    metadata: dict = {"render_modes": ["ansi", "rgb_array"], "name": "leges", "is_parallelizable": False}

    def __init__(self, ruleset, players: int | None = None, variants=(), forced_moves: bool = True,
                 render_mode: str | None = None, int_bound: int = 16, list_length: int = 8, bounds: dict | None = None,
                 mask_in_observation: bool = False):
        super().__init__()
        self.game = load_game(ruleset, variants)
        self.players = players if players is not None else self.game.min_players
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']} or None")
        self.forced_moves = forced_moves
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"leges_{self.game.id}")
        self.space = ActionSpace(self.game, self.players, int_bound=int_bound, list_length=list_length,
                                 bounds=dict(declared_bounds(self.game), **(bounds or {})))
        self.encoding = Encoding(self.game, self.players)
        self.leges_state = self.game.new_initial_state(players=self.players, forced_moves=forced_moves)
        self.seats = list(self.leges_state.setup.seat_names)
        self.possible_agents = [f"player_{i}" for i in range(len(self.seats))]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = self.encoding.bounds()
        box = spaces.Box(low=np.asarray(low, np.float32), high=np.asarray(high, np.float32), dtype=np.float32)
        self.mask_in_observation = bool(mask_in_observation)
        observation_space: spaces.Space
        if self.mask_in_observation:  # PettingZoo's classic convention: the mask beside the observation
            mask_space = spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8)
            observation_space = spaces.Dict({"observation": box, "action_mask": mask_space})
        else:
            observation_space = box
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        # the global state for centralised training: every seat's view side by side (no deck order,
        # nothing no seat sees), in seat order
        n = len(self.possible_agents)  # (the plain arrays, with or without `mask_in_observation`)
        self.state_space = spaces.Box(low=np.tile(box.low, n), high=np.tile(box.high, n), dtype=np.float32)
        self._none = np.zeros(self.space.size, dtype=np.int8)
        self._none.flags.writeable = False
        self._legal: tuple | None = None
        self.agents: list = []

    # ------------------------------------------------------------ the AEC interface
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options=None) -> None:
        seed = random.randrange(2 ** 32) if seed is None else int(seed)
        self.leges_state = self.game.new_initial_state(players=self.players, seed=seed, forced_moves=self.forced_moves)
        self._legal = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self.possible_agents[self.leges_state.current_player()]
        self._set_infos()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.leges_state
        player = self._index[agent]
        legal = self._ids(player)
        text = legal.get(int(action)) if action is not None else None
        if text is None:
            raise ValueError(f"action {action!r} is not one of {agent}'s legal actions "
                             f"({', '.join(f'{i}: {t}' for i, t in list(legal.items())[:8])}{' ...' if len(legal) > 8 else ''})")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        st.apply_action(Action(player, text))
        self._legal = None
        if st.is_terminal():
            for a, value in zip(self.possible_agents, st.returns()):
                self.rewards[a] = float(value)
            ended = self.truncations if st.unfinished else self.terminations
            for a in self.agents:
                ended[a] = True
        else:
            self.agent_selection = self.possible_agents[st.current_player()]
        self._set_infos()
        self._accumulate_rewards()

    def observe(self, agent):
        observation = self.encoding.encode(self.leges_state, self._index[agent])
        if self.mask_in_observation:
            return {"observation": observation, "action_mask": self.action_mask(agent)}
        return observation

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return str(self.leges_state)
        return self.rgb_array()

    def close(self) -> None:
        pass

    def state(self):
        """The global state (`state_space`): each seat's observation in seat order, concatenated —
        what the seats see between them, never what none of them may see (a deck's order)."""
        return np.concatenate([self.encoding.encode(self.leges_state, i) for i in range(len(self.seats))])

    # ------------------------------------------------------------ what Leges adds
    def seat(self, agent) -> str:
        """The seat an agent plays (`player_0` → `x`)."""
        return self.seats[self._index[agent]]

    def action_mask(self, agent):
        """The legal ids of `agent` now (int8, 1 for legal): all zeros unless it is to move."""
        if agent != self.agent_selection or self.leges_state.is_terminal():
            return self._none
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[list(self._ids(self._index[agent]))] = 1
        return mask

    def action_text(self, action: int, agent=None) -> str:
        """The text of action id `action` (legal for `agent`, default the one to move, or canonical)."""
        legal = self._ids(self._index[agent or self.agent_selection])
        return legal.get(int(action)) or self.space.text(int(action))

    def action_id(self, text: str, agent=None) -> int:
        """The id of an action's text."""
        return self.space.id(self.leges_state, self._index[agent or self.agent_selection], text)

    def observation_text(self, agent) -> str:
        """What `agent` may see, as Leges writes it (`State.observation_string`)."""
        return self.leges_state.observation_string(self._index[agent])

    def rgb_array(self):
        """The board as the SVG renderer draws it for nobody's view (public information), rasterised:
        an (height, width, 3) uint8 array."""
        from ..render import render_svg
        return _rasterise(render_svg(self.leges_state))

    def legal_actions(self, agent) -> list[int]:
        """The legal ids of `agent` now, ascending (empty unless it is to move): what the mask marks,
        without scanning the mask (a bundled game's holds four million entries)."""
        if agent != self.agent_selection or self.leges_state.is_terminal():
            return []
        return sorted(self._ids(self._index[agent]))

    def _ids(self, player: int) -> dict:
        st = self.leges_state
        key = (len(st.history), player, st.terminal)
        if self._legal is None or self._legal[0] != key:
            self._legal = (key, self.space.legal(st, player) if not st.terminal else {})
        return self._legal[1]

    def _set_infos(self) -> None:
        self.infos = {a: {"seat": self.seats[self._index[a]], "action_mask": self.action_mask(a),
                          "legal_actions": self.legal_actions(a)} for a in self.agents}


def _png(svg: str) -> bytes:
    """The SVG as PNG, by the first rasteriser installed: resvg (resvg-py), then cairosvg."""
    try:
        import resvg_py
    except ImportError:
        pass
    else:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg))
    try:
        import cairosvg
    except (ImportError, OSError):  # OSError: cairosvg installed, the Cairo library not
        raise LegesError(Diagnostic(Position("leges.adapters.pettingzoo"),
                                    "render_mode='rgb_array' needs an SVG rasteriser (resvg-py or cairosvg), "
                                    "and none is installed",
                                    "pip install 'leges[raster]' (resvg-py: a wheel, no system library), "
                                    "or use render_mode='ansi'")) from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))


def _rasterise(svg: str):
    """The SVG as an (height, width, 3) uint8 array."""
    import io
    png = _png(svg)
    try:
        from PIL import Image
    except ImportError:
        import matplotlib.image
        return (matplotlib.image.imread(io.BytesIO(png), format="png")[..., :3] * 255).round().astype(np.uint8)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
