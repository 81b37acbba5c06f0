"""A fixed action space: every action a ruleset can ever offer, for a number of players, numbered once.

`State.action_to_string` numbers the legal actions of one state (ids are per state). Learning
needs more: the same integer for the same action in every state, below a fixed size — a policy
network's output layer. `ActionSpace(game, players)` derives that numbering from the declarations
alone, for any ruleset (it knows no game):

- Every *site* that offers options is a block of ids, in this order: `pass` (when some decision may be passed),
  each action in declaration order, each `choose` a player answers (by label and name) in the order
  compiled. A site's block is the cross product of its parameters' domains (mixed radix, the first
  parameter most significant), so an id is `offset + Σ index(value) · stride`.
- A parameter's domain comes from its static type (lang/check/types.py), as its values are written in
  action texts:
  - `space`: the board's spaces; `zone`: the zones (only the declared zones its type names, when it
    names them); `area`: the board's areas of the kinds named; `player`: the seats; `bool`:
    false, true;
  - `component`: the distinct labels of the components of the types named (all, when none is):
    identical components — two cards "6" — are one action, as their texts are one;
  - `int`: 0 to `int_bound - 1` (open-ended: `int_bound`, default 16, is the documented bound);
  - `str`: the strings of the game's data — the components', spaces' and areas' static
    properties (a string inside a list: the strings its list-valued properties hold, when any do);
  - a tuple: the product of its items' domains;
  - a list: an *unordered* choice (a multiset) of at most `list_length` items (default 8) of its
    item type's domain, numbered by the combinatorial number system (by length, then by the items'
    ranks); the canonical text lists the items in domain order. Two options of one decision that
    differ only by their items' order would share an id: that is an error, as is any value out of
    its domain.
- Chance outcomes have their own space (`chance_size`): `chance X` where X is a component's label,
  an int below `int_bound`, a seat, a space or a string of the game's data.

`bounds` sets a parameter's domain where the defaults do not fit: `{"ACTION.PARAM": N}` (an int
below N), `{"ACTION.PARAM": {"length": L, "values": N or [texts]}}` (a list), where ACTION is an
action's id or a choose's label (`LABEL.NAME`). A space above `max_size` (2**24) is refused at
once, naming the largest site. A value outside its domain raises a LegesError naming the action,
the parameter and the bound to raise.
"""
from __future__ import annotations

from math import comb

from ..text.errors import Diagnostic, LegesError, Position
from ..lang.check import types as T
from ..lang.codegen.formatting import formatter
from .constants import CHANCE
from .decision import Option

MAX_SIZE = 2 ** 24


class Domain:
    """The values of one parameter, each by its text, numbered 0 to size - 1."""

    def __init__(self, texts, what: str):
        self.texts = list(dict.fromkeys(texts))
        self.index = {t: i for i, t in enumerate(self.texts)}
        self.size = len(self.texts)
        self.what = what

    def encode(self, st, value, fmt) -> int:
        text = fmt(st, value)
        i = self.index.get(text)
        if i is None:
            raise KeyError(text)
        return i

    def text(self, i: int) -> str:
        return self.texts[i]


class TupleDomain:
    def __init__(self, items: list, what: str):
        self.items = items
        self.size = 1
        for d in items:
            self.size *= d.size
        self.what = what

    def encode(self, st, value, fmt) -> int:
        out = 0
        for d, f, v in zip(self.items, fmt.items, value):
            out = out * d.size + d.encode(st, v, f)
        return out

    def text(self, i: int) -> str:
        parts = []
        for d in reversed(self.items):
            i, r = divmod(i, d.size)
            parts.append(d.text(r))
        return "(" + ",".join(reversed(parts)) + ")"


class ListDomain:
    """Multisets of at most `length` items of `item`, by length and then the combinatorial number system."""

    def __init__(self, item, length: int, what: str):
        self.item, self.length, self.what = item, length, what
        d = item.size
        self.offsets = [0]
        for k in range(length + 1):
            self.offsets.append(self.offsets[-1] + (comb(k + d - 1, k) if d else int(k == 0)))
        self.size = self.offsets[-1]

    def encode(self, st, value, fmt) -> int:
        ranks = sorted(self.item.encode(st, v, fmt.item) for v in value)
        k = len(ranks)
        if k > self.length:
            raise KeyError(f"a list of {k} items")
        # the combination {r_j + j} of k from d + k - 1, ranked colexicographically
        return self.offsets[k] + sum(comb(r + j, j + 1) for j, r in enumerate(ranks))

    def find(self, text: str) -> int | None:
        """The number of a canonical text (`[a,b]`) without listing the domain — a list of 60 cards
        of 4 kinds has 635,376 texts; None when it is not one (or an item's text holds a comma)."""
        if not isinstance(self.item, Domain) or not (text.startswith("[") and text.endswith("]")):
            return None
        index = self.item.index
        parts = text[1:-1].split(",") if len(text) > 2 else []
        if len(parts) > self.length or any(part not in index for part in parts):
            return None
        ranks = sorted(index[part] for part in parts)
        return self.offsets[len(ranks)] + sum(comb(r + j, j + 1) for j, r in enumerate(ranks))

    def ranks(self, i: int) -> list[int]:
        k = next(k for k in range(self.length + 1) if i < self.offsets[k + 1])
        rest = i - self.offsets[k]
        out = []
        for j in range(k, 0, -1):
            b = j - 1
            while comb(b + 1, j) <= rest:
                b += 1
            rest -= comb(b, j)
            out.append(b - (j - 1))
        return out[::-1]

    def text(self, i: int) -> str:
        return "[" + ",".join(self.item.text(r) for r in self.ranks(i)) + "]"


class _ListFmt:
    def __init__(self, item):
        self.item = item


class _TupleFmt:
    def __init__(self, items):
        self.items = items


def _fmt(ty: T.Ty):
    if ty.kind == "list":
        return _ListFmt(_fmt(ty.elem or T.ANY))
    if ty.kind == "tuple":
        return _TupleFmt([_fmt(t) for t in ty.items or ()])
    return formatter(ty)


class Site:
    """One block of ids: an action (or a choose, or `pass`) and its parameters' domains."""

    def __init__(self, key: str, prefix: str, params: list, offset: int, choose: bool = False):
        self.key, self.prefix, self.choose = key, prefix, choose
        self.params = params  # [(name, domain, formatter)]
        self.offset = offset
        self.size = 1
        for _, d, _ in params:
            self.size *= d.size

    def encode(self, st, values: dict) -> int:
        out = 0
        for name, d, f in self.params:
            try:
                i = d.encode(st, values[name], f)
            except (KeyError, TypeError, IndexError) as exc:
                raise _out_of_domain(st, self, name, d, exc) from None
            out = out * d.size + i
        return self.offset + out

    def text(self, i: int) -> str:
        parts = []
        for name, d, _ in reversed(self.params):
            i, r = divmod(i, d.size)
            parts.append(f"{name}={d.text(r)}")
        return " ".join([self.prefix, *reversed(parts)])


def _out_of_domain(st, site: Site, name: str, d, exc) -> LegesError:
    """Which value left its domain, and the bounds key that widens it: for a choose the site's key
    (`LABEL.NAME`) is that key already, for an action it is `ACTION.PARAM` — the key a ruleset's
    `limits.action_bounds` and the adapters' `bounds` take, so the hint can be followed as written."""
    value = str(exc.args[0]) if exc.args else ""
    what = value if value.startswith("a list of ") else f"the value {value}"
    key = site.key if site.choose else f"{site.key}.{name}"
    return LegesError(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                 f"{what} of '{name}' ({site.key}) is outside its domain in the fixed action "
                                 f"space ({d.what})",
                                 f"declare the bound the rules give in the ruleset's limits.action_bounds "
                                 f"(bounds: {{{key}: ...}}), or give the adapter (ActionSpace(..., bounds=)) "
                                 f"{{'{key}': ...}} with a larger domain (docs/researchers.md, 'The fixed action space')"))


class ActionSpace:
    """The fixed action space of `game` for `players` players (see the module's doc)."""

    def __init__(self, game, players: int, *, int_bound: int = 16, list_length: int = 8, bounds: dict | None = None,
                 max_size: int = MAX_SIZE):
        self.game, self.players = game, players
        self.int_bound, self.list_length = int_bound, list_length
        self.bounds = dict(bounds or {})
        setup = game.setup_for(players)
        self._setup = setup
        self._strings, self._list_strings = _strings(game, setup)
        self.sites: list[Site] = []
        self.by_key: dict[str, Site] = {}
        offset = 0

        def add(key, prefix, params, choose=False):
            nonlocal offset
            site = Site(key, prefix, params, offset, choose)
            self.sites.append(site)
            self.by_key[key] = site
            offset += site.size

        if game.programs is None or game.programs.passes:
            add("pass", "pass", [])
        for action in game.actions.values():
            add(action.id, action.id, [(n, self._domain(t, f"{action.id}.{n}"), _fmt(t))
                                       for n, t in action.param_types.items()])
        chooses: dict[str, T.Ty] = {}
        for label, name, elem, _optional in (game.programs.choose_sites if game.programs else ()):
            key = f"{label}.{name}"
            # the first type known; a procedure nothing calls is compiled for values of any type
            if chooses.get(key, T.ANY).kind == "any":
                chooses[key] = elem
        for key, elem in chooses.items():
            if elem.kind != "any":
                label, name = key.rsplit(".", 1)
                add(key, label, [(name, self._domain(elem, key), _fmt(elem))], choose=True)
        self.size = offset
        known = {f"{site.key if not site.choose else site.prefix}.{n}" for site in self.sites for n, _, _ in site.params}
        for key in self.bounds:
            if key.split("[", 1)[0] not in known:
                from ..text.errors import did_you_mean
                raise LegesError(Diagnostic(Position(game.ruleset_file), f"bounds name '{key}', which is no parameter "
                                            "of an action or a choose", did_you_mean(key, sorted(known))
                                            or "parameters: " + ", ".join(sorted(known))))
        self._chance = self._chance_domain()
        self.chance_size = self._chance.size
        if self.size > max_size:
            big = max(self.sites, key=lambda s: s.size)
            raise LegesError(Diagnostic(Position(game.ruleset_file),
                                        f"the fixed action space of {game.id} for {players} players has {self.size:,} "
                                        f"actions, above the bound of {max_size:,}; the largest is '{big.key}' "
                                        f"({big.size:,}: " + " × ".join(f"{n} {d.size}" for n, d, _ in big.params) + ")",
                                        "narrow its parameters' domains with bounds= (an int's bound, a list's length "
                                        "and values) or raise max_size"))

    # ------------------------------------------------------------ domains
    def _domain(self, ty: T.Ty, key: str, item: bool = False):
        bound = self.bounds.get(key)
        kind, setup, game = ty.kind, self._setup, self.game
        if kind == "list":
            spec = bound if isinstance(bound, dict) else {}
            length = spec.get("length", self.list_length)
            values = spec.get("values")
            elem = ty.elem or T.ANY
            if isinstance(values, int):
                inner = Domain((str(i) for i in range(values)), f"an int below {values}")
            elif values is not None:
                inner = Domain([str(v) for v in values], "the values given")
                self._known_values(elem, key, inner.texts)
            else:
                inner = self._domain(elem, key + "[]", item=True)
            return ListDomain(inner, length, f"at most {length} items of {inner.what}")
        if kind == "tuple":
            return TupleDomain([self._domain(t, f"{key}[{i}]") for i, t in enumerate(ty.items or ())], "a tuple")
        if kind == "int":
            n = bound if isinstance(bound, int) else self.int_bound
            return Domain((str(i) for i in range(n)), f"an int from 0 to {n - 1}: int_bound={n}")
        if kind == "bool":
            return Domain(["false", "true"], "a truth value")
        if kind == "player":
            return Domain(setup.seat_names, "a seat")
        if kind == "space":
            return Domain([z for z in setup.zone_order if z in setup.spaces], "a space of the board")
        if kind == "zone":
            zones = [z for z in setup.zone_order
                     if not ty.sub or (z in setup.zone_read and setup.zone_read[z].what in ty.sub) or z in ty.sub]
            return Domain(zones, "a zone" + (" of " + ", ".join(sorted(ty.sub)) if ty.sub else ""))
        if kind == "area":
            areas = game.board.areas if game.board is not None else {}
            return Domain([a for k, ids in areas.items() if not ty.sub or k in ty.sub for a in ids],
                          "an area" + (" of kind " + ", ".join(sorted(ty.sub)) if ty.sub else ""))
        if kind == "component":
            return Domain([setup.clabel[c] for c in range(len(setup.ctype)) if not ty.sub or setup.ctype[c] in ty.sub],
                          "a component's label" + (" (" + ", ".join(sorted(ty.sub)) + ")" if ty.sub else ""))
        if kind == "str":
            strings = self._list_strings if item and self._list_strings else self._strings
            return Domain(strings, "a string of the game's data")
        if kind == "none":
            return Domain(["none"], "none")
        raise LegesError(Diagnostic(Position(game.ruleset_file),
                                    f"'{key}' is of type {ty}, which the fixed action space cannot enumerate",
                                    "give its parameter a type of finite values (a space, a component, an int, ...)"))

    def _known_values(self, elem: T.Ty, key: str, texts: list[str]) -> None:
        """Refuse a bound's value that the item's own domain lacks (a misspelt card kind): its options
        would never be numbered, and the error would come mid-game, far from the bound that caused it.
        Ints are open-ended (any value is theirs), so only the other kinds are checked."""
        if elem.kind in ("int", "any", "list", "tuple"):
            return
        known = self._domain(elem, key + "[]", item=True)
        unknown = [v for v in texts if v not in known.index]
        if unknown:
            from ..text.errors import did_you_mean
            raise LegesError(Diagnostic(Position(self.game.ruleset_file),
                                        f"the bound of '{key}' lists {unknown[0]!r}, which is not {known.what}",
                                        did_you_mean(unknown[0], known.texts) or "its values: " + ", ".join(known.texts[:20])))

    def _chance_domain(self) -> Domain:
        setup = self._setup
        texts = ["chance " + t for t in [*setup.clabel, *(str(i) for i in range(self.int_bound)), *setup.seat_names,
                                         *(z for z in setup.zone_order if z in setup.spaces), *self._strings]]
        return Domain(texts, "a chance outcome")

    # ------------------------------------------------------------ ids
    def option_id(self, st, player: int, option: Option) -> int:
        """The id of one of the state's options (`[text, action id, values, args]`)."""
        if player == CHANCE:
            i = self._chance.index.get(option.text)
            if i is None:
                raise LegesError(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                            f"the chance outcome '{option.text}' is outside the fixed chance space",
                                            "raise int_bound"))
            return i
        kind = option.action
        if kind == "pass":
            return self.by_key["pass"].offset
        if kind == "$choose":
            name = next(iter(option.params))
            site = self.by_key.get(f"{option.text.split(' ', 1)[0]}.{name}")
        else:
            site = self.by_key.get(kind)
        if site is None:
            raise LegesError(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                        f"the option '{option.text}' belongs to no site of the fixed action space"))
        return site.encode(st, option.params)

    def legal(self, st, player: int) -> dict[int, str]:
        """Id → text of the legal actions of `player` in `st`, ids ascending (chance: its outcomes)."""
        options = st._options(player)
        out: dict[int, str] = {}
        for o in options:
            i = self.option_id(st, player, o)
            if out.get(i, o.text) != o.text:
                raise LegesError(Diagnostic(Position(f"{st.game.id}@{len(st.history)}"),
                                            f"the options '{out[i]}' and '{o.text}' share the id {i} in the fixed action "
                                            "space (a list's items in another order)",
                                            "the action space numbers lists as unordered choices"))
            out[i] = o.text
        return dict(sorted(out.items()))

    def text(self, action: int, player: int | None = None) -> str:
        """The canonical text of an id (a chance outcome's when `player` is CHANCE)."""
        if player == CHANCE:
            return self._chance.text(action)
        if isinstance(action, bool) or not 0 <= action < self.size:
            raise LegesError(Diagnostic(Position(self.game.id), f"no action id {action!r} in the fixed action space",
                                        f"ids are 0 to {self.size - 1}"))
        for site in self.sites:
            if action < site.offset + site.size:
                return site.text(action - site.offset)
        raise AssertionError("unreachable")

    def id(self, st, player: int, text: str) -> int:
        """The id of an action's text: of the legal option with that text, else parsed by its site."""
        for i, t in self.legal(st, player).items():
            if t == text:
                return i
        if player == CHANCE:
            if text in self._chance.index:
                return self._chance.index[text]
        else:
            for site in self.sites:
                if text == site.prefix and not site.params:
                    return site.offset
                if site.params and text.startswith(site.prefix + " "):
                    found = self._parse(site, text)
                    if found is not None:
                        return found
        raise LegesError(Diagnostic(Position(self.game.id), f"'{text}' names no action of the fixed action space"))

    def _parse(self, site: Site, text: str) -> int | None:
        rest = text[len(site.prefix) + 1:]
        out = 0
        for k, (name, d, _) in enumerate(site.params):
            if not rest.startswith(name + "="):
                return None
            rest = rest[len(name) + 1:]
            following = f" {site.params[k + 1][0]}=" if k + 1 < len(site.params) else None
            value, rest = (rest.split(following, 1) if following and following in rest else (rest, ""))
            if following:
                rest = following[1:] + rest
            if isinstance(d, Domain):
                i = d.index.get(value)
            elif isinstance(d, ListDomain) and d.find(value) is not None:
                i = d.find(value)
            else:
                i = next((j for j in range(d.size) if d.text(j) == value), None) if d.size <= 100_000 else None
            if i is None:
                return None
            out = out * d.size + i
        return site.offset + out

    def describe(self) -> list[dict]:
        """The sites as data: key, first id, size and each parameter's domain size and description."""
        return [{"site": s.key, "offset": s.offset, "size": s.size,
                 "params": [{"name": n, "size": d.size, "domain": d.what} for n, d, _ in s.params]} for s in self.sites]


def _strings(game, setup) -> tuple[list[str], list[str]]:
    scalars: set[str] = set()
    listed: set[str] = set()
    sources = list(setup.cstatic)
    board = game.board
    if board is not None:
        sources += list(board.props.values())
        sources += [p for ids in board.areas.values() for p in ids.values()]
    for props in sources:
        for v in props.values():
            if isinstance(v, str):
                scalars.add(v)
            elif isinstance(v, list):
                listed.update(x for x in v if isinstance(x, str))
    return sorted(scalars | listed), sorted(listed)
