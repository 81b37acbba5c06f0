"""Compiling names and what is read through them: a name (a variable, constant, zone, seat, space or
local), an attribute (`c.owner`, `s.label`, a zone's parts), an index (`xs[i]`, a table's row), a row
of zones by player. A mixin of `compiler.Compiler`."""
from __future__ import annotations

from ...text.errors import did_you_mean
from ..syntax import ast
from ..optimise import memo
from ..check import types as T
from .builtins import BUILTINS
from .call import NOTHING
from .compile_parts import CompilerParts

BUILTIN_NAMES = ("me", "current", "players", "num_players", "spaces", "phase", "turn_number", "in_round", "true", "false",
                 "none")


class NameCompiling(CompilerParts):
    def _e_Name(self, node, scope, origin):
        """A name: one branch a kind of name (local, me, current, ..., variable, constant, zone, seat,
        space), tried in the order the language resolves them."""
        name = node.id
        sym = self.symbols
        if name in scope.locals:
            return scope.locals[name], scope.ref(name)
        if name == "me":
            if not scope.me:
                self.err(node, origin, "'me' has no meaning here: no player is acting",
                         "use 'current' for the player whose turn it is")
            self.read(memo.ME)
            return T.PLAYER, scope.me_code
        if name == "current":
            self.read(memo.TURN)
            return T.PLAYER, "st.turn_player"
        if name == "players":
            return T.list_of(T.PLAYER), "list(range(st.n))"
        if name == "num_players":
            return T.INT, "st.n"
        if name == "in_round":  # the players who have not dropped out of the phase's turns
            self.read(memo.TURN)
            return T.list_of(T.PLAYER), "[p for p in range(st.n) if p not in st.dropped]"
        if name == "phase":
            self.read(memo.TURN)
            return T.STR, "st.phase"
        if name == "turn_number":
            self.read(memo.TURN)
            return T.INT, "st.turn_count"
        if name == "spaces":
            if self.board is None:
                self.err(node, origin, "'spaces' needs a board, and this ruleset declares no map")
                return T.list_of(T.SPACE), "[]"
            return T.list_of(T.SPACE), self.const(list(self.board.spaces))
        if name in sym.variables:
            var = sym.variables[name]
            self.read(memo.var(name))
            if var.per_player:  # the whole row: one value per player
                return T.list_of(var.type), f"st.vars[{name!r}]"
            return var.type, f"st.vars[{name!r}]"
        if name in sym.constants:
            ty, value = sym.constants[name]
            return ty, (repr(value) if not isinstance(value, list) else self.const(value))
        if name in sym.zones:
            zone = sym.zones[name]
            if zone.per_player and zone.count:
                self.err(node, origin, f"zone '{name}' is a row of zones for each player: write {name}(p, i)")
            elif zone.per_player:
                self.err(node, origin, f"zone '{name}' is per player: write {name}(p)")
            elif zone.count:
                self.err(node, origin, f"zone '{name}' is a row of zones: write {name}(i)")
            return T.zone(name), repr(name)
        if name in sym.seats:
            return T.PLAYER, repr(sym.seats.index(name))
        if name in sym.space_ids:
            return T.SPACE, repr(name)
        candidates = list(scope.locals) + list(sym.variables) + list(sym.constants) + list(sym.zones) + \
            list(sym.seats) + list(BUILTIN_NAMES)
        hint = did_you_mean(name, candidates)
        if name in sym.functions or name in BUILTINS:
            hint = f"'{name}' is a function: call it as {name}(...)"
        self.err(node, origin, f"unknown name '{name}'", hint)
        return NOTHING

    def _e_Attr(self, node, scope, origin):
        """An attribute: one branch a kind of value and attribute (a component's type, owner or
        property; a space's; an area's; a seat's), in the order of the language reference."""
        ty, obj = self.code(node.obj, scope, origin)
        name = node.name
        kind = ty.kind
        sym = self.symbols
        if kind == "component":
            types = ty.sub or set(sym.component_types)
            if name == "type":
                return T.STR, f"st.setup.ctype[{obj}]"
            if name == "owner":
                return T.PLAYER, f"st.setup.cowner[{obj}]"
            if name == "zone":
                self.read_where(ty.sub)
                return T.ZONE, f"st.where[{obj}]"
            if name == "space":
                self.read_where(ty.sub, on_spaces=True)
                spaces = self.const(frozenset(self.board.spaces) if self.board else frozenset())
                if obj.startswith("v_") and obj[2:].isidentifier():  # a plain local: inline it
                    return T.SPACE, f"(st.where[{obj}] if st.where[{obj}] in {spaces} else None)"
                return T.SPACE, f"H.space_of(st, {obj}, {spaces})"
            found = [sym.component_types[t][name] for t in types if name in sym.component_types.get(t, {})]
            if not found:
                known = {p for t in types for p in sym.component_types.get(t, {})} | {"type", "owner", "zone", "space"}
                self.err(node, origin, f"{ty} has no property '{name}'", did_you_mean(name, known))
                return NOTHING
            pty = found[0]
            for other in found[1:]:
                pty = T.join(pty, other)
            having = [t for t in types if name in sym.component_types.get(t, {})]
            named = node.obj.id if isinstance(node.obj, ast.Name) and name not in sym.dynamic_component_props else None
            # a projected parameter's are in its function's key; a component's on a board space are
            # the same in every world: neither is among what the value depends on
            if named is None or not (named in scope.on_board or self.functions.absorb(named, [memo.static(t) for t in having])):
                self.read_static(having)
            if name in sym.dynamic_component_props:
                self.read(memo.cprop(name))
                return pty, f"H.cprop(st, {obj}, {name!r})"
            if len(found) == len(types) and all(name in sym.component_types.get(t, {}) for t in types) \
                    and all(name in self.uniform_props.get(t, ()) for t in types):
                return pty, f"st.setup.cstatic[{obj}][{name!r}]"  # every such component has it
            return pty, f"st.setup.cstatic[{obj}].get({name!r})"
        if kind == "space" or (kind == "zone" and name in sym.space_props):
            if self.board is not None and name in self.board.areas:
                return T.area(name), f"{self.const(self.board.area_of[name])}.get({obj})"
            if name in sym.space_props:
                static = self.const(self.board.props)
                if kind == "zone" or name in self.dynamic_space_props:  # a zone may not be a space
                    if name in self.dynamic_space_props:
                        anchor = self.anchor_of(node.obj, scope) if kind == "space" else None
                        self.read(memo.near_prop(name, *anchor) if anchor else memo.sprop(name))
                    return sym.space_props[name], f"H.sprop(st, {obj}, {name!r}, {static})"
                return sym.space_props[name], f"{static}[{obj}][{name!r}]"
            known = set(sym.space_props) | set(self.board.areas if self.board else ())
            self.err(node, origin, f"a space has no property '{name}'", did_you_mean(name, known))
            return NOTHING
        if kind == "area":
            board = self.board
            if board is None:  # `area(x).spaces` in a ruleset without a map: there are no areas
                self.err(node, origin, f"an area's '{name}' needs a board, and this ruleset declares no map",
                         "name the board with `map:`, or leave out what reads areas")
                return (T.list_of(T.SPACE), "[]") if name == "spaces" else NOTHING
            if name == "spaces":
                return T.list_of(T.SPACE), f"{self.const(board.area_spaces)}[{obj}]"
            kinds = ty.sub or set(sym.area_kinds)
            found = [sym.area_kinds[k][name] for k in kinds if name in sym.area_kinds.get(k, {})]
            if not found:
                known = {p for k in kinds for p in sym.area_kinds.get(k, {})} | {"spaces"}
                self.err(node, origin, f"{ty} has no property '{name}'", did_you_mean(name, known))
                return NOTHING
            by_id = {aid: props for k in board.areas.values() for aid, props in k.items()}
            return found[0], f"{self.const(by_id)}[{obj}].get({name!r})"
        if kind == "player":
            if name == "seat":
                return T.INT, obj
            if name in sym.seat_props:
                return sym.seat_props[name], f"st.setup.seat_props[{obj}].get({name!r})"
            self.err(node, origin, f"a player has no property '{name}'", did_you_mean(name, list(sym.seat_props) + ["seat"]))
            return NOTHING
        if kind == "zone":
            if name == "owner":
                return T.PLAYER, f"st.setup.zone_owner.get({obj})"
            self.err(node, origin, f"a zone has no property '{name}'", "zones have: owner")
            return NOTHING
        if kind == "any":
            self.read(memo.cprop(name))
            self.read_static(None)
            return T.ANY, f"H.dynamic_attr(st, {obj}, {name!r})"
        self.err(node, origin, f"{ty} has no properties (asked for '{name}')")
        return NOTHING

    def _e_Index(self, node, scope, origin):
        if isinstance(node.obj, ast.Name) and node.obj.id in self.symbols.variables \
                and self.symbols.variables[node.obj.id].per_player and node.obj.id not in scope.locals:
            ity, idx = self.code(node.index, scope, origin)
            if not T.compatible(ity, T.PLAYER):
                self.err(node.index, origin, f"'{node.obj.id}' is per player: index it with a player, not {ity}")
            self.read(memo.var(node.obj.id))
            return self.symbols.variables[node.obj.id].type, f"st.vars[{node.obj.id!r}][{idx}]"
        ty, obj = self.code(node.obj, scope, origin)
        ity, idx = self.code(node.index, scope, origin)
        if ty.kind in ("zone", "space"):
            return T.COMPONENT, f"H.index({self.contents(ty, obj, None, node.obj, scope)}, {idx})"
        if ty.kind == "table":
            key = T.key_of(ty)
            if not T.compatible(ity, key):
                self.err(node.index, origin, f"a table is indexed by {'a ' if key.kind in ('space', 'player') else ''}{key}, not {ity}")
            if key.kind == "player":  # a table by player is a list by seat
                return ty.elem or T.ANY, f"{obj}[{idx}]"
            return ty.elem or T.ANY, f"{obj}.get({idx})"
        if ty.kind == "tuple":
            if not T.compatible(ity, T.INT):
                self.err(node.index, origin, f"a tuple index must be a number, not {ity}")
            at = node.index.value if isinstance(node.index, ast.Literal) and type(node.index.value) is int else None
            if at is not None and -len(ty.items) <= at < len(ty.items):
                return ty.items[at], f"{obj}[{at}]"
            if at is not None:
                self.err(node.index, origin, f"{ty} has {len(ty.items)} items: no item {at}",
                         f"items are numbered from 0 to {len(ty.items) - 1}")
                return NOTHING
            elem = T.NONE
            for item in ty.items:
                elem = T.join(elem, item)
            return elem, f"H.index({obj}, {idx})"
        if ty.kind not in ("list", "any"):
            self.err(node, origin, f"cannot index {ty}")
            return NOTHING
        if not T.compatible(ity, T.INT):
            self.err(node.index, origin, f"a list index must be a number, not {ity}")
        return ((ty.elem or T.ANY) if ty.kind == "list" else T.ANY), f"H.index({obj}, {idx})"

    def _player_row(self, node, zone, scope, origin):
        """`zone(p, i)`: zone number i of player p's row (a per-player zone with a count)."""
        name = zone.id
        if len(node.args) != 2 or node.kwargs:
            self.err(node, origin, f"zone '{name}' is a row of zones for each player: write {name}(p, i)")
            return T.ZONE, repr(name)
        (pty, player), (ity, index) = (self.code(a, scope, origin) for a in node.args)
        if not T.compatible(pty, T.PLAYER):
            self.err(node.args[0], origin, f"'{name}(p, i)' takes a player first, not {pty}")
        if not T.compatible(ity, T.INT):
            self.err(node.args[1], origin, f"'{name}(p, i)' takes a number second, not {ity}")
        return T.zone(name), f"H.row_zone(st, {name!r}, {player}, {index})"
