"""The one gate through which Leges reads files: rulesets, maps, variants, scenarios, records, rulebooks.

A ruleset, a record or a saved state may come from a stranger, so reading must neither hang
nor wander: only regular files are opened (never a FIFO, a device or a socket — they are
opened without blocking and refused after `fstat`), a file named by another file must
resolve (symbolic links followed) inside the folders it may use, its size is checked before
reading and the read itself is bounded, so `/dev/zero` or a file that grows while it is read
cannot exhaust memory. Every refusal is a located `LegesError` that never shows the file's
content.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from .errors import Diagnostic, LegesError, Position
from .terminal import shown

# Caps on what is read. They are far above the bundled games (the largest file is 24 KB, a
# whole ruleset 100 KB with 2,000 values and 7,000 characters of rules) and low enough that
# anything under them is read, parsed, checked and compiled in under two seconds.
MAX_YAML_BYTES = 512_000  # one ruleset, map, variant or scenario file
MAX_RULESET_BYTES = 1_000_000  # all files of one ruleset together (with its variants and map)
MAX_RULESET_VALUES = 20_000  # YAML values of all those files together (see source.MAX_NODES for one)
MAX_JSON_BYTES = 4_000_000  # a game record or a saved state (a 10,000-turn game's record: about 1 MB)
MAX_TEXT_BYTES = 4_000_000  # a rulebook's text (`leges coverage`)
HEAD_BYTES = 4000  # what is looked at to tell a map, a scenario and a ruleset apart
# What a tool copies out of one ruleset's folder (`leges mutate`, the `--dask` bundle): the bundled
# games hold under 300 KB in 30 files; a rulebook's text, pictures and notes may come along.
MAX_COPY_BYTES = 32_000_000
MAX_COPY_FILES = 2_000


@dataclass(frozen=True)
class Root:
    """A folder files may be read from, and how to name it in a message."""

    path: Path  # resolved (no symbolic links left)
    name: str  # e.g. "the ruleset's folder"

    @classmethod
    def of(cls, folder: str | Path, name: str) -> "Root":
        return cls(Path(os.path.realpath(folder)), name)

    def holds(self, real: Path) -> bool:
        return real == self.path or self.path in real.parents


def display(path: str | Path) -> str:
    """A path as shown in messages: relative to the working folder when that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if len(rel) <= len(str(path)) or not os.path.isabs(str(path)) else str(path)


def _error(shown: str, message: str, hint: str | None = None, line: int = 0) -> LegesError:
    return LegesError(Diagnostic(Position(shown, line, 1 if line else 0), message, hint))


def confine(path: str | Path, roots: list[Root] | tuple[Root, ...], shown: str | None = None) -> Path:
    """The real path of `path`, which must lie inside one of `roots` once symbolic links are followed."""
    shown = shown or display(path)
    real = Path(os.path.realpath(path))
    if any(root.holds(real) for root in roots):
        return real
    names = " or ".join(sorted({root.name for root in roots})) or "the folders it may use"
    raise _error(shown, f"'{shown}' leads outside {names}",
                 "a ruleset reads only files inside its own folder and maps/NAME.yaml; "
                 "a symbolic link may not lead out of them")


def read_bytes(path: str | Path, limit: int, shown: str | None = None, roots=None, what: str = "file") -> bytes:
    """The content of a regular file of at most `limit` bytes, inside `roots` when given.

    The file is opened with O_NONBLOCK (a FIFO opens at once instead of waiting for a writer)
    and checked with fstat before a single byte is read; the read stops at limit + 1 bytes. Its
    branches are the file gate's checks, in the order they must be made: kept in one function so
    that none can be skipped.
    """
    shown = shown or display(path)
    if "\0" in str(path):
        raise _error(shown.replace("\0", "\\0"), f"not a valid {what} name (it holds a NUL character)")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if roots is not None:
        path = confine(path, roots, shown)
        flags |= getattr(os, "O_NOFOLLOW", 0)  # the real path has no link left: one put there since is refused
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise _error(shown, f"no such {what}") from None
    except IsADirectoryError:
        raise _error(shown, f"is a directory, expected a {what}") from None
    except PermissionError:
        raise _error(shown, f"cannot read the {what}: permission denied") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _error(shown, f"cannot read the {what}: too many levels of symbolic links") from None
        if exc.errno == errno.ENXIO:  # a socket (or a device without its driver): nothing to open
            raise _error(shown, "is a socket or a device, not a regular file",
                         "Leges reads only ordinary files (never FIFOs, devices or sockets)") from None
        raise _error(shown, f"cannot read the {what}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _error(shown, f"is a directory, expected a {what}")
        if not stat.S_ISREG(info.st_mode):
            kind = ("a FIFO" if stat.S_ISFIFO(info.st_mode) else "a device" if stat.S_ISCHR(info.st_mode)
                    or stat.S_ISBLK(info.st_mode) else "a socket" if stat.S_ISSOCK(info.st_mode) else "not a file")
            raise _error(shown, f"is {kind}, not a regular file",
                         "Leges reads only ordinary files (never FIFOs, devices or sockets)")
        if info.st_size > limit:
            raise _too_large(shown, limit, what)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            except BlockingIOError:  # cannot happen for a regular file; never wait
                break
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise _too_large(shown, limit, what)
        return b"".join(chunks)
    except OSError as exc:
        raise _error(shown, f"cannot read the {what}: {exc.strerror}") from None
    finally:
        os.close(fd)


def _too_large(shown: str, limit: int, what: str) -> LegesError:
    return _error(shown, f"the {what} is larger than {limit:,} bytes (the limit for one {what})",
                  "split it (a ruleset may `include` several files) or shorten it", line=1)


def decode(data: bytes, shown: str, what: str = "file") -> str:
    """UTF-8 text; a byte that is not UTF-8 is reported at its line and column, never shown."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise LegesError(Diagnostic(Position(shown, line, col), f"not UTF-8 text: {exc.reason}",
                                    f"save the {what} as UTF-8")) from None


def read_text(path: str | Path, limit: int, shown: str | None = None, roots=None, what: str = "file") -> str:
    """A regular UTF-8 text file (see `read_bytes`), with Windows line ends kept as they are."""
    shown = shown or display(path)
    return decode(read_bytes(path, limit, shown, roots, what), shown, what)


def read_head(path: str | Path, size: int = HEAD_BYTES) -> str:
    """The first `size` bytes of a regular file as text, or "" when it is not one (never blocks)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, size).decode("utf-8", errors="replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def read_tree(folder: str | Path, shown: str | None = None, limit: int = MAX_COPY_BYTES,
              count: int = MAX_COPY_FILES) -> dict[str, bytes]:
    """Every file of a folder (its POSIX path inside → its content), read through the gate, for a copy.

    A copy must not take more than the folder: a symbolic link is copied as the file it names only
    when that file lies inside the folder (never a link out, never a link to a folder, which could
    loop), FIFOs, devices and sockets are refused, and the files together are bounded in size and
    number, so a link to `/dev/zero` or to a system folder cannot fill a disk. Names beginning with
    "." or "__" (`.git`, `__pycache__`) are not the ruleset's and are left out.
    """
    shown = (shown or display(folder)).rstrip("/")
    root = Root.of(folder, "the ruleset's folder")
    out: dict[str, bytes] = {}
    used = seen = 0
    pending = [(root.path, "")]
    while pending:
        directory, inside = pending.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            raise _error(f"{shown}/{inside}", f"cannot read the folder: {exc.strerror}") from None
        for entry in entries:
            if entry.name.startswith((".", "__")):
                continue
            name, where = f"{inside}{entry.name}", f"{shown}/{inside}{entry.name}"
            seen += 1
            if seen > count:
                raise _error(shown, f"the folder holds more than {count:,} files and folders, too many to copy",
                             "keep only the ruleset's own files in its folder")
            if entry.is_dir(follow_symlinks=False):
                pending.append((Path(entry.path), name + "/"))
                continue
            if entry.is_symlink() and os.path.isdir(entry.path):
                raise _error(where, f"'{where}' is a symbolic link to a folder, which is not copied",
                             "put the folder itself in the ruleset's folder")
            data = read_bytes(entry.path, limit, where, roots=[root])
            used += len(data)
            if used > limit:
                raise _error(where, f"the folder's files together are larger than {limit:,} bytes, too many to copy",
                             "keep only the ruleset's own files in its folder")
            out[name] = data
    return out


def write_tree(tree: dict[str, bytes], into: str | Path) -> None:
    """Write a `read_tree` (or a ruleset's, loader.ruleset_tree) under `into`, creating every file anew."""
    into = Path(into)
    for name, data in tree.items():
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as handle:  # "x": never through a file or link already there
            handle.write(data)


class Budget:
    """What one ruleset's files hold so far: together at most MAX_RULESET_BYTES and MAX_RULESET_VALUES.

    Each file has its own caps; without a total, a ruleset could include 64 files at the cap.
    """

    def __init__(self, limit: int = MAX_RULESET_BYTES, values: int = MAX_RULESET_VALUES):
        self.limit, self.values = limit, values
        self.used = self.counted = 0

    def take(self, size: int, shown: str) -> None:
        self.used += size
        if self.used > self.limit:
            raise _error(shown, f"the ruleset's files together are larger than {self.limit:,} bytes",
                         "a ruleset (with its includes, variants and map) must stay under this limit", line=1)

    def take_values(self, count: int, shown: str) -> None:
        self.counted += count
        if self.counted > self.values:
            raise _error(shown, f"the ruleset's files together hold more than {self.values:,} values",
                         "a ruleset (with its includes, variants and map) must stay under this limit", line=1)


# Leges' own rulesets, maps and schemas: package data when installed (pyproject.toml maps the
# repository's top folders onto these packages), else the top folders of the repository itself.
BUNDLED = {"rulesets": "leges._rulesets", "maps": "leges._maps", "schemas": "leges._schemas"}
BUNDLED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def bundled(kind: str) -> Path | None:
    """The folder of Leges' bundled `rulesets`, `maps` or `schemas` (None if there is none)."""
    from importlib.util import find_spec
    try:
        spec = find_spec(BUNDLED[kind])
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        if Path(location).is_dir():
            return Path(location)
    here = Path(__file__).resolve().parents[3] / kind  # a source checkout: <root>/interpreter/leges/text/files.py
    return here if here.is_dir() else None


def bundled_ruleset(name: str) -> Path | None:
    """The folder of the bundled game called `name` (`leges simulate NAME`): a plain name, never a path."""
    folder = bundled("rulesets") if BUNDLED_NAME.match(name) else None
    if folder is None or not (folder / name / "ruleset.yaml").is_file():
        return None
    return folder / name


def bundled_names() -> list[str]:
    folder = bundled("rulesets")
    return sorted(p.name for p in folder.iterdir() if (p / "ruleset.yaml").is_file()) if folder else []


def ruleset_reference(path: str | Path, named: str, at: Position | None = None) -> None:
    """A ruleset named inside a file (a record's `ruleset_path`, a scenario's `ruleset:`) must be a
    ruleset folder or a `ruleset.yaml`: never any other file, which loading would read and quote."""
    p = Path(path)
    where = at or Position(named)
    hint = ("a ruleset named by a record or a scenario is a folder holding ruleset.yaml "
            "(or that ruleset.yaml itself)")
    try:
        if p.is_dir():
            main = p / "ruleset.yaml"
            if main.exists() or main.is_symlink():
                return
            raise LegesError(Diagnostic(where, f"'{shown(named, 60)}' is a folder without a ruleset.yaml", hint))
        if p.name == "ruleset.yaml" or not (p.exists() or p.is_symlink()):
            return  # the main file, or nothing at all (which loading reports, or finds a bundled game so named)
    except OSError as exc:  # a name too long for the system, ...
        raise LegesError(Diagnostic(where, f"'{shown(named, 60)}' cannot be a ruleset: {exc.strerror}", hint)) from None
    raise LegesError(Diagnostic(where, f"'{shown(named, 60)}' is not a ruleset folder", hint))
