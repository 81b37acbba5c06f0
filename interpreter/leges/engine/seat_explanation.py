"""Why an action is not legal, told to one seat: only what holds in every world it cannot tell
from the real one — the answer of the web page and of `leges play` to an illegal action.

Apart from explain.py because it resamples and recomputes decisions (resample.py,
saved_state.py), which the state's own `explain` must not depend on.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import replace

from ..text.errors import LegesError

WORLDS = 8  # worlds the seat cannot tell from the real one, in which each part of an explanation must hold
DRAWS = 3 * WORLDS  # worlds drawn, at most, to find WORLDS whose view is the seat's own
FIELDS = ("reason", "message", "condition", "rule", "description", "source")


def seat_explanation(st, text: str, seat: int, worlds: int = WORLDS):
    """Why the action `text` is not legal for `seat` now (`state.explain`: the reason, the failing
    condition, its values, the rule's citation), or None when it is legal.

    An explanation evaluates the rules on the whole state: a `require` that reads a hidden zone
    would show what lies in it (`top(deck) = red5`), and even which condition fails can tell it.
    So when the game hides anything, the answer is never the real state's: it is given by
    `worlds` worlds drawn for the seat (`seat_worlds`), each a function of what the seat sees
    alone — a canonical re-deal of what it cannot see, drawn by a generator seeded from its own
    view — and kept only where they are the seat's own view. The reason, message, condition and
    citation are told when every world gives the same, each value when every world gives it; when
    the worlds disagree (or in one the action is legal), the message is that the reason "depends on
    what SEAT cannot see", with whatever they share. So every state the seat cannot tell apart
    gets the same answer. Whether the action is legal is the real state's: the seat is told that by
    its options anyway. The text is explained as `seat`'s, whatever seat it names (`o: ...` is not
    o's action but a text of `seat`'s).
    """
    from .action import Action
    from .resample import has_hidden_information
    why = st.explain(Action(seat, text))
    if why.legal:
        return None
    if not has_hidden_information(st.game):
        return why
    answers = [w.explain(Action(seat, text)) for w in seat_worlds(st, seat, worlds)]
    return agreed(why, answers, st.player_name(seat))


def seat_worlds(st, seat: int, worlds: int = WORLDS) -> list:
    """Up to `worlds` states `seat` cannot tell from `st`, a function of what it sees alone.

    The hidden components are put in a canonical order before each re-deal (resample.py
    `canonicalise`), others' sealed choices are kept (re-choosing them replays the game from its
    seed: the real deal), and the generator is seeded from the seat's observation; each world's
    pending decision is the rules' there (as `leges check-leaks` has it), and a world whose
    observation is not the seat's own (its options differ) is drawn again. What stays as it is:
    variables hidden from the seat that no re-deal draws (docs/leaks.md).
    """
    from .resample import NO_PINS, Resampler
    from .pending import recompute_pending
    seen = st.observation_string(seat)
    rng = random.Random(int.from_bytes(hashlib.sha256(seen.encode()).digest()[:8], "big"))
    try:
        sampler = Resampler(st, seat, replace(NO_PINS, secrets=True), canonical=True)
    except LegesError:
        return []
    out: list = []
    for _ in range(DRAWS):
        if len(out) >= worlds:
            break
        try:
            other = sampler.sample(rng)
            if other.pending is not None:  # the options as the rules give them there
                other.pending = recompute_pending(other) or other.pending
        except LegesError:  # a world the rules cannot go on from: another is drawn
            continue
        if other.observation_string(seat) == seen:
            out.append(other)
    return out


def agreed(why, answers: list, name: str):
    """`why` (the real state's explanation, used for its action, seat and legality only) told as far
    as every one of `answers` (the worlds') agrees."""
    hidden = f"the reason depends on what {name} cannot see"
    if not answers:  # no world to compare with: nothing but that it is not legal
        return replace(why, reason="hidden", message=hidden, condition=None, values=[], rule=None,
                       description=None, source=None)
    first = answers[0]
    kept = {n: getattr(first, n) if all(getattr(a, n) == getattr(first, n) for a in answers) else None
            for n in FIELDS}
    if kept["reason"] in (None, "legal") or kept["message"] is None:
        kept["reason"] = "hidden"
        kept["message"] = hidden
    shared = [set(map(tuple, a.values)) for a in answers[1:]]
    kept["values"] = [kv for kv in first.values if all(tuple(kv) in s for s in shared)]
    return replace(why, **kept)
