"""A pending decision and its options, as typed values.

The rules ask a player (or chance) to decide: the state holds that decision explicitly — who
decides, what kind of decision it is, and its options — so that a state is plain data and an
agent, a front end or a saved file reads the same thing. An option carries the text every front
end shows and the record keeps, and what the rules need to go on: the action taken (or `$choose`,
`pass`, `$chance`) and the values chosen.

Options are made by generated code at every decision, as plain tuples in the order of Option's
fields; the decision gives them as Options, read by name, when asked.
"""
from __future__ import annotations

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


_as_option = partial(tuple.__new__, Option)


def as_options(choices: list[tuple]) -> list[Option]:
    """Choices as generated code lists them (plain tuples), as Options."""
    return [c if c.__class__ is Option else _as_option(c) for c in choices]


class Pending:
    """The decision the rules wait for. Generated code lists its options as plain tuples in the
    order of Option's fields (`choices`: a tuple costs a third of a named one to make, and a random
    play-out reads one of them); `options` gives them as Options, made the first time asked."""

    __slots__ = ("player", "kind", "choices", "_options")

    def __init__(self, player: int, kind: str, choices: list[tuple]):
        self.player = player  # who decides (CHANCE for a chance outcome)
        self.kind = kind  # "act", "choose" or "chance"
        self.choices = choices
        self._options: list[Option] | None = None

    @property
    def options(self) -> list[Option]:
        if self._options is None:
            self._options = as_options(self.choices)
        return self._options

    def __len__(self) -> int:
        """The number of options."""
        return len(self.choices)

    # What searches and play-outs read at every step, without making the Options (cheaper by far)
    def texts(self) -> list[str]:
        """The options' texts, in order."""
        return [c[0] for c in self.choices]

    def actions(self) -> list[str]:
        """The options' actions (an action's id, CHOOSE, PASS or CHANCE_OUTCOME), in order."""
        return [c[1] for c in self.choices]

    def probabilities(self) -> list[float]:
        """A chance decision's outcomes' probabilities, in order."""
        return [c[4] for c in self.choices]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Pending) and (self.player, self.kind) == (other.player, other.kind)
                and self.options == other.options)

    def __repr__(self) -> str:
        return f"Pending(player={self.player}, kind={self.kind!r}, {len(self)} options)"

    def to_data(self) -> dict[str, Any]:
        """As saved in a state's JSON: options as lists, a chance outcome with its probability."""
        return {"player": self.player, "kind": self.kind,
                "options": [list(c) if c[4] is not None else list(c[:4]) for c in self.choices]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Pending:
        """As a saved state has it (its shape checked by the state schema; its options are compared
        with the rules' own and replaced by them, engine/saved_state.py)."""
        return cls(data["player"], data["kind"], [(*o, None) if len(o) == 4 else tuple(o) for o in data["options"]])
