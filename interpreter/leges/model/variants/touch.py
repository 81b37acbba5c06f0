"""What each patch of a variant touches (to find two variants changing one thing), and what the
ruleset schema allows in each section's items."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...text.errors import Position
from ..schemas import schema

SCALARS = ("scoring", "limits")


@dataclass(frozen=True)
class Touch:
    """What one patch (or parameter) of a variant changes: an item, a path inside it, a label in a text there."""

    variant: str
    section: str
    id: str
    path: tuple = ()  # () = the whole item
    labels: frozenset = frozenset()  # the label set, with the labels inside it and around it
    where: Position = field(default=Position(""), compare=False)
    parameter: bool = False

    def overlaps(self, other: "Touch") -> bool:
        if (self.section, self.id) != (other.section, other.id):
            return False
        n = min(len(self.path), len(other.path))
        if self.path[:n] != other.path[:n]:
            return False
        if self.labels and other.labels and self.path == other.path:
            return bool(self.labels & other.labels)
        return True

    def describe(self) -> str:
        if self.parameter and self.section == "constants":
            return f"the constant '{self.id}'"
        what = self.id if self.section not in SCALARS else ""
        text = f"{self.section} {what!r}" if what else self.section
        if self.path:
            text += " " + ".".join(map(str, self.path))
        if self.labels:
            text += " at @" + sorted(self.labels)[0] if len(self.labels) == 1 else " (labelled parts)"
        return text


def _item_def(section: str) -> str | None:
    from ..sections import BY_NAME
    return BY_NAME[section].item_def if section in BY_NAME else None


def item_schema(section: str) -> dict:
    full = schema("ruleset")
    if section in SCALARS:
        sub = full["properties"][section]
    elif _item_def(section):
        sub = full["$defs"][_item_def(section)]
    else:
        sub = full["properties"][section]["items"]
    return dict(sub, **{"$defs": full["$defs"]})


def keys_of(section: str) -> list[str]:
    sub = item_schema(section)
    while "$ref" in sub and not sub.get("properties"):
        sub = schema("ruleset")["$defs"][sub["$ref"].rsplit("/", 1)[1]]
    return list(sub.get("properties", {}))


def requires_source(section: str) -> bool:
    return "source" in (item_schema(section).get("required") or [])


def programs_of(section: str) -> frozenset:
    from ..sections import BY_NAME
    return BY_NAME[section].programs if section in BY_NAME else frozenset()
