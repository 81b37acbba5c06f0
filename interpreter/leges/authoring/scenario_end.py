"""A scenario's checks of a game's end: who won (`ranking`), the `scores`, the `returns`, and why
the game ended (`end`).

Why they exist: without them a scenario could check positions but not results, so every change to
a game's scoring survived its scenarios (`leges mutate`), and a game whose draw rule was forgotten
ran its turns out to the turn limit — ending *unfinished*, every return 0 — while its draw scenario,
which only said `terminal: true`, passed. `end: rules` tells the two apart: a game the rules end,
or one a bound stopped (limits.max_turns, limits.max_decisions, the game's budget).

A ranking or returns checked in a game that ended unfinished fail unless the step also says
`end: unfinished`: an unfinished game has no winner, and its returns (all 0) would pass a draw's.

The keys' values are checked against the game (its seats, its phases) before anything is played,
by `leges validate` as well as `leges test`; each problem is reported at its key.
"""
from __future__ import annotations

import math

from ..text.errors import Collector, did_you_mean
from ..text.yaml_source import YamlDoc

END_KEYS = ("ranking", "scores", "returns", "end")
BY_RULES = ("end_if", "end_game", "last_phase")  # engine endings (State.end_reason) the rules chose
BY_BOUNDS = ("max_turns", "max_decisions", "budget")  # endings of a game stopped unfinished
END_WORDS = {"rules": BY_RULES, "unfinished": BY_BOUNDS, **{k: (k,) for k in BY_RULES + BY_BOUNDS}}
RETURNS_TOLERANCE = 5e-4 + 1e-12  # returns such as 1/3 are written to three decimals: 0.333


# ------------------------------------------------------------------ before play: the values
def check_values(doc: YamlDoc, seats: list[str], phases, errors: Collector) -> None:
    """Every end check of every step names the game's seats (and phases): a misspelt seat is told at
    its key with the seats there are, not as a failure after the scenario has been played."""
    steps = doc.data.get("steps") if isinstance(doc.data, dict) else None
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if not isinstance(step, dict):
            continue
        if "ranking" in step:
            _check_ranking(doc, ("steps", i, "ranking"), step["ranking"], seats, errors)
        for key in ("scores", "returns"):
            if key in step:
                _check_numbers(doc, ("steps", i, key), step[key], seats, errors, key == "returns")
        if "end" in step:
            _check_end(doc, ("steps", i, "end"), step["end"], phases, errors)


def _seat(doc: YamlDoc, path: tuple, name, seats: list[str], errors: Collector, key: bool = False) -> bool:
    if isinstance(name, str) and name in seats:
        return True
    errors.error(doc.position(path, key=key), f"no player '{name}' in this game",
                 did_you_mean(str(name), seats) or "players: " + ", ".join(seats))
    return False


def _check_ranking(doc: YamlDoc, path: tuple, ranking, seats: list[str], errors: Collector) -> None:
    if not isinstance(ranking, list) or not ranking:
        errors.error(doc.position(path), "a ranking is a list of places, best first",
                     "e.g. `ranking: [[x], [o]]` (x won), `ranking: [[x, o]]` (a tie), or `ranking: [x, o]`")
        return
    named: set[str] = set()
    for k, place in enumerate(ranking):
        members = place if isinstance(place, list) else [place]
        if not members:
            errors.error(doc.position(path + (k,)), "an empty place", "a place lists the seats sharing it: [x, o]")
        for m, seat in enumerate(members):
            where = path + (k, m) if isinstance(place, list) else path + (k,)
            if isinstance(seat, list) or not _seat(doc, where, seat, seats, errors):
                continue
            if seat in named:
                errors.error(doc.position(where), f"'{seat}' is ranked twice", "a seat has one place")
            named.add(seat)


def _check_numbers(doc: YamlDoc, path: tuple, values, seats: list[str], errors: Collector, listed: bool) -> None:
    """`scores` (seat → number) or `returns` (seat → number, or one number a seat in seat order)."""
    word = "returns" if listed else "scores"
    example = f"`{word}: {{{seats[0]}: 1, {seats[-1]}: {-1 if listed else 0}}}`"
    if listed and isinstance(values, list):
        if len(values) != len(seats):
            errors.error(doc.position(path), f"{len(values)} returns for {len(seats)} players",
                         f"one a seat, in seat order ({', '.join(seats)}), or a mapping: {example}")
        for k, v in enumerate(values):
            if not _is_number(v):
                errors.error(doc.position(path + (k,)), f"a return is a number, not {_shown(v)}", example)
        return
    if not isinstance(values, dict) or not values:
        errors.error(doc.position(path), f"{word} map seats to numbers",
                     example + (" or one number a seat, in seat order" if listed else ""))
        return
    for seat, v in values.items():
        if _seat(doc, path + (seat,), seat, seats, errors, key=True) and not _is_number(v):
            errors.error(doc.position(path + (seat,)), f"{'a return' if listed else 'a score'} is a number, not {_shown(v)}",
                         example)


def _check_end(doc: YamlDoc, path: tuple, end, phases, errors: Collector) -> None:
    words = ", ".join(END_WORDS)
    reason = end.get("reason") if isinstance(end, dict) else end
    if not isinstance(reason, str) or reason not in END_WORDS:
        close = did_you_mean(reason, END_WORDS) if isinstance(reason, str) else None
        errors.error(doc.position(path + (("reason",) if isinstance(end, dict) else ())),
                     f"no ending '{reason}'" if isinstance(reason, str) else "`end` names why the game ended",
                     (close + "; " if close else "")
                     + f"one of {words}; or {{reason: end_if, phase: PHASE}}, {{reason: end_game, rule: RULE}}")
        return
    if isinstance(end, dict) and "phase" in end and end["phase"] not in phases:
        errors.error(doc.position(path + ("phase",)), f"no phase '{end['phase']}' in this game",
                     did_you_mean(str(end["phase"]), phases) or "phases: " + ", ".join(phases))


def _is_number(v) -> bool:
    return v.__class__ in (int, float) and not (isinstance(v, float) and math.isnan(v))


def _shown(v) -> str:
    if v is True or v is False or v is None:
        return {True: "true", False: "false", None: "none"}[v]
    return f"'{v}'" if isinstance(v, str) else "a list" if isinstance(v, list) else "a mapping" if isinstance(v, dict) \
        else str(v)


# ------------------------------------------------------------------ after a step: the checks
def check_step(st, doc: YamlDoc, i: int, step: dict) -> list[str]:
    """The failures of a step's end checks, each at its key, saying what was expected and what is."""
    failures = []
    names = st.setup.seat_names
    path = ("steps", i)
    unfinished_ok = "end" in step and set(_reasons(step["end"])) <= set(BY_BOUNDS)
    stopped = st.is_terminal() and st.unfinished and not unfinished_ok
    if "end" in step:
        failures += _end_failure(st, doc, path + ("end",), step["end"])
    if "ranking" in step:
        wanted = [set(p) if isinstance(p, list) else {p} for p in step["ranking"]]
        got = [[names[p] for p in group] for group in st.ranking()]
        if stopped or [set(g) for g in got[:len(wanted)]] != wanted:
            failures.append(f"{doc.position(path + ('ranking',))}: expected the ranking {_ranking(step['ranking'])}"
                            + (" > …" if sum(map(len, wanted)) < len(names) else "")
                            + f", got {_ranking(got)}" + _scores_line(st) + _state_note(st, stopped, "ranking"))
    if "scores" in step:
        scores = st.scores()
        wanted_scores = step["scores"]
        wrong = [s for s, v in wanted_scores.items() if not _same(scores[names.index(s)], v, 0)]
        if wrong:
            failures.append(f"{doc.position(path + ('scores',))}: expected scores "
                            + ", ".join(f"{s} {_num(wanted_scores[s])}" for s in wanted_scores)
                            + f"; got {', '.join(f'{s} {_num(scores[names.index(s)])}' for s in wanted_scores)}"
                            + _state_note(st, False, "scores"))
    if "returns" in step:
        wanted_returns = step["returns"]
        if isinstance(wanted_returns, list):
            wanted_returns = dict(zip(names, wanted_returns))
        returns = st.returns()
        wrong = [s for s, v in wanted_returns.items() if not _same(returns[names.index(s)], v, RETURNS_TOLERANCE)]
        if not st.is_terminal():
            failures.append(f"{doc.position(path + ('returns',))}: returns are the result of a game that is over, "
                            "but the game goes on" + _decision(st))
        elif wrong or stopped:
            failures.append(f"{doc.position(path + ('returns',))}: expected returns "
                            + ", ".join(f"{s} {_num(wanted_returns[s])}" for s in wanted_returns)
                            + f"; got {', '.join(f'{s} {_num(returns[names.index(s)])}' for s in wanted_returns)}"
                            + _state_note(st, stopped, "returns"))
    return failures


def _reasons(end) -> tuple:
    reason = end.get("reason") if isinstance(end, dict) else end
    return END_WORDS.get(reason, ()) if isinstance(reason, str) else ()


def _end_failure(st, doc: YamlDoc, path: tuple, end) -> list[str]:
    word = end.get("reason") if isinstance(end, dict) else end
    said = f"end: {word}" if not isinstance(end, dict) else \
        "end: {" + ", ".join(f"{k}: {v}" for k, v in end.items()) + "}"
    where = doc.position(path)
    if not st.is_terminal():
        return [f"{where}: expected the game to be over ({said}), but it goes on" + _decision(st)]
    ending = st.end_reason or {}
    kind = ending.get("kind")
    fits = kind in _reasons(end) and all(_names(ending.get(k), v) for k, v in (end.items() if isinstance(end, dict) else ())
                                         if k in ("phase", "rule"))
    if fits:
        return []
    message = f"{where}: expected the game to end {_wanted(end)} ({said}), but {describe_ending(ending)}"
    if kind in BY_BOUNDS and word in ("rules", *BY_RULES):
        message += ("\n       the rules never ended this game: is an ending missing (a draw rule? an `end_if` "
                    "that can never hold?)")
    return [message]


def _names(recorded, given) -> bool:
    """A rule is recorded as KIND:ID (procedure:check_victory); the scenario may name it by its id alone."""
    return isinstance(recorded, str) and given in (recorded, recorded.split(":", 1)[-1])


def _wanted(end) -> str:
    word = str(end.get("reason") if isinstance(end, dict) else end)
    text = {"rules": "by its rules", "unfinished": "unfinished (a turn or decision limit, or its budget)",
            "end_if": "by a phase's `end_if`", "end_game": "by a rule's `end game`",
            "last_phase": "as its last phase ended", "max_turns": "at the turn limit (limits.max_turns)",
            "max_decisions": "at the decision limit (limits.max_decisions)", "budget": "by its budget"}[word]
    if isinstance(end, dict):
        text += "".join(f", {k} '{end[k]}'" for k in ("phase", "rule") if k in end)
    return text


def describe_ending(ending: dict | None) -> str:
    """Why a game ended (State.end_reason), as a clause: 'it ended unfinished: the turn limit ...'."""
    ending = ending or {}
    kind = ending.get("kind")
    if kind == "end_if":
        return f"it ended by the rules: phase '{ending.get('phase')}' ended (`end_if`) and no phase follows"
    if kind == "end_game":
        return f"it ended by the rules: `end game` in {ending.get('rule')}"
    if kind == "last_phase":
        return f"it ended by the rules: its last phase '{ending.get('phase')}' ended"
    if kind == "max_turns":
        return f"it ended unfinished: the turn limit of {ending.get('turns')} turns was reached (limits.max_turns)"
    if kind == "max_decisions":
        return f"it ended unfinished: the decision limit of {ending.get('decisions')} was reached (limits.max_decisions)"
    if kind == "budget":
        return f"it ended unfinished: the game's budget of {ending.get('spent')} ({ending.get('limit')}) was spent"
    return "it is over"


def _state_note(st, stopped: bool, what: str) -> str:
    if not st.is_terminal():
        return f"\n       the game goes on: the {what} as the scores stand now"
    if st.unfinished:
        note = "\n       " + describe_ending(st.end_reason)
        if stopped:
            note += f"; an unfinished game has no result (say `end: unfinished` in this step if that is what it shows)"
        return note
    return ""


def _scores_line(st) -> str:
    """The scores, and with tiebreaks the keys the ranking compares (score first), one a seat."""
    names = st.setup.seat_names
    keys = getattr(st, "_score_keys", None)
    if st.game.tiebreak_fns and keys is not None:
        return "\n       scores, then tiebreaks: " + ", ".join(
            f"{s} ({', '.join(_num(k) for k in keys(p))})" for p, s in enumerate(names))
    return "\n       scores: " + ", ".join(f"{s} {_num(v)}" for s, v in zip(names, st.scores()))


def _decision(st) -> str:
    d = st.decision()
    return "" if d is None else f"\n       to move: {d['seat']}, legal: " + \
        (", ".join(a.text for a in st.legal_actions()[:15]) or "nothing")


def _ranking(places) -> str:
    return " > ".join(" = ".join(p) if isinstance(p, list) else str(p) for p in places)


def _same(got, wanted, tolerance: float) -> bool:
    if got.__class__ not in (int, float, bool):
        return False
    return math.isclose(float(got), float(wanted), rel_tol=0.0, abs_tol=tolerance)


def _num(v) -> str:
    if isinstance(v, float):
        return f"{v:.3f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))
    return str(v)


# ------------------------------------------------------------------ decisions the engine took itself
def lone_option(st, texts) -> str | None:
    """Why actions a step names are not there when the engine took them itself: a decision with a
    single option is taken at once, as in play (`state.at_once`), so a scenario that expects it to be
    asked is told that, not "missing [...]"; None when none of `texts` was so taken."""
    taken = [t for t in st.at_once if t.split(": ", 1)[-1] in set(texts)]
    if not taken:
        return None
    shown = "; ".join(f"'{t}'" for t in taken)
    if st.is_terminal():
        return f"the game is over: the only option was taken at once ({shown}), and the game ended"
    return (f"the engine took the lone option itself ({shown}): a decision with a single option is not asked; "
            "drop it from the step")
