"""Plausible play, checked (issue 39, item 4): each agent's decisions tallied and summarised, and a
degenerate agent — always passing, never taking an action it could, always the largest value —
flagged before a study's answer (lab/behaviour.py, `leges ladder`, `leges simulate`)."""
from __future__ import annotations

import json

import leges
import pytest
from helpers import ROOT
from leges.cli import main
from leges.lab import behaviour
from leges.lab.journal import result_from_json, result_json
from leges.lab.simulate import PlayResult, play_game
from leges.text.errors import Position

BIDDING = str(ROOT / "tests" / "rulesets" / "bidding")  # offer an amount, or pass
AUCTION = str(ROOT / "tests" / "rulesets" / "auction")  # offer an amount (0 passes), no `pass`

AGENTS = '''
from leges.agents import Agent


def amount(action):
    return int(action.text.rsplit("=", 1)[1]) if "amount=" in action.text else -1


class Passer(Agent):
    name = "passer"

    def choose(self, view):
        actions = view.legal_actions()
        return next((i for i, a in enumerate(actions) if a.text == "pass"), 0)


class AllIn(Agent):
    name = "allin"

    def choose(self, view):
        actions = view.legal_actions()
        return max(range(len(actions)), key=lambda i: amount(actions[i]))


class Nothing(Agent):
    name = "nothing"

    def choose(self, view):
        actions = view.legal_actions()
        return min(range(len(actions)), key=lambda i: amount(actions[i]))
'''


@pytest.fixture(scope="module")
def bidding():
    return leges.load(BIDDING)


@pytest.fixture(scope="module")
def agents(tmp_path_factory):
    path = tmp_path_factory.mktemp("agents") / "degenerate.py"
    path.write_text(AGENTS)
    return str(path)


# x offers all it has for the first lot and o passes; x, left with nothing, passes by force (no
# record of it); o offers the least for the second lot, then all it has left for the third; then
# no one has anything: the last three lots are set aside by forced passes.
HAND_MADE = ["x: offer amount=10", "o: pass", "o: offer amount=1", "o: offer amount=9"]


def test_a_hand_made_game_is_tallied_right(bidding):
    tally = behaviour.watch_actions(bidding, 2, 0, HAND_MADE)
    x, o = tally["seats"]
    assert x["decisions"] == 1 and x["actions"]["offer"][:2] == [1, 1] and x["actions"]["pass"][:2] == [1, 0]
    assert x["actions"]["offer"][2] == pytest.approx(10 / 11) and x["actions"]["pass"][2] == pytest.approx(1 / 11)
    assert x["params"]["offer amount"] == {"values": [[10, 1]], "choices": 1, "largest": 1, "smallest": 0}
    assert o["decisions"] == 3 and o["actions"]["offer"][:2] == [3, 2] and o["actions"]["pass"][:2] == [3, 1]
    assert o["actions"]["pass"][2] == pytest.approx(1 / 11 + 1 / 11 + 1 / 10)
    assert o["params"]["offer amount"] == {"values": [[1, 1], [9, 1]], "choices": 2, "largest": 1, "smallest": 1}
    assert tally["start"]["money"] == [10, 10] and tally["end"]["money"] == [0, 0]


def _results(tally: dict, agents: list[str], games: int) -> list[PlayResult]:
    return [PlayResult(seed=i, ranking=[["x"], ["o"]], scores=[0, 0], returns=[1, -1], length=4, unfinished=False,
                       agents=agents, behaviour=tally) for i in range(games)]


def test_hand_made_games_are_summarised_per_agent_and_flagged_on_enough_evidence(bidding):
    tally = behaviour.watch_actions(bidding, 2, 0, HAND_MADE)
    few = {a.agent: a for a in behaviour.summarise(_results(tally, ["allin", "mixed"], 3))}
    assert few["allin"].seats == 3 and few["allin"].decisions == 3 and few["allin"].flags == []  # too few to say
    spread = few["mixed"].spread("offer amount")
    assert (spread.low, spread.median, spread.high, spread.mean, spread.count) == (1, 5, 9, 5, 6)
    many = {a.agent: a for a in behaviour.summarise(_results(tally, ["allin", "mixed"], 10))}
    assert many["allin"].flags == ["always chooses the largest value of amount offered (offer: 10 of 10 decisions)"]
    # a uniform random player would have passed about 0.9 times in its 10 decisions: never passing is no sign
    assert not any("pass" in f for f in many["allin"].flags) and many["mixed"].flags == []
    out = behaviour.to_json(list(many.values()))
    mixed = out["agents"][1]
    assert mixed["actions"]["pass"]["offered"] == 30 and mixed["actions"]["pass"]["taken"] == 10
    assert mixed["params"]["offer amount"]["median"] == 5 and mixed["end"]["money"]["max"] == 0
    assert mixed["end"]["money"]["start"]["median"] == 10
    assert out["flags"] == [{"agent": "allin", "text": many["allin"].flags[0]}]


def test_the_play_loop_tallies_what_replaying_the_actions_does(bidding, agents):
    for seed in range(3):
        r = play_game(bidding, 2, seed, ["greedy", f"{agents}:AllIn"])
        assert r.behaviour == behaviour.watch_actions(bidding, 2, seed, r.history)


def test_an_agent_that_always_passes_is_flagged_and_random_is_not(bidding, agents):
    results = [play_game(bidding, 2, seed, seats) for seed in range(12)
               for seats in (["random", f"{agents}:Passer"], [f"{agents}:Passer", "random"])]
    found = {a.agent: a for a in behaviour.summarise(results)}
    passer = found[f"{agents}:Passer"]
    assert passer.flags[0].startswith("always passes (")
    assert "ends every game with the money it had at its first decision (other agents do not)" in passer.flags
    assert found["random"].flags == []
    assert found["random"].actions["pass"][1] > 0 and found["random"].actions["offer"][1] > 0


def test_an_agent_that_never_offers_is_flagged_as_always_the_smallest(agents):
    auction = leges.load(AUCTION)
    results = [play_game(auction, 2, seed, [f"{agents}:Nothing", "random"]) for seed in range(10)]
    found = {a.agent: a for a in behaviour.summarise(results)}
    assert any(f.startswith("always chooses the smallest value of amount offered") for f in found[f"{agents}:Nothing"].flags)
    assert found["random"].flags == []


def test_the_journal_keeps_the_tally_and_reads_a_result_without_one(bidding):
    r = play_game(bidding, 2, 1, ["greedy", "random"])
    data = json.loads(json.dumps(result_json(r)))
    assert result_from_json(data, Position("j")).behaviour == r.behaviour
    del data["behaviour"]  # a journal written before the tally
    assert result_from_json(data, Position("j")).behaviour == {}


def test_a_damaged_tally_counts_for_nothing():
    damaged = {"seats": [{"decisions": 1, "actions": {"offer": "many"}, "params": {}}], "start": {}, "end": {}}
    found = behaviour.summarise(_results(damaged, ["a", "b"], 2))
    assert [a.decisions for a in found] == [0, 0] and all(a.seats == 2 for a in found)


def test_simulate_says_the_behaviour_before_the_figures(capsys, agents):
    assert main(["simulate", BIDDING, "--agents", f"{agents}:Passer,random", "-g", "12", "-j", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "DEGENERATE? " in out and "always passes" in out
    assert out.index("behaviour of the agents") < out.index("DEGENERATE?") < out.index("mean length")
    assert main(["simulate", BIDDING, "--agents", f"{agents}:Passer,random", "-g", "12", "-j", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["agent"] for f in data["behaviour"]["flags"]] == [f"{agents}:Passer"] * 2
    assert data["behaviour"]["agents"][1]["agent"] == "random"


def test_random_simulations_keep_the_tally_in_json_but_say_nothing_of_it(capsys):
    assert main(["simulate", BIDDING, "-g", "5", "-j", "1", "-q"]) == 0
    assert "behaviour of the agents" not in capsys.readouterr().out
    assert main(["simulate", BIDDING, "-g", "5", "-j", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["behaviour"]["agents"][0]["agent"] == "random" and data["behaviour"]["flags"] == []


def test_the_ladder_says_the_behaviour_before_the_ratings(capsys, agents):
    spec = f"{agents}:AllIn"
    assert main(["ladder", BIDDING, "--agents", f"random,{spec}", "--rounds", "6", "-j", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.index("DEGENERATE? ") < out.index("rating  95 % interval")
    assert "always chooses the largest value of amount offered" in out
    assert main(["ladder", BIDDING, "--agents", f"random,{spec}", "--rounds", "6", "-j", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {f["agent"] for f in data["behaviour"]["flags"]} == {spec}
