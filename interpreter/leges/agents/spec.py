"""Agent specs — `name:key=value:key=value` — and user agents, `module:Class` or `file.py:Class`.

`--agents mcts:iterations=200,random,random` gives one spec a seat; a single spec plays every
seat. A user agent is any class with `choose(view)` (see docs/agents.md); its spec's settings
are passed to its constructor as keyword arguments (strings, unless it declares `params`).

Naming a user agent imports and runs Python, so only a command line may do it: a spec that came
from anywhere else (a request to `leges serve`) is parsed with `user_agents=False`, which admits
the built-in agents alone.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys

from ..text.errors import Diagnostic, LegesError, Position, did_you_mean
from .base import Agent
from .evaluation import Evaluation, evaluation_of
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .prior_agent import PriorAgent
from .random_agent import RandomAgent

BUILTIN: dict[str, type] = {a.name: a for a in (RandomAgent, GreedyAgent, MCTSAgent, PriorAgent)}
WHERE = Position("--agents")


def split_specs(text: str) -> list[str]:
    """`mcts:iterations=200,random` → ['mcts:iterations=200', 'random']."""
    specs = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in specs):
        raise LegesError(Diagnostic(WHERE, f"'{text}' is not a list of agents",
                                    "e.g. --agents mcts:iterations=200,random (one a seat, or one for all)"))
    return specs


def seat_specs(text: str | None, players: int, user_agents: bool = True) -> list[str]:
    """One spec a seat: the list given, or its single spec for every seat (default: random)."""
    specs = split_specs(text) if text else ["random"]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise LegesError(Diagnostic(WHERE, f"{len(specs)} agents for {players} players",
                                    "give one agent a seat, or one for all"))
    for spec in specs:
        parse(spec, user_agents)  # report a bad spec before any game is played
    return specs


def parse(spec: str, user_agents: bool = True) -> tuple[type, dict[str, str]]:
    """The agent class a spec names, and its settings; `user_agents=False` refuses any but the
    built-in ones without importing anything."""
    parts = spec.split(":")
    head, rest = parts[0], parts[1:]
    if head in BUILTIN:
        cls = BUILTIN[head]
    elif rest and "=" not in rest[0] and not user_agents:
        raise LegesError(Diagnostic(WHERE, f"'{head}:{rest[0]}' names Python code, which is not run from here",
                                    f"built in: {', '.join(BUILTIN)}; your own agent is named on the command line"))
    elif rest and "=" not in rest[0]:
        cls = _user_class(head, rest[0])
        rest = rest[1:]
    else:
        raise LegesError(Diagnostic(WHERE, f"no agent '{head}'",
                                    did_you_mean(head, BUILTIN) or
                                    f"built in: {', '.join(BUILTIN)}; or module:Class, path/to/file.py:Class"))
    settings = {}
    for item in rest:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise LegesError(Diagnostic(WHERE, f"'{item}' in '{spec}' is not key=value"))
        if not (item.isascii() and item.isprintable()):  # Python's int() takes '٣' and '３': a spec takes ASCII only
            raise LegesError(Diagnostic(WHERE, f"'{ascii(item)[1:-1]}' in an agent spec is not plain ASCII",
                                        "numbers in ASCII digits, e.g. mcts:iterations=300"))
        if key in settings:
            raise LegesError(Diagnostic(WHERE, f"'{key}' is given twice in '{spec}'", "give each parameter once"))
        settings[key] = value
    return cls, settings


def make(spec: str, user_agents: bool = True):
    """A fresh agent for a spec."""
    cls, settings = parse(spec, user_agents)
    try:
        return cls(**settings)
    except LegesError:
        raise
    except (TypeError, ValueError) as exc:
        raise LegesError(Diagnostic(WHERE, f"agent '{spec}': {exc}")) from None


def start(agent, game, player: int, rng) -> None:
    if hasattr(agent, "start"):
        agent.start(game, player, rng)


def evaluations(game, specs) -> dict[str, Evaluation]:
    """What each spec judges positions by in this ruleset: the agent made and started for seat 0, as
    a game would (so a bad spec, or a heuristic the ruleset lacks, is told here, before any game)."""
    import random
    out = {}
    for spec in dict.fromkeys(specs):
        agent = make(spec)
        start(agent, game, 0, random.Random(0))
        out[spec] = evaluation_of(agent)
    return out


def _user_class(where: str, name: str) -> type:
    if where.endswith(".py"):
        path = os.path.abspath(where)
        if not os.path.isfile(path):
            raise LegesError(Diagnostic(WHERE, f"no file {where}", "a user agent is path/to/file.py:Class or module:Class"))
        key = "leges_user_agent_" + str(abs(hash(path)))
        module = sys.modules.get(key)
        if module is None:
            spec = importlib.util.spec_from_file_location(key, path)
            assert spec is not None and spec.loader is not None  # a .py file: the source loader takes it
            module = importlib.util.module_from_spec(spec)
            sys.modules[key] = module
            spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise LegesError(Diagnostic(WHERE, f"cannot import '{where}': {exc}",
                                        "a user agent is module:Class (importable) or path/to/file.py:Class")) from None
    cls = getattr(module, name, None)
    if not isinstance(cls, type) or not callable(getattr(cls, "choose", None)):
        raise LegesError(Diagnostic(WHERE, f"'{where}' has no agent class '{name}'", "an agent class has a method choose(view)"))
    return cls


__all__ = ["Agent", "BUILTIN", "split_specs", "seat_specs", "parse", "make", "start", "evaluations"]
