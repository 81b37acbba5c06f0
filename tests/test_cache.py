"""The disk cache of syntax trees and compiled code (leges/cache.py): served when the text is the same,
never when it differs, harmless when damaged or switched off."""
from __future__ import annotations

import pytest

from leges import cache
from leges.lang import parser
from leges.source import TextOrigin

ORIGIN = TextOrigin("<test>", 1, 1)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGES_CACHE", str(tmp_path))
    cache.reset()
    yield tmp_path
    cache.reset()


def _entries(folder):
    return sorted(p for p in folder.rglob("*") if p.is_file())


def test_a_tree_is_parsed_once_and_then_read_from_disk(folder, monkeypatch):
    first = parser.parse_expression("count(xs, x => x > 1) + 2", ORIGIN)
    assert len(_entries(folder)) == 1
    monkeypatch.setattr(parser, "_parse_expression", lambda *a: pytest.fail("parsed again"))
    assert parser.parse_expression("count(xs, x => x > 1) + 2", ORIGIN) == first


def test_another_text_is_another_entry(folder):
    assert parser.parse_expression("1 + 2", ORIGIN) != parser.parse_expression("1 - 2", ORIGIN)
    assert len(_entries(folder)) == 2


def test_a_damaged_entry_is_made_again(folder):
    tree = parser.parse_expression("a and b", ORIGIN)
    for path in _entries(folder):
        path.write_bytes(b"not a pickle")
    assert parser.parse_expression("a and b", ORIGIN) == tree


def test_a_text_with_an_error_is_not_cached(folder):
    from leges import LegesError
    for _ in range(2):
        with pytest.raises(LegesError):
            parser.parse_expression("1 +", ORIGIN)
    assert _entries(folder) == []


def test_compiled_code_is_cached_and_runs(folder):
    code = cache.compiled("x = 40 + 2\n", "<test>")
    again = cache.compiled("x = 40 + 2\n", "<test>")
    namespace: dict = {}
    exec(again, namespace)
    assert namespace["x"] == 42 and code.co_filename == again.co_filename == "<test>"
    assert len(_entries(folder)) == 1


def test_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGES_CACHE", "off")
    cache.reset()
    try:
        parser.parse_expression("1 + 1", ORIGIN)
        assert cache.folder() is None
    finally:
        cache.reset()
