"""A stranger's ruleset, record or scenario is safe: reads are confined, bounded and never hang;
limits are located errors that name the limit; nothing read from a file is echoed beyond a
located snippet; control characters never reach the terminal; secrets are never shown.

Each test builds a small game (the Tic-Tac-Toe of test_errors.py) in a temporary folder and
breaks one thing the way an attacker would.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT
import leges as leges_api
from test_errors import BASE, MAP, MOVE, RULES, SCENARIO, TURN, expect, leges, no_traceback

SECRET = "root:x:0:0:SECRET-CONTENT"


@pytest.fixture
def game(tmp_path, monkeypatch):
    """game/ruleset.yaml (BASE) and maps/tictactoe.yaml in a temporary working folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "tictactoe.yaml").write_text(MAP)
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "ruleset.yaml").write_text(BASE)
    (tmp_path / "secret.txt").write_text(SECRET + "\n")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def run_leges(*argv: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """The installed command in a child process: a hang fails the test instead of stopping the suite."""
    proc = subprocess.run([sys.executable, "-m", "leges", *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd)
    no_traceback(proc.stdout, proc.stderr)
    return proc


# ------------------------------------------------------------------ reads confined to the ruleset
def test_a_map_linked_to_a_file_elsewhere_is_refused_without_showing_it(game, capsys):
    (game / "maps" / "tictactoe.yaml").unlink()
    (game / "maps" / "tictactoe.yaml").symlink_to(game / "secret.txt")
    run = leges(capsys, "validate", "game")
    expect(run, "maps/tictactoe.yaml", "leads outside the maps folder")
    assert "SECRET" not in run.err + run.out


def test_a_maps_folder_linked_elsewhere_is_refused(game, capsys):
    (game / "elsewhere").mkdir()
    (game / "elsewhere" / "tictactoe.yaml").write_text(MAP)
    (game / "game" / "maps").symlink_to(game / "elsewhere")
    run = leges(capsys, "validate", "game")
    expect(run, "game/maps/tictactoe.yaml", "leads outside the maps folder")


def test_an_include_linked_out_of_the_folder_is_refused(game, capsys):
    (game / "game" / "more.yaml").symlink_to(game / "secret.txt")
    edit(game / "game" / "ruleset.yaml", "map: tictactoe\n", "map: tictactoe\ninclude: [more.yaml]\n")
    run = leges(capsys, "validate", "game")
    expect(run, "game/more.yaml", "leads outside the ruleset's folder")
    assert "SECRET" not in run.err


def test_a_main_file_linked_out_of_its_folder_is_refused(game, capsys):
    (game / "game" / "ruleset.yaml").unlink()
    (game / "game" / "ruleset.yaml").symlink_to(game / "secret.txt")
    run = leges(capsys, "validate", "game")
    expect(run, RULES, "leads outside the ruleset's folder")
    assert "SECRET" not in run.err


def test_a_variant_linked_out_of_the_folder_is_refused(game, capsys):
    (game / "game" / "variants").mkdir()
    (game / "game" / "variants" / "v.yaml").symlink_to(game / "secret.txt")
    run = leges(capsys, "simulate", "game", "--variant", "v", "-g", "1")
    expect(run, "game/variants/v.yaml", "leads outside the ruleset's folder")
    assert "SECRET" not in run.err


def test_a_file_that_is_not_yaml_keys_is_never_quoted(game, capsys):
    (game / "maps" / "tictactoe.yaml").write_text(SECRET + "\n" + SECRET + "\n")
    run = leges(capsys, "validate", "game")
    expect(run, "maps/tictactoe.yaml:1:1", "not a YAML mapping")
    assert "SECRET" not in run.err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("where", ["maps/tictactoe.yaml", "game/ruleset.yaml", "game/more.yaml",
                                   "game/variants/v.yaml", "record.json", "scenario.yaml"])
def test_a_fifo_is_refused_at_once_wherever_it_is_named(game, where):
    (game / "game" / "variants").mkdir()
    if where == "game/more.yaml":
        edit(game / "game" / "ruleset.yaml", "map: tictactoe\n", "map: tictactoe\ninclude: [more.yaml]\n")
    target = game / where
    target.unlink(missing_ok=True)
    os.mkfifo(target)
    argv = {"record.json": ["replay", "record.json"], "scenario.yaml": ["test", "scenario.yaml"],
            "game/variants/v.yaml": ["simulate", "game", "--variant", "v", "-g", "1"]}.get(where, ["validate", "game"])
    proc = run_leges(*argv, cwd=game, timeout=30)  # opened to be read, it would wait for a writer: past the timeout
    assert proc.returncode == 2, proc.stderr
    assert f"{where}: error: is a FIFO, not a regular file" in proc.stderr


def test_a_device_is_refused_before_it_is_read():
    from leges.text import files
    from leges.text.errors import LegesError
    with pytest.raises(LegesError, match="a device, not a regular file"):
        files.read_bytes("/dev/zero", 1000)


def test_a_record_naming_a_plain_file_as_its_ruleset_is_refused(game, capsys):
    record = {"leges_record": 1, "ruleset": "tictactoe", "ruleset_path": "secret.txt", "players": 2,
              "seed": 0, "actions": []}
    (game / "r.json").write_text(json.dumps(record, indent=1))
    run = leges(capsys, "replay", "r.json")
    expect(run, "r.json:4:18", "'secret.txt' is not a ruleset folder")
    assert "SECRET" not in run.err


def test_a_scenario_naming_a_plain_file_as_its_ruleset_is_refused(game, capsys):
    (game / "s.yaml").write_text(SCENARIO.replace("ruleset: game", "ruleset: secret.txt"))
    run = leges(capsys, "test", "s.yaml")
    expect(run, "s.yaml:3:10", "'secret.txt' is not a ruleset folder")
    assert "SECRET" not in run.err


def test_a_scenario_folder_does_not_follow_links_out_of_it(game, capsys):
    (game / "scen").mkdir()
    (game / "outside.yaml").write_text(SCENARIO)
    (game / "scen" / "linked.yaml").symlink_to(game / "outside.yaml")
    run = leges(capsys, "test", "scen")
    assert run.status == 2 and "no scenario files found" in run.err


# ------------------------------------------------------------------ sizes and work
# Counted, not timed: the bytes read from files, the texts composed into YAML nodes, the values built.
@pytest.fixture
def reading(monkeypatch):
    """What the YAML layer does from now on: {"read": bytes read from files, "composed": the length
    of each text composed into nodes, "built": values built from nodes}."""
    from leges.text import files, yaml_source
    done = {"read": 0, "composed": [], "built": 0}
    read, build = files.os.read, yaml_source._build

    def counted_read(fd, n):
        chunk = read(fd, n)
        done["read"] += len(chunk)
        return chunk

    class Composing(yaml_source._Fast):
        def __init__(self, stream):
            super().__init__(stream)
            self.length = len(stream)

        def get_single_node(self):
            done["composed"].append(self.length)
            return super().get_single_node()

    def counted_build(*args):
        done["built"] += 1
        return build(*args)
    monkeypatch.setattr(files.os, "read", counted_read)
    monkeypatch.setattr(yaml_source, "_Fast", Composing)
    monkeypatch.setattr(yaml_source, "_build", counted_build)
    return done


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(game, capsys, reading):
    (game / "game" / "ruleset.yaml").write_text(BASE + "#" * 600_000 + "\n")
    run = leges(capsys, "validate", "game")
    expect(run, f"{RULES}:1:1", "larger than 512,000 bytes")
    assert reading["read"] < 100_000 and not reading["composed"]  # its size told from fstat: not a byte of it read


def test_a_million_tiny_values_are_refused_before_they_are_composed(game, capsys, reading):
    (game / "game" / "ruleset.yaml").write_text(BASE + "description: [" + "1," * 240_000 + "1]\n")
    run = leges(capsys, "validate", "game")
    assert run.status == 2 and "more than 20,000 values" in run.err
    assert all(length < 100_000 for length in reading["composed"])  # counted as events, never composed


def test_an_alias_bomb_is_refused(game, capsys, reading):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8))
    (game / "game" / "ruleset.yaml").write_text(bomb)
    run = leges(capsys, "validate", "game")
    assert run.status == 2 and "more than 20,000 values" in run.err
    assert reading["built"] <= 20_001  # of its 10^9 values once the aliases are followed


def test_a_number_of_thousands_of_digits_is_located(game, capsys):
    edit(game / "game" / "ruleset.yaml", "    count: 5", "    count: " + "9" * 5000)
    expect(leges(capsys, "validate", "game"), f"{RULES}:21:12", "a number of 5,000 digits", "at most 16")


# ------------------------------------------------------------------ limits: located, named
@pytest.mark.parametrize("limit, value", [("max_steps", 10**9), ("max_loop", 10**8), ("max_turns", 10**7),
                                          ("max_work", 10**9), ("max_decisions", 10**8), ("max_options", 10**7)])
def test_every_limit_has_a_maximum_that_names_it(game, capsys, limit, value):
    edit(game / "game" / "ruleset.yaml", "map: tictactoe\n", f"map: tictactoe\nlimits: {{{limit}: {value}}}\n")
    expect(leges(capsys, "validate", "game"), f"{RULES}:16:{10 + len(limit) + 2}", "more than the maximum",
           f"limits.{limit}")


def test_a_huge_component_count_is_a_located_error(game, capsys):
    edit(game / "game" / "ruleset.yaml", "    count: 5", "    count: 999999999999999")
    expect(leges(capsys, "validate", "game"), f"{RULES}:21:12", "more than the maximum 10000", "count")


def test_too_many_components_together_is_a_located_error(game, capsys):
    edit(game / "game" / "ruleset.yaml", "    count: 5", "    count: 9000")  # per player: 18000, plus...
    edit(game / "game" / "ruleset.yaml", "zones:\n", "  - id: chip\n    source: {book: folk, section: Play}\n"
                                                     "    count: 9000\n    start: supply(x)\n\nzones:\n")
    expect(leges(capsys, "validate", "game"), f"{RULES}:27:12", "more than 20,000 components")


def test_a_game_that_never_ends_stops_at_the_default_turn_cap(game, capsys):
    edit(game / "game" / "ruleset.yaml", "    end_if: winner != none or all(spaces, s => count(s) > 0)",
         '    end_if: "false"')
    run = leges(capsys, "simulate", "game", "-g", "1")
    assert run.status == 0 and "unfinished" in run.out, run.err


def test_a_turn_that_never_ends_stops_at_the_decision_cap(game, capsys):
    """A turn may ask again and again (`act ... until pass` with a move that changes nothing): the
    turn cap never comes, the decision cap does (found by fuzzing: a build that did nothing made
    Attika's turns go on for hundreds of decisions, its games for hours)."""
    edit(game / "game" / "ruleset.yaml", TURN, "    turn: |\n      act place until pass")
    edit(game / "game" / "ruleset.yaml", MOVE, "      log \"nothing\"")
    edit(game / "game" / "ruleset.yaml", "map: tictactoe\n", "map: tictactoe\nlimits: {max_decisions: 40}\n")
    run = leges(capsys, "simulate", "game", "-g", "2", "-j", "1")
    assert run.status == 0 and "UNFINISHED: 2 of 2 games (100.0 %) hit the decision limit of 40 (limits.max_decisions)" in run.out and "40 decisions" in run.out, run.out
    st = leges_api.load(str(game / "game")).new_initial_state(players=2, seed=0)
    while not st.is_terminal():
        st.apply_option(len(st.pending) - 1 if len(st.history) % 7 == 6 else 0)
    assert st.end_reason == {"kind": "max_decisions", "decisions": 40} and st.returns() == [0, 0]


# Work and sizes inside the rule language: each attack runs after the move, so the first action
# meets it; each stops within seconds, at the line that did it, naming what was exceeded.
WORK_ATTACKS = [
    ("      let x = 2\n      repeat 40:\n        x = x * x", 9, "a number larger than 9007199254740991"),
    ("      let x = 1\n      repeat 100:\n        x = x + x", 9, "a number larger than"),
    ("      let l = [1]\n      repeat 40:\n        l = l + l", 9, "a list of more than 1000000 items"),
    ('      let t = "ab"\n      repeat 40:\n        t = t + t', 9, "a string of more than 1000000 characters"),
    ("      let l = [1]\n      repeat 40:\n        l = [l, l]", 9, "counting those of the lists inside it"),
    ("      let n = count([a for a in range(100000) for b in range(100000)])", 7, "more than 10000000 items for one action"),
    ("      let n = count(range(10000000000))", 7, "range of 10000000000 numbers is more than 1000000"),
    ("      let n = any(range(100000), a => any(range(100000), b => a + b < 0))", 7, "more than 10000000 items"),
    # payable's answers are kept by value, but a long list is charged even when the answer is known
    ("      let n = count([a for a in range(100000) if payable(range(1000), [1])])", 7, "more than 10000000 items"),
]


def run_attack(game, attack: str):
    """`leges simulate` of the game with `attack` added to its move: (the run, the attack's last line)."""
    edit(game / "game" / "ruleset.yaml", MOVE, MOVE + "\n" + attack)
    lines = (game / "game" / "ruleset.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text == attack.splitlines()[-1])
    return run_leges("simulate", "game", "-g", "1", "-j", "1", "-q", cwd=game), line


@pytest.mark.parametrize("attack, column, words", WORK_ATTACKS, ids=[w for _, _, w in WORK_ATTACKS])
def test_work_and_sizes_in_the_rules_are_bounded(game, attack, column, words):
    run, line = run_attack(game, attack)  # unbounded, each would run for hours (past run_leges's timeout) or fill memory
    assert run.returncode == 2 and f"{RULES}:{line}:{column}" in run.stderr and words in run.stderr, run.stderr
    assert "limit" in run.stderr.split("hint:")[1]


def test_a_consistency_check_doing_endless_work_is_stopped(game, capsys):
    """A `checks:` entry runs when the ruleset loads: validate itself must stay bounded."""
    path = game / "game" / "ruleset.yaml"
    path.write_text(path.read_text() + "\nchecks:\n  - id: huge\n"
                    "    check: count([a for a in range(100000) for b in range(100000)]) > 0\n")
    line = len(path.read_text().splitlines())
    run = expect(leges(capsys, "validate", "game"), f"{RULES}:{line}:12", "consistency check 'huge' could not be evaluated",
                 "(limits.max_work)")
    assert run.hint and "limits.max_work" in run.hint


def test_max_work_lowers_the_budget(game, capsys):
    """The bound is the ruleset's limits.max_work: a tenth of a default-sized loop then fails."""
    edit(game / "game" / "ruleset.yaml", MOVE, MOVE + "\n      let n = count([a for a in range(3000)])")
    assert leges(capsys, "simulate", "game", "-g", "1", "-q").status == 0
    edit(game / "game" / "ruleset.yaml", "map: tictactoe\n", "map: tictactoe\nlimits: {max_work: 2000}\n")
    expect(leges(capsys, "simulate", "game", "-g", "1", "-q"), f"{RULES}:54:7", "more than 2000 items for one action (limits.max_work)",
           hint="limits.max_work")


@pytest.mark.parametrize("section, body", [("functions", "a + a"), ("procedures", "log text(a)")])
def test_a_parameter_named_twice_is_located(game, capsys, section, body):
    edit(game / "game" / "ruleset.yaml", "actions:\n", f"{section}:\n  - id: twice\n    params: [a, b, a]\n"
                                                        f"    body: {body}\n\nactions:\n")
    expect(leges(capsys, "validate", "game"), f"{RULES}:48:20", "parameter 'a' is named twice", hint=f"{RULES}:48:14")


# ------------------------------------------------------------------ scenarios and records
def test_a_run_time_error_in_a_scenario_check_is_located(game, capsys):
    for check, words in [("1 / (num_players - 2) == 0", "division by zero"),
                         ("top(r1c1).owner == x", "none")]:
        (game / "s.yaml").write_text(SCENARIO.replace("count(r0c0) == 1", check))
        run = leges(capsys, "test", "s.yaml")
        expect(run, "s.yaml:8:13", "could not be evaluated", words)


@pytest.fixture
def record(game, capsys):
    assert leges(capsys, "simulate", "game", "-g", "1", "-q", "--records", "records").status == 0
    (path,) = (game / "records").glob("*.json")
    return path.relative_to(game)


def test_a_record_cut_off_mid_game_fails(record, capsys):
    data = json.loads(record.read_text())
    data["actions"] = data["actions"][:3]
    record.write_text(json.dumps(data, indent=1))
    run = leges(capsys, "replay", str(record))
    line = [i for i, t in enumerate(record.read_text().split("\n"), 1) if '"actions"' in t][0]
    expect(run, f"{record}:{line}:13", "ends after 3 actions, before the game is over", hint="cut off")


def test_a_record_of_another_version_is_refused(record, capsys):
    data = json.loads(record.read_text())
    data["version"] = "0.9"
    record.write_text(json.dumps(data, indent=1))
    run = leges(capsys, "replay", str(record))
    line = [i for i, t in enumerate(record.read_text().split("\n"), 1) if '"version"' in t][0]
    expect(run, f"{record}:{line}:13", "version 0.9", "this is version 1.0")


def test_a_record_nested_absurdly_deep_is_located(game, capsys):
    (game / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    expect(leges(capsys, "replay", "deep.json"), "deep.json:1:1", "nested too deeply")


# ------------------------------------------------------------------ nothing obeyed on the terminal
def test_escape_sequences_from_files_are_shown_not_obeyed(game, capsys, record):
    edit(game / "game" / "ruleset.yaml", "title: Tic-Tac-Toe", 'title: "Tic\\e]0;pwned\\a\\e[2J\\u009b31m"')
    run = leges(capsys, "validate", "game")
    assert "\x1b" not in run.out and "\x9b" not in run.out and "\\u001b]0;pwned\\u0007" in run.out
    data = json.loads(record.read_text())
    data["actions"][0] = "x: \x1b[2Jplace"
    record.write_text(json.dumps(data))
    run = leges(capsys, "replay", str(record))
    assert run.status == 2 and "\x1b" not in run.err and "\\u001b[2J" in run.err


def test_json_output_stays_json_when_escaped():
    from leges.text.terminal import clean
    text = json.dumps({"title": "a\x9bb\u202ec"}, ensure_ascii=False)
    assert json.loads(clean(text)) == {"title": "a\x9bb\u202ec"}


# ------------------------------------------------------------------ secrets never shown
def test_play_never_shows_another_seats_sealed_choice(monkeypatch, capsys):
    answers = iter(["1"] * 6 + ["q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    from leges.cli import main
    assert main(["play", str(ROOT / "rulesets" / "alexander"), "-p", "3", "--seat", "blue"]) == 0
    out = capsys.readouterr().out
    first_prompt = out.split("  1. ")[0]
    assert "red: (sealed)" in first_prompt and "red: share " not in first_prompt and "red: Share out" not in first_prompt
    assert "revealed: red: Share out: " in out  # once the phase is over (in words)


@pytest.mark.parametrize("statement, words", [("end turn", "`end turn` used outside a turn"),
                                              ("end phase", "`end phase` used in setup"),
                                              ("goto play", "`goto` used in setup")])
def test_ending_a_turn_or_phase_in_setup_is_located_at_the_statement(game, capsys, statement, words):
    """Setup runs before any phase: ending a turn or a phase there is an error at the statement
    (found by fuzzing: it was reported at the ruleset file, or as a phase named None)."""
    path = game / "game" / "ruleset.yaml"
    path.write_text(path.read_text() + "\nsetup:\n  - id: early\n"
                    "    source: {book: folk, section: Play, quote: \"x begins\"}\n"
                    f"    effect: |\n      {statement}\n")
    line = len(path.read_text().splitlines())
    expect(leges(capsys, "simulate", "game", "-g", "1", "-j", "1", "-q"), f"{RULES}:{line}:7", words,
           hint="a phase's turn" if statement == "end turn" else "setup")
