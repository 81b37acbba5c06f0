"""The set-up of a game for each number of players: the zones' keys, every component made and put
in its start zone, the components' labels; with the checks of components' counts, start zones and
boxes, made once when the game is built."""
from __future__ import annotations

from typing import Callable

from ...lang.optimise import memo
from ...lang.codegen.runtime import freeze
from ...lang.check import types as T
from ...lang.check.scope import Scope
from ...lang.check.symbols import Symbols
from ...model.decl import SEAT_WORDS
from ...model import decl as d
from ...text.errors import Diagnostic, LegesError, did_you_mean
from ..game import Setup
from .parts import BuilderParts, count_for


class SetupBuilding(BuilderParts):
    def setup_builder(self) -> Callable[[int], Setup]:
        """The function giving the set-up for n players, the components checked and their labels compiled first."""
        comps = list(self._unique(self.rs.components, "component").values())
        zones = list(self._zone_decls().values())
        label_fns = {}
        for comp in comps:
            if comp.label is not None:
                scope = Scope({"it": T.component(comp.id)}, me=False)
                label_fns[comp.id] = self.compiler.parse_expr(comp.label, scope)[1]
            self._check_counts(comp)
            self._check_start(comp)
            self._check_box(comp)
        seats, sym, board, table = self.rs.seats, self.sym, self.board, self.compiler.memo
        return lambda n: make_setup(n, seats, zones, comps, sym, board, label_fns, table)

    def _check_counts(self, comp: d.ComponentDecl) -> None:
        reported = False
        for n in range(self.rs.min_players, self.rs.max_players + 1):
            if not comp.instances and count_for(comp.count, n) is None:
                self.error(comp.at.child("count"), f"component '{comp.id}' has no count for {n} players")
            for values, count, at in comp.instances:
                if count_for(count, n) is None:
                    self.error(at, f"this kind of '{comp.id}' has no count for {n} players")
            declared = count_for(comp.count, n) if "count" in comp.at.doc.data_at(comp.at.path) else None
            made = sum(count_for(count, n) or 0 for _, count, _ in comp.instances)
            if comp.instances and declared is not None and declared != made and not reported:
                reported = True  # once, not once per player count
                self.error(comp.at.child("count"), f"'{comp.id}': count says {declared} for {n} players, "
                           f"but its kinds add up to {made}", f"the kinds are at {comp.at.child('instances').position()}")

    def _check_start(self, comp: d.ComponentDecl) -> None:
        sym = self.sym
        if comp.start is not None and comp.start not in sym.zones and comp.start not in sym.space_ids:
            self.error(comp.at.child("start"), f"unknown zone '{comp.start}'", did_you_mean(comp.start, sym.zones))
        if comp.start is None:
            self.error(comp.at, f"component '{comp.id}' needs a `start` zone")
        elif comp.start in sym.zones and sym.zones[comp.start].per_player and not comp.per_player:
            self.error(comp.at.child("start"), f"'{comp.start}' is per player, but '{comp.id}' has no owner",
                       "make the component per_player, or start it in a shared zone")

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
            need = count_for(comp.count, n)
            if need is not None and need * n != total:
                self.error(at.child("total"), f"'{comp.id}': the box holds {total}, but {n} players × {need} "
                           f"(count at {comp.at.child('count').position()}) = {need * n}",
                           "one of the two numbers is wrong; a rulebook's component list and set-up may disagree")
        if per_seat is not None and comp.per_player:
            for n in range(self.rs.min_players, self.rs.max_players + 1):
                need = count_for(comp.count, n)
                if need is None:
                    continue
                for seat in range(min(n, len(per_seat))):
                    if per_seat[seat] < need:
                        name = self.rs.seats[seat]["name"] if seat < len(self.rs.seats) else seat
                        self.error(at.child("per_seat", seat),
                                   f"'{comp.id}': with {n} players each needs {need}, but the box has "
                                   f"{per_seat[seat]} for {name}", f"the count is at {comp.at.child('count').position()}")


def make_setup(n: int, seats: list, zones: list, comps: list, sym: Symbols, board, label_fns: dict,
               table: memo.MemoTable) -> Setup:
    """The set-up for `n` players: zones, spaces, components in their start zones, labels. `table`:
    the memoised functions' (its ids of the zones' read keys, given when the game was indexed)."""
    setup = Setup(n, [str(s["name"]) for s in seats[:n]], [{k: v for k, v in s.items() if k != SEAT_WORDS} for s in seats[:n]])
    for zone in zones:
        _zone_keys(setup, zone, sym, n)
    setup.zone_ids = {key: table.id_of(read) for key, read in setup.zone_read.items()}
    if board is not None:
        setup.spaces = frozenset(board.spaces)
        for s in board.spaces:
            setup.initial[s] = []
            setup.zone_order.append(s)
            setup.zone_ids[s] = memo.UNREAD_ID  # (the board is read by type: State.place forgets those)
    for comp in comps:
        _make_components(setup, comp, sym, n)
    _label(setup, comps, label_fns, n)
    kinds: dict[tuple, int] = {}
    setup.ckind = [kinds.setdefault((t, o, freeze(p)), len(kinds)) for t, o, p in zip(setup.ctype, setup.cowner, setup.cstatic)]
    return setup


def _zone_keys(setup: Setup, zone: d.ZoneDecl, sym: Symbols, n: int) -> None:
    """The keys of one declared zone for n players (one, one for each player, a row, a row for each player)."""
    if zone.per_player and zone.count is not None:  # a row for each player: zone(p, i)
        row = setup.zrow[zone.id] = count_for(zone.count, n) or 0
        keys = [f"{zone.id}.{setup.seat_names[p]}.{i}" for p in range(n) for i in range(row)]
        for j, key in enumerate(keys):
            setup.zone_owner[key] = j // row
    elif zone.per_player:
        keys = [f"{zone.id}.{setup.seat_names[p]}" for p in range(n)]
        for p, key in enumerate(keys):
            setup.zone_owner[key] = p
    elif zone.count is not None and sym.zones[zone.id].count is not None:
        keys = [f"{zone.id}.{i}" for i in range(count_for(zone.count, n) or 0)]
    else:
        keys = [zone.id]
    setup.zkeys[zone.id] = keys
    for key in keys:
        setup.initial[key] = []
        setup.zone_kind[key] = zone.kind
        setup.zone_visibility[key] = zone.visibility
        setup.zone_order.append(key)
        setup.zone_read[key] = memo.zone(zone.id)


def _make_components(setup: Setup, comp: d.ComponentDecl, sym: Symbols, n: int) -> None:
    """Every component of one declared type for n players, each put in its start zone."""
    owners = range(n) if comp.per_player else [None]
    kinds = comp.instances or [({}, comp.count, comp.at)]
    for owner in owners:
        for values, count, _ in kinds:
            for _ in range(count_for(count, n) or 0):
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


def _label(setup: Setup, comps: list, label_fns: dict, n: int) -> None:
    """Each component's label: its own expression, or owner-type-properties."""
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
