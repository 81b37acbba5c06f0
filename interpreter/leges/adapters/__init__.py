"""Leges games seen through other frameworks' interfaces (each needs its optional extra).

- `leges.adapters.openspiel`: any ruleset registered as an OpenSpiel (pyspiel) Python game
  (`pip install 'leges[openspiel]'`);
- `leges.adapters.pettingzoo`: any ruleset as a PettingZoo AEC environment with action masks
  (`pip install 'leges[pettingzoo]'`).

Both use the state's integer action ids (`State.action_to_string` / `string_to_action`: the index of
an action's text among the legal texts sorted, so ids are per state) under a fixed bound,
`num_distinct_actions` (MAX_ACTIONS unless given), explicit chance (every shuffle, draw from a bag
and random choice is a chance node) and, by default, forced moves (a decision with a single option
is asked too, as OpenSpiel's own games do).
"""
from __future__ import annotations

from ..text.errors import Diagnostic, LegesError, Position

# The default bound on the actions of one decision: above every decision of the bundled games (the
# largest, a secret share-out, has about 800 options). A decision with more options than the
# bound given raises a LegesError naming it.
MAX_ACTIONS = 4096


def load_game(ruleset, variants=()):
    """A Leges game from a Game, a ruleset folder or a bundled game's name."""
    from .. import load
    from ..engine.game import Game
    if isinstance(ruleset, Game):
        return ruleset
    return load(str(ruleset), variants=list(variants))


def check_bound(st, player: int, count: int, bound: int) -> None:
    if count > bound:
        raise LegesError(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                    f"{st.player_name(player)} has {count} legal actions here, more than the "
                                    f"adapter's bound of {bound} distinct actions",
                                    "raise num_distinct_actions when registering the game"))
