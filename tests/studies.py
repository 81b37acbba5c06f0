"""What the tests of studies share: stopping one after some games as Ctrl-C would, reading a
command's JSON report, and the auction test game's rich-start variant (tests/rulesets/auction)."""
from __future__ import annotations

import itertools
import json

from leges.cli import main
from leges.lab import session as session_module

RICH = """\
leges_variant: 1
id: rich
title: A rich start
kind: house_rule
description: Every player starts with 18 coins.
patch:
  - {op: set, section: variables, id: money, key: initial, value: 18}
"""


def stop_after(monkeypatch, games: int) -> None:
    """Ctrl-C once `games` games are finished (written down, their records too)."""
    record = session_module.Session._record
    count = itertools.count(1)

    def interrupted(self, task, result, out):
        record(self, task, result, out)
        if next(count) == games:
            raise KeyboardInterrupt
    monkeypatch.setattr(session_module.Session, "_record", interrupted)


def report(capsys, argv, status: int = 0) -> dict:
    """The JSON report of a command run with `--json`, once it exited with `status`."""
    assert main([*argv, "--json"]) == status
    return json.loads(capsys.readouterr().out)
