"""Leges games seen through other frameworks' interfaces (each needs its optional extra).

- `leges.adapters.openspiel`: any ruleset as an OpenSpiel (pyspiel) game, `pyspiel.load_game("leges",
  {"ruleset": "tictactoe"})` (`pip install 'leges[openspiel]'`);
- `leges.adapters.pettingzoo`: any ruleset as a PettingZoo AEC environment with action masks and
  legal ids, and `leges.adapters.pettingzoo_parallel` the same through the Parallel API, a secret
  round one step (`pip install 'leges[pettingzoo]'`).

Both number actions by the ruleset's fixed action space (engine/action_space.py: the same id for
the same action in every state, `num_distinct_actions` its real size) and encode what a seat sees
as a vector (adapters/encoding.py). Without the extra, importing an adapter raises `MissingExtra`
(a LegesError, and an ImportError) naming the `pip install` that fixes it.
"""
from __future__ import annotations

from pathlib import Path

from ..engine.action_space import ActionSpace
from ..text.errors import Diagnostic, LegesError, Position
from .encoding import Encoding

__all__ = ["ActionSpace", "Encoding", "MissingExtra", "declared_bounds", "load_game", "missing_extra"]


class MissingExtra(LegesError, ImportError):
    """An adapter's framework is not installed."""


def missing_extra(extra: str, exc: ImportError) -> MissingExtra:
    name = getattr(exc, "name", None) or str(exc)
    return MissingExtra(Diagnostic(Position(f"leges.adapters.{extra}"),
                                   f"the {extra} adapter needs '{name}', which is not installed",
                                   f"pip install 'leges[{extra}]'"))


def load_game(ruleset, variants=()):
    """A Leges game from a Game, a bundled game's name or an explicit ruleset path (a folder or its
    ruleset.yaml). A name is looked up among the bundled games only and a path is read as YAML:
    nothing a parameter names is ever imported or run."""
    from .. import load
    from ..engine.game import Game
    if isinstance(ruleset, Game):
        return ruleset
    text = str(ruleset)
    if not text or "\x00" in text:
        raise LegesError(Diagnostic(Position("leges.adapters"), f"no ruleset {text!r}",
                                    "give a bundled game's name (`leges simulate --help` lists them) or a ruleset's folder"))
    path = Path(text)
    explicit = (path.is_dir() and (path / "ruleset.yaml").is_file()) or (path.is_file() and path.suffix in (".yaml", ".yml"))
    if not explicit and ("/" in text or "\\" in text or text.startswith(".")):
        raise LegesError(Diagnostic(Position("leges.adapters"), f"no ruleset at {text!r}",
                                    "give a folder holding a ruleset.yaml, or a bundled game's name"))
    return load(text, variants=list(variants))


def declared_bounds(game) -> dict:
    """The action-space bounds the ruleset declares (`limits.action_bounds.bounds`), which both
    adapters take by default, bounds given to them overriding key by key: a bundled game loads with
    no parameter even where the generic domains would be too large (a march over a graph)."""
    if game is None:
        return {}
    entry = (getattr(game.ruleset, "limits", None) or {}).get("action_bounds")
    return dict(entry.get("bounds") or {}) if isinstance(entry, dict) else {}
