"""Shared fixtures: the bundled games, loaded once per test session."""
from __future__ import annotations

import pytest

import leges

from helpers import ROOT


@pytest.fixture(scope="session")
def pompeii():
    return leges.load(str(ROOT / "rulesets" / "pompeii"))


@pytest.fixture(scope="session")
def tictactoe():
    return leges.load(str(ROOT / "rulesets" / "tictactoe"))


