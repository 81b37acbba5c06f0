"""An agent's evaluation is a function of its spec and the ruleset only (issue 39): it plays the same
games whatever ran before it in the process, and the reports name what each agent judged by."""
from __future__ import annotations

import json

import leges
from helpers import ROOT
from studies import RICH
from leges.agents import evaluations, make, start
from leges.cli import main
from leges.lab.simulate import play_game

AUCTION = str(ROOT / "tests" / "rulesets" / "auction")  # declares no heuristic
TICTACTOE = str(ROOT / "rulesets" / "tictactoe")
MCTS = "mcts:iterations=25"


def test_mcts_plays_the_same_games_alone_and_after_greedy():
    """greedy learns a heuristic for a ruleset that declares none; it stays greedy's, and mcts, which
    did not ask for it, plays out to the end as it does alone (it once read greedy's from the game)."""
    game = leges.load(AUCTION)
    alone = [play_game(game, 2, seed, [MCTS, "random"]).history for seed in range(3)]
    assert play_game(game, 2, 0, ["greedy", "random"]).length > 0  # greedy learns its heuristic here
    assert not game.heuristics  # ... never onto the shared game
    after = [play_game(game, 2, seed, [MCTS, "random"]).history for seed in range(3)]
    assert after == alone
    fresh = leges.load(AUCTION)
    assert [play_game(fresh, 2, seed, [MCTS, "random"]).history for seed in range(3)] == alone


def test_each_agent_says_what_it_judges_by():
    auction, tictactoe = leges.load(AUCTION), leges.load(TICTACTOE)
    said = {spec: str(e) for spec, e in evaluations(auction, ["random", "greedy", "mcts", "mcts:heuristic=learned",
                                                              "mcts:depth=3"]).items()}
    assert said["random"].startswith("none")
    assert said["greedy"].startswith("heuristic learned (learned from 60 random games")
    assert said["mcts"] == "play-outs to the end (MAST moves)"
    assert said["mcts:heuristic=learned"].startswith("heuristic learned") and "new leaf" in said["mcts:heuristic=learned"]
    assert "play-outs of 3 moves" in said["mcts:depth=3"]
    ours = evaluations(tictactoe, ["greedy", "mcts"])
    assert str(ours["greedy"]).startswith("heuristic open_lines (the ruleset's)")
    assert ours["mcts"].heuristic == "open_lines" and ours["mcts"].expression
    agent = make("greedy")
    assert agent.evaluation is None  # before it starts: it depends on the ruleset
    start(agent, auction, 0, __import__("random").Random(0))
    assert agent.evaluation.expression == evaluations(auction, ["greedy"])["greedy"].expression  # one learned heuristic


def test_the_ladder_names_each_agents_evaluation(capsys):
    assert main(["ladder", AUCTION, "--agents", f"greedy,{MCTS}", "--rounds", "1", "-j", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "play-outs to the end (MAST moves)" in out and "heuristic learned" in out
    assert main(["ladder", AUCTION, "--agents", f"greedy,{MCTS}", "--rounds", "1", "-j", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    by = {a["spec"]: a for a in report["agents"]}
    assert by[MCTS]["evaluation"] == "play-outs to the end (MAST moves)" and by[MCTS]["heuristic"] is None
    assert by["greedy"]["heuristic"] == "learned" and by["greedy"]["expression"]


def test_compare_names_each_sides_players(capsys):
    assert main(["compare", AUCTION, "-g", "2", "--agents", f"greedy,{MCTS}", "--agents", MCTS, "-j", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "play-outs to the end (MAST moves)" in out and "heuristic learned" in out
    assert main(["compare", AUCTION, "-g", "2", "--agents", f"greedy,{MCTS}", "--agents", MCTS, "-j", "1",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for study in report["studies"]:
        assert study["sides"]["a"] == study["sides"]["b"] and study["same_players"]
    first = {a["spec"]: a for a in report["studies"][0]["sides"]["a"]}
    second = {a["spec"]: a for a in report["studies"][1]["sides"]["a"]}
    assert first[MCTS] == second[MCTS]  # the same player in both sets, whoever sits beside it
    assert first[MCTS]["evaluation"] == "play-outs to the end (MAST moves)"


def test_compare_says_before_any_figure_when_the_players_differ_between_a_and_b(tmp_path, capsys):
    """A heuristic learned for each side's rules (asked for: --learn-on each; by default it is learned on
    A's, tests/test_compare_sides.py) is two players: the report says so, and how."""
    import shutil
    shutil.copytree(AUCTION, tmp_path / "auction")
    (tmp_path / "auction" / "variants").mkdir()
    (tmp_path / "auction" / "variants" / "rich.yaml").write_text(RICH)
    argv = ["compare", str(tmp_path / "auction"), "--b", "rich", "-g", "2", "--agents", f"greedy,{MCTS}", "-j", "1",
            "--learn-on", "each"]
    assert main([*argv, "-q"]) == 0
    out = capsys.readouterr().out
    assert out.index("THE PLAYERS DIFFER between A and B") < out.index("metric")
    assert "under B: heuristic learned (learned from 60 random games under rich)" in out
    assert main([*argv, "--json"]) == 0
    study = json.loads(capsys.readouterr().out)["studies"][0]
    assert not study["same_players"]
    a, b = ({x["spec"]: x for x in study["sides"][side]} for side in "ab")
    assert a["greedy"]["expression"] != b["greedy"]["expression"] and a[MCTS] == b[MCTS]


def test_simulate_names_what_each_agent_judges_by(capsys):
    import json
    from leges.cli import main
    from helpers import ruleset_dir
    assert main(["simulate", str(ruleset_dir("tictactoe")), "-g", "2", "--agents", "greedy,random", "-q"]) == 0
    out = capsys.readouterr().out
    assert "greedy judges by: heuristic open_lines (the ruleset's)" in out and "random judges by: none" in out
    assert main(["simulate", str(ruleset_dir("tictactoe")), "-g", "2", "--agents", "greedy,random", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["evaluations"]["greedy"]["heuristic"] == "open_lines"
