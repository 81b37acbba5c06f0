"""A move prior: how promising an option is, read off the option itself and never by applying it.

Why: the search (`mcts`) and the one-move look-ahead (`greedy`) both judge a move by playing it on
a copy of the state, which is what makes them dear where a decision has hundreds of options. A
prior scores every option of a decision from what the option *says* — which action, and what each
of its parameters' values is — at the cost of a few dictionary reads, so a search can try the
promising moves first and a cheap agent can play without looking ahead at all.

What it reads (generic; the declarations and the action's parameter types say what a value is):

- which action the option is (`$choose` options by the name chosen): each action has a bias;
- a **component**: its type, and each numeric fixed property it has (`card.number`);
- a **space**: its numeric (and yes/no) board properties;
- a **zone** (and a space): how many components it holds, how many are the deciding player's,
  whether it is the deciding player's own, and the numeric properties of the component on top;
  with a component in the same option, the component's property less the top one's;
- an **area**: its numeric properties; a **number** as it is and its square (a weighed sum of a
  number alone ranks one extreme best: all or nothing bid, shared, pledged); a **list**: its
  length and, of numbers, their sum; a **player**: whether it is the one deciding.

An option is scored by its action's weights — a weighed sum of those features — and a decision's
options compete by softmax over their scores (prior_fit.py learns the weights). The weights are
kept as YAML a designer reads and edits: per action, a weight per feature (`to.count: 0.8`). Why
not as rule-language expressions: the rule language binds no action's parameters outside the
action, so an expression over `card` or `to` would not compile (`game.compile_expression` binds
`p` and `me` only), and a compiled expression read per option would cost more than the
dictionary reads that make a prior cheap.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

from ..engine.decision import CHOOSE

BIAS = "(any)"  # an action's own weight, whatever its parameters
VERSION = "prior-3"  # bump when the features change: a prior kept on disk is then learned again


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Reader:
    """How to read the options of one game (its parameters' kinds, its board's properties)."""

    def __init__(self, game):
        self.game = game
        self.kinds: dict[str, dict[str, str]] = {
            a.id: {name: ty.kind for name, ty in a.param_types.items()} for a in game.actions.values()}
        self.choose_kinds: dict[str, str] = {}
        for _label, name, elem, _optional in (game.programs.choose_sites if game.programs else ()):
            known = self.choose_kinds.get(name)
            self.choose_kinds[name] = elem.kind if known in (None, elem.kind) else "any"
        board = game.board
        self.space_props: dict[str, dict[str, float]] = {}
        self.area_props: dict[str, dict[str, float]] = {}
        if board is not None:
            for sid, props in board.props.items():
                self.space_props[sid] = {k: float(v) for k, v in props.items()
                                         if _number(v) or isinstance(v, bool)}
            for kind in board.areas.values():
                for aid, props in kind.items():
                    self.area_props[aid] = {k: float(v) for k, v in props.items() if _number(v)}

    def key(self, choice) -> str:
        """Which action an option is: its id, `pass`, or `choose NAME` for a `choose`'s option."""
        action = choice[1]
        if action == CHOOSE:
            return "choose " + next(iter(choice[2]), "")
        return action

    def features(self, st, choice, me: int) -> dict[str, float]:
        """The features of one option (a pending decision's plain tuple) for player `me`."""
        action, params = choice[1], choice[2]
        out: dict[str, float] = {}
        kinds = self.kinds.get(action, {}) if action != CHOOSE else self.choose_kinds
        for name, value in params.items():
            self._value(st, me, name, kinds.get(name, "any"), value, out)
        if len(params) > 1:
            self._relative(params, kinds, out)
        return out

    @staticmethod
    def _relative(params: dict, kinds: dict[str, str], out: dict[str, float]) -> None:
        """A component's property less the same property of the top component of a zone or space
        in the same option (a card against the top of the pile it would be laid on)."""
        for c in params:
            if kinds.get(c) != "component":
                continue
            for z in params:
                if kinds.get(z) not in ("zone", "space"):
                    continue
                for key in [k for k in out if k.startswith(f"{z}.top.")]:
                    prop = key[len(z) + 5:]
                    mine = out.get(f"{c}.{prop}")
                    if mine is not None:
                        out[f"{c}.{prop}-{z}.top.{prop}"] = mine - out[key]

    def _value(self, st, me: int, name: str, kind: str, value, out: dict[str, float]) -> None:
        setup = st.setup
        if kind == "component" and isinstance(value, int) and 0 <= value < len(setup.ctype):
            out[f"{name}.type={setup.ctype[value]}"] = 1.0
            for prop, v in setup.cstatic[value].items():
                if _number(v):
                    out[f"{name}.{prop}"] = float(v)
            if setup.cowner[value] == me:
                out[f"{name}.mine"] = 1.0
        elif kind == "space" and isinstance(value, str):
            for prop, v in self.space_props.get(value, {}).items():
                out[f"{name}.{prop}"] = v
            self._contents(st, me, name, value, out)
        elif kind == "zone" and isinstance(value, str):
            if setup.zone_owner.get(value) == me:
                out[f"{name}.own"] = 1.0
            self._contents(st, me, name, value, out)
        elif kind == "area" and isinstance(value, str):
            for prop, v in self.area_props.get(value, {}).items():
                out[f"{name}.{prop}"] = v
        elif kind == "player" and isinstance(value, int):
            out[f"{name}.is_me"] = 1.0 if value == me else 0.0
        elif isinstance(value, list):
            out[f"{name}.length"] = float(len(value))
            if value and all(_number(v) for v in value):
                out[f"{name}.sum"] = float(sum(value))
        elif _number(value):
            out[name] = float(value)
            out[f"{name}^2"] = float(value) * value  # (so that a middle amount, not an extreme, may rank best)

    @staticmethod
    def _contents(st, me: int, name: str, zone: str, out: dict[str, float]) -> None:
        held = st.zones.get(zone)
        if held is None:
            return
        out[f"{name}.count"] = float(len(held))
        owner = st.setup.cowner
        out[f"{name}.mine"] = float(sum(1 for c in held if owner[c] == me))
        if held:  # the component on top (the last one put there): its numeric fixed properties
            for prop, v in st.setup.cstatic[held[-1]].items():
                if _number(v):
                    out[f"{name}.top.{prop}"] = float(v)


class Prior:
    """Learned (or written) weights: per action, a weight per feature; `scores` ranks options."""

    def __init__(self, weights: dict[str, dict[str, float]], note: str = ""):
        self.weights = weights
        self.note = note  # where it came from, in words (written as the file's comment)
        self._reader: Reader | None = None
        self._game = None

    def reader(self, game) -> Reader:
        if self._game is not game:
            self._reader, self._game = Reader(game), game
        assert self._reader is not None
        return self._reader

    def score(self, st, choice, me: int) -> float:
        """One option's score (higher: more promising); an action it has no weights for scores 0."""
        reader = self.reader(st.game)
        w = self.weights.get(reader.key(choice))
        if not w:
            return 0.0
        total = w.get(BIAS, 0.0)
        for name, x in reader.features(st, choice, me).items():
            total += w.get(name, 0.0) * x
        return total

    def scores(self, st, me: int, count: int | None = None) -> list[float]:
        """The scores of the pending decision's first `count` options (all, by default)."""
        choices = st.pending.choices
        return [self.score(st, c, me) for c in (choices if count is None else choices[:count])]

    def yaml(self) -> str:
        """The weights as YAML to read and edit: a comment, then `prior:` per action, per feature."""
        lines = ["# " + line for line in self.note.splitlines()] if self.note else []
        lines.append("prior:")
        for action in sorted(self.weights):
            lines.append(f"  {_quote(action)}:")
            w = self.weights[action]
            for name in sorted(w, key=lambda k: (k != BIAS, -abs(w[k]), k)):
                lines.append(f"    {_quote(name)}: {_round(w[name])}")
        return "\n".join(lines) + "\n"


def _round(x: float) -> float | int:
    if x == 0 or not math.isfinite(x):
        return 0
    digits = max(0, 3 - int(math.floor(math.log10(abs(x)))))
    r = round(x, digits)
    return int(r) if r == int(r) and abs(r) >= 1 else r


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_prior(text: str, note: str = "") -> Prior:
    """A prior from its YAML (as `Prior.yaml` writes it, edited or not)."""
    from ..text.errors import Diagnostic, LegesError, Position
    import yaml
    try:
        data = yaml.safe_load(text) if text.strip() else None
    except yaml.YAMLError as exc:
        raise LegesError(Diagnostic(Position("--agents"), f"a move prior that is not YAML: {exc}")) from None
    table = data.get("prior") if isinstance(data, dict) else None
    if not isinstance(table, dict):
        raise LegesError(Diagnostic(Position("--agents"), "a move prior is YAML with a `prior:` table",
                                    "prior: {ACTION: {FEATURE: WEIGHT, ...}, ...} (leges learn --prior writes one)"))
    weights: dict[str, dict[str, float]] = {}
    for action, row in table.items():
        if not isinstance(row, dict) or not all(_number(v) for v in row.values()):
            raise LegesError(Diagnostic(Position("--agents"), f"the prior of '{action}' is not a table of numbers"))
        weights[str(action)] = {str(k): float(v) for k, v in row.items()}
    return Prior(weights, note)


def softmax(scores: Iterable[float]) -> list[float]:
    values = list(scores)
    top = max(values)
    e = [math.exp(v - top) for v in values]
    s = sum(e)
    return [v / s for v in e]
