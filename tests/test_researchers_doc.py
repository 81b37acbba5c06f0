"""Every Python example of docs/researchers.md runs, and prints what the page shows after it.

The page's figures (action-space sizes, tensor sizes and offsets, game lengths, outcomes) are the
output of its examples: a ```text block right after a ```python block is that example's output,
compared with what it prints (doctest's rules: `...` stands for any text, runs of white space are
one). An example that prints must show its output, so no figure can go stale unchecked. An
adapter's example is skipped when its framework is absent.
"""
from __future__ import annotations

import doctest
import re

import pytest

from helpers import ROOT

DOC = ROOT / "docs" / "researchers.md"
NEEDS = {"pyspiel": "pyspiel", "open_spiel": "pyspiel", "pettingzoo": "pettingzoo"}


def blocks() -> list:
    """(info, first line, text, the index of the block before when only blank lines part them)."""
    found, info, start, lines, closed_at = [], None, 0, [], -10
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        if info is None:
            m = re.match(r"^```(\S*)\s*$", line)
            if m:
                info, start, lines = m.group(1), number + 1, []
                follows = len(found) - 1 if found and closed_at == number - 2 else None
            elif line.strip():
                closed_at = -10
        elif line.rstrip() == "```":
            found.append((info, start, "\n".join(lines) + "\n", follows))
            info, closed_at = None, number
        else:
            lines.append(line)
    assert info is None, f"docs/researchers.md:{start - 1}: a code block is not closed"
    return found


def examples() -> list:
    """(first line, code, the output shown or None) of each Python example."""
    found = blocks()
    out = []
    for i, (info, line, text, _) in enumerate(found):
        if info == "python":
            shown = found[i + 1] if i + 1 < len(found) and found[i + 1][3] == i and found[i + 1][0] == "text" else None
            out.append((line, text, shown[2] if shown else None))
    return out


def test_every_block_is_an_example_or_its_output():
    found = blocks()
    for info, line, _, follows in found:
        assert info == "python" or (info == "text" and follows is not None and found[follows][0] == "python"), \
            f"docs/researchers.md:{line - 1}: a ```{info} block that is not the output of the example before it"


def test_every_example_that_prints_shows_its_output():
    for line, text, shown in examples():
        assert "print(" not in text or shown is not None, \
            f"docs/researchers.md:{line - 1}: the example prints; show its output in a ```text block after it"


@pytest.mark.parametrize("line, text, shown", [pytest.param(line, text, shown, id=f"python@{line}")
                                               for line, text, shown in examples()])
def test_python_examples(line, text, shown, monkeypatch, capsys):
    for word, module in NEEDS.items():
        if re.search(rf"\b{word}\b", text):
            pytest.importorskip(module)
    monkeypatch.chdir(ROOT)
    exec(compile("\n" * (line - 1) + text, "docs/researchers.md", "exec"), {"__name__": "docs_example"})
    printed = capsys.readouterr().out
    if shown is not None:
        checker = doctest.OutputChecker()
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        assert checker.check_output(shown, printed, flags), \
            f"docs/researchers.md:{line - 1}: the example printed\n{printed}\nwhere the page shows\n{shown}"


def test_a_figure_that_differs_from_the_output_fails():
    """The comparison is not vacuous: a stale figure (the 45 numbers of an older encoding) fails."""
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    assert not checker.check_output("45 {'offset': 18}\n", "48 {'offset': 21}\n", flags)
    assert checker.check_output("48 {...}\n", "48 {'offset': 21}\n", flags)
