"""What a player types at `leges play`, read as one of the legal actions: its number, its text, words
of it that pick out one (`r1c1`, `card=6 r3c2`), or — where an action's choice is not a space but
one the map relates to spaces (render/board_choice.py: Connect Four's `drop column=N`, whose column
is every cell with that `col`) — a cell of the board, as the page takes a click on it. When the
answer fits no legal action, the player is told why: the close ones, which actions a cell matches,
or that it matches none and, if the rules can say, why that choice is not legal now.

Apart from play.py, which paints the screens, so that each stays readable.
"""
from __future__ import annotations

from difflib import get_close_matches
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.action import Action


def match_answer(answer: str, actions: list[Action]) -> tuple[Action | None, str | None]:
    """The action an answer names — its number, its text, or words that fit exactly one action (`r3c2`,
    `card=6 r3c2`) — or None with what to tell the player (the close ones: did you mean ...?)."""
    texts = [a.text for a in actions]
    if answer.isdigit():
        if 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1], None
        return None, f"not one of the {len(actions)} actions; type its number (1 to {len(actions)})"
    for a in actions:
        if a.text == answer:
            return a, None
    words = answer.split()
    if words:
        fitting = [a for a in actions if all(fits(w, a.text) for w in words)]
        if len(fitting) == 1:
            return fitting[0], None
        if len(fitting) > 1:
            listed = ", ".join(f"{texts.index(a.text) + 1}. {a.text}" for a in fitting[:6])
            return None, f"{len(fitting)} actions fit '{answer}': {listed}" + (" ..." if len(fitting) > 6 else "")
    close = get_close_matches(answer, texts, n=3, cutoff=0.5)
    if not close:  # a misspelt word of an action: compare word by word
        known = sorted({w for t in texts for w in t.replace("=", " ").split()})
        fixed = [get_close_matches(w, known, n=1, cutoff=0.6) for w in words]
        if words and all(fixed):
            guess = [f[0] for f in fixed]
            close = [t for t in texts if all(fits(g, t) for g in guess)][:3]
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else "; type its number"
    return None, f"not one of the {len(actions)} actions{hint}"


def named_action(st, answer: str, player: int) -> str | None:
    """The action text an answer that fits no legal action names, to be explained: `place r1c1` is
    `place square=r1c1` (bare words fill the parameters not named, in their order, when there are as
    many), `place square=r1c1 card=red1` is put in the declared order, a bare `r1c1` is of the one
    action offered; an action's name with parameters missing or unknown is its name alone (explain
    then says how it is written). None when the answer names no action (a number, words that fit
    legal actions, an unknown first word)."""
    words = answer.split()
    if not words or answer.isdigit():
        return None
    legal = [a.text for a in st.legal_actions(player)]
    if any(all(fits(w, t) for w in words) for t in legal):
        return None  # it picks out actions (several: the list of them says more than a reason)
    game = st.game
    pending = st.pending
    if pending is not None and pending.player == player and pending.kind == "choose":
        label = next((o.text.split(" ", 1)[0] for o in pending.options if o.action != "pass"), None)
        if words[0] == label:  # the choice asked for (`take_pile 9`): explain reads its value with or without its name
            return answer
    if words[0] in game.actions:
        return _completed(game, words[0], words[1:]) or words[0]
    offered = {t.split(" ", 1)[0] for t in legal} - {"pass"}
    if len(offered) == 1 and next(iter(offered)) in game.actions:  # `r1c1`: the values of the one action offered
        return _completed(game, next(iter(offered)), words)
    return None


def _completed(game, head: str, words: list[str]) -> str | None:
    """`head` with every parameter given by `words` (named, or bare in the order of those not named), or None."""
    params = [name for name, _ in (getattr(game.actions[head].decl, "params", None) or [])]
    given = dict(w.split("=", 1) for w in words if "=" in w)
    bare = [w for w in words if "=" not in w]
    free = [p for p in params if p not in given]
    if set(given) - set(params) or len(bare) != len(free):
        return None
    given.update(zip(free, bare))
    return " ".join([head] + [f"{p}={given[p]}" for p in params])


def why_not(st, answer: str, player: int) -> str | None:
    """Why the action an answer names is not legal now (`state.explain`, told as far as the seat may
    be told: engine/seat_explanation.py), or None when it names none or explain cannot say."""
    from ..engine.seat_explanation import seat_explanation
    text = named_action(st, answer, player)
    if text is None:
        return None
    why = seat_explanation(st, text, player)
    if why is None or why.reason == "no_such_action":
        return None
    read = f"{text}: " if text != answer and why.reason != "malformed" else ""  # what was read, when not as typed
    return read + str(why)


def fits(word: str, text: str) -> bool:
    """A typed word fits an action's text when it is one of its tokens, a value or a name (`r1c1`,
    `square`, `square=r1c1` all fit `place square=r1c1`): so few words pick out one action."""
    tokens = text.split()
    return any(word == t or word == t.partition("=")[2] or word == t.partition("=")[0] for t in tokens)


def cell_choice(st, player: int, answer: str, actions: list[Action]) -> tuple[Action | None, str | None]:
    """The action a cell names (`r3c2`, or `drop r3c2`: the other words must fit it too) when the
    player's actions are chosen through a parameter the map relates to spaces, and what to say: which
    several actions the cell matches, or that it matches none (with why not, when the rules say).
    (None, None) when the answer names no cell, or no such action is offered: the text forms are
    read as before (tic-tac-toe's `r1c1` is `place square=r1c1`)."""
    board = st.game.board
    words = answer.split()
    cells = [w for w in words if board is not None and w in board.spaces]
    if len(cells) != 1 or any(all(fits(w, a.text) for w in words) for a in actions):
        return None, None
    from ..render.actions import describe_actions
    cell = cells[0]
    rest = [w for w in words if w != cell]
    infos = [i for i in describe_actions(st, player) if i.board]  # chosen through a related parameter
    if not infos:
        return None, None
    number = {a.text: n for n, a in enumerate(actions, 1)}
    hits = [i for i in infos if cell in i.spaces and all(fits(w, i.text) for w in rest) and i.text in number]
    if len(hits) == 1:
        return actions[number[hits[0].text] - 1], None  # play.py says what was read: → drop column=2
    if hits:
        listed = ", ".join(f"{number[i.text]}. {i.text}" for i in hits[:6]) + (" ..." if len(hits) > 6 else "")
        return None, f"{cell} is a cell of {len(hits)} actions: {listed}; type its number"
    values = sorted({(i.text.split(" ", 1)[0], name, spaces[cell]) for i in infos for name, spaces in i.board.items()
                     if cell in spaces})
    if not values:
        return None, f"{cell} is not a cell any action now is chosen by; type a number or an action's text"
    head, name, value = values[0]
    said = f"{cell} is {name}={value}: no legal action now takes {name}={value}"
    why = why_not(st, f"{head} {name}={value}", player)
    return None, said + (f" ({why})" if why else "")
