"""A heuristic learned from the rules: candidate features read off the declarations, weighed by
what wins in played games.

Why: `greedy` and depth-cut `mcts` judge positions by a heuristic, and a new ruleset has none —
writing one took new users 10–25 minutes and several tries. The declarations already say what a
player can hold, so each candidate feature is a rule-language expression of the player `p`
(features.py): how many components it holds per zone and type, the sums of each numeric fixed
property of them (a card's number, a tile's value), each numeric per-player variable, the score.

Their values are read at positions sampled along played games, and a ridge regression (features
standardised, its strength chosen by cross-validation over whole games) fits each player's final
result (`returns()`: +1 a sole winner ... −1 a sole loser) to its features *less the mean of the
other players'* — a heuristic ranks players, and what everybody has equally says nothing. The
weights are written, rounded to whole numbers (the language's numbers are whole), as a
`heuristics:` entry a designer can read, cite and edit (`leges learn`), with its training
figures: how often, at positions along held-out games, the player it values highest went on to win.

A feature whose value never varies, or that the features kept before it already make up (the
score, when it is the sum of two of them), is left out: its weight would be shared out among them
arbitrarily. The result is only as good as the games it learns from: random play-outs show what
the rules allow, but random players squander money and take any lot, so what they teach about
money is muddled; self_play.py learns again from games of the players it made.
"""
from __future__ import annotations

import math
import random
import textwrap
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from .features import candidates
from .moves import random_move

__all__ = ["Learned", "candidates", "compile_features", "fit", "learn", "learned_heuristic", "sample"]

FOLDS = 5
STRENGTHS = (0.01, 0.1, 1.0, 10.0, 100.0)
SCALE = 1000  # the largest weight, once rounded


@dataclass(frozen=True)
class Learned:
    features: list[str]
    weights: list[int]  # whole-number weight of each feature, in its own units
    games: int
    positions: int
    accuracy: float  # held-out: the player valued highest went on to win (a share of positions)
    chance: float  # the same share for a player picked at random
    strength: float
    source: str = "random games"  # what the positions were sampled from, in words

    def expression(self) -> str:
        parts = [f"{w} * ({f})" for f, w in zip(self.features, self.weights) if w]
        return "\n+ ".join(parts).replace("+ -", "- ") if parts else "0"

    def yaml(self, ruleset_id: str, players: Sequence[int]) -> str:
        counts = ", ".join(map(str, players))
        lines = [
            "# yaml-language-server: $schema=../../schemas/ruleset.schema.json",
            *textwrap.wrap(f"Learned by `leges learn` from {self.games} {self.source} of {ruleset_id} ({counts} "
                           f"players), {self.positions} positions: on held-out games the player it values highest "
                           f"went on to win at {self.accuracy:.0%} of positions (a player picked at random: "
                           f"{self.chance:.0%}). Edit freely: it is a judgement of positions for agents, not a rule.",
                           100, initial_indent="# ", subsequent_indent="# "),
            "heuristics:",
            "  - id: learned",
            "    description: >",
            "      Learned from played games (leges learn): a weighed sum of what the declarations say a",
            "      player can hold, each weight how much it went with winning, less what the others hold.",
            "    value: >",
        ]
        lines += ["      " + line for line in self.expression().split("\n")]
        return "\n".join(lines) + "\n"


def compile_features(game, texts: Sequence[str]) -> list[tuple[str, object]]:
    """The candidates that compile to numbers, with their functions (the others are dropped)."""
    from ..text.errors import LegesError
    out = []
    for text in texts:
        try:
            out.append((text, game.compile_expression(text, player=True)))
        except LegesError:
            continue
    return out


@dataclass(frozen=True)
class Position:
    game: int  # which game it was sampled from (folds keep a game's positions together)
    values: list[list[float]]  # every feature, for every player
    results: list[float]  # how the game ended for every player


def sample(game, features, players: Sequence[int], games: int, seed: int, every: int = 4,
           mover=None) -> list[Position]:
    """Positions every `every` decisions along played games, with how each game ended. `mover(st,
    rng)` plays one move (default: a uniformly random one); a game the rules cut short is left out."""
    move = mover or random_move
    out = []
    for g in range(games):
        n = players[g % len(players)]
        rng = random.Random(seed * 1_000_003 + g)
        st = game.new_initial_state(players=n, seed=seed + g)
        seen = []
        step = 0
        while not st.terminal:
            if step % every == 0:
                seen.append([[_value(fn, st, p) for _, fn in features] for p in range(n)])
            move(st, rng)
            step += 1
        if not st.unfinished:
            result = st.returns()
            out += [Position(g, values, result) for values in seen]
    return out


def _value(fn, st, p: int) -> float:
    from ..text.errors import LegesError
    try:
        v = fn(st, {"p": p, "me": None})
    except LegesError:
        return 0.0
    return float(v) if isinstance(v, (int, float)) else 0.0


def learn(game, players: Sequence[int], games: int = 60, seed: int = 0, every: int = 4) -> Learned:
    """The heuristic learned from `games` random games (cycling through the player counts)."""
    features = compile_features(game, candidates(game))
    return fit(features, sample(game, features, players, games, seed, every), games)


def fit(features, positions: Sequence[Position], games: int, source: str = "random games") -> Learned:
    """Weigh the compiled `features` by the results of the games `positions` were sampled from."""
    import numpy as np
    if not positions or not features:
        return Learned([], [], games, len(positions), math.nan, math.nan, math.nan, source)
    x, y, groups = _rows(positions, range(len(features)))
    keep = _informative(x)
    if not keep:
        return Learned([], [], games, len(positions), math.nan, math.nan, math.nan, source)
    x = x[:, keep]
    sd = x.std(axis=0)
    strength = min(STRENGTHS, key=lambda s: _cv_error(x / sd, y, groups, s))
    w = _ridge(x / sd, y, strength) / sd  # in the features' own units
    top = float(np.max(np.abs(w)))
    weights = [round(float(v) / top * SCALE) if top else 0 for v in w]
    accuracy, chance = _accuracy(positions, keep, strength)
    return Learned([features[i][0] for i in keep], weights, games, len(positions), accuracy, chance, strength,
                   source)


def _rows(positions: Sequence[Position], keep):
    """Training rows: each player's features less the mean of the others', and its result."""
    import numpy as np
    keep = list(keep)
    x, y, groups = [], [], []
    for pos in positions:
        values = np.array(pos.values)[:, keep]
        n = len(values)
        total = values.sum(axis=0)
        for p in range(n):
            x.append(values[p] - (total - values[p]) / (n - 1) if n > 1 else values[p])
            y.append(pos.results[p])
            groups.append(pos.game)
    return np.array(x), np.array(y), np.array(groups)


def _informative(x) -> list[int]:
    """Columns that vary and that the columns kept before them do not make up (a copy, or a sum of
    others: the score when it adds up two features already kept)."""
    import numpy as np
    keep: list[int] = []
    for i in range(x.shape[1]):
        column = x[:, i] - x[:, i].mean()
        if column.std() < 1e-9:
            continue
        if keep:
            kept = x[:, keep] - x[:, keep].mean(axis=0)
            coef, *_ = np.linalg.lstsq(kept, column, rcond=None)
            if np.linalg.norm(column - kept @ coef) < 1e-6 * np.linalg.norm(column):
                continue
        keep.append(i)
    return keep


def _ridge(z, y, strength: float):
    """Ridge weights of standardised features (no intercept: results and features are relative)."""
    import numpy as np
    k = z.shape[1]
    return np.linalg.solve(z.T @ z + strength * len(y) * np.eye(k), z.T @ y)


def _folds(groups):
    import numpy as np
    ids = np.unique(groups)
    for f in range(FOLDS):
        test = np.isin(groups, ids[f::FOLDS])
        if test.any() and not test.all():
            yield test


def _cv_error(z, y, groups, strength: float) -> float:
    """Squared error on held-out games (folds of whole games: positions of one game are alike)."""
    return sum(float(((z[t] @ _ridge(z[~t], y[~t], strength) - y[t]) ** 2).sum()) for t in _folds(groups))


def _accuracy(positions: Sequence[Position], keep: list[int], strength: float) -> tuple[float, float]:
    """How often, at positions of held-out games, the player valued highest is one who won —
    and how often a player picked at random is."""
    import numpy as np
    games = np.array([p.game for p in positions])
    hits = chance = total = 0.0
    for held in _folds(games):
        train = [p for p, h in zip(positions, held) if not h]
        x, y, _ = _rows(train, keep)
        sd = x.std(axis=0)
        sd[sd == 0] = 1.0
        w = _ridge(x / sd, y, strength) / sd
        for pos, h in zip(positions, held):
            best = max(pos.results)
            if not h or min(pos.results) == best:
                continue
            scores = np.array(pos.values)[:, keep] @ w
            hits += pos.results[int(np.argmax(scores))] == best
            chance += sum(1 for r in pos.results if r == best) / len(pos.results)
            total += 1
    return (hits / total, chance / total) if total else (math.nan, math.nan)


# ------------------------------------------------------------------ for agents
GAMES_FOR_AGENTS = 60  # random games an agent learns from when the ruleset has no heuristic (2-5 s)
LEARNED = "learned"  # the name agents know a learned heuristic by
FEATURES_VERSION = "features 2"  # in the key of a heuristic kept on disk: new candidates (sums of numeric
# properties, features that others make up left out) must not be hidden by one learned before them
COMPILING = threading.Lock()  # one heuristic compiled at a time: tables of one ruleset share its compiler (web/)
_LEARNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game → (expression, compiled)
_SOURCE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game → the game its heuristic is learned on


def learn_on(game, source) -> None:
    """Agents that learn a heuristic for `game` learn it on `source`'s rules instead, and read it
    under `game`'s: a study's B played by the players learned on A (lab/compare.py), so that B − A
    is the rule change alone. Meant for a Game loaded for that purpose (runner.Job.learn_on): no
    other caller holds it, so no agent that did not ask reads another's heuristic."""
    with COMPILING:
        _SOURCE[game] = source
        _LEARNED.pop(game, None)


def learned_source(game):
    """The game whose rules `game`'s learned heuristic is learned on: its own, unless `learn_on`
    said otherwise and the heuristic learned there reads under `game`'s rules."""
    with COMPILING:
        return _SOURCE.get(game, game)


def learned_heuristic(game) -> tuple[str, object]:
    """The heuristic learned for `game` from random games — its text and its compiled function —
    for an agent that asks for it (agents/evaluation.py). The same one each time: a fixed seed,
    kept on disk by the ruleset's text, so that every process and every run learns it once; and
    kept here by the game, never in `game.heuristics`: what one agent learned must not change
    what another, that did not ask, judges by. Learned on another game's rules when `learn_on`
    says so — and on its own when that one's text does not compile here (a variant that removes
    what it reads), which `learned_source` then tells."""
    with COMPILING:  # the compiler is shared by the games of one ruleset (engine/private_copy.py)
        found = _LEARNED.get(game)
        source = _SOURCE.get(game)
    if found is not None:
        return found
    if source is not None:
        from ..text.errors import LegesError
        text = learned_heuristic(source)[0]
        with COMPILING:
            try:
                found = _LEARNED.setdefault(game, (text, game.compile_expression(text, player=True)))
            except LegesError:
                del _SOURCE[game]  # A's does not read under these rules: learn this game's own (told)
                found = None
        if found is not None:
            return found
    from ..text import cache
    players = list(range(game.min_players, game.max_players + 1))
    key = "\0".join([FEATURES_VERSION, game.id, game.version, *game.variants, *(d.text or "" for d in game.ruleset.docs), str(players)])

    def make() -> str:
        return learn(game, players, GAMES_FOR_AGENTS).expression()
    text = cache.cached("learned-heuristic", key, make, dumps=str.encode, loads=bytes.decode)
    with COMPILING:
        found = _LEARNED.get(game)
        if found is None:
            found = _LEARNED[game] = (text, game.compile_expression(text, player=True))
    return found
