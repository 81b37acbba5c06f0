"""The JSON the page receives: one seat's view of a state, and nothing else of it.

`seat_payload(st, seat)` is a function of what `seat` may see only (its observation, its record
of play, its own legal actions): two states the seat cannot tell apart give the same payload
(tests/test_web.py checks this on resampled worlds, as `leges check-leaks` does for the terminal).

`explanation_payload` is the page's answer to an illegal action: `seat_explanation`
(engine/explain.py), why it is not legal as far as the seat may be told.
"""
from __future__ import annotations

from ..render.actions import describe_actions
from ..render.style import style_of
from ..render.svg import render_view
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
                    "thinking": match.thinking,
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
