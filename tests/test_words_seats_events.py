"""Seats' display names (`seats[].say`) and events told (an event with a phrase writes a log line that
front ends word), and the zones and cards an action names on a table without a map — without a
browser (tests/test_web_table.py plays the same game by clicks in one).

The display names and phrases are for people only: action texts, records, saved states and the
API's texts keep the seats' names."""
from __future__ import annotations

from pathlib import Path

import pytest

import leges
from helpers import ruleset_dir
from leges.engine.words import seat_called, worded, worded_entry, worded_log
from leges.render.actions import describe_actions
from leges.render.screen import screen
from leges.render.view import new_lines, told_view, words_view

CARD_TABLE = Path(__file__).parent / "rulesets" / "card_table"


@pytest.fixture(scope="module")
def cards():
    return leges.load(str(CARD_TABLE))


def lay_on_row(st):
    action = next(a for a in st.legal_actions(st.current_player()) if a.text.startswith("lay ") and "to=row." in a.text)
    st.apply_action(action)
    return action


def test_a_seat_has_display_names_and_keeps_its_name(cards):
    st = cards.new_initial_state(players=2, seed=1)
    assert st.setup.seat_names == ["north", "south"]
    assert all("say" not in props for props in st.setup.seat_props)  # not a property: rules cannot read it
    assert seat_called(cards, "north", "hu") == "Észak" and seat_called(cards, "north", "de") == "North"
    assert seat_called(cards, "nobody", "hu") == "nobody"
    action = lay_on_row(st)
    assert st.history == [f"north: {action.text}"]  # the text form, as the records write it
    card = action.text.split()[1].split("=")[1]
    assert worded_entry(cards, st.history[0], "hu") == f"Észak: Leteszi: {card} → sor Észak"
    assert worded(cards, "lay card=red1 to=row.south", "en") == "Lay red1 on the row South"  # a seat's zone
    assert "hu" in cards.words.languages


def test_a_rule_cannot_read_a_seats_display_names(tmp_path):
    import shutil
    folder = tmp_path / "card_table"
    shutil.copytree(CARD_TABLE, folder)
    path = folder / "ruleset.yaml"
    path.write_text(path.read_text().replace("score: sum([c.number for c in row(p)])", "score: count(p.say)"))
    with pytest.raises(leges.LegesError) as err:
        leges.load(str(folder))
    assert "say" in str(err.value)


def test_the_bundled_seats_in_their_rulebooks_words():
    pompeii, attika, alexander = (leges.load(str(ruleset_dir(g))) for g in ("pompeii", "attika", "alexander"))
    assert [seat_called(pompeii, s, "hu") for s in ("red", "black", "yellow", "blue")] == ["vörös", "fekete", "sárga", "kék"]
    assert [seat_called(pompeii, s, "ru") for s in ("red", "black", "yellow", "blue")] == ["красный", "черный", "желтый", "синий"]
    assert seat_called(attika, "thebes", "hu") == "thébai" and seat_called(attika, "thebes", "en") == "Thebes"
    assert seat_called(alexander, "green", "hu") == "zöld"
    assert worded_entry(pompeii, "red: take_pile k=2", "hu") == "vörös: A(z) 2. négylapos paklit választja"
    assert worded_entry(pompeii, "red: take_pile k=2", "en").startswith("red: ")
    st = pompeii.new_initial_state(players=2, seed=1)
    assert st.setup.seat_names == ["red", "black"] and st.legal_actions(0)[0].text.startswith("take_pile")
    lines = screen(st, 0, lang="hu")
    assert "turn of vörös" in lines[0] and "you are vörös" in lines[0]
    assert any(line.startswith("   fekete: ") for line in lines)
    assert any("dealer fekete" in line for line in lines)  # a variable holding a seat, by its display name
    assert "you are red" in screen(st, 0)[0]  # no language: the names (as check-leaks compares screens)


def test_leges_doc_names_each_seat_and_its_display_names(capsys):
    from leges.cli import main
    assert main(["doc", str(ruleset_dir("pompeii")), "--lang", "hu"]) == 0
    out = capsys.readouterr().out
    assert "`red` “vörös” (ru “красный”)" in out


def test_an_event_with_a_phrase_is_told_as_a_log_line(cards):
    st = cards.new_initial_state(players=2, seed=1)
    assert st.log == []
    action = lay_on_row(st)
    card = action.text.split()[1].split("=")[1]
    assert st.log == [f"laid player=north card={card}"]  # its text form: the event and its parameters
    seats = st.setup.seat_names
    assert worded_log(cards, st.log[0], "en", seats) == f"North lays {card} on the row"
    assert worded_log(cards, st.log[0], "hu", seats) == f"Észak a sorára teszi: {card}"
    assert worded_log(cards, "laid someone", "en", seats) is None  # not its text form: the ruleset's own text
    assert cards.words.told("laid player=north card=a b") == ("laid", {"player": "north", "card": "a b"})
    view = words_view(st, 1)  # every seat is told it, as a log line
    assert view["log"] == [{"text": st.log[0], "words": {"en": f"North lays {card} on the row",
                                                           "hu": f"Észak a sorára teszi: {card}"}}]
    assert view["seats"]["south"] == {"en": "South", "hu": "Dél"}


def test_an_event_without_a_phrase_writes_nothing():
    sample = leges.load(str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "sample"))
    st = sample.new_initial_state(players=2, seed=0)
    st.apply_action(st.legal_actions(st.current_player())[0])  # `place` emits `scored`, which has no phrase
    assert "scored" in st.fired and st.log == []


def test_the_log_lines_told_after_their_entries():
    assert new_lines(["a", "b"], ["a", "b", "c"]) == ["c"]
    assert new_lines(["a", "b", "c"], ["b", "c", "d", "e"]) == ["d", "e"]  # the log dropped its first line
    assert new_lines(["a"], ["a", "a"]) == ["a"]
    game = leges.load(str(CARD_TABLE))
    told = told_view(game, {1: ["laid player=south card=red2", "a line of the ruleset's own"]}, 3, ["north", "south"])
    assert told == [{"after": 1, "text": "laid player=south card=red2",
                     "words": {"en": "South lays red2 on the row", "hu": "Dél a sorára teszi: red2"}}]
    assert told_view(game, {4: ["laid player=south card=red2"]}, 3, ["north", "south"]) == []


def test_the_zones_and_cards_an_action_names_on_a_table(cards):
    st = cards.new_initial_state(players=2, seed=1)
    hand = [st.setup.clabel[c] for c in st.zones["hand.north"]]
    infos = describe_actions(st, 0)
    assert infos and all(a.text.startswith("lay ") for a in infos)
    for a in infos:
        label = a.text.split()[1].split("=")[1]
        to = a.text.split()[2].split("=")[1]
        assert a.zones == [to] and a.cards == [{"zone": "hand.north", "label": label}] and label in hand
        assert a.to_json()["zones"] == [to] and a.spaces == []
    while st.current_player() != 0 or not any(a.text.startswith("draw") for a in st.legal_actions(0)):
        st.apply_action(st.legal_actions(st.current_player())[-1])  # lay on the discard pile: a draw to choose
    draws = {a.text: a for a in describe_actions(st, 0)}
    assert draws["draw pile=deck"].zones == ["deck"] and draws["draw pile=discard"].zones == ["discard"]
    assert all(a.cards == [] for a in draws.values())


def test_a_card_in_a_hidden_zone_is_not_pointed_at(cards):
    from leges.render.actions import seen_zones, table_targets
    st = cards.new_initial_state(players=2, seed=1)
    seen = seen_zones(st, 0)
    assert seen["hand.south"] == [] and seen["deck"] == [] and seen["hand.north"] == st.zones["hand.north"]
    theirs = st.setup.clabel[st.zones["hand.south"][0]]
    assert table_targets(st, f"lay card={theirs} to=discard", "lay", None, seen) == (["discard"], [])


def test_the_page_payload_tells_events_and_news_in_words(serving):
    from helpers import send
    server = serving(CARD_TABLE)
    status, info = send(server, "/api/info")
    assert status == 200 and info["seat_words"]["north"]["hu"] == "Észak" and info["seats"] == ["north", "south", "east"]
    status, view = send(server, "/api/play", {"players": 2, "seat": "north", "agents": "random", "seed": 1})
    assert status == 200 and view["seat"] == "north" and view["words"]["seats"]["north"]["hu"] == "Észak"
    lay = next(a for a in view["actions"] if "to=row.north" in a["text"])
    assert lay["zones"] == ["row.north"] and lay["cards"][0]["zone"] == "hand.north"
    status, view = send(server, f"/api/play/{view['match']}/act", {"action": lay["text"]})
    assert status == 200
    card = lay["cards"][0]["label"]
    told = [t for t in view["told"] if t["text"] == f"laid player=north card={card}"]
    assert told and told[0]["after"] == 1 and told[0]["words"]["hu"] == f"Észak a sorára teszi: {card}"
    assert told[0] in view["news_told"]  # news: what came since the page last looked
    assert [w["text"] for w in view["news_words"]] == view["news"]
    assert all(w["words"]["en"].startswith("South: ") for w in view["news_words"])
    status, again = send(server, f"/api/play/{view['match']}")
    assert status == 200 and again["news_told"] == [] and told[0] in again["told"]


def test_leges_replay_tells_each_move_then_the_events_it_fired(cards, tmp_path, capsys):
    import json
    import random as _random
    from leges.cli import main
    from leges.lab.records import make_record
    st = cards.new_initial_state(players=2, seed=3)
    rng = _random.Random(3)
    laid_at = None
    for i in range(12):
        if st.is_terminal():
            break
        before = len(st.log)
        actions = st.legal_actions(st.current_player())
        action = actions[rng.randrange(len(actions))]
        st.apply_action(action)
        if laid_at is None and len(st.log) > before and action.text.startswith("lay "):
            laid_at = i + 1  # the first move that fired `laid`
    assert laid_at is not None
    record = tmp_path / "game.json"
    record.write_text(json.dumps(make_record(cards, str(CARD_TABLE), 2, 3, st.record_view(None), {})), encoding="utf-8")
    capsys.readouterr()
    main(["replay", str(record), "--lang", "hu"])
    out = capsys.readouterr().out.splitlines()
    row = next(i for i, line in enumerate(out) if line.lstrip().startswith(f"{laid_at}. "))
    assert out[row + 1].startswith("        log: ") and "a sorára teszi:" in out[row + 1]  # the event, in words, after its move
    assert not any(line.startswith("        log: laid ") for line in out)  # never the raw event line


def test_leges_doc_lists_the_events_with_their_words(capsys):
    from leges.cli import main
    assert main(["doc", str(CARD_TABLE), "--lang", "hu"]) == 0
    out = capsys.readouterr().out
    events = out.split("## Events", 1)[1].split("\n## ", 1)[0]
    assert "#### Event `laid`" in events
    assert "- in words: “{player} a sorára teszi: {card}”" in events
    assert "- parameters: `player`: player, `card`: component" in events
