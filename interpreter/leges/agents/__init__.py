"""Agents: players that choose actions from what their player may see.

    from leges.agents import make, View
    agent = make("mcts:iterations=200")

Built in: `random`, `greedy` (one-ply look-ahead on the ruleset's heuristic) and `mcts` (UCT,
Information-Set MCTS where information is hidden); user agents are `module:Class` or
`path/to/file.py:Class`. Each says what it judges positions by (`agent.evaluation`, once started;
`evaluations(game, specs)`), a function of its spec and the ruleset only. See docs/agents.md.
"""
from __future__ import annotations

from .base import Agent, View
from .evaluation import Evaluation
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent
from .spec import BUILTIN, evaluations, make, parse, seat_specs, split_specs, start

__all__ = ["Agent", "View", "Evaluation", "evaluations", "RandomAgent", "GreedyAgent", "MCTSAgent", "BUILTIN", "make", "parse", "seat_specs",
           "split_specs", "start"]
