"""On a real terminal, nothing a ruleset or a record holds is obeyed: escape sequences (OSC 0
window title, OSC 52 clipboard, clear screen), bidi overrides and newlines from files are shown
escaped, each value from a file is one line of bounded length, and only Leges' own colour
codes reach the terminal raw.

`leges play` and `leges replay` run in a child process on a pseudo-terminal (os.openpty), in
colour by default as a user's terminal would have it; the bytes that reach the terminal are read back.
"""
from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
import unicodedata

import pytest

from test_errors import BASE, MAP, MOVE, leges

# What an attacker writes (escapes as both YAML's double quotes and the rule language's strings
# read them): set the window's title, write the clipboard, clear the screen, hide the text
# (a colour code, as Leges' own are, but not one Leges writes), reverse it (RLO, RLI), and the
# one-character CSI of C1.
EVIL = "\\x1b]0;PWNED\\a\\x1b]52;c;cHduZWQ=\\a\\x1b[2J\\x1b[8m\\u202eRLO\\u2067\\x9b31m"
SHOWN = ("\\u001b]0;PWNED\\u0007\\u001b]52;c;cHduZWQ=\\u0007\\u001b[2J\\u001b[8m\\u202eRLO\\u2067"
         "\\u009b31m")  # as it is to be shown
RAW = (b"\x1b]", b"\x07", b"\x1b[2J", b"\x1b[8m", "\u202e".encode(), "\u2067".encode(), "\x9b".encode())
SGR = re.compile(rb"\x1b\[[0-9;]*m")


def on_terminal(argv: list[str], cwd, answers: str = "", timeout: float = 60) -> bytes:
    """What `leges ARGV` writes to a terminal (stdin, stdout and stderr on one pseudo-terminal)."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "LEGES_DEBUG")}
    env["TERM"] = "xterm-256color"
    proc = subprocess.Popen([sys.executable, "-m", "leges", *argv], stdin=slave, stdout=slave, stderr=slave,
                            cwd=cwd, env=env, close_fds=True)
    os.close(slave)
    if answers:
        os.write(master, answers.encode())
    out, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child has closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
        proc.kill()
        proc.wait()
    assert b"Traceback" not in out and b"internal error" not in out, out[-2000:]
    return out


def assert_harmless(out: bytes) -> list[str]:
    """No raw control from a file: every ESC starts one of Leges' colour codes; no line of the
    output was written by a file (a file's newline would start one with FORGED). Returns the lines."""
    for raw in RAW:
        assert raw not in out, (raw, out[max(0, out.find(raw) - 200):out.find(raw) + 50])
    assert b"\x1b" not in SGR.sub(b"", out)
    lines = SGR.sub(b"", out).decode("utf-8").replace("\r\n", "\n").split("\n")
    assert not [line for line in lines if line.lstrip().startswith("FORGED")]
    return lines


@pytest.fixture
def evil(tmp_path):
    """A Tic-Tac-Toe whose title, component label, log line, text variable and scoring text carry
    escape sequences, RLO and newlines that start lines of their own."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "tictactoe.yaml").write_text(MAP)
    (tmp_path / "game").mkdir()
    text = BASE.replace("title: Tic-Tac-Toe", f'title: "Tic{EVIL}\\nFORGED title"')
    text = text.replace("label: text(it.owner)", f"label: '\"M{EVIL}\\nFORGED label\"'")
    text = text.replace(MOVE, MOVE + f'\n      log "L{EVIL}\\nFORGED log"\n      motto = "V{EVIL}\\nFORGED var"')
    text = text.replace("variables:\n", "variables:\n  - id: motto\n    type: str\n    initial: \"\"\n"
                                         "    source: {book: folk, section: Goal}\n", 1)
    text = text.replace("  score: if winner == p then 1 else 0",
                        f'  description: "S{EVIL}\\nFORGED description"\n  score: if winner == p then 1 else 0')
    (tmp_path / "game" / "ruleset.yaml").write_text(text)
    return tmp_path


def test_every_control_and_format_character_is_escaped():
    """The ranges in terminal.py against Python's own Unicode tables: controls, format characters
    (bidi embeddings, overrides, isolates, marks, zero-width, tags), surrogates, line separators."""
    from leges.text.terminal import _UNSAFE, clean
    unsafe = "".join(chr(c) for c in range(sys.maxunicode + 1)
                     if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Zl", "Zp"))
    assert _UNSAFE.sub("", unsafe) == ""
    assert clean("a\nb\tc\x1b\u2066") == "a\nb\tc\\u001b\\u2066"  # Leges' own line breaks and tabs stay
    assert json.loads(clean(json.dumps({"t": "\U000e0041\u202e"}, ensure_ascii=False))) == {"t": "\U000e0041\u202e"}


def test_a_value_from_a_file_is_one_bounded_line():
    from leges.text.terminal import shown
    assert shown("a\x1b[2J\nb\u202ec") == "a\\u001b[2J\\u000ab\\u202ec"
    long = shown("x\ny" * 2_000_000)
    assert "\n" not in long and len(long) == 200 and long.endswith("…")
    cut = shown("ab" + "\x1b" * 50, 20)  # never half an escape
    assert cut == "ab\\u001b\\u001b…" and len(cut) <= 20
    assert shown(12) == "12" and shown("é ok", 4) == "é ok"


def test_play_on_a_terminal_obeys_nothing_from_the_ruleset(evil):
    out = on_terminal(["play", "game"], evil, answers="1\n1\n1\n1\n1\n")
    lines = assert_harmless(out)
    assert SGR.search(out), "the board should be in colour on a terminal"
    text = "\n".join(lines)
    for shown in (f"-- Tic{SHOWN}\\u000aFORGED title · phase play", f"supply 5: M{SHOWN[:30]}",
                  f"log: L{SHOWN}\\u000aFORGED log", f"motto V{SHOWN[:30]}", f"  S{SHOWN} FORGED description"):
        assert shown in text, shown
    label = re.search(r"supply 5: (M\S*…)×5", text)
    assert label and len(label.group(1)) <= 60  # a component's name cut to 60 characters
    assert "game over:" in text  # the game was played to its end


def test_play_without_colour_obeys_nothing_either(evil):
    lines = assert_harmless(on_terminal(["play", "game", "--colour", "never"], evil, answers="q\n"))
    assert any("FORGED title" in line for line in lines)


def test_an_error_quoting_a_seat_name_obeys_nothing(evil):
    """Seat names are names (the schema says so): one that is not is quoted in the error, escaped."""
    path = evil / "game" / "ruleset.yaml"
    path.write_text(path.read_text().replace("- {name: x}", f'- {{name: "x{EVIL}\\nFORGED seat"}}'))
    lines = assert_harmless(on_terminal(["play", "game"], evil))
    assert any(line.startswith("game/ruleset.yaml:13:14: error: 'x\\x1b]0;PWNED") for line in lines), lines


@pytest.fixture
def record(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "tictactoe.yaml").write_text(MAP)
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "ruleset.yaml").write_text(BASE)
    assert leges(capsys, "simulate", "game", "-g", "1", "-q", "--records", "records").status == 0
    (path,) = (tmp_path / "records").glob("*.json")
    return path.relative_to(tmp_path)


FORGED = "\ngame/ruleset.yaml:1:1: error: FORGED\x1b]0;PWNED\x07\u202e\n"


@pytest.mark.parametrize("key", ["actions", "ruleset", "version", "variants", "ruleset_path"])
def test_a_record_value_of_megabytes_with_newlines_is_shown_cut_to_one_line(record, key):
    data = json.loads(record.read_text())
    value = "x: place" + FORGED + "A" * 3_900_000
    data[key] = [value] if key in ("actions", "variants") else value
    record.write_text(json.dumps(data))
    out = on_terminal(["replay", str(record)], os.getcwd())
    lines = assert_harmless(out)
    assert len(out) < 3000, len(out)
    error = [line for line in lines if ": error: " in line]
    assert len(error) == 1 and error[0].startswith(f"{record}:1:"), lines
    if key == "variants":  # a variant request is read before anything is quoted: refused by its length alone
        assert "a variant request of 3,900,057 characters: at most 200" in error[0]
    else:
        assert "place\\u000agame/ruleset.yaml:1:1: error: FORGED" in error[0] and "…" in error[0]  # shown, cut
