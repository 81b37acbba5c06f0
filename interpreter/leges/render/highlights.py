"""Highlights: the spaces a ruleset's `highlights:` entries mark on the pictures (a winning line).

Which spaces won is not something a picture can work out: a winning condition is any expression
of the rules, and nothing generic says which spaces it looked at. So the ruleset says it, in the
rule language (`spaces: [line for line in lines(3) if ...]`), compiled and type-checked with the
rest of the rules (engine/builder/rules.py) — the interpreter still knows no game.

The expression reads the whole state, as the scoring does. With `when: end` (the default) it is
read only once the game is over, where the result it shows is everybody's to see anyway (the
banner's ranking and scores come from the whole state too); `when: always` marks at every
position, and is for spaces every player sees.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from .style import css_colour
from .svg_ink import num, points

GOLD = "#e8a317"  # the default mark: bright against the boards' pale squares and the seats' colours


@dataclass(frozen=True)
class Mark:
    """One highlight drawn: its entry's id, `cells` or `line`, the spaces in order, its colour."""

    id: str
    shape: str
    spaces: tuple[str, ...]
    colour: str


def highlights(st) -> list[Mark]:
    """The marks of `st`: every `highlights:` entry in force now, one Mark for each list of spaces it
    gives (a flat list is one mark). A failure or a value that is not spaces is a located error."""
    game = st.game
    if not game.highlights or game.board is None:
        return []
    terminal = st.is_terminal()
    board = set(game.board.spaces)
    out: list[Mark] = []
    for hid, fn, shape, when, colour in game.highlights:
        if when == "end" and not terminal:
            continue
        value = _evaluate(st, hid, fn)
        groups = value if value and all(isinstance(v, list) for v in value) else [value]
        for group in groups:
            if not isinstance(group, list) or not all(isinstance(s, str) and s in board for s in group):
                _fail(st, hid, f"gave {_shown(group)}, not a list of spaces of the map",
                      "give the spaces to mark: a list of spaces, or a list of lists of spaces")
            if group:
                out.append(Mark(hid, shape, tuple(dict.fromkeys(group)), css_colour(colour, GOLD)))
    return out


def _evaluate(st, hid: str, fn):
    st.game.fresh_work()
    try:
        return fn(st, {"me": None})
    except Exception as exc:
        from ..text.errors import LegesError
        if isinstance(exc, LegesError):
            raise
        from ..engine.failures import describe_failure, failure_hint
        _fail(st, hid, f"failed: {describe_failure(exc)}", failure_hint(exc))


def _fail(st, hid: str, what: str, hint: str | None) -> None:
    from ..text.errors import Diagnostic, LegesError, Position
    where = st.game.positions.get(f"highlight:{hid}") or Position(st.game.ruleset_file)
    raise LegesError(Diagnostic(where, f"highlight '{hid}' {what}", hint)) from None


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def highlight_svg(marks: list[Mark], centres: dict, cell, size: float) -> list[str]:
    """The marks as SVG, over the pieces and under the click targets: `cells` outlines and tints each
    space (`cell(space)`: its outline's attributes), `line` strokes through the centres in order.
    Each is `class="highlight ..."` with `data-highlight` naming its entry, so the page styles it."""
    out = []
    for mark in marks:
        spaces = [s for s in mark.spaces if s in centres]
        if not spaces:
            continue
        colour = quoteattr(mark.colour)
        head = f'class="highlight {mark.shape}" data-highlight={quoteattr(mark.id)} pointer-events="none"'
        if mark.shape == "line" and len(spaces) > 1:
            at = [centres[s] for s in spaces]
            at[0], at[-1] = _beyond(at[1], at[0], size * 0.3), _beyond(at[-2], at[-1], size * 0.3)
            pts = " ".join(f"{num(x)},{num(y)}" for x, y in at)
            width = max(4.0, size * 0.14)
            out.append(f'<polyline {head} data-spaces={quoteattr(" ".join(spaces))} points="{pts}" fill="none" '
                       f'stroke={colour} stroke-width="{num(width)}" stroke-linecap="round" stroke-linejoin="round" '
                       f'stroke-opacity="0.85"/>')
            continue
        for s in spaces:
            out.append(f'<g {head} data-space={quoteattr(s)}>{cell(s, colour)}</g>')
    return out


def _beyond(a: tuple, b: tuple, by: float) -> tuple[float, float]:
    """The point `by` past b on the way from a: a line's ends reach into its end spaces, as a pen's would."""
    d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
    return b[0] + (b[0] - a[0]) / d * by, b[1] + (b[1] - a[1]) / d * by


def cell_polygon(shapes: dict):
    """`cell` for squares and hexes: the space's polygon, tinted and outlined."""
    def cell(s: str, colour: str) -> str:
        return (f'<polygon points="{points(shapes[s])}" fill={colour} fill-opacity="0.3" stroke={colour} '
                f'stroke-width="4"/>')
    return cell


def cell_circle(centres: dict, radius: float):
    """`cell` for a graph's nodes: a ring around the node."""
    def cell(s: str, colour: str) -> str:
        x, y = centres[s]
        return (f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(radius)}" fill={colour} fill-opacity="0.25" '
                f'stroke={colour} stroke-width="4"/>')
    return cell

