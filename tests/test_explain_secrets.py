"""Explanations that keep secrets (issue 35, item 2): a seat's "why not" is the same in every world it
cannot tell apart, and `leges check-leaks` compares explanations and finds forced moves that hidden
cards decide."""
from __future__ import annotations

import random

import pytest

import leges
from helpers import ROOT
from leges.authoring.leaks import check_leaks
from leges.cli import main
from leges.engine.saved_state import recompute_pending
from leges.engine.seat_explanation import seat_explanation

HIDDEN_TOP = ROOT / "tests" / "rulesets" / "hidden_top"
FORCED_TOP = ROOT / "tests" / "rulesets" / "forced_top"


@pytest.fixture(scope="module")
def hidden_top():
    return leges.load(str(HIDDEN_TOP))


def _states(game, players: int, seeds: range, every: int = 3):
    """States along random games (the simulator's agent), one every `every` decisions."""
    from leges.agents.seeding import agent_rng
    for seed in seeds:
        st = game.new_initial_state(players=players, seed=seed)
        rng = agent_rng(seed)
        n = 0
        while not st.is_terminal():
            if n % every == 0:
                yield st.copy()
            st.apply_option(rng.randrange(len(st.pending)))
            n += 1


def _texts(st, seat: int) -> list[str]:
    """Illegal actions a seat may ask about: `swap` (its require reads the deck's top) with each of its
    cards, another seat's cards (named, not seen), an action out of turn, a value not among the options."""
    labels = st.setup.clabel
    own = [labels[c] for c in st.zones[f"hand.{st.player_name(seat)}"]]
    texts = [f"swap card={label}" for label in own]
    texts += ["swap card=blue6", "play card=red1", "draw", "play card=zz"]
    return texts


def _twin(st, seat: int, rng: random.Random):
    """A world `seat` cannot tell from `st` (a resample, its options the rules' own), or None when
    the rules' options there are not the seat's (it could tell them apart)."""
    other = st.resample(seat, rng)
    if other.pending is not None:
        other.pending = recompute_pending(other) or other.pending
    return other if other.observation_string(seat) == st.observation_string(seat) else None


def test_every_explanation_is_the_same_in_worlds_the_seat_cannot_tell_apart(hidden_top):
    rng = random.Random(11)
    pairs = differ_raw = hidden = 0
    reasons = set()
    for st in _states(hidden_top, 2, range(3)):
        for seat in range(2):
            twin = _twin(st, seat, rng)
            if twin is None:
                continue
            for text in _texts(st, seat):
                why = seat_explanation(st, text, seat)
                if why is None:
                    continue  # legal: the seat's options say so in both
                assert seat_explanation(twin, text, seat) == why, (text, str(why))
                pairs += 1
                reasons.add(why.reason)
                hidden += "cannot see" in why.message
                differ_raw += str(st.explain(text, seat)) != str(twin.explain(text, seat))
    assert pairs >= 50
    assert differ_raw > 0  # told from the real state, the answers would differ: the test bites
    assert hidden > 0 and {"not_your_decision", "domain"} <= reasons


def test_the_answer_is_the_same_whichever_card_is_on_top(hidden_top):
    """The real deck with another colour on top: a world no seat can tell from it, the same answers
    (told from the real state, `swap`'s failing condition and values would show the top card)."""
    pairs = told = 0
    for st in _states(hidden_top, 2, range(3), every=4):
        deck = st.zones["deck"]
        colour = [st.setup.cstatic[c]["colour"] for c in deck]
        other = next((i for i in range(len(deck)) if colour[i] != colour[-1]), None)
        if other is None:
            continue
        twin = st.copy()
        items = twin.writable("deck")
        items[other], items[-1] = items[-1], items[other]
        twin.forget_redealt(None)
        for seat in range(2):
            assert twin.observation_string(seat) == st.observation_string(seat)
            for text in _texts(st, seat):
                why = seat_explanation(st, text, seat)
                assert seat_explanation(twin, text, seat) == why, text
                pairs += 1
                told += why is not None and why.rule == "action:swap" and str(st.explain(text, seat)) != str(twin.explain(text, seat))
    assert pairs >= 50 and told > 0


def test_a_game_without_hidden_information_is_explained_as_it_is():
    st = leges.load(str(ROOT / "rulesets" / "tictactoe")).new_initial_state(players=2, seed=0)
    assert seat_explanation(st, "place square=r9c9", 0) == st.explain("place square=r9c9", 0)


def told_from_the_real_state(st, text, seat):
    """An explainer that tells the real state's explanation as it is (`state.explain`, for authors
    and scenarios): planted, for the leak check to find."""
    why = st.explain(text, seat)
    return None if why.legal else why


def test_check_leaks_finds_a_planted_explanation_leak(hidden_top):
    report = check_leaks(hidden_top, 2, games=2, max_decisions=None, explanations=None,
                         explainer=told_from_the_real_state)
    found = [leak for leak in report.leaks if leak.part == "explanation"]
    assert found and "why not '" in found[0].real and found[0].real != found[0].other
    assert "explanation shows what" in found[0].format()
    fixed = check_leaks(hidden_top, 2, games=2, max_decisions=None, explanations=None)
    assert fixed.ok and fixed.explained >= report.explained > 0, "\n".join(leak.format() for leak in fixed.leaks)


def test_check_leaks_finds_a_planted_forced_move_leak(capsys):
    assert main(["check-leaks", str(FORCED_TOP), "-p", "2", "--games", "1"]) == 1
    out = capsys.readouterr().out
    assert "the engine took a move by itself" in out and "action:take_" in out
    assert "«a red card is taken»" in out or "«a blue card is taken»" in out
    assert "asked by phase:play:turn" in out


def test_a_forced_move_decided_by_what_every_seat_sees_is_no_leak(hidden_top):
    """hidden_top's `act draw, play, swap` has a lone option when the hand is empty: public, no alarm."""
    report = check_leaks(hidden_top, 3, games=2, max_decisions=None, explanations=5)
    assert report.ok and report.forced > 0, "\n".join(leak.format() for leak in report.leaks)


@pytest.mark.parametrize("name, players, decisions", [
    ("tictactoe", 2, 8), ("pompeii", 3, 12), ("attika", 2, 12), ("alexander", 3, 12)])
def test_no_bundled_game_leaks_through_explanations_or_forced_moves(name, players, decisions):
    game = leges.load(str(ROOT / "rulesets" / name))
    report = check_leaks(game, players, games=1, seed=5, max_decisions=decisions, explanations=4)
    assert report.ok, "\n".join(leak.format() for leak in report.leaks)
    assert report.explained > 0


def test_state_explain_for_a_seat_is_the_seat_explanation(hidden_top):
    st = hidden_top.new_initial_state(players=2, seed=1)
    text = f"swap card={st.setup.clabel[st.zones['hand.x'][0]]}"
    assert st.explain(text, seat=0) == seat_explanation(st, text, 0)
    assert st.explain("draw", seat=0) is None  # legal


def test_a_sealed_move_the_engine_took_is_not_named_to_another_seat():
    """An explanation lists the moves the engine took by itself; another seat's secret one stays sealed."""
    st = leges.load(str(ROOT / "rulesets" / "alexander")).new_initial_state(players=3, seed=0)
    deciding = st.current_player()
    other, asker = (deciding + 1) % 3, (deciding + 2) % 3
    st.at_once = [f"{st.player_name(other)}: share order=5 armies=5 temples=5", f"{st.player_name(other)}: pass"]
    told = st.explain("share order=1 armies=1 temples=1", asker).message
    assert "'" + st.player_name(other) + ": pass'" in told and "share order=5" not in told
    own = st.explain("share order=1 armies=1 temples=1", other).message
    assert "share order=5" in own
