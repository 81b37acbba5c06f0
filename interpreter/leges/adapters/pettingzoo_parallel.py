"""Any Leges game through PettingZoo's Parallel API: seats that decide at once in secret decide in
one step.

    from leges.adapters.pettingzoo_parallel import parallel_env
    e = parallel_env("rulesets/GAME", players=3)
    observations, infos = e.reset(seed=1)
    while e.agents:
        actions = {a: random.choice(infos[a]["legal_actions"]) for a in e.agents if infos[a]["legal_actions"]}
        observations, rewards, terminations, truncations, infos = e.step(actions)

Why a step is not always every seat: a Leges game is mostly turn-based, and only its secret
actions (`secret: true`: a share-out behind screens) are made by everybody at once. The engine asks
them in seat order, each sealed from the others (the sequential form of a simultaneous move);
here the whole round is one step. At each step the agents that decide now are those with a
non-empty `infos[agent]["legal_actions"]` (and `infos[agent]["acting"]`): the one to move, or —
when its decision is a secret action — it and every seat asked for a secret action after it
before anything else happens. Their legal ids are known in advance because nothing a seat
chooses in secret is shown to the others until the round ends (a later seat's options are listed
on a copy, after the earlier seats' first options; a rule whose options did depend on an earlier
secret choice is caught at the step, as an error naming the seat). Actions given for agents that
do not decide now are ignored, as PettingZoo's turn-based parallel environments do.

Chance is sampled from the state's generator (`reset(seed=...)`), as in the AEC environment
(adapters/pettingzoo.py), whose observation, action and state spaces this one shares.

`mask_in_observation=True` (a keyword of `raw_env`) makes each observation PettingZoo's
classic-environment dict, `{"observation": the array, "action_mask": int8 mask}`, the mask marking
the agent's legal ids *this step* (those of `infos[agent]["legal_actions"]`: every acting seat's in
a secret round, all zeros for the others), and `observation_space` a `Dict` accordingly. That is
where `pettingzoo.test.parallel_api_test` looks for a mask when it samples actions; without it the
test samples from the whole action space and the step refuses an illegal id. The default is the
plain array.
"""
from __future__ import annotations

from . import missing_extra

try:
    import numpy as np
    from pettingzoo import ParallelEnv
except ImportError as _exc:  # without the extra: say which install fixes it
    raise missing_extra("pettingzoo", _exc) from None

from ..engine.action import Action
from ..engine.constants import CHANCE, TERMINAL
from ..text.errors import Diagnostic, LegesError, Position
from .pettingzoo import raw_env


def parallel_env(ruleset, **kwargs) -> "LegesParallelEnv":
    """The game (a Game, a bundled game's name or a ruleset folder) as a Parallel environment; the
    keyword arguments are `raw_env`'s."""
    return LegesParallelEnv(ruleset, **kwargs)


class LegesParallelEnv(ParallelEnv):
    """A Leges game through PettingZoo's Parallel API (see the module's doc)."""

    metadata: dict = {"render_modes": ["ansi", "rgb_array"], "name": "leges_parallel", "is_parallelizable": True}

    def __init__(self, ruleset, **kwargs):
        self.aec = raw_env(ruleset, **kwargs)
        self.game, self.space = self.aec.game, self.aec.space
        self.possible_agents = list(self.aec.possible_agents)
        self.observation_spaces, self.action_spaces = self.aec.observation_spaces, self.aec.action_spaces
        self.state_space = self.aec.state_space
        self.render_mode = self.aec.render_mode
        self.metadata = dict(self.metadata, name=f"leges_{self.game.id}_parallel")
        self.agents: list = []
        self._acting: dict[str, dict[int, str]] = {}  # agent → its legal ids this step, in the order asked

    @property
    def leges_state(self):
        """The Leges state inside (read it; act through `step`)."""
        return self.aec.leges_state

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def state(self):
        return self.aec.state()

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def reset(self, seed: int | None = None, options=None):
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self._acting = self._who_acts()
        return self._observations(), self._infos()

    def step(self, actions: dict):
        st = self.aec.leges_state
        missing = [a for a in self._acting if a not in actions or actions[a] is None]
        if missing:
            raise ValueError(f"{', '.join(missing)} {'decides' if len(missing) == 1 else 'decide'} now and "
                             f"{'was' if len(missing) == 1 else 'were'} given no action (infos[agent]['acting'])")
        for agent in self._acting:
            player = self.possible_agents.index(agent)
            if st.current_player() != player:
                raise LegesError(Diagnostic(Position(f"{self.game.id}@{len(st.history)}"),
                                            f"{agent} was to decide in this secret round, but {st.player_name(player)} is not "
                                            "asked now: an earlier secret choice changed who decides",
                                            "a secret action's rules must not depend on another seat's sealed choice"))
            legal = self.space.legal(st, player)
            text = legal.get(int(actions[agent]))
            if text is None:
                raise ValueError(f"action {actions[agent]!r} is not one of {agent}'s legal actions now "
                                 f"({len(legal)} legal; infos[agent]['legal_actions'] lists them)")
            st.apply_action(Action(player, text))
        rewards = dict.fromkeys(self.agents, 0.0)
        terminations = dict.fromkeys(self.agents, False)
        truncations = dict.fromkeys(self.agents, False)
        if st.is_terminal():
            for agent, value in zip(self.possible_agents, st.returns()):
                if agent in rewards:
                    rewards[agent] = float(value)
            ended = truncations if st.unfinished else terminations
            for agent in self.agents:
                ended[agent] = True
        self._acting = {} if st.is_terminal() else self._who_acts()  # before the observations: their masks
        observations = self._observations()
        infos = self._infos()
        if st.is_terminal():
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    # ------------------------------------------------------------ who decides now
    def _who_acts(self) -> dict[str, dict[int, str]]:
        """The agents that decide in this step and their legal ids: the one to move, and when its
        decision is a secret action, every seat asked for one after it (found on a copy)."""
        st = self.aec.leges_state
        player = st.current_player()
        if player in (CHANCE, TERMINAL):
            return {}
        acting = {self.possible_agents[player]: self.space.legal(st, player)}
        if not self._secret(st):
            return acting
        trial = st.copy()
        while True:
            ids = acting[self.possible_agents[player]]
            trial.apply_action(Action(player, ids[min(ids)]))
            player = trial.current_player()
            if player in (CHANCE, TERMINAL) or self.possible_agents[player] in acting or not self._secret(trial):
                return acting
            acting[self.possible_agents[player]] = self.space.legal(trial, player)

    def _secret(self, st) -> bool:
        """The pending decision is a secret action: each of its options is of an action `secret: true`."""
        pending = st.pending
        if pending is None or pending.kind != "act" or not pending.options:
            return False
        actions = self.game.actions
        return all(actions.get(option.action) is not None and actions[option.action].secret for option in pending.options)

    def _observations(self) -> dict:
        aec = self.aec
        if not aec.mask_in_observation:
            return {a: aec.observe(a) for a in self.agents}
        return {a: {"observation": aec.encoding.encode(aec.leges_state, aec._index[a]), "action_mask": self._mask(a)}
                for a in self.agents}

    def _mask(self, agent):
        """`agent`'s legal ids this step as an int8 mask (the shared read-only zeros when it does not decide)."""
        ids = self._acting.get(agent)
        if not ids:
            return self.aec._none
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[list(ids)] = 1
        return mask

    def _infos(self) -> dict:
        out = {}
        for agent in self.agents:
            ids = self._acting.get(agent)
            out[agent] = {"seat": self.aec.seat(agent), "acting": ids is not None,
                          "legal_actions": sorted(ids) if ids is not None else []}
        return out
