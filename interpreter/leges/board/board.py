"""A board is a set of spaces with properties, an adjacency relation and named areas.

Topologies: `grid` (orthogonal neighbours), `grid8` (with diagonals), `hex` (axial
coordinates, six neighbours) and `graph` (explicit edges, possibly one-way and weighted).
Adjacency never changes during play; what changes (a tile laid, a space covered) lives in the
game state as space properties, so boards stay shareable between games.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterable

from ..text.errors import Collector, LegesError, did_you_mean
from ..text.yaml_source import YamlDoc

GRID_DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))
GRID8_DIRS = GRID_DIRS + ((-1, -1), (-1, 1), (1, 1), (1, -1))
HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
TWO_WAY = ("grid", "grid8", "hex")  # every step can be taken back: each direction's opposite is one too
# the directions straight lines run in, each once (the other half of each topology's directions)
LINE_DIRS = {"grid": ((0, 1), (1, 0)), "grid8": ((0, 1), (1, 0), (1, 1), (1, -1)), "hex": HEX_DIRS[:3]}


class _Order(dict):
    """Places in the board's order, a name that is no space at 0 (with the first): looked up by a sort
    as its key, a C method rather than a lambda called for every item."""

    def __missing__(self, key: Any) -> int:
        return 0


@dataclass
class Board:
    id: str
    topology: str
    spaces: list[str]
    props: dict[str, dict[str, Any]]
    prop_defaults: dict[str, Any]
    neighbors: dict[str, tuple[str, ...]]
    rings: dict[str, tuple] = field(default_factory=dict)  # neighbours in direction order, None off the board
    edge_props: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    areas: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # kind → id → props
    area_spaces: dict[str, list[str]] = field(default_factory=dict)  # area id → spaces
    area_of: dict[str, dict[str, str]] = field(default_factory=dict)  # kind → space → area id
    coords: dict[str, tuple[int, int]] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)
    doc: YamlDoc | None = None
    approximations: list[tuple[str, str]] = field(default_factory=list)  # (where, note)

    # ------------------------------------------------------------------ queries
    def within(self, space: str, radius: int) -> frozenset:
        """The spaces from which `space` is at most `radius` steps away (following the adjacency).

        What a rule reads of the spaces near s changes only when something moves within this
        distance of s (the "near" reads of lang/optimise/memo.py).
        """
        try:
            return self._within[space, radius]
        except KeyError:
            pass
        back = self._reverse
        found, frontier = {space}, [space]
        for _ in range(radius):  # breadth first: each space enters the frontier once
            step = []
            for b in frontier:
                for a in back.get(b, ()):
                    if a not in found:
                        found.add(a)
                        step.append(a)
            frontier = step
        near = self._within[space, radius] = frozenset(found)
        return near

    @cached_property
    def _within(self) -> dict[tuple[str, int], frozenset]:
        """What `within` found, by space and radius: asked at every move, so a hit is one look-up."""
        return {}

    @cached_property
    def _reverse(self) -> dict[str, Any]:
        """The spaces each space is a neighbour of: `within` searches backwards. On a grid or a hex
        board that is the adjacency itself (build_board gives each direction its opposite), not a
        table made by a loop over every edge (on a table of 3,420 hexes, 20,000 of them)."""
        if self.topology in TWO_WAY:
            return self.neighbors
        back: dict[str, list[str]] = {}
        for a, outs in self.neighbors.items():
            for b in outs:
                back.setdefault(b, []).append(a)
        return back

    def distances(self, sources: Iterable[str], blocked=(), limit: int | None = None,
                  target: str | None = None, allowed=None) -> dict[str, int]:
        """Breadth-first distances from the sources, never entering blocked spaces, nor spaces outside
        `allowed` when it is given (stops at `target`)."""
        dist: dict[str, int] = {}
        frontier = []
        for s in sources:
            if s not in dist:
                dist[s] = 0
                frontier.append(s)
        neighbors = self.neighbors
        d = 0
        if allowed is None and target is None:  # the usual search (every move's reach, the distances to
            # a goal): two tests an edge, in a loop of its own rather than a call of one
            while frontier and (limit is None or d < limit):
                d += 1
                reached = []
                for here in frontier:
                    for nxt in neighbors[here]:
                        if nxt not in dist and nxt not in blocked:
                            dist[nxt] = d
                            reached.append(nxt)
                frontier = reached
            return dist
        if target is not None and target in dist:
            return dist
        if allowed is None:
            allowed = neighbors  # every space (each is a key of the adjacency)
        while frontier:
            d += 1
            if limit is not None and d > limit:
                break
            reached = []
            for here in frontier:
                for nxt in neighbors[here]:  # `allowed` first: it is what turns most steps down
                    if nxt in allowed and nxt not in dist and nxt not in blocked:
                        dist[nxt] = d
                        if nxt == target:
                            return dist
                        reached.append(nxt)
            frontier = reached
        return dist

    def groups(self, members: Iterable[str]) -> list[list[str]]:
        """Connected groups among the given spaces, in board order."""
        pool = set(members)
        place = self._place
        neighbors = self.neighbors
        result: list[list[str]] = []
        for start in sorted(pool, key=place):
            if start not in pool:
                continue
            pool.discard(start)
            group = [start]
            if start in neighbors:
                for here in group:  # breadth first, the group growing as it is gone through
                    for nxt in neighbors[here]:
                        if nxt in pool:
                            pool.discard(nxt)
                            group.append(nxt)
                group.sort(key=place)
            result.append(group)
        return result

    @cached_property
    def _place(self) -> Callable[[str], int]:
        """A space's place in the board's order, 0 for a name that is no space: `groups` sorts by it."""
        return _Order(self.order()).__getitem__

    def degree(self) -> int:
        """Neighbours of a space, on average (rounded up, at least 1): what a search looks at for each space it reaches."""
        degree = self.__dict__.get("_degree")
        if degree is None:
            edges = sum(map(len, self.neighbors.values()))
            degree = self.__dict__["_degree"] = max(1, -(-edges // max(1, len(self.neighbors))))
        return degree

    def order(self) -> dict[str, int]:
        """Each space's place in the board's order (made once: groups() sorts by it on every call)."""
        order = self.__dict__.get("_order")
        if order is None:
            order = self.__dict__["_order"] = {s: i for i, s in enumerate(self.spaces)}
        return order

    def lines(self, length: int) -> list[list[str]]:
        """Every straight line of `length` spaces, each direction once, along the board's declared adjacency:
        across and down on a `grid`, the two diagonals too on a `grid8`, the three axes on a `hex` board.

        Computed once per length: the board never changes, and rules never change a list."""
        cache = self.__dict__.setdefault("_line_cache", {})
        if length not in cache:
            cache[length] = self._lines(length)
        return cache[length]

    def _lines(self, length: int) -> list[list[str]]:
        dirs = LINE_DIRS.get(self.topology)
        if dirs is None:
            return []
        by_coord = {c: s for s, c in self.coords.items()}
        result = []
        for space in self.spaces:
            r, c = self.coords[space]
            for dr, dc in dirs:
                line: list[str] = []
                for k in range(length):
                    s = by_coord.get((r + dr * k, c + dc * k))
                    if s is None or (line and s not in self.neighbors.get(line[-1], ())):
                        break
                    line.append(s)
                if len(line) == length:
                    result.append(line)
        return result


def _space_id(fmt: str, r: int, c: int) -> str:
    return fmt.replace("{row}", str(r)).replace("{col}", str(c)).replace("{q}", str(r)).replace("{r}", str(c))


def build_board(doc: YamlDoc, errors: Collector) -> Board | None:
    """Build a board from a validated map document; semantic problems go to `errors`."""
    data = doc.data
    topology = data["topology"]
    defaults = dict(data.get("space_props", {}))
    spaces: list[str] = []
    coords: dict[str, tuple[int, int]] = {}
    props: dict[str, dict] = {}
    neighbors: dict[str, tuple[str, ...]] = {}
    edge_props: dict[tuple[str, str], dict] = {}
    rings: dict[str, tuple] = {}

    if topology in ("grid", "grid8", "hex"):
        grid = data["grid"]
        fmt = grid.get("id_format", "r{row}c{col}" if topology != "hex" else "h{q}_{r}")
        missing = {tuple(x) for x in grid.get("missing", [])}
        if topology == "hex":
            cells = [tuple(x) for x in grid.get("cells", [])]
            if not cells:
                cells = [(q, r) for q in range(grid["cols"]) for r in range(grid["rows"])]
        else:
            cells = [(r, c) for r in range(grid["rows"]) for c in range(grid["cols"])]
        for cell in cells:
            if cell in missing:
                continue
            sid = _space_id(fmt, *cell)
            spaces.append(sid)
            coords[sid] = cell
        by_coord = {c: s for s, c in coords.items()}
        dirs = {"grid": GRID_DIRS, "grid8": GRID8_DIRS, "hex": HEX_DIRS}[topology]
        for sid, (r, c) in coords.items():
            neighbors[sid] = tuple(by_coord[(r + dr, c + dc)] for dr, dc in dirs if (r + dr, c + dc) in by_coord)
        rings = {sid: tuple(by_coord.get((r + dr, c + dc)) for dr, dc in dirs) for sid, (r, c) in coords.items()}
    else:
        for i, entry in enumerate(data.get("nodes", [])):
            sid = entry if isinstance(entry, str) else entry["id"]
            spaces.append(sid)
        known = set(spaces)
        out: dict[str, list[str]] = {s: [] for s in spaces}
        for i, edge in enumerate(data.get("edges", [])):
            a, b = edge["from"], edge["to"]
            for end in (a, b):
                if end not in known:
                    errors.error(doc.position(("edges", i)), f"edge names unknown space '{end}'",
                                 did_you_mean(end, known))
            if a not in known or b not in known:
                continue
            extra = {k: v for k, v in edge.items() if k not in ("from", "to", "two_way")}
            out[a].append(b)
            edge_props[(a, b)] = extra
            if edge.get("two_way", False):
                out[b].append(a)
                edge_props[(b, a)] = extra
        neighbors = {s: tuple(v) for s, v in out.items()}

    known = set(spaces)
    for sid in spaces:
        row = dict(defaults)
        if sid in coords:
            row["row"], row["col"] = coords[sid]
        props[sid] = row
    for i, entry in enumerate(data.get("nodes", [])):
        if isinstance(entry, dict):
            props[entry["id"]].update({k: v for k, v in entry.items() if k != "id"})
    for sid, values in (data.get("spaces") or {}).items():
        if sid not in known:
            errors.error(doc.position(("spaces", sid), key=True), f"no space '{sid}' on this board",
                         did_you_mean(str(sid), known))
            continue
        for key in values:
            if key not in defaults and key not in ("row", "col"):
                errors.error(doc.position(("spaces", sid, key), key=True),
                             f"space property '{key}' has no default in space_props",
                             "declare every space property with its default value under space_props")
        props[sid].update(values)

    board = Board(id=data["id"], topology=topology, spaces=spaces, props=props, prop_defaults=defaults,
                  neighbors=neighbors, rings=rings, edge_props=edge_props, coords=coords,
                  provenance=data.get("provenance", {}), doc=doc)
    for kind, entries in (data.get("areas") or {}).items():
        board.areas[kind] = {}
        board.area_of[kind] = {}
        for i, entry in enumerate(entries):
            aid = str(entry["id"])
            if aid in board.area_spaces:
                errors.error(doc.position(("areas", kind, i, "id")), f"area id '{aid}' is used twice")
                continue
            members = [str(s) for s in entry.get("spaces", [])]
            for j, s in enumerate(members):
                if s not in known:
                    errors.error(doc.position(("areas", kind, i, "spaces", j)), f"no space '{s}' on this board",
                                 did_you_mean(s, known))
                elif s in board.area_of[kind]:
                    errors.error(doc.position(("areas", kind, i, "spaces", j)),
                                 f"space '{s}' is already in {kind} '{board.area_of[kind][s]}'",
                                 "a space belongs to at most one area of each kind")
                else:
                    board.area_of[kind][s] = aid
            board.areas[kind][aid] = {k: v for k, v in entry.items() if k not in ("id", "spaces")}
            board.area_spaces[aid] = [s for s in members if s in known]
    _collect_approximations(board, data)
    return board


def _collect_approximations(board: Board, data: Any) -> None:
    board.approximations += [("/".join(map(str, path)) or "(whole map)", note) for path, note in approximations(data)]


APPROXIMATE = ("approximation", "inferred", "guess")


def approximations(data: Any, path: tuple = ()) -> list[tuple[tuple, str]]:
    """Every `provenance` mark of a document (a map, a ruleset's file) whose status says the value is not
    straight from the rulebook — an approximation, inferred, a guess: (the path of the marked value, its note)."""
    found = []
    if isinstance(data, dict):
        prov = data.get("provenance")
        if isinstance(prov, dict) and prov.get("status") in APPROXIMATE:
            found.append((path, str(prov.get("note", prov.get("status")))))
        for key, value in data.items():
            if key != "provenance":
                found += approximations(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += approximations(value, path + (i,))
    return found


def load_board(doc: YamlDoc) -> Board:
    errors = Collector()
    board = build_board(doc, errors)
    errors.raise_if_errors()
    if board is None:  # pragma: no cover - build_board reports why
        raise LegesError(errors.diagnostics)
    return board
