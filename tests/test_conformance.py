"""The conformance harness (leges/authoring/conformance.py, `leges check-conformance`): the optimised
build of every bundled game, each variant and each number of players plays as the reference build
(`leges.load(..., optimise=False)`: plain evaluation) — along random lines of play, copies and their
siblings, resampled worlds and their copies, a greedy look-ahead, a short MCTS search and JSON round
trips, compared at every decision. Every optimisation of the engine lands only with this green.

It replaces tests/test_reference_build.py (single random lines, each game under the default game
budget of 60 seconds, so a loaded machine cut the slow reference build short and the test failed):
nothing here depends on a clock — the harness gives both builds a budget without seconds.

By default a brief run: the first decisions of every game, variant and player count, and whole
games where the reference build is quick (`brief` below). LEGES_SLOW=1 also runs the long check below
(the `slow` marker; `-m slow` picks it out). The planted bugs show that the harness finds the kind
of bug that slipped past single lines: a memo slot that copies of a resampled world share (the
round's sibling bug, found by an agent benchmark), and memoised values that are not forgotten.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

import leges
from helpers import RULESETS, ruleset_dir
from leges.authoring.conformance import UNTIMED, Settings, builds, check_conformance
from leges.cli import main
from leges.engine.resample import Resampler
from leges.engine.state import State

GAMES = ("tictactoe", "pompeii", "attika", "alexander")
BRIEF = Settings(games=1, every=4, depth=3, siblings=2, width=3, iterations=6, decisions=30)


def brief(game: str, variant: str | None, players: int, counts: range) -> Settings:
    """What the default run plays of one game, variant and player count: its first 30 decisions, and
    whole games without variants at every player count, with a variant at one (as the reference-build
    test before it: so every rule a variant brings runs somewhere, tests/test_rule_coverage.py). But
    Attika's reference build is slow — about 16 ms a decision —: one whole game, with fewer probes."""
    if game == "tictactoe":
        return replace(BRIEF, games=4, every=1, decisions=None)
    whole = variant is None or players == counts[len(variant) % len(counts)]
    if game == "attika":
        return replace(BRIEF, decisions=None, every=10) if whole and variant is None and players == 2 else BRIEF
    return replace(BRIEF, decisions=None) if whole else BRIEF


def _variants(game: str) -> list[str | None]:
    return [None] + sorted(p.stem for p in (RULESETS / game / "variants").glob("*.yaml"))


CASES = [(g, v) for g in GAMES for v in _variants(g)]
_BUILT: dict = {}


def built(game: str, variant: str | None = None):
    """Both builds of a game, loaded once for the whole module (each load compiles the ruleset)."""
    key = (game, variant)
    if key not in _BUILT:
        _BUILT[key] = builds(str(ruleset_dir(game)), [variant] if variant else [])
    return _BUILT[key]


@pytest.mark.parametrize("game, variant", CASES, ids=[f"{g}+{v}" if v else g for g, v in CASES])
def test_every_bundled_game_variant_and_player_count_conforms(game, variant):
    candidate, reference = built(game, variant)
    assert candidate.optimised and not reference.optimised
    assert game == "tictactoe" or candidate.compiler.memo.keys and not reference.compiler.memo.keys  # (nothing to memoise there)
    counts = range(candidate.min_players, candidate.max_players + 1)
    for players in counts:
        report = check_conformance(candidate, reference, players, brief(game, variant, players, counts))
        assert report.ok, report.difference.format()
        assert report.decisions > 20 and report.lines > 3
        assert set(report.probes) == {"copies", "world", "look-ahead", "search", "saved"}, report.probes


LONG = {"tictactoe": 100, "pompeii": 20, "alexander": 10, "attika": 3}  # games a player count (Attika's: minutes each)


@pytest.mark.slow  # skipped unless LEGES_SLOW=1 (tests/conftest.py)
@pytest.mark.parametrize("game", GAMES)
def test_a_longer_run_conforms(game):
    """What a change of the engine is checked with before it lands: whole games at every player
    count with the harness's own settings (LEGES_SLOW=1; `leges check-conformance RULESET --games N`
    runs more)."""
    candidate, reference = built(game)
    for players in range(candidate.min_players, candidate.max_players + 1):
        report = check_conformance(candidate, reference, players, Settings(games=LONG[game]))
        assert report.ok, report.difference.format()


# ---------------------------------------------------------------------------- planted bugs
def _first_difference(game: str, players: int = 2, games: int = 2, decisions: int | None = 40):
    candidate, reference = built(game)
    return check_conformance(candidate, reference, players, replace(BRIEF, games=games, decisions=decisions))


@pytest.fixture
def world_copies_share_their_slots(monkeypatch):
    """The sibling bug, planted in the optimised build only: copies of a resampled world take the
    world's memo slots for their own, so a copy forgetting values in place (State._forget_near)
    changes what the world and its other copies are served."""
    worlds: set[int] = set()
    sample, copy = Resampler.sample, State.copy

    def drawn(self, rng):
        world = sample(self, rng)
        if world.game.optimised:
            worlds.add(id(world))
        return world

    def copied(self):
        twin = copy(self)
        if id(self) in worlds:
            twin.private = set(range(len(twin.memo)))
            self.private = set(range(len(self.memo)))
        return twin

    monkeypatch.setattr(Resampler, "sample", drawn)
    monkeypatch.setattr(State, "copy", copied)


@pytest.mark.parametrize("game", ["pompeii", "attika", "alexander"])
def test_the_harness_finds_copies_of_a_world_sharing_memo_slots(game, world_copies_share_their_slots):
    report = _first_difference(game)
    assert not report.ok
    found = report.difference
    assert any(step.startswith(WORLD_MARKS) for step in found.steps)  # the line of play passed a world
    text = found.format()
    assert text.startswith(built(game)[0].ruleset_file + ": error: ") and "line of play:" in text
    assert "Traceback" not in text


WORLD_MARKS = ("[resampled for seat", "[the look-ahead's world", "[an MCTS search")


@pytest.mark.parametrize("game", ["pompeii", "attika"])
def test_the_harness_finds_a_move_that_forgets_no_memoised_value(game):
    """A memoised value not invalidated: moves on the board forget nothing (optimised build only)."""
    candidate, reference = built(game)
    kept = candidate.place_slots
    candidate.place_slots = {t: (slots[0], (), slots[2]) for t, slots in kept.items()}
    try:
        report = check_conformance(candidate, reference, 3, replace(BRIEF, decisions=40))
    finally:
        candidate.place_slots = kept
    assert not report.ok
    assert report.difference.what in ("the legal actions", "the current player", "the log")


def test_the_harness_finds_a_redeal_that_forgets_no_memoised_value(monkeypatch):
    """A re-deal that keeps every memoised value, also those reading the cards it traded: only a
    resampled world shows it (a single line of play never resamples)."""
    forget = State.forget_redealt
    monkeypatch.setattr(State, "forget_redealt", lambda st, keys: forget(st, keys) if not st.game.optimised else None)
    report = _first_difference("attika")
    assert not report.ok
    assert any(step.startswith(WORLD_MARKS) for step in report.difference.steps)


def test_the_harness_finds_a_board_index_keeping_a_piece_gone_from_the_board(monkeypatch):
    """The kept index of the components on the board (engine/board_index.py), which only the
    optimised build reads, planted wrong: a piece that comes onto the board is not added. (One that
    leaves it and stays in the index is no bug: the condition still asks each where it is.)"""
    from leges.engine import board_index, state
    kept = board_index.moved_on_or_off
    monkeypatch.setattr(state, "moved_on_or_off", lambda aboard, c, t, owner, onto: None if onto else kept(aboard, c, t, owner, onto))
    report = _first_difference("pompeii", players=3, games=1, decisions=None)
    assert not report.ok


def _planted_in_the_generated_programs(monkeypatch, name: str, planted) -> object:
    """A difference the harness finds in Pompeii when the generator writes its fused programs with a
    bug (engine/program/generate.py; the reference build's plain programs stay right)."""
    import sys
    generate = sys.modules["leges.engine.program.generate"]  # (the package's `generate` is the function)
    original = getattr(generate, name)
    monkeypatch.setattr(generate, name, planted(original))
    candidate, reference = builds(str(ruleset_dir("pompeii")))
    monkeypatch.setattr(generate, name, original)
    return check_conformance(candidate, reference, 3, replace(BRIEF, games=1, decisions=40))


def test_the_harness_finds_a_fused_program_resuming_past_its_instruction(monkeypatch):
    """The flow of a generated program: an instruction a frame resumes at is skipped (its header
    `if pc <= K` written `if pc < K`), where falling through from the one before still runs it."""
    def planted(fused):
        def writing(name, instructions, pos_const):
            out, owner = fused(name, instructions, pos_const)
            return [line.replace("if pc <= ", "if pc < ") if line.startswith("        if pc <= ") and line != "        if pc <= 0:"
                    else line for line in out], owner
        return writing
    report = _planted_in_the_generated_programs(monkeypatch, "_fused", planted)
    assert not report.ok


def test_the_harness_finds_a_direct_call_that_goes_on_at_the_wrong_instruction(monkeypatch):
    """A frame called directly (an action's effect, a procedure): once it ends, its caller goes on
    one instruction too far, in the fused build only."""
    def planted(call):
        def writing(c, plain):
            lines = call(c, plain)
            return lines if plain else [f"pc = {c.resume + 1}" if x == f"pc = {c.resume}" else x for x in lines]
        return writing
    report = _planted_in_the_generated_programs(monkeypatch, "_call", planted)
    assert not report.ok


def test_the_harness_finds_a_generated_turn_order_going_the_wrong_way(monkeypatch):
    """The phase and turn flow: the generated step from one turn to the next (engine/flow.py
    turn_source; the reference build's is Flow.after_turn) passes the turn the other way round."""
    from leges.engine.builder import rules
    right = rules.turn_source
    monkeypatch.setattr(rules, "turn_source", lambda *a: right(*a).replace("st.turn_player + 1)", "st.turn_player - 1)"))
    candidate, reference = builds(str(ruleset_dir("pompeii")))
    monkeypatch.setattr(rules, "turn_source", right)
    report = check_conformance(candidate, reference, 3, replace(BRIEF, games=1, decisions=40))
    assert not report.ok
    assert report.difference.what in ("the current player", "the legal actions", "the log")


# ---------------------------------------------------------------------------- no clock
def test_no_equivalence_check_depends_on_the_clock(monkeypatch):
    """Both builds run under a budget without seconds while the harness runs (a loaded machine
    cannot cut the slow reference build short), states read back from JSON too; the game's own
    budget comes back afterwards."""
    from leges.authoring import conformance
    from leges.engine.budget import DEFAULT_BUDGET
    candidate, reference = built("pompeii")
    seen = []
    play = conformance._Game.play

    def playing(self):
        seen.append((self.games[0].budget, self.games[1].budget))
        st = self.games[1].state_from_json(self.games[1].new_initial_state(players=2, seed=1).to_json())
        seen.append((st.budget,))
        return play(self)

    monkeypatch.setattr(conformance._Game, "play", playing)
    assert check_conformance(candidate, reference, 2, Settings(games=1, decisions=3)).ok
    assert seen == [(UNTIMED, UNTIMED), (UNTIMED,)] and UNTIMED.seconds == float("inf")
    assert candidate.budget is reference.budget is DEFAULT_BUDGET


def test_a_clock_gone_mad_cuts_no_line_short(monkeypatch):
    """A machine so loaded that every reading of the clock is ten minutes on: the default budget
    would end each game after its first action, in both builds alike (so they would still agree,
    on nothing). The harness's games play on: its budget counts work, not seconds."""
    from leges.engine import budget as engine_budget
    now = [0.0]

    def ticking() -> float:
        now[0] += 600.0
        return now[0]

    monkeypatch.setattr(engine_budget, "perf_counter", ticking)
    candidate, reference = built("pompeii")
    assert candidate.new_initial_state(players=2, seed=3).budget.seconds == 60.0  # (the default, outside)
    report = check_conformance(candidate, reference, 2, replace(BRIEF, decisions=20, games=1))
    assert report.ok and report.decisions >= 20 and now[0] > 0


# ---------------------------------------------------------------------------- the command
def test_the_command_reports_agreement(capsys):
    assert main(["check-conformance", str(ruleset_dir("tictactoe")), "--games", "3", "--seed", "4"]) == 0
    out, err = capsys.readouterr()
    assert "Tic-Tac-Toe, 2 players: 3 games" in out and "the builds agree" in out
    assert "2 players: 3/3 games" in err  # progress on standard error


def test_the_command_reports_the_first_difference_located(capsys, world_copies_share_their_slots):
    path = str(ruleset_dir("pompeii"))
    assert main(["check-conformance", path, "-p", "2", "-g", "2", "--decisions", "40", "--quiet"]) == 1
    out, err = capsys.readouterr()
    first = out.splitlines()[0]
    assert first.startswith(leges.load(path).ruleset_file + ": error: The Downfall of Pompeii, 2 players, seed ")
    assert "the builds differ in" in first and "candidate" in first and "reference" in first
    assert "plays it again" in out and "line of play:" in out and "      1. " in out and "Traceback" not in out + err


def test_the_command_refuses_bad_options_located(capsys):
    assert main(["check-conformance", str(ruleset_dir("tictactoe")), "-p", "7"]) == 2
    assert "--players: error: Tic-Tac-Toe is for 2 to 2 players, not 7" in capsys.readouterr().err
    assert main(["check-conformance", str(ruleset_dir("tictactoe")), "--games", "0"]) == 2
    assert "--games: error: --games must be at least 1" in capsys.readouterr().err


def test_a_lines_random_choices_are_its_own():
    """The same seed plays the same games: what a report names can be played again."""
    candidate, reference = built("alexander")
    one = check_conformance(candidate, reference, 3, Settings(games=1, seed=9, decisions=30))
    two = check_conformance(candidate, reference, 3, Settings(games=1, seed=9, decisions=30))
    assert (one.decisions, one.lines, one.probes) == (two.decisions, two.lines, two.probes)


def test_the_probe_names_of_the_command_are_the_harness_probes():
    from leges.authoring.conformance import PROBES
    from leges.cli.conformance import PROBE_NAMES
    assert PROBE_NAMES == PROBES


def test_the_search_probe_compares_the_root_statistics(monkeypatch):
    """A heuristic off by a little in the worlds a search draws (nowhere else) changes the values at
    the search's root: the search probe alone reports it."""
    heuristic = State.heuristic

    def skewed(st, name=None):
        values = heuristic(st, name)
        return [v + 0.5 for v in values] if st.game.optimised and st.seed == -1 and len(st.history) % 2 else values

    monkeypatch.setattr(State, "heuristic", skewed)
    candidate, reference = built("alexander")
    report = check_conformance(candidate, reference, 3, replace(BRIEF, probes=("search",), games=2))
    assert not report.ok and report.difference.what == "the search's choice and root statistics"
    assert report.difference.path[0] in ("choice", "root") and "MCTS search" in report.difference.line
    assert "--probes search" in report.difference.diagnostic().hint
