"""Any Leges game as a PettingZoo AEC environment, with action masks.

    from leges.adapters.pettingzoo import env
    e = env("rulesets/tictactoe", players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are the seats (`x`, `o`, `red`, ...). An action is an integer id: the index of its text among
the agent's legal actions' texts sorted (`State.action_to_string`), so ids are per state, below
`num_distinct_actions` (MAX_ACTIONS unless given); `action_mask` marks the legal ones, for the agent
to move only. Actions other players may take out of turn (`anytime`) are offered when it is their
turn. Chance is sampled from the state's generator (`reset(seed=...)`); single-option decisions are
asked (forced moves) unless `forced_moves=False`. Rewards come at the end: Leges' `returns()`.
A game stopped by `limits.max_turns`, `max_decisions` or its budget (engine/budget.py) is truncated, any other
end terminates.

The observation (`observation`) is a vector of numbers built only from what the agent may see:
the number of items in every zone, where each component is (its zone's index + 1, 0 when the agent
cannot see it), the numeric variables (int, bool and player ones; -1 for none, 0 for a value the
agent may not see), the phase, the player to move and whose turn it is. `observation_text(agent)`
gives the same view as Leges' own dictionary (`State.observation`).

Needs the `pettingzoo` extra (`pip install 'leges[pettingzoo]'`).
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.api import Action
from . import MAX_ACTIONS, check_bound, load_game

NUMERIC = ("int", "bool", "player")


def env(ruleset, **kwargs) -> AECEnv:
    """The environment (see `raw_env`) in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(ruleset, **kwargs))


class raw_env(AECEnv):  # noqa: N801 — PettingZoo's name for the unwrapped environment
    """A Leges game (a Game, a ruleset folder or a bundled game's name) for `players` players."""

    metadata = {"render_modes": ["ansi"], "name": "leges", "is_parallelizable": False}

    def __init__(self, ruleset, players: int | None = None, variants=(), forced_moves: bool = True,
                 num_distinct_actions: int = MAX_ACTIONS, render_mode: str | None = None):
        super().__init__()
        self.game = load_game(ruleset, variants)
        self.players = players if players is not None else self.game.min_players
        self.forced_moves = forced_moves
        self.bound = num_distinct_actions
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"leges_{self.game.id}")
        self.state = self.game.new_initial_state(players=self.players, forced_moves=forced_moves)
        self.possible_agents = list(self.state.setup.seat_names)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._layout(self.state)
        size = len(self._encode(self.state, 0))
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.bound,), dtype=np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.bound) for a in self.possible_agents}
        self.agents: list = []

    # ------------------------------------------------------------ the AEC interface
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options=None) -> None:
        seed = random.randrange(2 ** 32) if seed is None else int(seed)
        self.state = self.game.new_initial_state(players=self.players, seed=seed, forced_moves=self.forced_moves)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        player = self._index[agent]
        texts = self._texts(player)
        if action is None or not 0 <= int(action) < len(texts):
            raise ValueError(f"action {action!r} is not one of {agent}'s {len(texts)} legal actions (0 to {len(texts) - 1})")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        st.apply_action(Action(player, texts[int(action)]))
        if st.is_terminal():
            for a, value in zip(self.possible_agents, st.returns()):
                self.rewards[a] = float(value)
            ended = self.truncations if st.unfinished else self.terminations
            for a in self.agents:
                ended[a] = True
        else:
            self.agent_selection = self.possible_agents[st.current_player()]
        self._accumulate_rewards()

    def observe(self, agent):
        player = self._index[agent]
        mask = np.zeros(self.bound, dtype=np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask[:len(self._texts(player))] = 1
        return {"observation": self._encode(self.state, player), "action_mask": mask}

    def render(self):
        return str(self.state)

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ what Leges adds
    def action_text(self, action: int, agent=None) -> str:
        """The text of action id `action` of `agent` (default: the one to move)."""
        return self.state.action_to_string(self._index[agent or self.agent_selection], int(action))

    def observation_text(self, agent) -> str:
        """What `agent` may see, as Leges writes it (`State.observation_string`)."""
        return self.state.observation_string(self._index[agent])

    def _texts(self, player: int) -> list[str]:
        texts = self.state._id_texts(player)
        check_bound(self.state, player, len(texts), self.bound)
        return texts

    # ------------------------------------------------------------ the observation vector
    def _layout(self, st) -> None:
        setup, game = st.setup, self.game
        self._zones = list(setup.zone_order)
        self._zone_index = {z: i + 1 for i, z in enumerate(self._zones)}
        symbols = game.compiler.symbols if game.compiler is not None else None
        self._vars = []
        for name, (per_player, _) in game.variables.items():
            info = symbols.variables.get(name) if symbols is not None else None
            if info is None or info.type.kind not in NUMERIC or game.variable_visibility.get(name, "all") == "hidden":
                continue
            self._vars.append((name, per_player, game.variable_visibility.get(name, "all")))
        self._phases = {p: i + 1 for i, p in enumerate(game.phases)}

    def _encode(self, st, player: int) -> np.ndarray:
        setup = st.setup
        zones, visibility, owner = st.zones, setup.zone_visibility, setup.zone_owner
        out = [float(len(zones[z])) for z in self._zones]
        where = [0.0] * len(setup.ctype)
        for z in self._zones:
            items = zones[z]
            if not items:
                continue
            vis = visibility.get(z, "all")
            index = float(self._zone_index[z])
            if vis == "all" or (vis == "owner" and owner.get(z) == player):
                for c in items:
                    where[c] = index
            elif vis == "top":
                where[items[-1]] = index
        out += where
        for name, per_player, vis in self._vars:
            value = st.vars.get(name)
            if per_player:
                out += [_number(v) if vis != "owner" or p == player else 0.0
                        for p, v in enumerate(value if isinstance(value, list) else [None] * st.n)]
            else:
                out.append(_number(value))
        current = st.current_player()
        out += [float(self._phases.get(st.phase, 0)), float(current if current >= 0 else -1), float(st.turn_player)]
        return np.asarray(out, dtype=np.float32)


def _number(value) -> float:
    if value is None:
        return -1.0
    if isinstance(value, (bool, int, float)):
        return float(value)
    return 0.0
