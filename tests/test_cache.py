"""The disk cache of syntax trees and compiled code (leges/text/cache.py): served when the text is the same,
never when it differs, harmless when damaged or switched off; nothing in it is trusted because of where
it lies (a planted, foreign or moved entry is ignored and made again; a folder others may write in is
not used)."""
from __future__ import annotations

import os
import pickle
import stat

import pytest

from leges.text import cache
from leges.lang.syntax import grammar, parser
from leges.text.origin import TextOrigin

ORIGIN = TextOrigin("<test>", 1, 1)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("LEGES_CACHE", str(tmp_path))
    cache.reset()
    yield tmp_path
    cache.reset()


def _entries(folder, kinds=("tree", "code")):
    """The entries of these kinds (not the key, nor the parser's tables unless asked)."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name.split("-")[0] in kinds)


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


class _Planted:
    """A pickle that runs code when loaded: it makes the folder `marker`."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _make_counted():
    calls = []

    def make():
        calls.append(1)
        return ["made", len(calls)]
    return make, calls


def test_a_planted_pickle_is_never_loaded_and_is_made_again(folder, tmp_path_factory):
    marker = tmp_path_factory.mktemp("planted") / "ran"
    path, _, _ = cache._entry("tree", "some text")
    path.parent.mkdir(exist_ok=True)
    for planted in (pickle.dumps(_Planted(marker)), b"\0" * 32 + pickle.dumps(_Planted(marker))):
        path.write_bytes(planted)
        make, calls = _make_counted()
        assert cache.cached("tree", "some text", make) == ["made", 1] and calls == [1]
        assert not marker.exists()
        assert cache.cached("tree", "some text", make) == ["made", 1] and calls == [1]  # the rebuilt entry serves


def test_an_entry_moved_to_another_key_or_signed_by_another_user_is_ignored(folder, tmp_path, monkeypatch):
    make, calls = _make_counted()
    cache.cached("tree", "one", make)
    one, _, _ = cache._entry("tree", "one")
    two, _, _ = cache._entry("tree", "two")
    two.parent.mkdir(exist_ok=True)
    two.write_bytes(one.read_bytes())  # a valid entry, under another text's name
    assert cache.cached("tree", "two", make) == ["made", 2]
    other = tmp_path / "other"  # another user's cache, with its own key: the same entry is not theirs
    other.mkdir(mode=0o700)
    monkeypatch.setenv("LEGES_CACHE", str(other))
    cache.reset()
    moved, _, _ = cache._entry("tree", "one")
    moved.parent.mkdir(exist_ok=True)
    moved.write_bytes(one.read_bytes())
    assert cache.cached("tree", "one", make) == ["made", 3]


def test_a_fifo_or_a_link_to_a_device_as_an_entry_is_ignored(folder):
    make, calls = _make_counted()
    path, _, _ = cache._entry("tree", "fifo")
    path.parent.mkdir(exist_ok=True)
    os.mkfifo(path)
    assert cache.cached("tree", "fifo", make) == ["made", 1]  # never waits for a writer
    path, _, _ = cache._entry("tree", "zero")
    path.parent.mkdir(exist_ok=True)
    path.symlink_to("/dev/zero")
    assert cache.cached("tree", "zero", make) == ["made", 2]


def test_the_folder_is_made_private_and_its_key_is_the_users_alone(tmp_path, monkeypatch):
    base = tmp_path / "made" / "leges"
    monkeypatch.setenv("LEGES_CACHE", str(base))
    cache.reset()
    try:
        assert cache.folder() == base
        assert stat.S_IMODE(base.stat().st_mode) == 0o700
        assert stat.S_IMODE((base / cache.KEY_FILE).stat().st_mode) == 0o600
        key = (base / cache.KEY_FILE).read_bytes()
        cache.reset()
        assert cache.folder() == base and (base / cache.KEY_FILE).read_bytes() == key  # kept, not made again
    finally:
        cache.reset()


@pytest.mark.parametrize("spoil", ["group-writable", "link", "foreign", "key-readable", "key-short", "key-link"])
def test_a_folder_or_key_not_the_users_own_means_no_cache(tmp_path, monkeypatch, spoil):
    base = tmp_path / "cache"
    base.mkdir(mode=0o700)
    monkeypatch.setenv("LEGES_CACHE", str(base))
    cache.reset()
    assert cache.folder() == base  # the key is made
    key = base / cache.KEY_FILE
    if spoil == "group-writable":
        base.chmod(0o770)
    elif spoil == "link":
        monkeypatch.setenv("LEGES_CACHE", str(tmp_path / "link"))
        (tmp_path / "link").symlink_to(base)
    elif spoil == "foreign":
        if os.geteuid() != 0:
            pytest.skip("only root can give a folder to another user")
        os.chown(base, 65534, 65534)
    elif spoil == "key-readable":
        key.chmod(0o644)
    elif spoil == "key-short":
        key.write_bytes(b"short")
    else:
        key.unlink()
        key.symlink_to(tmp_path / "elsewhere")
        (tmp_path / "elsewhere").write_bytes(b"k" * cache.KEY_BYTES)
        (tmp_path / "elsewhere").chmod(0o600)
    cache.reset()
    try:
        assert cache.folder() is None
        make, calls = _make_counted()
        assert cache.cached("tree", "x", make) == ["made", 1] and cache.cached("tree", "x", make) == ["made", 2]
    finally:
        cache.reset()


def test_the_parsers_tables_are_kept_in_the_signed_cache_not_in_the_shared_temporary_folder(folder, tmp_path_factory,
                                                                                            monkeypatch):
    """Lark's own cache (`cache=True`) would unpickle $TMPDIR/.lark_cache_<user>_<hash>_<python>.tmp, a name
    anyone can plant; the tables go through cache.py instead, and a planted entry there is ignored."""
    import tempfile
    shared = tmp_path_factory.mktemp("shared-tmp")
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.setattr(grammar, "lark_parser", grammar.lark_parser.__wrapped__)  # built afresh, not this process's own
    source = "if a:\n  x = 1\n"
    tree = grammar.lark_parser().parse(source, start="program")
    assert list(shared.iterdir()) == []
    assert len(_entries(folder, ("parser",))) == 1
    marker = shared / "ran"
    _entries(folder, ("parser",))[0].write_bytes(pickle.dumps(_Planted(marker)))
    assert grammar.lark_parser().parse(source, start="program") == tree and not marker.exists()


def test_another_version_of_leges_reads_no_entry_of_this_one(folder, monkeypatch):
    import leges
    make, calls = _make_counted()
    cache.cached("tree", "versioned", make)
    monkeypatch.setattr(leges, "__version__", leges.__version__ + ".next")
    assert cache.cached("tree", "versioned", make) == ["made", 2]
