"""The move prior (agents/prior.py, prior_fit.py, prior_agent.py, mcts_prior.py): features read off an
option without applying it, a deterministic fit, its YAML read back to the same ranking, the cheap
agent `prior`, and `mcts:prior=...` guided by it. Counted in games, never seconds."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import leges
from leges.agents import View, make
from leges.agents.mcts import MCTSAgent
from leges.agents.prior import BIAS, Prior, Reader, read_prior
from leges.agents.prior_fit import collect, fit
from leges.text.errors import LegesError

ROOT = Path(__file__).resolve().parent
EXPEDITIONS = str(ROOT / "rulesets" / "expeditions")
AUCTION = str(ROOT / "rulesets" / "auction")


@pytest.fixture(scope="module")
def expeditions():
    return leges.load(EXPEDITIONS)


def _options(st):
    return list(st.pending.choices)


def test_features_are_read_off_an_option_by_its_parameters_kinds(expeditions):
    st = expeditions.new_initial_state(players=2, seed=1)
    reader = Reader(expeditions)
    me = st.pending.player
    lays = [c for c in _options(st) if c[1] == "lay"]
    assert lays
    for c in lays:
        f = reader.features(st, c, me)
        card = c[2]["card"]
        # a component: its type and its numeric fixed properties
        assert f["card.type=card"] == 1.0
        assert f["card.number"] == st.setup.cstatic[card]["number"]
        assert f["card.colour"] == st.setup.cstatic[card]["colour"]
        # a zone: what it holds, and whether it is the deciding player's own
        zone = c[2]["to"]
        assert f["to.count"] == len(st.zones[zone])
        assert f.get("to.own", 0.0) == (1.0 if st.setup.zone_owner.get(zone) == me else 0.0)
        assert reader.key(c) == "lay"
    auction = leges.load(AUCTION)
    st = auction.new_initial_state(players=2, seed=1)
    offers = [c for c in _options(st) if c[1] == "offer"]
    assert [Reader(auction).features(st, c, st.pending.player) for c in offers[:3]] == \
        [{"amount": float(c[2]["amount"]), "amount^2": float(c[2]["amount"]) ** 2} for c in offers[:3]]  # a number, and its square


def _learned(game, seed):
    return fit(collect(game, 2, games=2, seed=seed))


def test_fitting_is_deterministic_for_a_seed_and_learns_from_greedy(expeditions):
    a, b = _learned(expeditions, 0), _learned(expeditions, 0)
    assert a.weights == b.weights
    assert set(a.weights) == {"lay", "draw"}
    assert _learned(expeditions, 1).weights != a.weights  # (the seed does draw the games)


def test_the_written_prior_reads_back_to_the_same_ranking(expeditions):
    prior = _learned(expeditions, 0)
    prior.note = "a note\non two lines"
    text = prior.yaml()
    assert text.startswith("# a note\n# on two lines\nprior:\n")
    again = read_prior(text)
    rng = random.Random(2)
    st = expeditions.new_initial_state(players=2, seed=4)
    compared = 0
    while not st.terminal and compared < 30:
        me = st.pending.player
        if len(st.pending) > 1:
            ranking = sorted(range(len(st.pending)), key=lambda i: -prior.scores(st, me)[i])
            assert sorted(range(len(st.pending)), key=lambda i: -again.scores(st, me)[i]) == ranking
            compared += 1
        st.apply_option(rng.randrange(len(st.pending)))
    assert compared == 30
    with pytest.raises(LegesError, match="prior"):
        read_prior("weights: {}\n")


def _favouring(action: str, feature: str, weight: float) -> Prior:
    return Prior({action: {BIAS: 0.0, feature: weight}})


def test_the_prior_agent_plays_the_best_ranked_option(expeditions, tmp_path):
    st = expeditions.new_initial_state(players=2, seed=3)
    me = st.pending.player
    for sign in (1.0, -1.0):  # the highest card laid first, then the lowest: the weight decides
        path = tmp_path / f"prior{sign}.yaml"
        path.write_text(_favouring("lay", "card.number", sign).yaml())
        agent = make(f"prior:prior={path}")
        agent.start(expeditions, me, random.Random(0))
        view = View(st, me)
        choice = agent.choose(view)
        chosen = st.pending.choices[choice]
        numbers = [st.setup.cstatic[c[2]["card"]]["number"] for c in st.pending.choices if c[1] == "lay"]
        assert chosen[1] == "lay"
        assert st.setup.cstatic[chosen[2]["card"]]["number"] == (max(numbers) if sign > 0 else min(numbers))


def test_the_prior_agent_only_reads_resampled_states(monkeypatch, tmp_path):
    """As every built-in agent (tests/test_agents.py): the view's own state raises when its hidden
    parts are read; the agent decides from what `resample` hands it, and picks a legal option."""
    from test_agents import Poison, Secret
    from test_resample import TINY
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(TINY)
    game = leges.load(str(folder))
    real = game.new_initial_state(players=2, seed=5)
    real.apply_action("bid amount=1")
    poisoned = real.copy()
    for key in ("hand.x", "deck"):
        poisoned.zones[key] = Poison(poisoned.zones[key])
    poisoned.where = Poison(poisoned.where)
    poisoned.vars["bid"] = [Secret(), poisoned.vars["bid"][1]]
    handed = []

    def resample(self, rng):
        det = real.resample(self.player, rng)
        handed.append(det)
        return det
    monkeypatch.setattr(View, "resample", resample)
    path = tmp_path / "prior.yaml"
    path.write_text(_favouring("bid", "amount", 1.0).yaml())
    agent = make(f"prior:prior={path}")
    agent.start(game, 1, random.Random(0))
    view = View(poisoned, 1)
    choice = agent.choose(view)
    legal = [a.text for a in view.legal_actions()]
    assert handed and legal[choice] == max(legal, key=lambda t: int(t.rsplit("=", 1)[1]))


def _root(game, st, prior: Prior | None, iterations: int, widen: float = 0.0):
    agent = MCTSAgent(iterations=iterations, widen=widen)
    agent.start(game, st.pending.player, random.Random(0))
    if prior is not None:
        from leges.agents.mcts_prior import Guide
        agent._guide = Guide(prior, widen)
    return agent.search(View(st, st.pending.player))


def test_guided_mcts_expands_the_best_ranked_moves_first(expeditions):
    st = expeditions.new_initial_state(players=2, seed=3)
    me = st.pending.player
    cards = {c[0]: st.setup.cstatic[c[2]["card"]]["number"] for c in st.pending.choices if c[1] == "lay"}
    for sign in (1.0, -1.0):
        prior = _favouring("lay", "card.number", sign)
        prior.weights["draw"] = {BIAS: -100.0}
        root = _root(expeditions, st, prior, iterations=3)
        tried = [text for (who, text), child in root.children.items() if who == me and child.visits]
        assert len(tried) == 3 and all(t in cards for t in tried)
        ranked = sorted(cards.values(), reverse=sign > 0)
        assert sorted((cards[t] for t in tried), reverse=sign > 0) == ranked[:3]


def test_progressive_widening_tries_few_moves_at_a_node_seen_few_times(expeditions):
    st = expeditions.new_initial_state(players=2, seed=3)
    me = st.pending.player
    prior = _favouring("lay", "card.number", 1.0)
    wide = _root(expeditions, st, prior, iterations=40, widen=0.0)
    narrow = _root(expeditions, st, prior, iterations=40, widen=0.5)
    count = len(st.pending)
    assert len(wide.kids[me]) == count  # every move tried once, then UCB
    assert 1 < len(narrow.kids[me]) <= 2 + 0.5 * 40 ** 0.5 < count  # (one more once the bound is passed)
    assert sum(c.visits for c in narrow.kids[me].values()) == 40


def test_leges_learn_writes_a_prior_that_agents_read_back(tmp_path, capsys):
    from leges.cli import main
    out = tmp_path / "prior.yaml"
    assert main(["learn", EXPEDITIONS, "--prior", "--prior-games", "2", "-o", str(out)]) == 0
    text = out.read_text()
    assert "prior:" in text and '"lay":' in text and "in 2 games of expeditions" in text
    again = fit(collect(leges.load(EXPEDITIONS), 2, games=2, seed=0))  # the same seed: the same weights
    assert read_prior(text).yaml() == again.yaml() == text.split("\n", 2)[2]  # (less its two lines of note)
    assert main(["simulate", EXPEDITIONS, "-g", "2", "--agents", f"prior:prior={out},mcts:iterations=20:prior={out}",
                 "-q", "-j", "1"]) == 0
