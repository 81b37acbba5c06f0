"""A pending decision and its options, as typed values.

The rules ask a player (or chance) to decide: the state holds that decision explicitly — who
decides, what kind of decision it is, and its options — so that a state is plain data and an
agent, a front end or a saved file reads the same thing. An option carries the text every front
end shows and the record keeps, and what the rules need to go on: the action taken (or `$choose`,
`pass`, `$chance`) and the values chosen.

Options are made by generated code at every decision, so they are built with `option` (a tuple
made in C, without a call to a Python `__new__`); their fields are read by name.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

CHOOSE = "$choose"  # the action of a `choose` statement's option
PASS = "pass"  # the action of an option that passes
CHANCE_OUTCOME = "$chance"  # the action of a chance outcome


class Option(NamedTuple):
    """One option of a pending decision."""

    text: str  # e.g. `play card=6 building=6b square=r4c3`: its stable, readable form
    action: str  # the action's id, or CHOOSE, PASS, CHANCE_OUTCOME
    params: dict[str, Any]  # the values chosen: the action's parameters, the `choose`'s name, a chance `value`
    args: dict[str, Any]  # the action's arguments given by the `act` offering it (`act NAME(arg=...)`)
    probability: float | None = None  # a chance outcome's


option = partial(tuple.__new__, Option)  # option((text, action, params, args, probability)): an Option, fast


@dataclass(slots=True)
class Pending:
    """The decision the rules wait for."""

    player: int  # who decides (CHANCE for a chance outcome)
    kind: str  # "act", "choose" or "chance"
    options: list[Option]

    def to_data(self) -> dict[str, Any]:
        """As saved in a state's JSON: options as lists, a chance outcome with its probability."""
        return {"player": self.player, "kind": self.kind,
                "options": [list(o) if o.probability is not None else list(o[:4]) for o in self.options]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Pending:
        """From a saved state's `pending` (already checked; its options are recomputed by the rules)."""
        return cls(data["player"], data["kind"], [option((*o, None) if len(o) == 4 else tuple(o)) for o in data["options"]])
