"""A variant file's `include` (issue 38, modders): a house rule split into files as a ruleset is, its
includes read through the same gate as a ruleset's (model/includes.py) and confined to the variant
file's own folder — for `--variant PATH` the folder holding PATH, for a ruleset's own variant its
`variants/` folder. A path leading out is refused at the include's line, with a hint."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import leges
from helpers import ROOT, maps_dir
from leges.text.errors import LegesError

POMPEII = ROOT / "rulesets" / "pompeii"
HOUSE = """leges_variant: 1
id: house_split
title: "House rule in two files"
kind: house_rule
provenance: {status: house_rule, note: "its operations live in parts/moves.yaml"}
parameters: [{id: escape_moves, type: int, default: 3, min: 1, max: 6}]
include:
  - {include}
patch: []
"""
PART = """patch:
  - {op: set, section: constants, id: opening_lava_tiles, key: value, value: 4}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def constant(game, name: str):
    return next(c.value for c in game.ruleset.constants if c.id == name)


def errors_of(ruleset, variants) -> list:
    with pytest.raises(LegesError) as info:
        leges.load(str(ruleset), variants=variants)
    return info.value.diagnostics


def test_a_house_rule_outside_the_ruleset_includes_a_file_of_its_folder(tmp_path):
    path = write(tmp_path / "mine" / "house.yaml", HOUSE.replace("{include}", "parts/moves.yaml"))
    write(tmp_path / "mine" / "parts" / "moves.yaml", PART)
    game = leges.load(str(POMPEII), variants=[str(path)])
    assert constant(game, "opening_lava_tiles") == 4 and constant(game, "escape_moves") == 3
    assert constant(leges.load(str(POMPEII)), "opening_lava_tiles") == 6


def test_an_include_leading_out_of_the_folder_is_refused_at_its_line(tmp_path):
    path = write(tmp_path / "mine" / "house.yaml", HOUSE.replace("{include}", "../secret.yaml"))
    write(tmp_path / "secret.yaml", PART)
    (error,) = errors_of(POMPEII, [str(path)])
    assert error.position.file.endswith("house.yaml") and (error.position.line, error.position.col) == (8, 5)
    assert "include '../secret.yaml' is outside the variant file's folder" in error.message
    assert "confined to its own folder" in (error.hint or "")
    for absolute in (str(tmp_path / "secret.yaml"), "/etc/passwd"):
        path.write_text(HOUSE.replace("{include}", absolute), encoding="utf-8")
        (error,) = errors_of(POMPEII, [str(path)])
        assert "is outside the variant file's folder" in error.message and error.position.line == 8


def test_a_symbolic_link_out_of_the_folder_is_refused(tmp_path):
    write(tmp_path / "secret.yaml", "password: hunter2\n")
    path = write(tmp_path / "mine" / "house.yaml", HOUSE.replace("{include}", "peek.yaml"))
    os.symlink(tmp_path / "secret.yaml", tmp_path / "mine" / "peek.yaml")
    (error,) = errors_of(POMPEII, [str(path)])
    assert "leads outside the variant file's folder" in error.message and "hunter2" not in error.message


def test_mistakes_in_an_included_file_are_located_in_it(tmp_path):
    path = write(tmp_path / "house.yaml", HOUSE.replace("{include}", "parts/moves.yaml"))
    part = write(tmp_path / "parts" / "moves.yaml", PART.replace("opening_lava_tiles", "opening_lava"))
    (error,) = errors_of(POMPEII, [str(path)])
    assert error.position.file.endswith("moves.yaml") and error.position.line == 2, error
    assert "no constants item 'opening_lava'" in error.message
    part.write_text(PART.replace("op: set", "op: sett"), encoding="utf-8")
    errors = errors_of(POMPEII, [str(path)])
    assert all(e.position.file.endswith("moves.yaml") and e.position.line == 2 for e in errors), errors
    part.write_text("id: sneaky\n" + PART, encoding="utf-8")
    (error,) = errors_of(POMPEII, [str(path)])
    assert error.position.file.endswith("moves.yaml") and "belongs in the variant file" in error.message
    missing = write(tmp_path / "house.yaml", HOUSE.replace("{include}", "parts/move.yaml"))
    (error,) = errors_of(POMPEII, [str(missing)])
    assert "included file 'parts/move.yaml' does not exist" in error.message and "moves.yaml" in (error.hint or "")


def test_a_variant_of_the_ruleset_includes_a_file_of_its_variants_folder(tmp_path):
    game = tmp_path / "pompeii"
    shutil.copytree(POMPEII, game)
    shutil.copytree(maps_dir(), tmp_path / "maps")
    write(game / "variants" / "split.yaml", HOUSE.replace("{include}", "parts/moves.yaml"))
    write(game / "variants" / "parts" / "moves.yaml", PART)
    assert constant(leges.load(str(game), variants=["house_split"]), "opening_lava_tiles") == 4
    # a file directly in variants/ that a variant includes is a part of it, not a variant of its own
    write(game / "variants" / "split.yaml", HOUSE.replace("{include}", "moves_part.yaml"))
    write(game / "variants" / "moves_part.yaml", PART)
    assert constant(leges.load(str(game), variants=["house_split"]), "opening_lava_tiles") == 4
    # the variants/ folder is the limit: the ruleset's own files are outside it
    (game / "variants" / "moves_part.yaml").unlink()
    write(game / "variants" / "split.yaml", HOUSE.replace("{include}", "../setup.yaml"))
    (error,) = errors_of(game, ["house_split"])
    assert error.position.file.endswith("split.yaml") and "outside the variant file's folder" in error.message


def test_a_record_digest_covers_the_included_files(tmp_path):
    path = write(tmp_path / "house.yaml", HOUSE.replace("{include}", "parts/moves.yaml"))
    part = write(tmp_path / "parts" / "moves.yaml", PART)
    before = leges.load(str(POMPEII), variants=[str(path)]).ruleset.variant_files[0].sha256
    part.write_text(PART.replace("value: 4", "value: 5"), encoding="utf-8")
    after = leges.load(str(POMPEII), variants=[str(path)]).ruleset.variant_files[0].sha256
    assert before != after
