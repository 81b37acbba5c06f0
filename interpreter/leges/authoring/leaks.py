"""A generic hidden-information leak check: what a seat is shown must not depend on what it may not see.

A leak is a difference in what a seat is shown between two worlds it cannot tell apart. Random
games are played, and every step of them — the set-up, then each decision's action with all the
rules do until the next decision — is checked for every seat, so:

- Worlds are drawn from the state *before* the step (`state.resample`, engine/resample.py): what
  the seat cannot see is drawn afresh — hidden components trade identities, hidden stretches are
  reshuffled, others' sealed choices are drawn again — keeping everything the seat has seen
  (knowledge.py): the components it was ever shown keep their identity (and their place until
  their zone is shuffled), those the real step is about to show it and those the action's text
  names keep their place too, and the random generator is kept. The set-up is checked from the
  state before it ran (every component where it starts), so a variable or a log line that set-up
  writes from a hidden card is compared too.
- Before the step (decisions only), everything the seat is shown must be the same in both worlds:
  `observation(player)` (zones, variables, log lines, its options), the `leges play` screen for
  that seat (render/screen.py, its options recomputed in the world by the rules:
  engine/saved_state.py `recompute_pending`), its record (`record_view`) and the log.
- After the step, taken in both worlds, the same must hold whenever what the seat *learned* in the
  step is the same in both (knowledge.py `learned`: the components it was shown on the way, even
  for a moment, the lines `reveal`ed, the zones it sees, the sealed choices unsealed). Because the
  components the real step shows are kept in the world, a public draw in the same step learns the
  same in both: it neither masks a leaked log line nor makes a false alarm of a card drawn face
  up and taken into a hidden hand. A world where the seat learns something else (the rules took
  another path) is counted as not comparable. The end of the game is not compared: final scores
  may show everything.

Explanations and moves the engine takes by itself (one legal option) are what a seat is told,
not shown: leaks_told.py compares them — the answers to "why not?" at `explanations` decisions of
each game, and every forced decision of the steps checked, reported with its rule.

Long games are checked over their whole length: each game is played once to learn its length,
then `max_decisions` of its decisions, spread evenly from the first to the last, are checked.
A difference is reported with the game's seed, the step, the seat and the first line that
differs. What the check trusts — which rules show hidden things on purpose — is listed by
`leges check-leaks --explain` (information_flow.py).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..engine import knowledge as K
from . import leaks_told as T
from ..engine.api import Action
from ..engine.decision import Option
from ..engine.resample import Pins, resample
from ..engine.state import State
from ..text.errors import LegesError

SETUP = "set-up"  # the step a leak was seen after, when it is the set-up


@dataclass
class Leak:
    seed: int
    step: int  # decisions taken before the state where the difference was seen
    player: str
    part: str  # observation, screen, record, log
    real: str  # the first differing line in the real game
    other: str  # ... and in a world the player cannot tell from it
    after: str | None = None  # the action after which it was seen (SETUP; None: in the state itself)
    rule: str | None = None  # a forced move's: the action taken and the rule asking, with citations

    def format(self) -> str:
        when = ("after set-up" if self.after == SETUP else f"after '{self.after}'") if self.after else "at this decision"
        if self.part == "forced move":
            return (f"seed {self.seed}, decision {self.step}, {when}: the engine took a move by itself, its only "
                    f"option, and which one tells {self.player} what it may not see — {self.rule}\n"
                    f"      real game, the only option: {self.real}\n"
                    f"      options in a world {self.player} cannot tell from it: {self.other}\n"
                    f"      (when the lone option is also one in that world, `ask_alone: true` on its action has it asked, "
                    f"not taken at once)")
        return (f"seed {self.seed}, decision {self.step}, {when}: {self.player}'s {self.part} shows what "
                f"{self.player} may not see\n      real game:      {self.real}\n"
                f"      world {self.player} cannot tell from it: {self.other}")


@dataclass
class Report:
    ruleset: str
    players: int
    games: int = 0
    decisions: int = 0  # decisions checked
    played: int = 0  # decisions played (all traced, to know what each seat has seen)
    comparisons: int = 0  # worlds compared with the real game
    forward: int = 0  # of them, compared after the step too (set-ups included)
    unmatched: int = 0  # samples without a world where the step could be taken and the seat learned the same
    skipped: int = 0  # worlds that could not be drawn (secret choices not re-drawable)
    explained: int = 0  # explanations compared (seat, decision and world; each of up to leaks_told.TEXTS actions)
    forced: int = 0  # decisions the engine took by itself, checked for every seat
    leaks: list[Leak] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.leaks


def shown(st, player: int) -> dict[str, list[str]]:
    """Everything `player` is shown of `st`, as lines of text per part."""
    import json
    from ..render.screen import screen
    from ..render.view import labelled
    observation = st.observation(player)
    # a component's id is not what a player sees of it (and a resampled world trades identities, not ids)
    observation["vars"] = {name: labelled(st, name, value) for name, value in observation["vars"].items()}
    return {  # the most specific channel first: a logged secret is reported as the log's
        "log": list(st.log),
        "record": st.record_view(player),
        "screen": screen(st, player),
        "observation": [f"{k}: {json.dumps(v, sort_keys=True)}" for k, v in observation.items()],
    }


def _first_difference(a: dict[str, list[str]], b: dict[str, list[str]]) -> tuple[str, str, str] | None:
    for part in a:
        if a[part] != b[part]:
            lines_a, lines_b = a[part], b[part]
            for i in range(max(len(lines_a), len(lines_b))):
                la = lines_a[i] if i < len(lines_a) else "(nothing)"
                lb = lines_b[i] if i < len(lines_b) else "(nothing)"
                if la != lb:
                    return part, la, lb
    return None


def _world(st: State, player: int, rng: random.Random, pins: Pins) -> State:
    """A world `player` cannot tell from `st`, its pending decision computed afresh by the rules."""
    from ..engine.pending import recompute_pending
    other = resample(st, player, rng, pins)
    if other.pending is not None:
        fresh = recompute_pending(other)
        if fresh is not None:
            other.pending = fresh
    return other


ATTEMPTS = 5  # worlds drawn, at most, to find one where the step's action can be taken and learns the same


@dataclass
class Step:
    """One step of the real game: the state before it, the action (None: the set-up) and after."""
    before: State
    after: State
    events: list[K.Event]
    action: Action | None = None
    option: Option | None = None
    seed: int = 0
    number: int = 0  # decisions taken before it
    shown_before: dict = field(default_factory=dict)  # seat → what it is shown before the step (shared with
    shown_after: dict = field(default_factory=dict)  # the step before: the screens are the costly part)

    def shown(self, player: int, after: bool) -> dict[str, list[str]]:
        """What `player` is shown in the real game before or after the step (computed once)."""
        cache, st = (self.shown_after, self.after) if after else (self.shown_before, self.before)
        if player not in cache:
            cache[player] = shown(st, player)
        return cache[player]


def check_step(step: Step, seat: K.Knowledge, rng: random.Random, report: Report, samples: int = 1) -> None:
    """Compare what the seat is shown in the real game with `samples` worlds it cannot tell from it,
    before the step (but at set-up) and after it (when it learns the same in both)."""
    player, before, after, action = seat.player, step.before, step.after, step.action
    name = before.player_name(player)
    real_learned = K.learned(before, after, step.events, player)
    also = K.seen(before, step.events, player) | (K.named(before, action, step.option) if action else set())
    pins = seat.pins(also, secrets=real_learned[2] != (), read=False)  # a variable naming a card is tested
    real_before = step.shown(player, after=False) if action is not None else None
    forward = not after.is_terminal()
    for _ in range(samples):
        try:
            diff, other_after = _draw(step, player, rng, pins, real_before, real_learned if forward else None, report)
        except LegesError:
            report.skipped += 1
            continue
        if diff is not None:
            report.leaks.append(Leak(step.seed, step.number, name, *diff))
            return
        if not forward:
            continue
        if other_after is None:
            report.unmatched += 1
            continue
        report.forward += 1
        diff = _first_difference(step.shown(player, after=True), shown(other_after, player))
        if diff is not None:
            report.leaks.append(Leak(step.seed, step.number, name, *diff, after=action.text if action else SETUP))
            return


def _draw(step: Step, player: int, rng: random.Random, pins: Pins, real_before: dict | None,
          real_learned: tuple | None, report: Report) -> tuple[tuple | None, State | None]:
    """(the first difference before the step, None) in a world drawn; else (None, that world after the
    step) for the first of ATTEMPTS worlds where the step can be taken and `player` learns the same
    in it as in the real game; (None, None) if none does, or nothing is to be compared after it."""
    for _ in range(ATTEMPTS):
        other = _world(step.before, player, rng, pins)
        report.comparisons += 1
        if real_before is not None:
            diff = _first_difference(real_before, shown(other, player))
            if diff is not None:
                return diff, None
        if real_learned is None:
            return None, None
        other_after, events = K.run(other, step.action)
        if other_after is not None and not other_after.is_terminal() \
                and K.learned(other, other_after, events, player) == real_learned:
            return None, other_after
    return None, None


def _spread(length: int, most: int | None) -> set[int]:
    """`most` decisions of a game of `length`, spread evenly from its first to its last (all: None)."""
    if most is None or length <= most:
        return set(range(length))
    if most == 1:
        return {0}
    return {round(i * (length - 1) / (most - 1)) for i in range(most)}


def _choices(game, players: int, seed: int) -> list[int]:
    """The options a random game takes, decision by decision (the simulator's agent)."""
    from ..agents.seeding import agent_rng
    st = game.new_initial_state(players=players, seed=seed)
    agent = agent_rng(seed)
    taken = []
    while not st.is_terminal():
        taken.append(agent.randrange(len(st.pending)))
        st.apply_option(taken[-1])
    return taken


def _replayed(st: State, action: Action | None) -> tuple[State, list[K.Event]]:
    """K.run on a step _choices has already played: the same seed and options, so it is legal and runs."""
    after, events = K.run(st, action)
    assert after is not None, "a replayed step failed where the first play of it did not"
    return after, events


def check_told(step: Step, seats: list[K.Knowledge], rng: random.Random, report: Report,
               texts: dict[int, list[str]] | None, explainer) -> None:
    """What the seats are told in the step: explanations before it (`texts`: seat → actions to ask
    about; None: none asked), and the moves the engine took by itself in it (leaks_told.py)."""
    for seat in (seats if texts else ()):
        asked = texts.get(seat.player) if texts else None
        if not asked:
            continue
        try:
            other = _world(step.before, seat.player, rng, seat.pins())
        except LegesError:
            report.skipped += 1
            continue
        report.explained += 1
        diff = T.explanation_difference(step.before, other, seat.player, asked, explainer)
        if diff is not None:
            report.leaks.append(Leak(step.seed, step.number, step.before.player_name(seat.player), *diff))
    if not step.after.at_once:
        return
    reported = {leak.rule for leak in report.leaks}
    for forced in T.forced_decisions(step.before, step.action):
        report.forced += 1
        for seat in seats:
            also = K.seen(step.before, step.events, seat.player) | (
                K.named(step.before, step.action, step.option) if step.action else set())
            diff = T.forced_difference(forced, seat, rng, also)
            if diff is None:
                continue
            rule = T.forced_rule(forced)
            if rule not in reported:
                reported.add(rule)
                assert forced.pending is not None  # a forced decision (leaks_told.forced_states)
                who = forced.player_name(forced.pending.player)
                report.leaks.append(Leak(step.seed, step.number, forced.player_name(seat.player), "forced move",
                                         f"{who}: {diff[0][0]}", ", ".join(diff[1]) or "(none: nothing is taken)",
                                         after=step.action.text if step.action else SETUP, rule=rule))
            break


def check_game(game, players: int, seed: int, report: Report, max_decisions: int | None = 200, samples: int = 1,
               explanations: int | None = 10, explainer=None) -> None:
    """Play one random game and check its set-up and `max_decisions` decisions spread over it; at
    `explanations` of them (None: all checked) the seats' explanations too (`explainer`: the
    function asked, engine/seat_explanation.py's by default)."""
    from ..engine.seat_explanation import seat_explanation
    explainer = explainer or seat_explanation
    choices = _choices(game, players, seed)
    checked = _spread(len(choices), max_decisions)
    ordered = sorted(checked)
    explained = set(ordered) if explanations is None else {ordered[i] for i in _spread(len(ordered), explanations)}
    worlds = random.Random(seed * 7919 + 1)
    st = game.new_initial_state(players=players, seed=seed, run=False)
    after, events = _replayed(st, None)
    seats = [K.Knowledge(p) for p in range(players)]
    step = Step(st, after, events, seed=seed)
    for seat in seats:
        check_step(step, seat, worlds, report, samples)
    check_told(step, seats, worlds, report, None, explainer)
    for seat in seats:
        seat.learn(after, events)
    st = after
    pool: list[str] = []
    for number, k in enumerate(choices):
        pending = st.pending
        assert pending is not None  # the game went on after this decision when _choices played it
        option = pending.options[k]
        action = Action(pending.player, option.text)
        after, events = _replayed(st, action)
        if number in checked:
            step = Step(st, after, events, action, option, seed, number,
                        shown_before=step.shown_after if step.after is st else {})
            for seat in seats:
                check_step(step, seat, worlds, report, samples)
            texts = ({seat.player: T.texts_to_ask(st, seat.player, pool, worlds) for seat in seats}
                     if number in explained else None)
            check_told(step, seats, worlds, report, texts, explainer)
            report.decisions += 1
        T.remember(pool, st)
        for seat in seats:
            seat.learn(after, events, action, option)
        report.played += 1
        st = after


def check_leaks(game, players: int, games: int = 3, seed: int = 0, max_decisions: int | None = 200,
                samples: int = 1, progress=None, explanations: int | None = 10, explainer=None) -> Report:
    """Play `games` random games (seeds seed, seed+1, ...) and check, for every seat, their set-up and
    `max_decisions` decisions of each (None: every decision) spread over the whole game, and
    explanations at `explanations` of those (0: none; None: all)."""
    report = Report(game.id, players)
    for g in range(games):
        check_game(game, players, seed + g, report, max_decisions, samples, explanations, explainer)
        report.games += 1
        if progress is not None:
            progress(g + 1, games)
    return report
