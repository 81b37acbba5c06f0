"""The leak check's two quieter channels: explanations, and moves the engine takes by itself.

Why apart from leaks.py: what a seat is *shown* is compared there; these are what it is *told* —
an answer to "why not?" (engine/seat_explanation.py: the web page's `/why`, a refusal, `leges play`)
and a decision the engine takes at once because only one option is legal (engine/program/
decisions.py: the engine plays it, every seat sees which). Neither is part of a view, yet both
can depend on what a seat may not see: an explanation that evaluates a `require` on the real
hidden deck, a lone option that a hidden card decided.

- Explanations: at some decisions, each seat asks why some actions are not legal — the options
  another seat has now, options it or another seat had at earlier decisions — in the real game
  and in a world it cannot tell from it (its observation the same); the answers must be equal.
- Forced moves: the step is run again with forced moves asked (`forced_moves`), so each decision
  the engine took by itself is seen as a state; for every seat a world it cannot tell from that
  state is drawn, and the decision's options computed there by the rules. If they are not the
  real lone option, which move was forced tells the seat something hidden: it is reported with
  the rule asking and the action taken (their names and citations).
"""
from __future__ import annotations

import random

from ..engine import knowledge as K
from ..engine.explain import citation, declaration
from ..engine.resample import resample
from ..engine.state import State
from ..text.errors import LegesError

TEXTS = 3  # actions explained per seat and decision checked
POOL = 40  # options remembered per game, the newest, to be asked about later
FORCED = 8  # forced decisions checked per step, at most


def remember(pool: list[str], st: State) -> None:
    """Keep the options of the decision pending in `st` (newest last, each once) to ask about later."""
    if st.pending is None:
        return
    for option in st.pending.options:
        text = option.text
        if text != "pass":
            if text in pool:
                pool.remove(text)
            pool.append(text)
    del pool[:-POOL]


def texts_to_ask(st: State, player: int, pool: list[str], rng: random.Random) -> list[str]:
    """Up to TEXTS actions not legal for `player` in `st`, one from each source in turn: another
    seat's options now; options remembered from the game so far; and those texts given to another
    action with the same parameters (an action never legal is asked about too: its `require` may
    read what the seat cannot see)."""
    legal = {a.text for a in st.legal_actions(player)} if not st.is_terminal() else set()
    now = [o.text for o in st.pending.options] if st.pending is not None and st.pending.player != player else []
    params = {aid: [name for name, _ in (getattr(a.decl, "params", None) or [])] for aid, a in st.game.actions.items()}
    borrowed = []
    for text in pool:
        words = text.split()
        names = [w.split("=", 1)[0] for w in words[1:]]
        borrowed += [" ".join([aid, *words[1:]]) for aid, ps in params.items() if ps == names and aid != words[0]]
    sources = [[t for t in dict.fromkeys(group) if t not in legal and t != "pass"] for group in (now, pool, borrowed)]
    out: list[str] = []
    while len(out) < TEXTS and any(sources):
        for group in sources:
            if group and len(out) < TEXTS:
                text = group.pop(rng.randrange(len(group)))
                if text not in out:
                    out.append(text)
    return out


def explanation_difference(real: State, other: State, player: int, texts: list[str], explainer) -> tuple | None:
    """(part, real answer, other answer) for the first text whose explanation differs between two
    worlds `player` cannot tell apart; None when all agree (or the worlds' views differ: not comparable)."""
    if other.observation_string(player) != real.observation_string(player):
        return None
    for text in texts:
        try:
            a = explainer(real, text, player)
        except LegesError as exc:
            a = f"error: {exc.diagnostics[0].message}"
        try:
            b = explainer(other, text, player)
        except LegesError as exc:
            b = f"error: {exc.diagnostics[0].message}"
        if a != b:
            return "explanation", f"why not '{text}': {_said(a)}", f"why not '{text}': {_said(b)}"
    return None


def _said(why) -> str:
    return "legal" if why is None else str(why)


def forced_decisions(before: State, action) -> list[State]:
    """The decisions the engine took by itself in the step from `before` by `action` (None: the
    set-up), each as the state asking it: the step run again on a copy with forced moves asked."""
    st = before.copy()
    st.forced_moves = True
    try:
        if action is None:
            st.game.flow.run(st)
        else:
            st.apply_action(action)
        out: list[State] = []
        while (st.pending is not None and len(st.pending) == 1 and len(out) < FORCED
               and st.pending.player >= 0):
            out.append(st.copy())
            st.apply_option(0)
    except LegesError:  # the step cannot be run so: nothing to check
        return []
    return out


def forced_difference(forced: State, seat: K.Knowledge, rng: random.Random, also: frozenset[int] | set[int] = frozenset(),
                      ) -> tuple | None:
    """(real options, options in a world the seat cannot tell apart) when the lone option of the
    forced decision in `forced` is not what the rules give there; None when it is (or no world).
    `also`: the components the seat is shown in the step, kept in the world (what is shown anyway
    is no leak: a card paid openly, a building revealed)."""
    from ..engine.pending import recompute_pending
    player = seat.player
    try:
        world = resample(forced, player, rng, seat.pins(also))
        pending = recompute_pending(world) if world.pending is not None else None
    except LegesError:
        return None
    if world.observation_string(player) != forced.observation_string(player):
        return None  # a world the seat can tell apart (its own options differ): the options leak is leaks.py's
    asked = forced.pending
    assert asked is not None  # a forced decision is pending (forced_states)
    real = [o.text for o in asked.options]
    there = [o.text for o in pending.options] if pending is not None else []
    if pending is not None and pending.player != asked.player:
        there = [f"{world.player_name(pending.player)}: {t}" for t in there]
    return (real, there) if there != real else None


def forced_rule(st: State) -> str:
    """The rule behind a forced decision: the action taken and the rule asking, with their citations."""
    game = st.game
    assert st.pending is not None, "a forced decision is pending"
    option = st.pending.options[0]
    parts = []
    action = game.actions.get(option.action)
    if action is not None:
        parts.append(_cited(f"action:{option.action}", getattr(action.decl, "source", None)))
    if st.frames:
        code_id = st.frames[-1][0]
        decl = declaration(game, code_id)
        parts.append("asked by " + _cited(code_id.split("(", 1)[0], getattr(decl, "source", None)))
    return ", ".join(parts)


def _cited(rule: str, source) -> str:
    cited = citation(source, 80)
    return f"{rule} ({cited})" if cited else rule
