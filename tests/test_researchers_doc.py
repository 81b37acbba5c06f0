"""Every Python example of docs/researchers.md runs (an adapter's example is skipped when its framework is absent)."""
from __future__ import annotations

import re

import pytest

from helpers import ROOT

DOC = ROOT / "docs" / "researchers.md"
NEEDS = {"pyspiel": "pyspiel", "open_spiel": "pyspiel", "pettingzoo": "pettingzoo"}


def blocks() -> list:
    found, info, start, lines = [], None, 0, []
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        if info is None:
            m = re.match(r"^```(\S*)\s*$", line)
            if m:
                info, start, lines = m.group(1), number + 1, []
        elif line.rstrip() == "```":
            found.append((info, start, "\n".join(lines) + "\n"))
            info = None
        else:
            lines.append(line)
    assert info is None, f"docs/researchers.md:{start - 1}: a code block is not closed"
    return found


def test_every_block_is_python():
    assert [b[0] for b in blocks()] == ["python"] * len(blocks())


@pytest.mark.parametrize("line, text", [pytest.param(line, text, id=f"python@{line}")
                                        for info, line, text in blocks() if info == "python"])
def test_python_examples(line, text, monkeypatch, capsys):
    for word, module in NEEDS.items():
        if re.search(rf"\b{word}\b", text):
            pytest.importorskip(module)
    monkeypatch.chdir(ROOT)
    exec(compile("\n" * (line - 1) + text, "docs/researchers.md", "exec"), {"__name__": "docs_example"})
