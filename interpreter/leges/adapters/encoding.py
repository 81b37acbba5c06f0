"""What a network sees: a seat's view of a state as a flat vector of numbers, the same for any ruleset.

`Encoding(game, players)` lays the vector out once (its `size`, and `layout()`: each stretch's
name, offset and length, for a ruleset author to see what is where); `encode(state, player)` fills
it from `state.observation(player)`'s rules of visibility — only what that seat may see:

1. **zones**, in the set-up's zone order (board spaces included), each a stretch of 1 + L numbers
   (L: the distinct component labels of the game for this many players, in component order):
   the number of items in the zone (always public), then how many of its items the seat sees
   carry each label — all of them in a zone visible to it (`all`, or `owner` and its own), the top
   item of a `top` zone, none of a hidden one. The order within a zone is not encoded (a stack
   shows its top only through `top` visibility).
2. **variables** of type int, bool and player, in declaration order (a per-player one: one value a
   seat, in seat order): an int as it is, a bool 0 or 1, a player as one-hot over the seats plus
   one for none. A variable declared `hidden` is left out; another seat's `owner` value is 0.
3. **the phase** (one-hot over the declared phases), **who is to move** (one-hot over the seats,
   then chance, then nobody), **whose turn** it is and **who looks** (one-hot over the seats each).

The information-state vector (`memory_size` more numbers, `encode_memory`) adds, for every zone
that is not visible to all, how many of the components the seat *remembers* there carry each
label (engine/knowledge.py: a card it saw go into an opponent's hand or under a pile, and that has
not moved out of its sight since): what it has seen before, not only what it sees now.

Every part is a float within `bounds()`: a count from 0 to the number of components, a one-hot 0 or
1, an int variable within ±INT_LIMIT (2**24, clipped there: a float32 holds every integer up to it
exactly). The information-state
vector holds no record of the actions played (the information-state *string* of the OpenSpiel
adapter has the seat's whole record of play).
"""
from __future__ import annotations

from ..engine.constants import CHANCE

NUMERIC = ("int", "bool", "player")
INT_LIMIT = 2 ** 24


class Encoding:
    def __init__(self, game, players: int):
        self.game, self.players = game, players
        setup = game.setup_for(players)
        self.zones = list(setup.zone_order)
        self.labels = list(dict.fromkeys(setup.clabel))
        self.label_index = {t: i for i, t in enumerate(self.labels)}
        self.stride = 1 + len(self.labels)
        symbols = game.compiler.symbols if game.compiler is not None else None
        self.vars = []  # (name, per player, visibility, kind)
        for name, (per_player, _) in game.variables.items():
            info = symbols.variables.get(name) if symbols is not None else None
            vis = game.variable_visibility.get(name, "all")
            if info is None or info.type.kind not in NUMERIC or vis == "hidden":
                continue
            self.vars.append((name, per_player, vis, info.type.kind))
        self.phases = {p: i for i, p in enumerate(game.phases)}
        parts = [("zones", len(self.zones) * self.stride)]
        for name, per_player, _, kind in self.vars:
            width = (players + 1) if kind == "player" else 1
            parts.append((f"var:{name}", width * (players if per_player else 1)))
        parts += [("phase", len(self.phases)), ("to_move", players + 2), ("turn", players), ("you", players)]
        self.memory_zones = [z for z in self.zones if setup.zone_visibility.get(z, "all") != "all"]
        self.memory_size = len(self.memory_zones) * len(self.labels)
        self.parts = []
        offset = 0
        for name, width in parts:
            self.parts.append((name, offset, width))
            offset += width
        self.size = offset

    def bounds(self) -> tuple[list[float], list[float]]:
        """The least and greatest value of every entry (a Box's low and high)."""
        low, high = [0.0] * self.size, [1.0] * self.size
        most = float(len(self.game.setup_for(self.players).ctype))
        for i in range(len(self.zones) * self.stride):
            high[i] = most
        for name, offset, width in self.parts[1:1 + len(self.vars)]:
            kind = next(v[3] for v in self.vars if f"var:{v[0]}" == name)
            if kind == "int":
                for i in range(offset, offset + width):
                    low[i], high[i] = -float(INT_LIMIT), float(INT_LIMIT)
        return low, high

    def layout(self) -> list[dict]:
        """Each stretch of the vector: its name, offset and length (zones: one stretch of 1 + labels each)."""
        out = [{"name": f"zone:{z}", "offset": i * self.stride, "length": self.stride,
                "items": ["count", *self.labels]} for i, z in enumerate(self.zones)]
        return out + [{"name": n, "offset": o, "length": w} for n, o, w in self.parts[1:]]

    def encode(self, st, player: int, out=None):
        """The vector of `player`'s view of `st`: a numpy float32 array (written into `out` when given),
        or a list of floats where numpy is not installed."""
        found = self.sparse(st, player)
        try:
            import numpy as np
        except ImportError:
            vec = [0.0] * self.size
            for i, v in found.items():
                vec[i] = v
            if out is not None:
                out[:] = vec
                return out
            return vec
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        if found:
            out[np.fromiter(found.keys(), np.int64, len(found))] = np.fromiter(found.values(), np.float32, len(found))
        return out

    def encode_memory(self, st, knowledge, out=None):
        """The `memory_size` numbers of what a seat remembers (a `Knowledge`, or None: nothing) in
        the zones not visible to all: per zone, how many remembered components carry each label."""
        import numpy as np
        if out is None:
            out = np.zeros(self.memory_size, np.float32)
        else:
            out.fill(0.0)
        if knowledge is None or not knowledge.fixed:
            return out
        labels, index, width = st.setup.clabel, self.label_index, len(self.labels)
        for i, z in enumerate(self.memory_zones):
            for c in st.zones[z]:
                if c in knowledge.fixed:
                    out[i * width + index[labels[c]]] += 1.0
        return out

    def sparse(self, st, player: int) -> dict[int, float]:
        """The vector's non-zero entries, index → value."""
        vec: dict[int, float] = {}
        setup = st.setup
        visibility, owner, labels, index = setup.zone_visibility, setup.zone_owner, setup.clabel, self.label_index
        stride = self.stride
        zones = st.zones
        for i, z in enumerate(self.zones):
            items = zones[z]
            if not items:
                continue
            base = i * stride
            vec[base] = float(len(items))
            vis = visibility.get(z, "all")
            if vis == "all" or (vis == "owner" and owner.get(z) == player):
                for c in items:
                    at = base + 1 + index[labels[c]]
                    vec[at] = vec.get(at, 0.0) + 1.0
            elif vis == "top":
                vec[base + 1 + index[labels[items[-1]]]] = 1.0
        n = self.players
        k = 1
        for name, per_player, vis, kind in self.vars:
            _, offset, _ = self.parts[k]
            k += 1
            value = st.vars.get(name)
            values = (value if isinstance(value, list) else [None] * n) if per_player else [value]
            width = n + 1 if kind == "player" else 1
            for j, v in enumerate(values):
                if per_player and vis == "owner" and j != player:
                    continue
                at = offset + j * width
                if kind == "player":
                    vec[at + (v if isinstance(v, int) and 0 <= v < n else n)] = 1.0
                elif isinstance(v, (bool, int, float)) and v:
                    vec[at] = float(max(-INT_LIMIT, min(INT_LIMIT, v)))
        _, offset, _ = self.parts[k]
        if st.phase in self.phases:
            vec[offset + self.phases[st.phase]] = 1.0
        _, offset, _ = self.parts[k + 1]
        current = st.current_player()
        vec[offset + (current if current >= 0 else n if current == CHANCE else n + 1)] = 1.0
        _, offset, _ = self.parts[k + 2]
        if isinstance(st.turn_player, int) and 0 <= st.turn_player < n:
            vec[offset + st.turn_player] = 1.0
        _, offset, _ = self.parts[k + 3]
        vec[offset + player] = 1.0
        return vec
