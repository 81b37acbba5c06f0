"""Compact texts of a seat's view, shared by the picture's side panel, the page and the terminal:
a zone as a count and what is in it (`supply 23`, `hand 4 hidden`, `hand 3: 4 6 7`), a
variable's value with components by label and per-player values by seat."""
from __future__ import annotations

import json
from typing import Any

from .view import Piece, SeatView, ZoneView


def pieces_text(pieces: list[Piece], seats: list[str], owner: int | None = None) -> str:
    """`4 6 7`, `red×2 black`, or nothing when every item is just the owner's own (its label is
    the owner's seat name: a supply of one's own pieces)."""
    if not pieces:
        return ""
    if owner is not None and all(p.owner == owner and p.label == seats[owner] for p in pieces):
        return ""
    parts = []
    for p in pieces:
        parts.append(p.label if p.count == 1 else f"{p.label}×{p.count}")
    return " ".join(parts)


def zone_text(zone: ZoneView, seats: list[str], name: str | None = None) -> str:
    """`hand 3: 4 6 7`, `hand 4 hidden`, `discard 22, top 1`, `supply 23`, `aside 0`."""
    label = name if name is not None else zone.name
    if zone.pieces is None:
        text = f"{label} {zone.count}" + (" hidden" if zone.count else "")
        if zone.top is not None:
            text = f"{label} {zone.count}, top {zone.top}"
        return text
    inside = pieces_text(zone.pieces, seats, zone.owner)
    return f"{label} {zone.count}" + (f": {inside}" if inside else "")


def value_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


def zone_texts(zones: list[ZoneView], seats: list[str], names=None) -> list[str]:
    """Each zone's text (by its key where zones share a name: pile.0, pile.1), the empty ones last in one item.
    `names(label)`: the zone's display name for its id or key (engine/words.py), or None for the label itself."""
    display, names = names, {}
    for z in zones:
        names[z.name] = names.get(z.name, 0) + 1
    out, empty = [], []
    rows: dict[str, list[str]] = {}
    for z in zones:
        label = z.key if names[z.name] > 1 else z.name
        if display is not None:
            label = display(label) or label
        if z.count == 0:
            if names[z.name] > 1 and z.owner is None:  # a row of numbered zones: `pile 0-6` when all are empty
                rows.setdefault(z.name, []).append(label)
            empty.append(label)
        else:
            out.append(zone_text(z, seats, label))
    for name, labels in rows.items():
        if len(labels) == names[name] and len(labels) > 2:
            first = empty.index(labels[0])
            head = labels[0].rsplit(".", 1)[0] if "." in labels[0] else labels[0].rsplit(" ", 1)[0]
            span = f"{head} {labels[0].rsplit('.' if '.' in labels[0] else ' ', 1)[-1]}-{labels[-1].rsplit('.' if '.' in labels[-1] else ' ', 1)[-1]}"
            empty = [e for e in empty if e not in labels]
            empty.insert(first, span)
    if empty:
        out.append("empty: " + ", ".join(empty))
    return out


def shared_zones(view: SeatView, hide=()) -> list[ZoneView]:
    return [z for z in view.zones if z.owner is None and z.name not in hide and z.key not in hide]


def player_zones(view: SeatView, player: int, hide=()) -> list[ZoneView]:
    return [z for z in view.zones if z.owner == player and z.name not in hide and z.key not in hide]


def player_vars(view: SeatView, player: int) -> list[tuple[str, Any]]:
    """The per-player variables' values of one player, as the view shows them ("?" when hidden)."""
    out = []
    for name in view.per_player_vars:
        value = view.vars.get(name)
        if isinstance(value, list) and len(value) == len(view.seats):
            out.append((name, value[player]))
    order = list(view.vars)
    out.sort(key=lambda item: order.index(item[0]))
    return out


def global_vars(view: SeatView) -> list[tuple[str, Any]]:
    return [(k, v) for k, v in view.vars.items()
            if not (k in view.per_player_vars and isinstance(v, list) and len(v) == len(view.seats))]


def status_line(view: SeatView) -> str:
    if view.terminal:
        return "game over"
    text = f"phase {view.phase_name()} · turn of {view.turn}"
    if view.to_move and view.to_move not in (view.turn, "nobody"):
        text += f" · {view.to_move} to decide"
    return text


def ranking_text(view: SeatView) -> str:
    if view.ranking is None:
        return ""
    return " > ".join(" = ".join(view.seats[p] for p in group) for group in view.ranking)


def wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(" "), [], ""
    for word in words:
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines or [""]
