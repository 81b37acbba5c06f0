"""A generic hidden-information leak check: what a player is shown must not change when what it
may not see changes.

Random games are played; at every decision, for every player, the state is resampled for that
player (`state.resample`, engine/resample.py): the components it cannot see trade identities
within their type and owner and hidden stretches are reshuffled, other players' sealed secret
choices are drawn again among the options they had (where the public actions after them stay
legal), the random generator is re-seeded. Each such world is one the player cannot tell from the
real one, so everything the player is shown must be identical in both:

- `observation(player)` — the zones, variables, log lines and options it sees;
- the `leges play` screen for that seat (render/screen.py `screen`, with its options recomputed in the
  resampled world by the rules themselves: engine/saved_state.py `recompute_pending`);
- the record written for that player (`record_view(player)`: the history with sealed choices
  sealed; the seed is left out, as `leges play` writes the record when the game is over);
- the log lines.

A leak can also lie in what the next action writes (a log line naming a hidden card). So the
action taken next in the real game is applied in the resampled world too; if what the player
sees of the components is then still the same in both — no hidden component came into its
view, no sealed choice was revealed and the rules revealed nothing (`reveal`), which would all be
legitimate news — everything shown must still be the same. A difference is reported with the
game's seed, the step, the seat and the first line that differs.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

from .engine.api import Action
from .engine.state import State
from .errors import LegesError


@dataclass
class Leak:
    seed: int
    step: int  # decisions taken before the state where the difference was seen
    player: str
    part: str  # observation, screen, record, log
    real: str  # the first differing line in the real game
    other: str  # ... and in a world the player cannot tell from it
    after: str | None = None  # the action after which it was seen (None: in the state itself)

    def format(self) -> str:
        when = f"after '{self.after}'" if self.after else "at this decision"
        return (f"seed {self.seed}, decision {self.step}, {when}: {self.player}'s {self.part} shows what "
                f"{self.player} may not see\n      real game:      {self.real}\n"
                f"      world {self.player} cannot tell from it: {self.other}")


@dataclass
class Report:
    ruleset: str
    players: int
    games: int = 0
    decisions: int = 0
    comparisons: int = 0  # resampled worlds compared with the real one
    forward: int = 0  # of them, also compared after the next action
    skipped: int = 0  # worlds that could not be drawn (secret choices not re-drawable)
    leaks: list[Leak] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.leaks


def shown(st, player: int) -> dict[str, list[str]]:
    """Everything `player` is shown of `st`, as lines of text per part."""
    import json
    from .render.screen import screen
    from .render.view import labelled
    observation = st.observation(player)
    # a component's id is not what a player sees of it (and a resampled world trades identities, not ids)
    observation["vars"] = {name: labelled(st, name, value) for name, value in observation["vars"].items()}
    return {  # the most specific channel first: a logged secret is reported as the log's
        "log": list(st.log),
        "record": st.record_view(player),
        "screen": screen(st, player),
        "observation": [f"{k}: {json.dumps(v, sort_keys=True)}" for k, v in observation.items()],
    }


def _position(st, player: int) -> dict:
    """What `player` sees of the components (the zones of its observation): equal in two worlds
    unless something hidden came into its view. Variables are not part of it: a variable that
    differs while every component `player` sees is in the same place tells what it may not see."""
    return st.observation(player)["zones"]


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


def _reask(st) -> None:
    """The pending decision of a resampled world, as the rules give it there (recomputed afresh)."""
    from .engine.saved_state import recompute_pending
    if st.pending is not None:
        fresh = recompute_pending(st)
        if fresh is not None:
            st.pending = fresh


class _Traced(State):
    """A state that remembers the log lines written while it runs, and which came from `reveal`.

    `reveal` is how rules show something hidden to everyone (a drawn card that must be shown), so
    a step that reveals is news; a `log` line, a variable or an option that differs without it is a
    leak. The instruction is told by the name of the function that writes the line.
    """

    __slots__ = ()

    def log_line(self, text: str) -> None:
        State.log_line(self, text)
        _logged.append((text, sys._getframe(1).f_code.co_name == "reveal"))  # the `reveal` instruction


_logged: list[tuple[str, bool]] = []


def _apply(st, action: Action):
    """A copy of `st` after `action` (or None when it is not legal there), and the lines it logged."""
    after = st.copy()
    after.__class__ = _Traced
    _logged.clear()
    try:
        after.apply_action(action)
    except LegesError:
        return None, []
    finally:
        after.__class__ = State
    return after, list(_logged)


ATTEMPTS = 5  # worlds drawn, at most, to find one where the next action can be taken too


def _world(st, player: int, rng: random.Random):
    """A world `player` cannot tell from `st`, its values and its pending decision computed afresh."""
    other = st.resample(player, rng)
    _reask(other)
    return other


def check_state(st, player: int, rng: random.Random, report: Report, seed: int, step: int,
                action: Action | None, samples: int = 1) -> None:
    """Compare what `player` is shown in `st` with `samples` worlds it cannot tell from `st`, and,
    after `action`, with a world where that action can be taken too (another player's move may
    depend on what `player` cannot see: up to ATTEMPTS worlds are drawn to find one)."""
    base = shown(st, player)
    name = st.player_name(player)
    real_after, real_news = _apply(st, action) if action is not None else (None, [])
    for _ in range(samples):
        other_after = None
        for _attempt in range(ATTEMPTS):
            try:
                other = _world(st, player, rng)
            except LegesError:
                report.skipped += 1
                break
            report.comparisons += 1
            diff = _first_difference(base, shown(other, player))
            if diff is not None:
                report.leaks.append(Leak(seed, step, name, *diff))
                return
            if real_after is None or real_after.is_terminal():
                break
            other_after, other_news = _apply(other, action)
            if other_after is not None:
                break
        if other_after is None or other_after.is_terminal():
            continue
        if not set(st.sealed) <= set(real_after.sealed) or not set(other.sealed) <= set(other_after.sealed):
            continue  # sealed choices were revealed: news, legitimately different
        if _position(real_after, player) != _position(other_after, player):
            continue  # a hidden component came into view: legitimately different
        if any(revealed for _, revealed in real_news + other_news):
            continue  # the rules revealed something (`reveal`): news, legitimately different
        report.forward += 1
        diff = _first_difference(shown(real_after, player), shown(other_after, player))
        if diff is not None:
            report.leaks.append(Leak(seed, step, name, *diff, after=action.text))
            return


def check_leaks(game, players: int, games: int = 3, seed: int = 0, max_decisions: int = 200,
                samples: int = 1, progress=None) -> Report:
    """Play `games` random games (seeds seed, seed+1, ...) and check every decision for every player."""
    from .simulate import agent_rng
    report = Report(game.id, players)
    for g in range(games):
        game_seed = seed + g
        st = game.new_initial_state(players=players, seed=game_seed)
        agent = agent_rng(game_seed)
        worlds = random.Random(game_seed * 7919 + 1)
        step = 0
        while not st.is_terminal() and step < max_decisions:
            options = st.pending["options"]
            k = agent.randrange(len(options))
            action = Action(st.pending["player"], options[k][0])
            for player in range(st.n):
                check_state(st, player, worlds, report, game_seed, step, action, samples)
            report.decisions += 1
            st.apply_option(k)
            step += 1
        report.games += 1
        if progress is not None:
            progress(g + 1, games)
    return report
