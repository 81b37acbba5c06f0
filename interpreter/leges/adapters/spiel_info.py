"""What OpenSpiel is told about a Leges game before any state exists: its type, its bounds and its
parameters (adapters/openspiel.py uses them; kept apart so each module stays readable).

Every figure is read from the ruleset, never guessed: OpenSpiel's algorithms size buffers by
`max_game_length` and `max_chance_outcomes`, and choose what to run by the game type, so a figure
that is only "large enough" (100,000 for tic-tac-toe) or a type shared by every game misleads them.
"""
from __future__ import annotations

import pyspiel

from ..engine.resample import has_hidden_information
from ..text.errors import Diagnostic, LegesError, Position
from . import declared_bounds

DEFAULTS = {"ruleset": "tictactoe", "players": 0, "variants": "", "int_bound": 16, "list_length": 8,
            "bounds": "", "forced_moves": True, "memory": True}


def deterministic(game) -> bool:
    """No rule shuffles, draws from a bag or chooses at random: no chance node is ever asked."""
    programs = game.programs
    bags = any(k == "bag" for n in range(game.min_players, game.max_players + 1)
               for k in game.setup_for(n).zone_kind.values())
    return programs is not None and not programs.random and not (programs.draws and bags)


def simultaneous(game) -> bool:
    """Some action is `secret: true`: its seats decide at once, in secret (the sequential form of a
    simultaneous move for OpenSpiel, one parallel step for PettingZoo's Parallel API)."""
    return any(a.secret for a in game.actions.values())


def game_type(short: str, game=None, long_name: str | None = None, ruleset: str = "tictactoe") -> pyspiel.GameType:
    """The OpenSpiel game type of a Leges game (None: the generic type of the name `leges`, whose
    ruleset is a parameter; its games report their own type).

    Dynamics stay SEQUENTIAL even for secret simultaneous choices: the adapter asks them in seat
    order, each sealed from the others, which OpenSpiel's IMPERFECT_INFORMATION already says."""
    if game is None:
        determined, perfect, lo, hi = False, False, 1, 10
    else:
        determined, perfect = deterministic(game), not has_hidden_information(game)
        lo, hi = game.min_players, game.max_players
    return pyspiel.GameType(
        short_name=short,
        long_name=long_name or (f"Leges: {game.title}" if game is not None else "Leges: any ruleset"),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.DETERMINISTIC if determined
                     else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS, ruleset=ruleset, bounds=bounds_param(declared_bounds(game))))


def max_game_length(game) -> int:
    """The most actions (chance outcomes and forced moves included) an OpenSpiel history of `game`
    can hold: the bound the ruleset states (`limits.max_game_length`), else the decision limit
    (`limits.max_decisions`), past which the engine ends the game unfinished."""
    stated = stated_length(game)
    limit = game.max_decisions or 0
    return min(stated, limit) if stated and limit else stated or limit or 100_000


def stated_length(game) -> int:
    """`limits.max_game_length`'s value, 0 when the ruleset states none.

    The bound is argued for the rules as written: a variant may lengthen the game (three escape
    moves instead of two), so under variants it holds only when a variant restates it (`op: set,
    section: limits, key: max_game_length`); otherwise 0, and the adapter falls back on the decision
    limit rather than stop a variant's game that runs past the base game's bound."""
    ruleset = getattr(game, "ruleset", None)
    entry = (getattr(ruleset, "limits", None) or {}).get("max_game_length")
    if not isinstance(entry, dict):
        return 0
    if getattr(ruleset, "variant_requests", ()):
        docs = getattr(ruleset, "docs", None) or ()
        base = ((docs[0].data.get("limits") or {}) if docs else {}).get("max_game_length")
        if entry is base:  # the base game's own figure, unchanged by the variants
            return 0
    return int(entry["value"])


_UNSAFE = set(" \t\n|[],=():")  # what a text in a game string's `bounds` cannot hold


def bounds_param(bounds: dict) -> str:
    """The `bounds` game parameter for a dictionary of ActionSpace bounds: `KEY:N` (an int below N),
    `KEY:LENGTH:N` (a list of ints below N) or `KEY:LENGTH:[A|B|C]` (a list of those texts),
    space-separated: OpenSpiel's game strings allow no comma, and a ruleset's declared bounds are
    written into every registered name's parameters, so a bound the string cannot hold is refused
    here, by name, rather than read back as another bound."""
    parts = []
    for key, value in bounds.items():
        if not isinstance(value, dict):
            parts.append(f"{key}:{value}")
            continue
        values = value["values"]
        if not isinstance(values, int):
            bad = [v for v in values if not str(v) or set(str(v)) & _UNSAFE]
            if bad:
                raise LegesError(Diagnostic(Position("leges.adapters.openspiel"),
                                            f"the bound of '{key}' lists the value {bad[0]!r}, which an OpenSpiel "
                                            "game string cannot hold (no space, '|', '[', ']', ',', '=', '(', ')' or ':')",
                                            "give the values as an int bound, or texts without those characters"))
            values = "[" + "|".join(str(v) for v in values) + "]"
        parts.append(f"{key}:{value['length']}:{values}")
    return " ".join(parts)


def parse_bounds(text: str) -> dict:
    """`bounds_param` read back; a malformed part is a located error naming the forms."""
    out: dict = {}
    for part in text.split():
        fields = part.split(":", 2)
        try:
            if len(fields) == 2:
                out[fields[0]] = int(fields[1])
            elif len(fields) == 3:
                values = fields[2]
                if values.startswith("[") and values.endswith("]"):
                    texts = [v for v in values[1:-1].split("|") if v]
                    if not texts:
                        raise ValueError(part)
                    out[fields[0]] = {"length": int(fields[1]), "values": texts}
                else:
                    out[fields[0]] = {"length": int(fields[1]), "values": int(values)}
            else:
                raise ValueError(part)
        except ValueError:
            raise LegesError(Diagnostic(Position("leges.adapters.openspiel"), f"'{part}' is not a bound",
                                        "bounds are KEY:N (an int below N), KEY:LENGTH:N (a list of ints below N) "
                                        "or KEY:LENGTH:[A|B] (a list of those texts), space-separated")) from None
    return out


def flag(value) -> bool:
    """A boolean game parameter, given as a bool or as OpenSpiel's game-string text."""
    return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")
