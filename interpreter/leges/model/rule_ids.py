"""The ids of a game's compiled rules — `action:ID`, `trigger:ID`, `setup:ID`, `phase:ID:turn`,
`procedure:ID(int,space)`, `heuristic:ID`, `statistic:ID` — written and read in one place, and the
declaration each one comes from."""
from __future__ import annotations

from dataclasses import dataclass

SECTION_OF = {"action": "actions", "procedure": "procedures", "trigger": "triggers", "phase": "phases",
              "setup": "setup"}  # the kinds of rule that run as programs, and the sections declaring them


@dataclass(frozen=True)
class RuleId:
    kind: str  # action, trigger, setup, phase, procedure, heuristic, statistic
    name: str  # the declaration's id ("" for the chain of all set-up rules, `setup`)
    part: str = ""  # of a phase: on_begin, turn or on_end
    signature: str = ""  # of a procedure: the argument types it was compiled for, comma-separated

    @classmethod
    def parse(cls, text: str) -> "RuleId":
        kind, _, rest = text.partition(":")
        signature = ""
        if "(" in rest:
            rest, _, signature = rest.partition("(")
            signature = signature.rstrip(")")
        name, _, part = rest.partition(":")
        return cls(kind, name, part, signature)

    def __str__(self) -> str:
        text = f"{self.kind}:{self.name}" if self.name or self.kind != "setup" else self.kind
        if self.part:
            text += f":{self.part}"
        if self.kind == "procedure":
            text += f"({self.signature})"
        return text


def declaration_of(rs, code_id: str | None):
    """The declaration behind a running rule's code id, or None (the set-up's chain, an unknown id)."""
    if not code_id or rs is None:
        return None
    rule = RuleId.parse(code_id)
    section = SECTION_OF.get(rule.kind)
    if section is None or not rule.name:
        return None
    return next((d for d in getattr(rs, section, []) if getattr(d, "id", None) == rule.name), None)
