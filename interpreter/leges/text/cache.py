"""A disk cache of what loading a ruleset computes from text: syntax trees and compiled Python code.

Loading a game parses every rule text (Lark) and compiles the Python source generated for it;
a syntax tree depends only on the text and the parser, compiled code only on its source (and the
Python version), so they are kept on disk keyed by a hash of these and of Leges' version, and a
second load of an unchanged ruleset skips that work. A game itself — closures over the compiled
code — is rebuilt every time.

An entry is unpickled (a tree) or unmarshalled and run (code), so nothing is trusted because of
where it lies: the folder — `$LEGES_CACHE` (`off` disables it), else `$XDG_CACHE_HOME/leges` or
`~/.cache/leges` — is created 0700 and used only if it is the user's own and no one else may
write in it; every entry carries an HMAC-SHA256 of its key and content under a secret of the
user's (the file `key` there, 0600, made on first use), so a planted, foreign, moved or damaged
entry is ignored and made again. The cache is best-effort: a folder that cannot be used, or an
entry that cannot be read or written, is the same as no cache.
"""
from __future__ import annotations

import ast
import hashlib
import hmac
import marshal
import os
import pickle
import secrets
import stat
import sys
from pathlib import Path
from typing import Any, Callable, Literal, Protocol

from .errors import LegesError
from .files import read_bytes

_state: tuple[Path, bytes] | None | Literal[False] = False  # False: not looked up yet; None: disabled; else (folder, key)
_PARSER_FILES = ("lang/syntax/grammar.lark", "lang/syntax/grammar.py", "lang/syntax/parser.py", "lang/syntax/to_ast.py", "lang/syntax/ast.py")  # what a syntax tree depends on
KEY_FILE = "key"
KEY_BYTES = 32
MAX_ENTRY_BYTES = 64_000_000  # an entry larger than this is not read (the largest rule's tree: some 100 KB)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def parser_fingerprint() -> str:
    """A hash of the grammar and the code that builds syntax trees: part of a tree's key, so that a
    changed parser never reads a tree an older one made."""
    here = Path(__file__).parent.parent  # the package: the files are named from it
    digest = hashlib.sha256(__name__.encode())  # the package's name too: trees pickle their classes by it
    for name in _PARSER_FILES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def _mine(info: os.stat_result) -> bool:
    """Owned by this user (where the system has users) and writable by no one else."""
    getuid = getattr(os, "getuid", None)
    return (getuid is None or info.st_uid == getuid()) and not info.st_mode & 0o022


def private_folder(path: Path) -> Path | None:
    """`path` as a folder of the user's own (made 0700 if it is not there), or None if it is not one:
    a link, another user's folder or one others may write in is refused, never repaired."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or not _mine(info) or not os.access(path, os.W_OK):
        return None
    return path


def _secret(base: Path) -> bytes | None:
    """The user's cache key (made on first use; its file 0600 and the user's own), or None."""
    path = base / KEY_FILE
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
        except FileNotFoundError:
            _make_secret(path)
            continue
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not _mine(info) or info.st_mode & 0o077 or info.st_size != KEY_BYTES:
                return None
            key = os.read(fd, KEY_BYTES + 1)
            return key if len(key) == KEY_BYTES else None
        except OSError:
            return None
        finally:
            os.close(fd)
    return None


def _make_secret(path: Path) -> None:
    """Write a new key whole under another name, then link it in: two processes starting at once agree."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES))
        finally:
            os.close(fd)
        os.link(temporary, path)
    except OSError:  # another process linked its key first, or the folder cannot be written
        pass
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def folder() -> Path | None:
    """The cache's folder, or None when there is no usable one."""
    state = _open()
    return state[0] if state else None


def _open() -> tuple[Path, bytes] | None:
    global _state
    if _state is False:
        setting = os.environ.get("LEGES_CACHE")
        _state = None
        if setting != "off":
            wanted = Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "leges"
            base = private_folder(wanted)
            key = _secret(base) if base is not None else None
            if base is not None and key is not None:
                _state = (base, key)
    return _state or None


def reset() -> None:
    """Look the folder up again (after `LEGES_CACHE` changed, in tests)."""
    global _state
    _state = False


def _version() -> str:
    """Leges' version, part of every key: taken from the package, imported before any of its modules
    (importing it here would be an import cycle)."""
    return str(getattr(sys.modules.get(__name__.split(".")[0]), "__version__", ""))


def _entry(kind: str, text: str) -> tuple[Path, bytes, bytes] | None:
    """Where the entry for `text` lies, its name (the hash of its key) and the secret that signs it."""
    state = _open()
    if state is None:
        return None
    base, key = state
    digest = hashlib.sha256(f"{sys.version}\0{_version()}\0{kind}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    return base / digest[:2] / f"{kind}-{digest[2:]}", digest.encode(), key


def _read(path: Path, name: bytes, key: bytes) -> bytes | None:
    """The entry's content if it is a regular file and its HMAC is right, else None."""
    try:
        data = read_bytes(path, MAX_ENTRY_BYTES)
    except LegesError:
        return None
    tag, content = data[:32], data[32:]
    return content if hmac.compare_digest(tag, hmac.new(key, name + b"\0" + content, hashlib.sha256).digest()) else None


def _write(path: Path, name: bytes, key: bytes, content: bytes) -> None:
    tag = hmac.new(key, name + b"\0" + content, hashlib.sha256).digest()
    path.parent.mkdir(mode=0o700, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(tag + content)
    os.replace(temporary, path)


def cached(kind: str, text: str, make: Callable[[], Any], dumps=pickle.dumps, loads=pickle.loads) -> Any:
    """The value `make()` gives for `text`, from the cache when it holds it (signed by this user's key)."""
    entry = _entry(kind, text)
    if entry is not None:
        content = _read(*entry)
        if content is not None:
            try:
                return loads(content)
            except Exception:  # signed but unreadable (a Python that pickles otherwise): make it again
                pass
    value = make()
    if entry is not None:
        try:
            _write(*entry, dumps(value))
        except Exception:
            pass
    return value


class Transform(Protocol):
    """A rewrite of parsed source that keeps its lines' numbers; `cache_key` names what it does."""

    cache_key: str

    def __call__(self, module: ast.Module) -> ast.Module: ...


def compiled(source: str, filename: str, transform: Transform | None = None):
    """`compile(source, filename, "exec")`, through the cache; `transform`, if given, rewrites the
    parsed source first, and its `cache_key` is part of the entry's key."""
    def make():
        if transform is None:
            return compile(source, filename, "exec")
        return compile(transform(ast.parse(source, filename)), filename, "exec")
    name = "" if transform is None else transform.cache_key
    return cached("code", f"{filename}\0{name}\0{source}", make, marshal.dumps, marshal.loads)
