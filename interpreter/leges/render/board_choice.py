"""Choices that are not spaces but that the map relates to spaces, so that a click on the board makes them.

An action whose parameters are spaces is clicked where they lie (render/actions.py). Many choices are
not spaces but name a set of them: a number that is a coordinate (3: the spaces whose `col` is 3),
a name that is an area's id (a region: its spaces). Nothing here knows a game: the relation
is read off the map, for any parameter of an action that names no space:

- **an area**: every value the parameter takes now is the id of an area of one kind (as text): the
  value names the spaces of that area;
- **a space property**: the parameter is named after a property of the map's spaces — the same name,
  or one the beginning of the other, at least three letters long (`column` and `col`: the coordinates
  `row` and `col` — a hex's q and r are these too —, or a property the map declares) — and every value
  it takes now is that property's value on some space: the value names the spaces where the property
  has it.

The name is asked for a property, not for an area, because numbers coincide: 0 to 5 are rows and
columns alike, and a count of 1 to 3 may be any property's value by chance. Each space then has at most
one value of the parameter (a space lies in one area of a kind; a property has one value on it), so a
click on any space picks one value — and on a space whose value no legal action takes now, the page
knows which action it meant, and asks why that is not legal.
"""
from __future__ import annotations

from typing import Any

from ..lang.codegen.formatting import formatter


def related_names(param: str, prop: str) -> bool:
    """A parameter named after a property: the same name, or one the other's beginning (3 letters at least)."""
    if param == prop:
        return True
    short, long = sorted((param, prop), key=len)
    return len(short) >= 3 and long.startswith(short)


def _plain(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _relation(board, param: str, values: list) -> tuple[str, str] | None:
    """("area", kind) or ("prop", name): how the map relates these values of `param` to spaces; None when
    it does not, or not in one way only."""
    if all(isinstance(v, str) for v in values):
        kinds = [k for k, areas in board.areas.items() if all(v in areas for v in values)]
        if len(kinds) == 1:
            return "area", kinds[0]
    props = sorted({k for row in board.props.values() for k in row})
    found = []
    for prop in props:
        if not related_names(param, prop):
            continue
        held = {row.get(prop) for row in board.props.values() if _plain(row.get(prop))}  # 0 is not false
        if all(v in held for v in values):
            found.append(prop)
    return ("prop", found[0]) if len(found) == 1 else None


def board_choices(st, options: dict[str, tuple[str, dict]]) -> dict[str, dict[str, dict[str, str]]]:
    """For each action of `options` (text → (action id, chosen values)) whose parameters the map relates
    to spaces: parameter → {space: the value's text form} over the whole board, legal now or not."""
    game = st.game
    board = game.board
    if board is None:
        return {}
    known = set(board.spaces)
    by_action: dict[str, dict[str, list]] = {}
    names_spaces: set[str] = set()
    for aid, params in options.values():
        if any(isinstance(v, str) and v in known for v in params.values()):
            names_spaces.add(aid)  # clicked where its spaces lie already
            continue
        for name, value in params.items():
            by_action.setdefault(aid, {}).setdefault(name, []).append(value)
    out: dict[str, dict[str, dict[str, str]]] = {}
    for aid, params in by_action.items():
        action = game.actions.get(aid)
        if aid in names_spaces or action is None:
            continue
        for name, values in params.items():
            if not values or not all(_plain(v) for v in values):
                continue
            how = _relation(board, name, values)
            if how is None:
                continue
            fmt = formatter(action.param_types[name]) if name in action.param_types else None

            def text(v: Any) -> str:
                return str(fmt(st, v)) if fmt is not None else str(v)
            if how[0] == "area":
                spaces = {s: text(a) for s, a in board.area_of[how[1]].items()}
            else:
                spaces = {s: text(row[how[1]]) for s, row in board.props.items() if _plain(row.get(how[1]))}
            out.setdefault(aid, {})[name] = spaces
    return out


def spaces_chosen(choices: dict[str, dict[str, str]], text: str) -> list[str]:
    """The spaces an action's text names through its related parameters (`ACTION column=3`: those whose col is 3)."""
    values = dict(token.split("=", 1) for token in text.split()[1:] if "=" in token)
    out: list[str] = []
    for name, spaces in choices.items():
        if name in values:
            out.extend(s for s, v in spaces.items() if v == values[name] and s not in out)
    return out
