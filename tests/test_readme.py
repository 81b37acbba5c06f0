"""README.md leads a newcomer in order (issue 38, authors and the suite): the two commands first (play
some games; run the tests), then the tutorial, then the rest; and it says where the `leges` command
is, since a bare `leges` in a fresh shell is `command not found`. The tutorial used to be linked only
at the end, after "Safe to load", and nothing said to activate the virtual environment."""
from __future__ import annotations

import re

from helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks() -> list[tuple[int, str]]:
    """(offset, text) of each fenced code block."""
    return [(m.start(), m.group(1)) for m in re.finditer(r"^```[^\n]*\n(.*?)^```", README, re.S | re.M)]


def test_the_two_commands_come_first():
    (first_at, first), (_, second) = _blocks()[:2]
    assert not README[:first_at].strip("# \n").count("\n"), "only the title before the first command"
    assert ".venv/bin/leges simulate" in first and ".venv/bin/python -m pytest" in second


def test_the_tutorial_follows_them_before_anything_else():
    second_end = README.index("```", _blocks()[1][0] + 3)
    tutorial = README.index("(docs/tutorial-tictactoe.md)")
    headings = [m.start() for m in re.finditer(r"^## ", README, re.M)]
    assert second_end < tutorial < headings[0], "the tutorial is linked right after the two commands"


def test_it_says_how_to_reach_the_leges_command_before_using_it_bare():
    """Where a command to type first starts with a bare `leges` (not `.venv/bin/leges`), the venv has been said."""
    activate = README.index("source .venv/bin/activate")
    typed = [at + m.start() for at, text in _blocks() for m in re.finditer(r"^leges ", text, re.M)]
    assert typed and activate < typed[0], "the first bare `leges ...` to type comes before the venv is said"
    assert "command not found" in README[:README.index("## ")]
