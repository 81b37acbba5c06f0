"""The symbol table of a game, from its declarations: seats, component types and their properties,
zones, variables, constants, actions, events, phases, the board's spaces and areas; with the checks
that belong to declaring (types, initial values, citations, one name for one thing)."""
from __future__ import annotations

from ...lang.check import types as T
from ...lang.codegen.compiler import BUILTIN_EVENTS
from ...lang.check.symbols import VarInfo, ZoneInfo, parse_type, type_of_value
from ...model.decl import SEAT_WORDS
from ...model.sections import citations, declarations
from ...text.errors import did_you_mean
from .parts import BuilderParts, count_for


class Declaring(BuilderParts):
    def symbols(self) -> None:
        """Fill the symbol table, kind by kind; the board's names come last, then the clash check."""
        self._seats()
        self.readings = self._unique(self.rs.readings, "reading")
        self._check_sources({b["id"] for b in self.rs.rulebooks})
        self._components()
        self._zones()
        self._variables()
        self._constants()
        sym, rs = self.sym, self.rs
        sym.functions = self._unique(rs.functions, "function")
        sym.procedures = self._unique(rs.procedures, "procedure")
        sym.actions = self._unique(rs.actions, "action")
        self._action_args()
        self._events()
        sym.phases = set(self._unique(rs.phases, "phase"))
        if self.board is not None:
            self._board()
        self._check_clashes()

    def _seats(self) -> None:
        sym = self.sym
        sym.seats = [str(s["name"]) for s in self.rs.seats]
        sym.seat_props = {"name": T.STR}
        for seat in self.rs.seats:
            for k, v in seat.items():
                if k not in ("name", SEAT_WORDS):  # its display names are words for people, not a property
                    sym.seat_props[k] = T.join(sym.seat_props.get(k, T.NONE), type_of_value(v))

    def _components(self) -> None:
        sym = self.sym
        for comp in self._unique(self.rs.components, "component").values():
            props = {k: type_of_value(v) for k, v in comp.props.items()}
            for values, _, _ in comp.instances:
                for k, v in values.items():
                    props[k] = T.join(props.get(k, T.NONE), type_of_value(v))
            sym.component_types[comp.id] = props
            kinds = [values for values, _, _ in comp.instances] or [{}]
            self.compiler.uniform_props[comp.id] = {k for k in props if all(k in comp.props or k in v for v in kinds)}
            for k, v in list(comp.props.items()) + [kv for values, _, _ in comp.instances for kv in values.items()]:
                if isinstance(v, str):
                    sym.prop_values.setdefault(k, set()).add(v)

    def _zones(self) -> None:
        rs = self.rs
        for zone in self._zone_decls().values():
            if isinstance(zone.count, dict):  # a row as long as the number of players says
                for n in range(rs.min_players, rs.max_players + 1):
                    if count_for(zone.count, n) is None:
                        self.error(zone.at.child("count"), f"zone '{zone.id}' has no count for {n} players",
                                   "give a count for every number of players the game allows")
            row = max((count_for(zone.count, n) or 0 for n in range(rs.min_players, rs.max_players + 1)), default=0) \
                if isinstance(zone.count, dict) else zone.count
            self.sym.zones[zone.id] = ZoneInfo(zone.id, zone.per_player, max(row, 1) if zone.count is not None else None,
                                               zone.kind, zone.visibility)

    def _variables(self) -> None:
        for var in self._unique(self.rs.variables, "variable").values():
            ty = parse_type(var.type) if var.type else type_of_value(var.initial)
            if var.type and ty is None:
                self.error(var.at.child("type"), f"unknown type '{var.type}'",
                           did_you_mean(var.type, T.TYPE_NAMES) or "types: " + ", ".join(T.TYPE_NAMES))
                ty = T.ANY
            if ty is None or ty == T.NONE:
                ty = T.ANY
            self._check_initial(var, ty)
            self.sym.variables[var.id] = VarInfo(var.id, ty, bool(var.per_player))

    def _constants(self) -> None:
        spaces = set(self.board.spaces) if self.board is not None else set()
        for const in self._unique(self.rs.constants, "constant").values():
            ty = type_of_value(const.value)
            value = const.value
            if isinstance(value, str) and value in spaces:  # a constant naming a space is a space
                ty = T.SPACE
            elif isinstance(value, list) and value and all(isinstance(v, str) and v in spaces for v in value):
                ty = T.list_of(T.SPACE)
            self.sym.constants[const.id] = (ty, value)

    def _type_named(self, tname, at) -> T.Ty:
        ty = parse_type(tname)
        if ty is None:
            self.error(at, f"unknown type '{tname}'", did_you_mean(tname, T.TYPE_NAMES))
            return T.ANY
        return ty

    def _action_args(self) -> None:
        for action in self.sym.actions.values():
            action.args_types = {k: self._type_named(tname, action.at.child("args", k)) for k, tname in action.args.items()}

    def _events(self) -> None:
        sym = self.sym
        for event in self._unique(self.rs.events, "event").values():
            params = {k: self._type_named(tname, event.at.child("params", k)) for k, tname in event.params.items()}
            if event.id in BUILTIN_EVENTS:
                self.error(event.at.child("id"), f"'{event.id}' is a built-in event and cannot be redeclared")
            sym.events[event.id] = params
            if event.say is not None:
                sym.told.add(event.id)
        sym.events.update(BUILTIN_EVENTS)

    def _board(self) -> None:
        sym, board = self.sym, self.board
        sym.space_ids = set(board.spaces)
        sym.space_props = {k: type_of_value(v) for k, v in board.prop_defaults.items()}
        if board.coords:
            sym.space_props.update({"row": T.INT, "col": T.INT})
        for props in board.props.values():
            for k, v in props.items():
                if v is not None and k in sym.space_props and sym.space_props[k] in (T.NONE, T.ANY):
                    sym.space_props[k] = type_of_value(v)
                if isinstance(v, str):
                    sym.prop_values.setdefault(k, set()).add(v)
        for kind, entries in board.areas.items():
            sym.area_kinds[kind] = self._area_props(entries)
            sym.area_ids.update(entries)
        for values in board.edge_props.values():
            for k, v in values.items():
                sym.edge_props[k] = T.join(sym.edge_props.get(k, T.NONE), type_of_value(v))

    def _area_props(self, entries: dict) -> dict[str, T.Ty]:
        """The types of the properties of one kind of area (a property whose every value names a space holds spaces)."""
        props: dict[str, T.Ty] = {}
        for values in entries.values():
            for k, v in values.items():
                props[k] = T.join(props.get(k, T.NONE), type_of_value(v))
                if isinstance(v, str):
                    self.sym.prop_values.setdefault(k, set()).add(v)
        for k in props:
            found = [values[k] for values in entries.values() if values.get(k) is not None]
            if found and all(isinstance(v, str) and v in self.sym.space_ids for v in found):
                props[k] = T.SPACE
        return props

    def _check_initial(self, var, ty: T.Ty) -> None:
        """A variable's initial value must be of its declared type (a player is written as a seat name)."""
        value = var.initial
        if value is None or ty.kind == "any":
            return
        given = type_of_value(value)
        if ty.kind == "player":
            if not (isinstance(value, str) and value in self.sym.seats):
                self.error(var.at.child("initial"), f"variable '{var.id}' holds a player, not {given} {value!r}",
                           "write a seat name (" + ", ".join(self.sym.seats) + ") or null")
        elif not T.compatible(ty, given) or (ty.kind == "list" and given.kind != "list"):
            self.error(var.at.child("initial"), f"variable '{var.id}' holds {ty}, not {given} {value!r}")

    def _check_sources(self, books: set) -> None:
        for item in self._all_decls():
            for at, src in citations(item):
                if "book" in src and src["book"] not in books:
                    self.error(at.child("book"), f"no rulebook '{src['book']}' is declared",
                               did_you_mean(src["book"], books) or "declare it under `rulebooks`")
                given = src.get("provenance")
                taken = str(given.get("from") or "") if isinstance(given, dict) else ""
                if taken and taken not in books:  # a borrowed value names the rulebook it comes from
                    self.error(at.child("provenance", "from"), f"no rulebook '{taken}' is declared",
                               did_you_mean(taken, books) or "name a rulebook declared under `rulebooks`")
                if "reading" in src and src["reading"] not in self.readings:
                    self.error(at.child("reading"), f"no reading '{src['reading']}' is declared",
                               did_you_mean(src["reading"], self.readings) or "declare it under `readings`")

    def _all_decls(self):
        return declarations(self.rs)

    def _check_clashes(self) -> None:
        sym = self.sym
        owners: dict[str, str] = {}
        for kind, names in (("zone", sym.zones), ("variable", sym.variables), ("constant", sym.constants),
                            ("seat", sym.seats), ("space", sym.space_ids)):
            for name in names:
                if name in owners and owners[name] != kind:
                    self.error(self.rs.at, f"'{name}' names both a {owners[name]} and a {kind}",
                               "give every zone, variable, constant, seat and space its own name")
                owners.setdefault(name, kind)
