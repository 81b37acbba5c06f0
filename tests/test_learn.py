"""learn.py and `leges learn`: a heuristic read off the declarations and weighed by played games, used
by the agents when a ruleset declares none."""
from __future__ import annotations

import shutil

import leges
import pytest
from helpers import ROOT, maps_dir, ruleset_dir
from leges.cli import main
from leges.agents.learn import candidates, compile_features, learn, learned_heuristic


def without_heuristics(tmp_path, name: str):
    """A copy of a bundled game with its `heuristics:` (and the statistics beside them) taken out."""
    root = tmp_path / "r"
    shutil.copytree(ruleset_dir(name), root / name)
    shutil.copytree(maps_dir(), root / "maps")
    main_file = root / name / "ruleset.yaml"
    text = main_file.read_text()
    if (root / name / "heuristics.yaml").exists():
        (root / name / "heuristics.yaml").unlink()
        text = text.replace("  - heuristics.yaml\n", "")
    else:  # written in the main file (tic-tac-toe): cut the section
        head, _, rest = text.partition("heuristics:")
        tail = rest.split("\n\n", 1)[1] if "\n\n" in rest else ""
        text = head + tail
    main_file.write_text(text)
    return root / name


def test_the_declarations_suggest_what_a_player_holds():
    game = leges.load(str(ruleset_dir("pompeii")))
    found = candidates(game)
    assert "count(saved(p))" in found and 'count(hand(p), c => c.type == "card")' in found
    assert 'count(components("citizen", p), c => c.space != none)' in found
    assert len(compile_features(game, found)) == len(found)  # every one is a number of p
    alexander = leges.load(str(ruleset_dir("alexander")))
    assert "vp[p]" in candidates(alexander)


def test_what_goes_with_winning_weighs_most():
    game = leges.load(str(ruleset_dir("pompeii")))
    learned = learn(game, [2], games=30)
    weights = dict(zip(learned.features, learned.weights))
    assert weights["count(saved(p))"] == 1000  # the score: citizens saved
    assert learned.accuracy > learned.chance
    assert learned == learn(game, [2], games=30)  # the same games, the same heuristic


def test_the_learned_file_is_a_heuristic_the_ruleset_can_include(tmp_path, capsys):
    folder = without_heuristics(tmp_path, "pompeii")
    out = folder / "learned.yaml"
    assert main(["learn", str(folder), "-g", "20", "-p", "2", "--rounds", "0", "-o", str(out)]) == 0
    assert "held-out positions" in capsys.readouterr().err
    text = (folder / "ruleset.yaml").read_text().replace("include:\n", "include:\n  - learned.yaml\n", 1)
    (folder / "ruleset.yaml").write_text(text)
    game = leges.load(str(folder))
    assert list(game.heuristics) == ["learned"]
    st = game.new_initial_state(players=2, seed=0)
    assert len(st.heuristic("learned")) == 2
    assert main(["learn", str(folder), "-g", "20", "-o", str(out)]) == 2  # not over a file without --force


def test_agents_learn_a_heuristic_when_the_ruleset_has_none(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LEGES_CACHE", str(tmp_path / "cache"))
    from leges.text import cache
    cache.reset()
    folder = without_heuristics(tmp_path, "tictactoe")
    game = leges.load(str(folder))
    assert not game.heuristics
    text, _ = learned_heuristic(game)
    assert not game.heuristics  # kept for the agents that ask, never attached to the shared game
    again = leges.load(str(folder))
    calls = []
    monkeypatch.setattr("leges.agents.learn.learn", lambda *a, **k: calls.append(1))
    assert learned_heuristic(again)[0] == text and not calls  # learned once: kept on disk
    cache.reset()
    assert main(["simulate", str(folder), "--agents", "greedy,random", "--rotate-seats", "-g", "40", "-j", "1",
                 "--json"]) == 0
    import json
    rates = json.loads(capsys.readouterr().out)["metrics"]
    assert rates["agent_win_rate.greedy"]["low"] > 0.5


@pytest.mark.parametrize("agent", ["greedy", "mcts:iterations=30:depth=2"])
def test_every_agent_plays_a_ruleset_without_a_heuristic(tmp_path, agent, monkeypatch):
    monkeypatch.setenv("LEGES_CACHE", "off")
    from leges.text import cache
    cache.reset()
    folder = without_heuristics(tmp_path, "tictactoe")
    assert main(["simulate", str(folder), "--agents", f"{agent},random", "-g", "2", "-j", "1", "-q"]) == 0
    cache.reset()


AUCTION = ROOT / "tests" / "rulesets" / "auction"


def test_money_that_the_game_rewards_comes_out_worth_keeping():
    """In an auction whose score counts the money kept, a coin more is worth more, by the learned
    heuristic — so an agent following it does not pay any price for a middling lot."""
    game = leges.load(str(AUCTION))
    learned = learn(game, [2], games=60)
    value = game.compile_expression(learned.expression(), player=True)
    st = game.new_initial_state(players=2, seed=0)
    before = value(st, {"p": 0, "me": None})
    st.vars["money"][0] += 1
    assert value(st, {"p": 0, "me": None}) > before


def test_greedy_on_the_learned_heuristic_beats_random_at_the_auction(capsys, monkeypatch):
    import json
    monkeypatch.setenv("LEGES_CACHE", "off")
    from leges.text import cache
    cache.reset()
    assert main(["simulate", str(AUCTION), "--agents", "greedy,random", "--rotate-seats", "-g", "40", "-j", "1",
                 "--json"]) == 0
    cache.reset()
    assert json.loads(capsys.readouterr().out)["metrics"]["agent_win_rate.greedy"]["low"] > 0.5
