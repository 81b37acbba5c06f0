"""Building a playable Game from a ruleset's declarations: names, types, checks, compilation.

All problems are collected (not just the first) and reported together with their positions.
"""
from __future__ import annotations

from typing import Any

from ..text.errors import Collector, Diagnostic, LegesError, did_you_mean
from ..lang import memo
from ..lang import types as T
from ..lang.compiler import BUILTIN_EVENTS, Compiler
from ..lang.scope import Scope
from ..lang.symbols import Symbols, VarInfo, ZoneInfo, parse_type, type_of_value
from ..model import decl as d
from ..model.sections import citations, declarations
from .constants import PUSHED
from .measures import Measure
from .game import CompiledAction, CompiledPhase, CompiledTrigger, Game, Setup
from .options import options_function
from .program import Code, Programs

OUT_OF_GAME = "out_of_game"  # the built-in zone of every ruleset (Builder._zones)
DEFAULT_MAX_STEPS = 1_000_000
DEFAULT_MAX_LOOP = 10_000
DEFAULT_MAX_WORK = 10_000_000
DEFAULT_MAX_TURNS = 10_000  # a game still running then ends unfinished: no ruleset runs for ever
DEFAULT_MAX_DECISIONS = 100_000  # the same for decisions (a turn may go on and on)
DEFAULT_MAX_OPTIONS = 100_000  # the bundled games offer at most about 800 at a decision


def _count_for(count: Any, n: int) -> int | None:
    if isinstance(count, int):
        return count
    if isinstance(count, dict):
        return count.get(str(n))
    return None


class Builder:
    def __init__(self, rs: d.Ruleset, board, errors: Collector, optimise: bool = True):
        self.rs, self.board, self.errors = rs, board, errors
        self.sym = Symbols()
        self._unique_cache: dict[int, dict] = {}
        self._out_of_game: d.ZoneDecl | None = None
        self.compiler = Compiler(self.sym, board, errors, optimise)
        self.programs = Programs(self.compiler)
        self.game = Game()

    def error(self, at: d.At, message: str, hint: str | None = None, key: bool = False) -> None:
        self.errors.error(at.position(key=key), message, hint)

    # ------------------------------------------------------------- symbols
    def _unique(self, decls, what: str) -> dict:
        key = id(decls)
        if key in self._unique_cache:  # each list is checked (and reported) once
            return self._unique_cache[key]
        seen: dict[str, Any] = {}
        self._unique_cache[key] = seen
        for item in decls:
            if item.id in seen:
                self.error(item.at.child("id"), f"{what} '{item.id}' is declared twice",
                           f"the first is at {seen[item.id].at.position()}")
            else:
                seen[item.id] = item
        return seen

    def _zones(self) -> dict:
        """The ruleset's zones, and the built-in one every ruleset has unless it names something so itself:
        `out_of_game` (OUT_OF_GAME), where what leaves the game goes — a scenario's `arrange` puts there
        what its position does not use, without the author declaring a box the rulebook may not have. It is
        open (`visibility: all`): what goes there unseen needs a hidden zone of the ruleset's own."""
        zones = self._unique(self.rs.zones, "zone")
        rs = self.rs
        if OUT_OF_GAME in zones or any(x.id == OUT_OF_GAME for x in [*rs.variables, *rs.constants]) \
                or OUT_OF_GAME in [str(seat.get("name")) for seat in rs.seats] \
                or (self.board is not None and OUT_OF_GAME in self.board.spaces):
            return zones
        if self._out_of_game is None:
            self._out_of_game = d.ZoneDecl(OUT_OF_GAME, d.At(self.rs.docs[0], ()), visibility="all",
                                           description="built in: what has left the game, in the open")
        return {**zones, OUT_OF_GAME: self._out_of_game}

    def symbols(self) -> None:
        rs, sym, board = self.rs, self.sym, self.board
        sym.seats = [str(s["name"]) for s in rs.seats]
        sym.seat_props = {"name": T.STR}
        for seat in rs.seats:
            for k, v in seat.items():
                if k != "name":
                    sym.seat_props[k] = T.join(sym.seat_props.get(k, T.NONE), type_of_value(v))
        books = {b["id"] for b in rs.rulebooks}
        self.readings = self._unique(rs.readings, "reading")
        self._check_sources(books)
        for comp in self._unique(rs.components, "component").values():
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

        for zone in self._zones().values():
            if isinstance(zone.count, dict):  # a row as long as the number of players says
                for n in range(rs.min_players, rs.max_players + 1):
                    if _count_for(zone.count, n) is None:
                        self.error(zone.at.child("count"), f"zone '{zone.id}' has no count for {n} players",
                                   "give a count for every number of players the game allows")
            row = max((_count_for(zone.count, n) or 0 for n in range(rs.min_players, rs.max_players + 1)), default=0) \
                if isinstance(zone.count, dict) else zone.count
            sym.zones[zone.id] = ZoneInfo(zone.id, zone.per_player, max(row, 1) if zone.count is not None else None,
                                          zone.kind, zone.visibility)
        for var in self._unique(rs.variables, "variable").values():
            ty = parse_type(var.type) if var.type else type_of_value(var.initial)
            if var.type and ty is None:
                self.error(var.at.child("type"), f"unknown type '{var.type}'",
                           did_you_mean(var.type, T.TYPE_NAMES) or "types: " + ", ".join(T.TYPE_NAMES))
                ty = T.ANY
            if ty == T.NONE:
                ty = T.ANY
            self._check_initial(var, ty)
            if var.per_player:
                sym.variables[var.id] = VarInfo(var.id, ty, True)
            else:
                sym.variables[var.id] = VarInfo(var.id, ty, False)
        spaces = set(board.spaces) if board is not None else set()
        for const in self._unique(rs.constants, "constant").values():
            ty = type_of_value(const.value)
            value = const.value
            if isinstance(value, str) and value in spaces:  # a constant naming a space is a space
                ty = T.SPACE
            elif isinstance(value, list) and value and all(isinstance(v, str) and v in spaces for v in value):
                ty = T.list_of(T.SPACE)
            sym.constants[const.id] = (ty, value)
        sym.functions = self._unique(rs.functions, "function")
        sym.procedures = self._unique(rs.procedures, "procedure")
        sym.actions = self._unique(rs.actions, "action")
        for action in sym.actions.values():
            action.args_types = {}
            for k, tname in action.args.items():
                ty = parse_type(tname)
                if ty is None:
                    self.error(action.at.child("args", k), f"unknown type '{tname}'", did_you_mean(tname, T.TYPE_NAMES))
                    ty = T.ANY
                action.args_types[k] = ty
        for event in self._unique(rs.events, "event").values():
            params = {}
            for k, tname in event.params.items():
                ty = parse_type(tname)
                if ty is None:
                    self.error(event.at.child("params", k), f"unknown type '{tname}'", did_you_mean(tname, T.TYPE_NAMES))
                    ty = T.ANY
                params[k] = ty
            if event.id in BUILTIN_EVENTS:
                self.error(event.at.child("id"), f"'{event.id}' is a built-in event and cannot be redeclared")
            sym.events[event.id] = params
        sym.events.update(BUILTIN_EVENTS)
        sym.phases = set(self._unique(rs.phases, "phase"))
        if board is not None:
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
                props: dict[str, T.Ty] = {}
                for values in entries.values():
                    for k, v in values.items():
                        props[k] = T.join(props.get(k, T.NONE), type_of_value(v))
                        if isinstance(v, str):
                            sym.prop_values.setdefault(k, set()).add(v)
                for k in props:  # a property whose every value names a space holds spaces
                    found = [values[k] for values in entries.values() if values.get(k) is not None]
                    if found and all(isinstance(v, str) and v in sym.space_ids for v in found):
                        props[k] = T.SPACE
                sym.area_kinds[kind] = props
                sym.area_ids.update(entries)
            for values in board.edge_props.values():
                for k, v in values.items():
                    sym.edge_props[k] = T.join(sym.edge_props.get(k, T.NONE), type_of_value(v))
        self._check_clashes()

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

    # ------------------------------------------------------------- setups
    def setup_builder(self):
        rs, sym = self.rs, self.sym
        comps = list(self._unique(rs.components, "component").values())
        zones = list(self._zones().values())
        label_fns = {}
        for comp in comps:
            if comp.label is not None:
                scope = Scope({"it": T.component(comp.id)}, me=False)
                label_fns[comp.id] = self.compiler.parse_expr(comp.label, scope)[1]
            reported = False
            for n in range(rs.min_players, rs.max_players + 1):
                if not comp.instances and _count_for(comp.count, n) is None:
                    self.error(comp.at.child("count"), f"component '{comp.id}' has no count for {n} players")
                for values, count, at in comp.instances:
                    if _count_for(count, n) is None:
                        self.error(at, f"this kind of '{comp.id}' has no count for {n} players")
                declared = _count_for(comp.count, n) if "count" in comp.at.doc.data_at(comp.at.path) else None
                made = sum(_count_for(count, n) or 0 for _, count, _ in comp.instances)
                if comp.instances and declared is not None and declared != made and not reported:
                    reported = True  # once, not once per player count
                    self.error(comp.at.child("count"), f"'{comp.id}': count says {declared} for {n} players, "
                               f"but its kinds add up to {made}", f"the kinds are at {comp.at.child('instances').position()}")
            if comp.start is not None and comp.start not in sym.zones and comp.start not in sym.space_ids:
                self.error(comp.at.child("start"), f"unknown zone '{comp.start}'", did_you_mean(comp.start, sym.zones))
            if comp.start is None:
                self.error(comp.at, f"component '{comp.id}' needs a `start` zone")
            elif comp.start in sym.zones and sym.zones[comp.start].per_player and not comp.per_player:
                self.error(comp.at.child("start"), f"'{comp.start}' is per player, but '{comp.id}' has no owner",
                           "make the component per_player, or start it in a shared zone")
            self._check_box(comp)
        board = self.board
        seats = rs.seats

        def build(n: int) -> Setup:
            setup = Setup(n, [str(s["name"]) for s in seats[:n]],
                          [{k: v for k, v in s.items()} for s in seats[:n]])
            for zone in zones:
                if zone.per_player and zone.count is not None:  # a row for each player: zone(p, i)
                    row = setup.zrow[zone.id] = _count_for(zone.count, n) or 0
                    keys = [f"{zone.id}.{setup.seat_names[p]}.{i}" for p in range(n) for i in range(row)]
                    for j, key in enumerate(keys):
                        setup.zone_owner[key] = j // row
                elif zone.per_player:
                    keys = [f"{zone.id}.{setup.seat_names[p]}" for p in range(n)]
                    for p, key in enumerate(keys):
                        setup.zone_owner[key] = p
                elif zone.count is not None and sym.zones[zone.id].count is not None:
                    keys = [f"{zone.id}.{i}" for i in range(_count_for(zone.count, n) or 0)]
                else:
                    keys = [zone.id]
                setup.zkeys[zone.id] = keys
                for key in keys:
                    setup.initial[key] = []
                    setup.zone_kind[key] = zone.kind
                    setup.zone_visibility[key] = zone.visibility
                    setup.zone_order.append(key)
                    setup.zone_read[key] = memo.zone(zone.id)
            if board is not None:
                setup.spaces = frozenset(board.spaces)
                for s in board.spaces:
                    setup.initial[s] = []
                    setup.zone_order.append(s)
            for comp in comps:
                owners = range(n) if comp.per_player else [None]
                kinds = comp.instances or [({}, comp.count, comp.at)]
                for owner in owners:
                    for values, count, _ in kinds:
                        for _ in range(_count_for(count, n) or 0):
                            cid = len(setup.ctype)
                            static = dict(comp.props)
                            static.update(values)
                            setup.ctype.append(comp.id)
                            setup.by_type.setdefault(comp.id, []).append(cid)
                            setup.by_owner.setdefault((comp.id, owner), []).append(cid)
                            setup.cowner.append(owner)
                            setup.cstatic.append(static)
                            start = comp.start
                            if start in sym.zones and sym.zones[start].per_player:  # (a row's first zone)
                                key = setup.zkeys[start][owner * setup.zrow.get(start, 1)]
                            elif start in sym.zones:
                                key = setup.zkeys[start][0]
                            else:
                                key = start
                            setup.initial.setdefault(key, []).append(cid)
            # labels need a state-like object that knows the setup
            probe = type("Probe", (), {})()
            probe.setup, probe.cprops, probe.n = setup, {}, n
            for cid, ctype in enumerate(setup.ctype):
                fn = label_fns.get(ctype)
                if fn is not None:
                    try:
                        text = fn(probe, {"it": cid})
                    except Exception:  # a label that reads the game state: it is computed before the game
                        comp = next(c for c in comps if c.id == ctype)
                        raise LegesError(Diagnostic(comp.label.at.position(),
                                                    f"the label of '{ctype}' could not be computed",
                                                    "a label may use only the component's own properties "
                                                    "(it is computed once, before the game starts)")) from None
                    text = str(text) if not isinstance(text, bool) else ("true" if text else "false")
                else:
                    parts = []
                    if setup.cowner[cid] is not None:
                        parts.append(setup.seat_names[setup.cowner[cid]])
                    parts.append(ctype)
                    parts.extend(str(v) for v in setup.cstatic[cid].values())
                    text = "-".join(parts)
                setup.clabel.append(text.replace(" ", "_"))
            return setup
        return build

    def _check_box(self, comp: d.ComponentDecl) -> None:
        """Declared totals against per-player counts: report a contradiction with both places."""
        box = comp.box
        if not box:
            return
        at = comp.at.child("box")
        per_seat = box.get("per_seat")
        total = box.get("total")
        if per_seat is not None and total is not None and sum(per_seat) != total:
            self.error(at.child("total"), f"'{comp.id}': the box holds {total} in all, but per seat "
                       f"{' + '.join(map(str, per_seat))} = {sum(per_seat)}",
                       f"compare with {at.child('per_seat').position()}")
        if total is not None and per_seat is None and comp.per_player:
            n = self.rs.max_players
            need = _count_for(comp.count, n)
            if need is not None and need * n != total:
                self.error(at.child("total"), f"'{comp.id}': the box holds {total}, but {n} players × {need} "
                           f"(count at {comp.at.child('count').position()}) = {need * n}",
                           "one of the two numbers is wrong; a rulebook's component list and set-up may disagree")
        if per_seat is not None and comp.per_player:
            for n in range(self.rs.min_players, self.rs.max_players + 1):
                need = _count_for(comp.count, n)
                if need is None:
                    continue
                for seat in range(min(n, len(per_seat))):
                    if per_seat[seat] < need:
                        name = self.rs.seats[seat]["name"] if seat < len(self.rs.seats) else seat
                        self.error(at.child("per_seat", seat),
                                   f"'{comp.id}': with {n} players each needs {need}, but the box has "
                                   f"{per_seat[seat]} for {name}", f"the count is at {comp.at.child('count').position()}")

    # ----------------------------------------------------------- compiling
    def program_texts(self):
        rs = self.rs
        for item in [*rs.procedures, *rs.setup, *rs.actions, *rs.triggers]:
            text = getattr(item, "effect", None) or getattr(item, "body", None)
            if text is not None:
                yield text
        for phase in rs.phases:
            yield from (t for t in (phase.on_begin, phase.turn, phase.on_end) if t is not None)

    def compile(self) -> Game:
        rs, sym, c, progs, game = self.rs, self.sym, self.compiler, self.programs, self.game
        c.note_dynamic_props(self.program_texts())
        for decl in sym.functions.values():
            for p in decl.params:
                if p in sym.variables or p in sym.zones:
                    self.error(decl.at.child("params"), f"parameter '{p}' hides a game variable or zone")
        # actions
        for action in sym.actions.values():
            where = action.at.child("params").position() if action.params else action.at.position()
            options, types = options_function(c, action.id, action.params, action.require, action.args_types, where)
            locals_ = dict(action.args_types)
            locals_.update(types)
            code_id = progs.parse_program(action.effect, Scope(locals_, me=True), f"action:{action.id}")
            compiled = CompiledAction(action.id, code_id, options, action.anytime, action, action.secret, types)
            game.actions[action.id] = compiled
            if action.anytime:
                game.anytime.append(compiled)
        # triggers
        for trigger in self._unique(rs.triggers, "trigger").values():
            params = sym.events.get(trigger.on)
            if params is None:
                self.error(trigger.at.child("on"), f"unknown event '{trigger.on}'",
                           did_you_mean(trigger.on, sym.events) or "declare it under `events`")
                params = {}
            scope = Scope(dict(params), me=True)
            cond = c.parse_expr(trigger.condition, scope, T.BOOL)[1] if trigger.condition else None
            code_id = progs.parse_program(trigger.effect, Scope(dict(params), me=True), f"trigger:{trigger.id}")
            game.listeners.setdefault(trigger.on, []).append(CompiledTrigger(trigger.id, trigger.on, cond, code_id))
        # set-up
        if rs.setup:
            self._unique(rs.setup, "set-up rule")
            parts = []
            for rule in rs.setup:
                parts.append(progs.parse_program(rule.effect, Scope(me=False), f"setup:{rule.id}"))
            game.setup_code = self._chain(parts, "setup")
        # phases
        phases = list(self._unique(rs.phases, "phase").values())
        for phase in phases:
            pid = phase.id
            order_fn, direction, first_fn = None, 1, None
            if phase.order is not None:
                text = phase.order.text.strip()
                close = did_you_mean(text, ("clockwise", "counterclockwise")) if text.isidentifier() else None
                if text in ("clockwise", "counterclockwise"):
                    direction = 1 if text == "clockwise" else -1
                elif close and text not in sym.variables and text not in sym.constants:
                    self.error(phase.at.child("order"), f"unknown turn order '{text}'",
                               close + " (or give an expression for the list of players)")
                else:
                    order_fn = c.parse_expr(phase.order, Scope(me=False), T.list_of(T.PLAYER))[1]
            if phase.first is not None:
                first_fn = c.parse_expr(phase.first, Scope(me=False), T.PLAYER)[1]
            game.phases[pid] = CompiledPhase(
                pid, first_fn, order_fn, direction,
                progs.parse_program(phase.on_begin, Scope(me=False), f"phase:{pid}:on_begin") if phase.on_begin else None,
                progs.parse_program(phase.turn, Scope(me=True), f"phase:{pid}:turn") if phase.turn else None,
                c.parse_expr(phase.end_if, Scope(me=False), T.BOOL)[1] if phase.end_if else None,
                progs.parse_program(phase.on_end, Scope(me=False), f"phase:{pid}:on_end") if phase.on_end else None,
                phase.next, phase.at.position(),
                phase.first.at.position() if phase.first is not None else phase.at.position())
            if phase.next is not None and phase.next != "end" and phase.next not in sym.phases:
                self.error(phase.at.child("next"), f"unknown phase '{phase.next}'",
                           did_you_mean(phase.next, sym.phases | {"end"}) or "name a phase, or `end`")
        if phases:
            game.first_phase = phases[0].id
        else:
            self.error(rs.at, "the ruleset declares no phases", "a game needs at least one phase")
        # scoring
        if rs.scoring is not None:
            scope = Scope({"p": T.PLAYER}, me=False)
            game.score_fn = c.parse_expr(rs.scoring.score, scope, T.INT)[1]
            game.score_position = rs.scoring.score.at.position()
            game.tiebreak_fns = [c.parse_expr(t, scope, T.INT)[1] for t in rs.scoring.tiebreak]
        # heuristics and statistics: estimates for agents, figures for simulation reports
        player_scope = Scope({"p": T.PLAYER}, me=False)
        for h in self._unique(rs.heuristics, "heuristic").values():
            game.heuristics[h.id] = c.parse_expr(h.value, player_scope, T.INT)[1]
            game.positions[f"heuristic:{h.id}"] = h.at.child("value").position()
        rs_actions = {a.id for a in rs.actions}
        for stat in self._unique(rs.statistics, "statistic").values():
            scope = player_scope if stat.per_player else Scope(me=False)
            ty, fn = c.parse_expr(stat.value, scope)
            if not (T.numeric(ty) or T.compatible(ty, T.BOOL)):
                self.error(stat.at.child("value"), f"statistic '{stat.id}' must be a number or a truth value, not {ty}")
            game.positions[f"statistic:{stat.id}"] = stat.at.child("value").position()
            if stat.when == "end":
                if stat.aggregate is not None:
                    self.error(stat.at.child("aggregate"), f"statistic '{stat.id}' is measured once, at the end: "
                               "there is nothing to aggregate", "give `when` (turn, round, decision, after ACTION)")
                game.statistics.append((stat.id, stat.per_player, fn))
                continue
            if stat.when.startswith("after ") and stat.when[6:] not in rs_actions:
                self.error(stat.at.child("when"), f"no action '{stat.when[6:]}' to measure after",
                           did_you_mean(stat.when[6:], rs_actions) or "actions: " + ", ".join(sorted(rs_actions)))
            truth = T.compatible(ty, T.BOOL) and not T.numeric(ty)
            how = stat.aggregate or ("count" if truth else "sum")
            if how == "count" and not truth:
                self.error(stat.at.child("aggregate"), f"statistic '{stat.id}' counts how often it is true: its "
                           f"value must be a truth value, not {ty}", "use sum, mean, max, min, last or series")
            game.measures.append(Measure(stat.id, stat.per_player, fn, stat.when, how))
        # procedures and functions never called are still checked
        for proc in sym.procedures.values():
            if not any(k.startswith(f"procedure:{proc.id}(") for k in progs.codes):
                progs.procedure_code(proc, [T.ANY] * len(proc.params), True)
        for fn in sym.functions.values():
            if not any(k[0] == fn.id for k in c.functions.compiled) and not fn.params:
                c.parse_code(fn.body, Scope(me=True, me_code="me"))
            if not any(k[0] == fn.id for k in c.functions.compiled) and fn.params:
                self.errors.warning(fn.at.position(), f"function '{fn.id}' is never used")
        self._check_reachable_phases(phases)
        for inv in self._unique(rs.invariants, "invariant").values():
            game.invariants.append((inv.id, c.parse_expr(inv.check, Scope(me=False))[1], inv))
        self.checks = [(chk, c.parse_expr(chk.check, Scope(me=False), T.BOOL)[1])
                       for chk in self._unique(rs.checks, "check").values()]
        # variables
        for var in rs.variables:
            initial = var.initial
            if isinstance(initial, str) and initial in sym.seats and sym.variables[var.id].type.kind == "player":
                initial = sym.seats.index(initial)
            game.variables[var.id] = (var.per_player, initial)
            game.variable_visibility[var.id] = var.visibility
            if var.scope == "turn":
                game.turn_vars.append((var.id, var.per_player, initial))
            elif var.scope == "phase":
                game.phase_vars.append((var.id, var.per_player, initial))
        game.codes = {cid: (code.instructions, code.positions) for cid, code in progs.codes.items()}
        from .words import check_phrases
        game.words = check_phrases(rs, progs.asked, sym.events, self.errors)
        game.setup_builder = self.setup_builder()
        return game

    def _chain(self, parts: list[str], code_id: str) -> str:
        """One code that runs the given codes in order (each pushed as its own frame)."""
        code = Code(code_id)
        for i, part in enumerate(parts):
            def call(st, fr, pc, part=part):
                fr[1] = pc + 1
                st.frames.append([part, 0, {"me": None}])
                return PUSHED
            code.instructions.append(call)
            code.positions.append(self.rs.at.position())
        self.programs.codes[code_id] = code
        return code_id

    def _check_reachable_phases(self, phases: list[d.PhaseDecl]) -> None:
        if not phases:
            return
        targets = self.compiler.goto_targets  # a goto anywhere may be reached from any phase
        reachable = {phases[0].id}
        frontier = [phases[0].id]
        by_id = {p.id: p for p in phases}
        while frontier:
            p = by_id[frontier.pop()]
            for nxt in [p.next, *targets]:
                if nxt in by_id and nxt not in reachable:
                    reachable.add(nxt)
                    frontier.append(nxt)
        for phase in phases:
            if phase.id not in reachable:
                self.error(phase.at.child("id"), f"phase '{phase.id}' can never be reached",
                           "no phase names it as `next` and no rule does `goto " + phase.id + "`")


def build_game(rs: d.Ruleset, board, errors: Collector, optimise: bool = True) -> Game:
    b = Builder(rs, board, errors, optimise)
    b.symbols()
    game = b.compile()
    game.compiler, game.programs = b.compiler, b.programs
    game.index_memo()
    game.id, game.version, game.title = rs.id, rs.version, rs.title
    game.optimised = optimise
    game.variants = tuple(rs.variants)
    game.ruleset, game.board = rs, board
    game.ruleset_file = rs.docs[0].file
    game.min_players, game.max_players = rs.min_players, rs.max_players
    game.max_steps = rs.limits.get("max_steps", DEFAULT_MAX_STEPS)
    game.max_loop = rs.limits.get("max_loop", DEFAULT_MAX_LOOP)
    game.max_turns = rs.limits.get("max_turns", DEFAULT_MAX_TURNS)
    game.max_decisions = rs.limits.get("max_decisions", DEFAULT_MAX_DECISIONS)
    game.max_work = game.work = rs.limits.get("max_work", DEFAULT_MAX_WORK)
    game.max_options = rs.limits.get("max_options", DEFAULT_MAX_OPTIONS)
    if board is not None:
        game.approximations = list(board.approximations)
    if not errors.errors:
        run_checks(game, b.checks, errors)
    return game


def run_checks(game: Game, checks: list, errors: Collector) -> None:
    """Consistency checks: evaluated on the game as set out (components in their start zones)."""
    for decl, fn in checks:
        n = decl.players or game.max_players
        try:
            st = game.new_initial_state(players=n, seed=0, run=False)
            game.work = game.max_work
            ok = fn(st, {"me": None})
        except LegesError as exc:
            errors.extend(exc.diagnostics)
            continue
        except Exception as exc:
            from .flow import _describe, _hint
            errors.error(decl.at.child("check").position(),
                         f"consistency check '{decl.id}' could not be evaluated: {_describe(exc)}", _hint(exc))
            continue
        if not ok:
            compared = "; ".join(decl.compares)
            errors.error(decl.at.child("check").position(),
                         f"consistency check '{decl.id}' fails: {decl.description or decl.check.text.strip()}",
                         f"compare {compared}" if compared else None)
