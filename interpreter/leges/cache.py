"""A disk cache of what loading a ruleset computes from text: syntax trees and compiled Python code.

Loading a game parses every rule text (Lark) and compiles the Python source generated for it;
a syntax tree depends only on the text and the parser, compiled code only on its source (and the
Python version), so they are kept on disk keyed by a hash of these, and a second load of an
unchanged ruleset skips that work. A game itself — closures
over the compiled code — is rebuilt every time: what is cached is plain data.

The cache lives in `$LEGES_CACHE` (a folder; `off` disables it), else in `$XDG_CACHE_HOME/leges`
or `~/.cache/leges`. It is best-effort: a folder that cannot be written, or an entry that cannot
be read, is the same as no cache. Like Python's own `__pycache__`, the entries hold compiled code
that is run: the folder must be the user's own.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import pickle
import sys
from pathlib import Path
from typing import Any, Callable

_folder: Path | None | bool = False  # False: not looked up yet; None: disabled
_PARSER_FILES = ("lang/grammar.lark", "lang/parser.py", "lang/ast.py")  # what a syntax tree depends on


def parser_fingerprint() -> str:
    """A hash of the grammar and the code that builds syntax trees: part of a tree's key, so that a
    changed parser never reads a tree an older one made."""
    here = Path(__file__).parent
    digest = hashlib.sha256(__name__.encode())  # the package's name too: trees pickle their classes by it
    for name in _PARSER_FILES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def folder() -> Path | None:
    global _folder
    if _folder is False:
        setting = os.environ.get("LEGES_CACHE")
        if setting == "off":
            _folder = None
        else:
            base = Path(setting) if setting else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "leges"
            try:
                base.mkdir(parents=True, exist_ok=True)
                _folder = base if os.access(base, os.W_OK) else None
            except OSError:
                _folder = None
    return _folder


def reset() -> None:
    """Look the folder up again (after `LEGES_CACHE` changed, in tests)."""
    global _folder
    _folder = False


def _path(kind: str, text: str) -> Path | None:
    base = folder()
    if base is None:
        return None
    digest = hashlib.sha256(f"{sys.version}\0{kind}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
    return base / digest[:2] / f"{kind}-{digest[2:]}"


def cached(kind: str, text: str, make: Callable[[], Any], dumps=pickle.dumps, loads=pickle.loads) -> Any:
    """The value `make()` gives for `text`, from the cache when it holds it."""
    path = _path(kind, text)
    if path is not None:
        try:
            return loads(path.read_bytes())
        except Exception:  # absent, or damaged: make it again
            pass
    value = make()
    if path is not None:
        try:
            path.parent.mkdir(exist_ok=True)
            temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            temporary.write_bytes(dumps(value))
            os.replace(temporary, path)
        except Exception:
            pass
    return value


def compiled(source: str, filename: str):
    """`compile(source, filename, "exec")`, through the cache."""
    return cached("code", f"{filename}\0{source}", lambda: compile(source, filename, "exec"),
                  marshal.dumps, marshal.loads)
