"""Learning a move prior (prior.py) by imitation: which options `greedy` rates best, along its games.

Why imitate `greedy`: it already rates every option of a decision, one move ahead on the ruleset's
heuristic, and a prior that ranks the options as it does — without applying any — is `greedy`'s
judgement at a fraction of its price. Why a softmax ranking (conditional logit) per decision: the
options of one decision compete with each other, never with another decision's, so what is
learned is which option of those offered is best, and each action's weights stay comparable.

How: `games` games of `greedy` in every seat (one move in ten at random, so positions greedy would
never reach are seen too); at each decision every option's features, and the set of options
greedy rates highest (ties share the target); the weights minimise the cross-entropy of the
softmax against that target, plus a ridge penalty on features scaled to unit spread, by L-BFGS
(scipy). Costs are counted in games and every draw comes from the seed: the same prior on any
machine. Kept on disk by the ruleset's text, as the learned heuristic is (learn.py).
"""
from __future__ import annotations

import random
import weakref
from collections.abc import Sequence

import numpy as np

from .base import View
from .greedy import GreedyAgent
from .learn import COMPILING
from .moves import random_move
from .prior import BIAS, VERSION, Prior, Reader

GAMES = 12  # greedy games a prior is learned from when an agent asks for one (prior=learned)
EXPLORE = 0.1  # the share of moves played at random in those games
MAX_OPTIONS = 48  # options of one decision kept (the best ones always among them)
RIDGE = 0.3  # penalty on the squared weights of features scaled to unit spread


Decision = tuple[list[str], list[dict[str, float]], list[int]]  # options' actions, features; the best


def collect(game, players: int, games: int, seed: int = 0) -> list[Decision]:
    """Every decision with at least two options that greedy told apart, along `games` games."""
    reader = Reader(game)
    out: list[Decision] = []
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        st = game.new_initial_state(players=players, seed=seed + g)
        greedy = GreedyAgent()
        greedy.start(game, 0, random.Random(rng.getrandbits(63)))
        while not st.terminal:
            pending = st.pending
            me = pending.player
            if me < 0 or len(pending) < 2:
                random_move(st, rng)
                continue
            choices = pending.choices
            view = View(st, me)
            greedy.player = me
            values = greedy._values(view, [c[0] for c in choices], now=False)
            top = max(values)
            best = [i for i, v in enumerate(values) if v >= top - 1e-9]
            if len(best) < len(values):
                keep = list(range(len(choices)))
                if len(keep) > MAX_OPTIONS:
                    rest = [i for i in keep if i not in best]
                    best = best[:MAX_OPTIONS // 2]
                    keep = sorted(best + rng.sample(rest, min(len(rest), MAX_OPTIONS - len(best))))
                out.append(([reader.key(choices[i]) for i in keep],
                            [reader.features(st, choices[i], me) for i in keep],
                            [k for k, i in enumerate(keep) if i in best]))
            if rng.random() < EXPLORE:
                st.apply_option(rng.randrange(len(choices)))
            else:
                st.apply_option(rng.choice(best))
    return out


def fit(decisions: Sequence[Decision], note: str = "") -> Prior:
    """The weights that rank each decision's best options first (see the module's docstring)."""
    from scipy.optimize import minimize
    columns: dict[tuple[str, str], int] = {}
    for actions, feats, _ in decisions:
        for action, f in zip(actions, feats):
            columns.setdefault((action, BIAS), len(columns))
            for name in f:
                columns.setdefault((action, name), len(columns))
    rows = sum(len(a) for a, _, _ in decisions)
    x = np.zeros((rows, len(columns)))
    target = np.zeros(rows)
    starts = []
    r = 0
    for actions, feats, best in decisions:
        starts.append(r)
        for k, (action, f) in enumerate(zip(actions, feats)):
            x[r + k, columns[(action, BIAS)]] = 1.0
            for name, v in f.items():
                x[r + k, columns[(action, name)]] = v
        for k in best:
            target[r + k] = 1.0 / len(best)
        r += len(actions)
    start = np.array(starts, dtype=np.intp)
    seg = np.repeat(np.arange(len(starts)), np.diff(np.append(start, rows)))
    mean = x.mean(axis=0)
    spread = x.std(axis=0)
    is_bias = np.array([name == BIAS for _, name in columns])
    mean[is_bias] = 0.0
    spread[is_bias | (spread < 1e-9)] = 1.0
    z = (x - mean) / spread
    penalty = np.where(is_bias, 0.01, RIDGE)

    def loss(w):
        s = z @ w
        top = np.maximum.reduceat(s, start)
        e = np.exp(s - top[seg])
        total = np.add.reduceat(e, start)
        p = e / total[seg]
        value = float(np.sum(np.log(total) + top) - target @ s) + float(penalty @ (w * w))
        grad = z.T @ (p - target) + 2 * penalty * w
        return value, grad

    w = minimize(loss, np.zeros(len(columns)), jac=True, method="L-BFGS-B").x / spread
    weights: dict[str, dict[str, float]] = {}
    for (action, name), i in columns.items():
        if name == BIAS or abs(w[i]) * spread[i] > 1e-6:  # (a feature that never varied weighs nothing)
            weights.setdefault(action, {})[name] = float(w[i])
    for action, row in weights.items():  # a centred feature's offset goes to its action's bias
        row[BIAS] = row.get(BIAS, 0.0) - sum(float(w[columns[(action, n)]] * mean[columns[(action, n)]])
                                             for n in row if n != BIAS)
    return Prior(weights, note)


def agreement(prior: Prior, decisions: Sequence[Decision]) -> float:
    """The share of decisions whose top-scored option is one greedy rated best."""
    hits = 0
    for actions, feats, best in decisions:
        scores = []
        for action, f in zip(actions, feats):
            w = prior.weights.get(action, {})
            scores.append(w.get(BIAS, 0.0) + sum(w.get(n, 0.0) * v for n, v in f.items()))
        hits += max(range(len(scores)), key=scores.__getitem__) in best
    return hits / len(decisions) if decisions else 0.0


def learn_prior(game, players: int, games: int = GAMES, seed: int = 0) -> Prior:
    """A prior learned from `games` greedy games of `players` players (half to fit, all in the end:
    the agreement told in its note is measured on the half it was not fitted on)."""
    decisions = collect(game, players, games, seed)
    half = max(1, games // 2)
    cut = len(decisions) * half // games  # (collected game by game: roughly the first half of the games)
    rate = agreement(fit(decisions[:cut]), decisions[cut:])
    note = (f"A move prior learned by imitating greedy (heuristic: the ruleset's first) in {games} games of "
            f"{game.id} ({players} players), {len(decisions)} decisions; on the later half, fitted on the\n"
            f"first, its best option was one greedy rated best at {rate:.0%} of decisions. Per action, a weight "
            f"per feature of the option (prior.py); edit freely.")
    return fit(decisions, note)


_LEARNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game → Prior


def learned_prior(game) -> Prior:
    """The prior an agent asks for with `prior=learned`: learned once for the ruleset's text (a fixed
    seed, kept on disk), the same in every process; kept by the game, for that agent alone."""
    with COMPILING:
        found = _LEARNED.get(game)
    if found is not None:
        return found
    from ..text import cache
    from .prior import read_prior
    players = max(game.min_players, min(2, game.max_players))
    key = "\0".join([VERSION, str(GAMES), game.id, game.version, *game.variants,
                     *(d.text or "" for d in game.ruleset.docs), str(players)])
    text = cache.cached("move-prior", key, lambda: learn_prior(game, players).yaml(),
                        dumps=str.encode, loads=bytes.decode)
    prior = read_prior(text)
    with COMPILING:
        return _LEARNED.setdefault(game, prior)


def prior_for(game, source: str) -> Prior:
    """`learned`, or the path of a prior's YAML file."""
    if source == "learned":
        return learned_prior(game)
    from ..text.files import read_text
    from .prior import read_prior
    return read_prior(read_text(source, 1_000_000, what="move prior"), f"read from {source}")
