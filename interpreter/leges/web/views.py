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
from ..render.actions import words_in
from ..render.view import history, seat_view, told_view, words_view
from .seating import HOT


def seat_payload(st, seat: int | None, style=None, with_actions: bool = True, before=None) -> dict:
    """`before`: the state before the last action, whose changes the picture marks (as the seat saw them)."""
    game = st.game
    style = style or style_of(game.board)
    view = seat_view(st, seat, style, before=before)
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
        "words": words_view(st, seat),  # the same in the ruleset's languages (engine/words.py)
    }
    if view.terminal:
        payload["result"] = {"ranking": ranking_text(view),
                             "scores": {view.seats[p]: value_text(s) for p, s in enumerate(view.scores or [])}}
    return payload


def play_view(match, ws, key: str | None = None) -> dict:
    """What the page holding `key` sees of a match: its seat's view (a hot seat: covered, with
    only what everybody sees, until the person to decide uncovers it)."""
    key = match.id if key is None else key
    st = match.st
    names = st.setup.seat_names
    covered = match.covered(key)
    seat = None if covered is not None or (match.keys.get(key) == HOT and st.is_terminal()) else match.seat_of(key)
    if match.keys.get(key) == HOT and seat is not None and match.deciding() != seat:
        seat = None  # a hot seat between two decisions (the agents' turn): nobody's view on the screen
    payload = seat_payload(st, seat, with_actions=seat is not None, before=getattr(match, "before", None))
    looked = match.seen.get(seat, -1) if seat is not None else None  # the entries it had seen: the news is what came after
    news = match.take_news(seat) if seat is not None else []
    told = told_view(st.game, match.told, len(st.history), names)
    payload.update({"told": told, "news_words": [{"text": line, "words": words_in(st.game, line)} for line in news],
                    "news_told": [t for t in told if looked is not None and t["after"] > looked]})
    payload.update({"mode": "play", "match": key, "news": news,
                    "note": match.note, "thinking": match.thinking, "stamp": match.stamp,
                    "agents": {names[p]: spec for p, spec in enumerate(match.specs) if spec != ""},
                    "people": [names[p] for p in match.people], "hotseat": match.hotseat,
                    "curtain": names[covered] if covered is not None else None,
                    "variants": list(match.variants), "undo": seat is not None and match.can_undo(seat),
                    "version": ws.version})
    payload["claimed"] = {names[p]: match.claims.is_claimed(p) for p in match.people}  # which links a browser holds
    payload["handovers"] = list(match.claims.handovers)  # seats handed over: every seat is told
    # a secret deal shows no seed before the end; a fixed one says so plainly (whoever knows it reads every hand)
    payload["deal"] = {"secret": match.secret, "seed": None if match.secret else match.seed}
    if key == match.id and not match.hotseat:  # the page that set the table up: a link for each other person
        payload["links"] = {names[p]: k for k, p in match.keys.items() if k != key}
    return payload


def replay_view(replay, step: int, seat: int | None, ws) -> dict:
    step = max(0, min(step, replay.steps))
    st = replay.state_at(step)
    payload = seat_payload(st, seat, with_actions=False, before=replay.state_at(step - 1) if step > 0 else None)
    seen = payload["history"]
    payload["told"] = told_view(st.game, replay.told, step, st.setup.seat_names)
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
