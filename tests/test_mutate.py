"""`leges mutate`: single-rule mutants of a ruleset, and a small sample run end to end (the long runs are
`leges mutate rulesets/<game> --jobs 2`; their scores are in the closing notes of the work that changed them)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from helpers import ROOT
from leges.authoring.mutants import _edits, find_mutants
from leges.authoring.mutate import OLD_OPERATORS, run, splice


def test_mutants_of_every_kind_each_one_change():
    mutants = find_mutants(str(ROOT / "rulesets" / "pompeii"))
    kinds = Counter(m.operator for m in mutants)
    assert set(kinds) >= {"statement", "comparison", "constant", "and_or", "count"}
    assert len({(m.file, m.path, m.text) for m in mutants}) == len(mutants)  # no mutant twice
    shuffle = [m for m in mutants if m.rule == "trigger:ad79_first" and m.before.startswith("shuffle bottom")]
    assert len(shuffle) == 1 and shuffle[0].after == "pass" and shuffle[0].operator == "statement"
    assert shuffle[0].where.startswith(str(ROOT / "rulesets" / "pompeii" / "settle.yaml") + ":")
    named = [m for m in mutants if m.rule.startswith("constant:")]  # a named number: one more, one less
    assert named and all(int(m.after) - int(m.before) in (1, -1) and m.text == int(m.after) for m in named)


def test_edits_on_the_parsed_text():
    program = "if a < 3 and b:\n  draw n + 1 from deck to hand(me)\nx = true\n"
    found = {(op, program[start:end], new) for op, start, end, new in _edits(program, True) if op in OLD_OPERATORS}
    assert ("comparison", "<", "<=") in found and ("and_or", "and", "or") in found
    assert ("constant", "3", "4") in found and ("constant", "3", "2") in found and ("boolean", "true", "false") in found
    assert ("count", "n + 1", "(n + 1) + 1") in found
    assert ("statement", "x = true", "pass") in found
    assert ("statement", "if a < 3 and b:\n  draw n + 1 from deck to hand(me)", "pass") in found
    expression = "c in xs and # comment\n  not (d not in ys)"
    found = {(op, expression[start:end], new) for op, start, end, new in _edits(expression, False)
             if op in OLD_OPERATORS}
    assert found == {("comparison", "in", "not in"), ("comparison", "not in", "in"), ("and_or", "and", "or")}


def test_a_mutant_is_written_into_its_yaml_file_alone():
    from leges.model.loader import load_declarations
    from leges.authoring.rule_coverage import rule_texts
    from leges.text.yaml_source import load_yaml_file, load_yaml_text
    for game in ("tictactoe", "attika"):
        rs, _, _ = load_declarations(str(ROOT / "rulesets" / game))
        for _, _, texts in rule_texts(rs):
            for _, text in texts:
                doc = load_yaml_file(text.at.file)
                with open(text.at.file, encoding="utf-8") as handle:
                    source = handle.read()
                changed = load_yaml_text(splice(source, doc, tuple(text.at.path), text.text + " "), "x").data
                value = changed
                for key in text.at.path:
                    value = value[key]
                assert value == text.text + " "
                value_path = tuple(text.at.path)
                assert _without(changed, value_path) == _without(doc.data, value_path)


def _without(data, path):
    import copy
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = None
    return data


def test_a_sample_runs_end_to_end(capsys):
    """The CI's sample: Tic-Tac-Toe's mutants against tests/test_tictactoe.py, in parallel."""
    from leges.cli import main
    assert main(["mutate", "rulesets/tictactoe", "--sample", "2", "--seed", "3", "--jobs", "2", "--json",
                 "--fail-under", "100"]) == 0
    report = json.loads(capsys.readouterr().out)
    every = len(find_mutants(str(ROOT / "rulesets" / "tictactoe")))
    assert report["run"] == 2 and report["mutants"] == every and report["killed"] == 2 and report["score"] == 100.0
    assert report["tests"][0].endswith("tests/test_tictactoe.py")
    assert all(r["status"] == "killed" and r["by"] for r in report["results"])


def test_list_shows_the_mutants_a_run_would_run(capsys):
    from leges.cli import main
    assert main(["mutate", "rulesets/tictactoe", "--list", "--rule", "place"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed and all("action:place" in line for line in listed)
    assert main(["mutate", "rulesets/tictactoe", "--list", "--sample", "3", "--seed", "1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_a_survivor_is_reported_and_a_stillborn_mutant_not_counted(tmp_path):
    """With no test to run (a copy of Tic-Tac-Toe without its scenarios) every mutant survives; one the
    checker rejects is stillborn and left out of the score."""
    import shutil
    bare = tmp_path / "tictactoe"
    shutil.copytree(ROOT / "rulesets" / "tictactoe", bare, ignore=shutil.ignore_patterns("scenarios"))
    report = run(str(bare), tests=[], rule="place", operator="|".join(OLD_OPERATORS))
    assert report["tests"] == [] and report["survived"] == report["run"] == 11 and report["score"] == 0.0
    assert all(r.status == "survived" and r.mutant.rule == "action:place" for r in report["results"])
    from leges.authoring.mutants import Mutant
    from leges.authoring.mutate import evaluate
    broken = Mutant(0, "action:place", "effect", "ruleset.yaml", ("actions", 0, "effect"), "", "statement", "",
                    "", "move nothing to square\n")
    result = evaluate(str(ROOT / "rulesets" / "tictactoe"), broken, [], str(ROOT), 60)
    assert result.status == "stillborn" and "nothing" in result.by


@pytest.mark.parametrize("game", ["pompeii", "attika", "alexander"])
def test_every_rule_of_a_bundled_game_has_mutants(game):
    from leges.model.loader import load_declarations
    from leges.authoring.rule_coverage import rule_texts
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / game))
    mutated = {m.rule for m in find_mutants(str(ROOT / "rulesets" / game))}
    rules = {f"{kind}:{decl.id}" for kind, decl, texts in rule_texts(rs) if texts}
    trivial = {r for r in rules - mutated}  # texts with nothing to change (a name, a plain call)
    assert len(trivial) <= len(rules) // 4, sorted(trivial)


@pytest.mark.parametrize("game", ["pompeii", "attika", "alexander", "tictactoe"])
def test_each_listed_equivalent_mutant_is_one_mutant_with_a_reason(game):
    """equivalent_mutants.yaml: each entry names exactly one mutant of the ruleset (none stale), with its why."""
    from pathlib import Path
    from leges.authoring.mutants import equivalents, matches_equivalent as _matches
    folder = ROOT / "rulesets" / game
    mutants = find_mutants(str(folder))
    for entry in equivalents(Path(folder)):
        assert len([m for m in mutants if _matches(entry, m)]) == 1, entry
        assert len(entry["why"].split()) >= 8


def _stranger(tmp_path):
    """A copy of Tic-Tac-Toe as a stranger's mod might come: Python in and beside its folder that leaves a mark
    (and no scenario, which would kill a mutant before the Python ran)."""
    import shutil
    folder = tmp_path / "mod" / "rulesets" / "tictactoe"
    shutil.copytree(ROOT / "rulesets" / "tictactoe", folder, ignore=shutil.ignore_patterns("scenarios"))
    marks = tmp_path / "marks"
    marks.mkdir()
    for where in (folder, folder.parent, folder.parent.parent):
        (where / "tests").mkdir()
        (where / "tests" / "test_tictactoe.py").write_text(
            f"open({str(marks / 'test')!r} + __file__.replace('/', '_'), 'w').close()\ndef test_x():\n    pass\n")
        (where / "conftest.py").write_text(f"open({str(marks / 'conftest')!r} + __file__.replace('/', '_'), 'w').close()\n")
    return folder, marks


def test_python_that_came_with_a_ruleset_runs_only_when_asked(tmp_path, capsys):
    from leges.cli import main
    folder, marks = _stranger(tmp_path)
    report = run(str(folder), sample=1)
    assert report["tests"] == [] and report["not_run"] == [str(folder / "tests" / "test_tictactoe.py")]
    assert list(marks.iterdir()) == []
    # the command asks `run` not to run it either, and says how to (the run above, not a second one)
    import leges.authoring.mutate as mutate
    asked: list = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mutate, "run", lambda ruleset, **kw: asked.append((ruleset, kw)) or report)
        assert main(["mutate", str(folder), "--sample", "1"]) == 0
    (ruleset, kw), = asked
    assert ruleset == str(folder) and kw["sample"] == 1 and not kw["ruleset_python"]
    assert "--run-ruleset-python runs it" in capsys.readouterr().err and list(marks.iterdir()) == []
    report = run(str(folder), sample=1, seed=3, ruleset_python=True)  # asked: the tests beside it run, twice
    assert report["tests"] == [str(folder / "tests" / "test_tictactoe.py")] and report["survived"] == 1
    ran = sorted(p.name for p in marks.iterdir())
    assert len(ran) == 2 and all(str(folder).replace("/", "_") in name for name in ran)  # none from above


def test_the_projects_own_tests_never_run_a_conftest_of_the_ruleset(tmp_path):
    """The project's tests named with --tests against a stranger's ruleset: pytest takes no conftest.py from
    the ruleset's folder nor from above the project."""
    folder, marks = _stranger(tmp_path)
    report = run(str(folder), tests=[str(ROOT / "tests" / "test_tictactoe.py")], sample=1, seed=3)
    assert report["killed"] == 1 and list(marks.iterdir()) == []


@pytest.mark.parametrize("link", ["/dev/zero", "/usr/share", "/etc/hostname"])
def test_a_copy_never_follows_a_link_out_of_the_ruleset(tmp_path, link):
    from leges import LegesError
    folder, _ = _stranger(tmp_path)
    (folder / "extra").symlink_to(link)
    with pytest.raises(LegesError) as caught:
        run(str(folder), tests=[], sample=1)
    assert "extra" in caught.value.diagnostics[0].format()


def test_a_copy_is_bounded_in_size_and_number_and_takes_no_special_file(tmp_path):
    import os
    from leges import LegesError
    from leges.text.files import read_tree
    (tmp_path / "a.txt").write_bytes(b"x" * 60)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_bytes(b"y" * 60)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "big").write_bytes(b"z" * 1000)  # not the ruleset's: left out
    assert read_tree(tmp_path, "r") == {"a.txt": b"x" * 60, "sub/b.txt": b"y" * 60}
    with pytest.raises(LegesError, match="larger than 100 bytes"):
        read_tree(tmp_path, "r", limit=100)
    with pytest.raises(LegesError, match="more than 2 files"):
        read_tree(tmp_path, "r", count=2)
    os.mkfifo(tmp_path / "sub" / "fifo")
    with pytest.raises(LegesError) as caught:
        read_tree(tmp_path, "r")
    assert caught.value.diagnostics[0].format().startswith("r/sub/fifo: error: is a FIFO")
    os.unlink(tmp_path / "sub" / "fifo")
    import socket
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(tmp_path / "sub" / "socket"))
    with pytest.raises(LegesError, match="is a socket"):
        read_tree(tmp_path, "r")
