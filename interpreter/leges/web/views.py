"""The JSON the page receives: one seat's view of a state, and nothing else of it.

`seat_payload(st, seat)` is a function of what `seat` may see only (its observation, its record
of play, its own legal actions): two states the seat cannot tell apart give the same payload
(tests/test_web.py checks this on resampled worlds, as `leges check-leaks` does for the terminal).

`seat_explanation(st, text, seat)` says why an action the seat asked for is not legal
(`state.explain`), told only as far as it holds in every world the seat cannot tell from the real
one: the page's answer to an illegal action, and `leges play`'s.
"""
from __future__ import annotations

import random
from dataclasses import replace

from ..render.actions import describe_actions
from ..render.svg import render_view
from ..render.style import style_of
from ..render.text import ranking_text, status_line, value_text
from ..render.view import history, seat_view


def seat_payload(st, seat: int | None, style=None, with_actions: bool = True) -> dict:
    game = st.game
    style = style or style_of(game.board)
    view = seat_view(st, seat, style)
    actions = describe_actions(st, seat) if (with_actions and seat is not None) else []
    targets = {s for a in actions for s in a.spaces}
    payload = {
        "title": game.title,
        "ruleset": game.id,
        "seat": view.seats[seat] if seat is not None else None,
        "seats": view.seats,
        "colours": view.colours,
        "phase": view.phase_name(),
        "turn": view.turn,
        "to_move": view.to_move,
        "status": status_line(view),
        "terminal": view.terminal,
        "your_turn": bool(actions) and not view.terminal,
        "svg": render_view(game.board, view, style, targets=targets),
        "actions": [a.to_json() for a in actions],
        "history": history(st, seat),
        "log": view.log,
    }
    if view.terminal:
        payload["result"] = {"ranking": ranking_text(view),
                             "scores": {view.seats[p]: value_text(s) for p, s in enumerate(view.scores or [])}}
    return payload


def play_view(match, ws) -> dict:
    payload = seat_payload(match.st, match.seat)
    payload.update({"mode": "play", "match": match.id, "news": match.take_news(), "note": match.note,
                    "agents": {match.st.setup.seat_names[p]: spec for p, spec in enumerate(match.specs) if p != match.seat},
                    "version": ws.version})
    return payload


def replay_view(replay, step: int, seat: int | None, ws) -> dict:
    step = max(0, min(step, replay.steps))
    st = replay.state_at(step)
    payload = seat_payload(st, seat, with_actions=False)
    seen = payload["history"]
    payload.update({"mode": "replay", "replay": replay.id, "step": step, "steps": replay.steps,
                    "total": len(replay.record["actions"]), "error": replay.error,
                    "last": seen[-1] if seen and step > 0 else None, "version": ws.version,
                    "name": replay.name})
    return payload


# ------------------------------------------------------------------ why an action is not legal
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
    from ..engine.action import Action
    from ..engine.resample import has_hidden_information
    from ..engine.saved_state import recompute_pending
    from ..errors import LegesError
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


def explanation_payload(st, why, seat: int) -> dict:
    """An explanation as the page receives it; `line` is the whole of it in one line."""
    cited = why.citation(None)
    line = f"'{why.action}' is not legal for {st.player_name(seat)}: {why.message}"
    if why.values:
        line += " (" + ", ".join(f"{k} = {v}" for k, v in why.values) + ")"
    if why.citation():
        line += " — " + why.citation()
    return {"action": why.action, "seat": st.player_name(seat), "reason": why.reason, "message": why.message,
            "condition": why.condition, "values": [[k, v] for k, v in why.values], "rule": why.rule,
            "description": why.description, "citation": cited, "line": line}
