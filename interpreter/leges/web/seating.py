"""Which agents a request to the page's server may seat, and how long each may think.

A spec in a request is text from whoever can reach the server, so it is held to the built-in
agents (`random`, `greedy`, `mcts`: nothing is imported) with budgets under the server's caps
(`leges serve --max-iterations/--max-seconds`); any agent that runs Python of its own, or thinks
longer, is named by the person who started the server (`leges serve --agent NAME=SPEC`) and chosen
in a request by NAME alone.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..agents import BUILTIN, make, parse, split_specs
from ..text.errors import Diagnostic, LegesError, Position

HOT = -1  # the seat a hot-seat table's key names: whichever person is to decide, once uncovered

WHERE = Position("agents")
MAX_SPEC = 200  # characters of one agent spec in a request


@dataclass(frozen=True)
class AgentPolicy:
    max_iterations: int = 2000
    max_seconds: float = 5.0  # a decision of a searching agent, at most
    named: dict[str, str] = field(default_factory=dict)  # NAME → spec, from the command line

    def names(self) -> list[str]:
        return list(BUILTIN) + [n for n in self.named if n not in BUILTIN]

    def specs(self, text: str, count: int) -> list[str]:
        """One checked spec for each of `count` seats (a single spec plays them all)."""
        if len(text) > MAX_SPEC * max(count, 1):
            raise LegesError(Diagnostic(WHERE, "the agents' specs are too long"))
        specs = split_specs(text)
        for spec in specs:
            self.make(spec)  # every spec checked before a game starts
        if len(specs) == 1:
            specs = specs * count
        if len(specs) != count:
            raise LegesError(Diagnostic(WHERE, f"{len(specs)} agents for {count} seats", "give one agent a seat, or one for all"))
        return specs

    def make(self, spec: str):
        """A fresh agent for a checked spec, its search time capped."""
        if spec in self.named:
            return make(self.named[spec])  # the server's own: as its command line said
        cls, settings = parse(spec, user_agents=False)
        params = getattr(cls, "params", {})
        agent = make(spec, user_agents=False)
        for key, (kind, _, _) in params.items():
            value = getattr(agent, key, None)
            if kind in (int, float) and value is not None and not (math.isfinite(value) and value >= 0):
                raise LegesError(Diagnostic(WHERE, f"'{key}={settings.get(key)}' is not a number of this server's agents"))
        if "iterations" in params and "iterations" not in settings and agent.iterations is not None:
            agent.iterations = min(agent.iterations, self.max_iterations)  # the default, within the cap
        if "iterations" in params and agent.iterations is not None and agent.iterations > self.max_iterations:
            raise LegesError(Diagnostic(WHERE, f"at most {self.max_iterations} iterations a decision on this server",
                                        "the person serving the page may allow more: leges serve --max-iterations N"))
        if "seconds" in params:
            agent.seconds = min(agent.seconds or self.max_seconds, self.max_seconds)
        return agent

    def parse_named(self) -> None:
        """The command line's own agents, checked once at start (they may import Python: it asked)."""
        for name, spec in self.named.items():
            if not name or ":" in name or "," in name:
                raise LegesError(Diagnostic(Position("--agent"), f"'{name}' is not a name for an agent", "--agent NAME=SPEC"))
            parse(spec)
