"""Why an action is not legal, told to one seat: only what holds in every world it cannot tell
from the real one — the answer of the web page and of `leges play` to an illegal action.

Apart from explain.py because it resamples and recomputes decisions (resample.py,
saved_state.py), which the state's own `explain` must not depend on.
"""
from __future__ import annotations

import random
from dataclasses import replace

from ..text.errors import LegesError

WORLDS = 4  # worlds the seat cannot tell from the real one, in which each part of an explanation must hold


def seat_explanation(st, text: str, seat: int, worlds: int = WORLDS):
    """Why the action `text` is not legal for `seat` now (`state.explain`: the reason, the failing
    condition, its values, the rule's citation), or None when it is legal.

    An explanation evaluates the rules on the whole state: a `require` that reads a hidden zone
    would show what lies in it (`top(deck) = red5`). So when the game hides anything, the state is
    also resampled for the seat (`state.resample`: what it cannot see drawn afresh) and explained
    there, in `worlds` worlds drawn by a fixed generator; the reason, message, condition and
    citation are told when every world gives the same, each value when every world gives it the
    same; what differs is left out, and a message that differs becomes "the reason lies in what
    SEAT cannot see". The text is explained as `seat`'s, whatever seat it names (`o: ...` is not
    o's action but a text of `seat`'s).
    """
    from .action import Action
    from .resample import has_hidden_information
    from .saved_state import recompute_pending
    why = st.explain(Action(seat, text))
    if why.legal:
        return None
    if not has_hidden_information(st.game):
        return why
    rng = random.Random(len(st.history))
    others = []
    for _ in range(worlds):
        try:
            other = st.resample(seat, rng)
            if other.pending is not None:  # the options as the rules give them there (as leges check-leaks does)
                other.pending = recompute_pending(other) or other.pending
        except LegesError:  # a world that cannot be drawn (sealed choices not re-drawable): one fewer
            continue
        others.append(other.explain(Action(seat, text)))
    if not others:  # no world to compare with: nothing but that it is not legal
        return replace(why, reason="hidden", message=f"the reason lies in what {st.player_name(seat)} cannot see",
                       condition=None, values=[], rule=None, description=None, source=None)

    def agreed(name):
        value = getattr(why, name)
        return value if all(getattr(o, name) == value for o in others) else None

    kept = {}
    for name in ("reason", "message", "condition", "rule", "description", "source"):
        kept[name] = agreed(name)
    if kept["reason"] is None or kept["message"] is None:
        kept["reason"] = kept["reason"] or "hidden"
        kept["message"] = f"the reason lies in what {st.player_name(seat)} cannot see"
    shared = [set(map(tuple, o.values)) for o in others]
    kept["values"] = [kv for kv in why.values if all(tuple(kv) in s for s in shared)]
    return replace(why, **kept)
