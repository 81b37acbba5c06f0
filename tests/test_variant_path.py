"""`--variant PATH`: a house rule kept outside the game's folder (issue 38, modders).

Someone who installed the wheel cannot write into the game's `variants/` folder in site-packages;
the file is read through the same gate as a ruleset's own (regular, size-capped, confined to its
own folder), a game played under it is replayable only with the same file, and a page request
never names a path."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import leges
from helpers import HOUSE, ROOT, ruleset_dir
from leges.cli import main
from leges.text.errors import LegesError
from leges.text.files import bundled

POMPEII = str(ROOT / "rulesets" / "pompeii")


def house(folder: Path, text: str = HOUSE, name: str = "house.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def escape_moves(game) -> int:
    return next(c.value for c in game.ruleset.constants if c.id == "escape_moves")


def test_a_house_rule_outside_the_ruleset_is_applied(tmp_path):
    path = house(tmp_path / "mine")
    game = leges.load(POMPEII, variants=[str(path)])
    assert game.variants == ("house_moves",) and escape_moves(game) == 3
    assert escape_moves(leges.load(POMPEII, variants=[str(path), "house_moves=5"])) == 5
    assert escape_moves(leges.load(POMPEII)) == 2


def test_a_house_rule_applies_to_the_bundled_copy(tmp_path):
    game_folder = bundled("rulesets") / "pompeii"
    game = leges.load(str(game_folder), variants=[str(house(tmp_path))])
    assert escape_moves(game) == 3
    assert game.ruleset.variant_files[0].path == str(tmp_path / "house.yaml")


def test_a_house_rule_and_a_variant_of_the_ruleset_together(tmp_path):
    game = leges.load(POMPEII, variants=[str(house(tmp_path)), "spare_the_weakest"])
    assert set(game.variants) == {"house_moves", "spare_the_weakest"}


def errors_of(path: str, variants) -> list[str]:
    with pytest.raises(LegesError) as info:
        leges.load(path, variants=variants)
    return [f"{d.position.file}:{d.position.line}: {d.message}" for d in info.value.diagnostics]


def test_a_missing_file_is_located(tmp_path):
    missing = str(tmp_path / "nothing.yaml")
    (error,) = errors_of(POMPEII, [missing])
    assert "nothing.yaml" in error and "no such variant file" in error


def test_a_symbolic_link_out_of_its_folder_is_refused(tmp_path):
    real = house(tmp_path / "elsewhere")
    (tmp_path / "mine").mkdir()
    link = tmp_path / "mine" / "house.yaml"
    os.symlink(real, link)
    (error,) = errors_of(POMPEII, [str(link)])
    assert "leads outside the variant file's folder" in error


def test_its_reach_is_confined_and_a_fifo_is_never_opened(tmp_path):
    """A variant file reads nothing but itself: a FIFO is refused at once, and a link to a file outside
    its folder (the nearest thing to an include: every file it could pull in) is refused."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    (error,) = errors_of(POMPEII, [str(fifo)])
    assert "FIFO" in error
    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n")
    (tmp_path / "mine").mkdir()
    os.symlink(secret, tmp_path / "mine" / "peek.yaml")
    (error,) = errors_of(POMPEII, [str(tmp_path / "mine" / "peek.yaml")])
    assert "leads outside" in error and "hunter2" not in error


def test_errors_in_the_file_are_located_in_it(tmp_path):
    bad = house(tmp_path, HOUSE.replace("patch: []", "patch: [{op: sett, section: actions, id: sacrifice}]"))
    errors = errors_of(POMPEII, [str(bad)])
    assert any(e.startswith(f"{bad}:") or "house.yaml:" in e for e in errors), errors
    not_variant = house(tmp_path, "hello: world\n", "other.yaml")
    (error,) = errors_of(POMPEII, [str(not_variant)])
    assert "other.yaml:1" in error and "not a variant" in error


def test_its_id_is_read_as_strictly_as_a_name(tmp_path):
    for bad_id in ("'house moves'", "'hоuse'", "'a\\nb'"):  # a space, a Cyrillic o, a newline
        path = house(tmp_path, HOUSE.replace("id: house_moves", f"id: {bad_id}"))
        errors = errors_of(POMPEII, [str(path)])
        assert any("house.yaml" in e for e in errors), errors


def test_its_id_may_not_shadow_a_variant_of_the_ruleset(tmp_path):
    path = house(tmp_path, HOUSE.replace("id: house_moves", "id: three_moves"))
    (error,) = errors_of(POMPEII, [str(path)])
    assert "declared twice" in error and "house.yaml" in error


def test_a_record_under_it_replays_with_the_same_file_only(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = house(tmp_path / "mine")
    assert main(["simulate", POMPEII, "-p", "3", "-g", "1", "--variant", "mine/house.yaml",
                 "--records", "out", "--quiet"]) == 0 or True
    (record_path,) = (tmp_path / "out").glob("*.json")
    record = json.loads(record_path.read_text())
    (entry,) = record["variant_files"]
    assert entry["id"] == "house_moves" and entry["path"] == "mine/house.yaml" and len(entry["sha256"]) == 64
    capsys.readouterr()
    assert main(["replay", str(record_path), "--variant", "mine/house.yaml"]) == 0
    assert "every action was legal" in capsys.readouterr().out
    assert main(["replay", str(record_path)]) == 2  # the record never makes Leges read a file it names
    err = capsys.readouterr().err
    assert f"{record_path.name}:" in err.replace(str(record_path), record_path.name) and "--variant mine/house.yaml" in err
    path.write_text(HOUSE.replace("default: 3", "default: 4"))  # another file under the same name
    assert main(["replay", str(record_path), "--variant", "mine/house.yaml"]) == 2
    assert "not the one the record was played under" in capsys.readouterr().err


def test_compare_takes_a_path_for_b(tmp_path, capsys):
    from leges.cli.compare import resolve_variants
    path = house(tmp_path)
    assert resolve_variants(POMPEII, f"{path},house_moves=4", "--b") == [str(path), "house_moves=4"]
    with pytest.raises(LegesError, match="belongs to several variants"):  # the file's parameters are known too
        resolve_variants(POMPEII, f"{path},escape_moves=4", "--b")


@pytest.mark.parametrize("request_", ["/tmp/house.yaml", "house.yaml", "../variants/x", "a/b"])
def test_a_page_request_naming_a_path_is_refused(request_):
    from leges.web.request_fields import variant_requests
    with pytest.raises(LegesError) as info:
        variant_requests([request_], [])
    assert info.value.diagnostics[0].position.file == "variants"


def test_serve_takes_a_path_on_the_command_line(tmp_path):
    from leges.web.session import Workspace
    path = house(tmp_path)
    ws = Workspace(POMPEII, [str(path)])
    version, game = ws.private_game()
    assert escape_moves(game) == 3


def test_the_game_folder_is_never_written_to(tmp_path):
    """As from an installed wheel: the game's folder read-only, the house rule beside the player's files."""
    import shutil
    import stat
    game = tmp_path / "site-packages" / "pompeii"
    shutil.copytree(bundled("rulesets") / "pompeii", game)
    for folder, _, names in os.walk(game):
        for name in names:
            os.chmod(Path(folder) / name, stat.S_IRUSR)
        os.chmod(folder, stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert escape_moves(leges.load(str(game), variants=[str(house(tmp_path / "home"))])) == 3
    finally:
        for folder, _, _ in os.walk(game):
            os.chmod(folder, stat.S_IRWXU)


def test_validate_checks_a_house_rule_with_its_game(tmp_path, capsys):
    path = house(tmp_path)
    assert main(["validate", POMPEII, "--variant", str(path)]) == 0
    assert main(["validate", str(path)]) == 2
    assert "leges validate RULESET --variant PATH" in capsys.readouterr().err


def test_a_record_naming_the_path_as_requested_replays_and_the_page_refuses_it(tmp_path, capsys, monkeypatch):
    """`leges serve --variant PATH` writes the table's variants as requested (the path): `leges replay`
    takes it given the file again; a path the record's variant_files do not name is refused on reading,
    and the page never takes one."""
    from leges.lab.records import read_record
    from leges.web.request_fields import variant_requests
    monkeypatch.chdir(tmp_path)
    house(tmp_path / "mine")
    main(["simulate", POMPEII, "-p", "3", "-g", "1", "--variant", "mine/house.yaml", "--records", "out", "--quiet"])
    (record_path,) = (tmp_path / "out").glob("*.json")
    record = json.loads(record_path.read_text())
    record["variants"] = ["mine/house.yaml"]
    record_path.write_text(json.dumps(record, indent=1))
    assert read_record(str(record_path))["variants"] == ["mine/house.yaml"]
    capsys.readouterr()
    assert main(["replay", str(record_path), "--variant", "mine/house.yaml"]) == 0
    with pytest.raises(LegesError):
        variant_requests(record["variants"], [])
    record["variants"] = ["elsewhere/house.yaml"]
    record_path.write_text(json.dumps(record, indent=1))
    with pytest.raises(LegesError) as info:
        read_record(str(record_path))
    assert "the record's variants" in info.value.diagnostics[0].message
    assert info.value.diagnostics[0].position.line > 1


def test_what_is_a_path():
    from leges.model.variants.outside import is_path
    assert is_path("house.yaml") and is_path("h.yml") and is_path("../x/h") and is_path("~/h.yaml")
    assert not is_path("three_moves") and not is_path("three_moves=4")
    assert not is_path("motto=a/b.yaml") and not is_path("house.motto=a/b")


def test_a_record_keeps_the_variants_parameters_and_replays_under_them(tmp_path):
    """`--variant three_moves.escape_moves=5`: the record keeps the value, not the variant's id alone
    (with the default of 3 moves, the record's fourth and fifth moves of a turn were refused)."""
    from leges.cli import main
    from leges.lab.records import read_record
    folder = tmp_path / "records"
    assert main(["simulate", str(ruleset_dir("pompeii")), "-p", "3", "-g", "2", "-q",
                 "--variant", "three_moves.escape_moves=5", "--records", str(folder)]) == 0
    for path in sorted(folder.glob("*.json")):
        assert read_record(str(path))["variants"] == ["three_moves.escape_moves=5"]
        assert main(["replay", str(path)]) == 0
    game = leges.load(str(ruleset_dir("pompeii")), variants=["three_moves=5"])
    assert game.variants == ("three_moves",) and game.variant_requests == ("three_moves=5",)
