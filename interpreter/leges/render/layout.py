"""Where each space of a board lies in the picture: squares, hexes, or a graph's nodes.

Squares and hexes come from the spaces' coordinates (rows and columns; axial q and r); a graph's
nodes from the map's `render: nodes:` positions (those without one are put in a row below).
An area's outline is the part of its spaces' edges that no other space of the area shares.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

SQRT3 = math.sqrt(3.0)


@dataclass
class Layout:
    topology: str
    centres: dict[str, tuple[float, float]] = field(default_factory=dict)
    shapes: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # polygon corners
    radius: float = 20.0  # graph nodes
    size: float = 56.0
    outlines: dict[tuple, list] = field(default_factory=dict, repr=False)  # members → outline: a layout never changes

    def bounds(self, spaces=None) -> tuple[float, float, float, float]:
        """min x, min y, max x, max y of the given spaces (default: all)."""
        xs, ys = [], []
        for s in (self.centres if spaces is None else spaces):
            if s not in self.centres:
                continue
            if s in self.shapes:
                for x, y in self.shapes[s]:
                    xs.append(x)
                    ys.append(y)
            else:
                x, y = self.centres[s]
                xs += [x - self.radius, x + self.radius]
                ys += [y - self.radius, y + self.radius]
        if not xs:
            return 0.0, 0.0, 0.0, 0.0
        return min(xs), min(ys), max(xs), max(ys)

    def outline(self, members) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The edges of the members' shapes that border a space outside them (or nothing); the same
        members give the same outline, so it is worked out once (a page draws the board at every view)."""
        order = list(dict.fromkeys(members))  # in the order given: the same path every run
        key = tuple(order)
        found = self.outlines.get(key)
        if found is None:
            found = self.outlines[key] = self._outline(order)
        return list(found)

    def _outline(self, order: list) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        members = set(order)
        by_centre = {_key(c): s for s, c in self.centres.items()}
        segments = []
        for s in order:
            corners = self.shapes.get(s)
            if not corners:
                continue
            cx, cy = self.centres[s]
            for i, a in enumerate(corners):
                b = corners[(i + 1) % len(corners)]
                mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
                across = by_centre.get(_key((2 * mx - cx, 2 * my - cy)))
                if across not in members:
                    segments.append((a, b))
        return segments


def _key(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0] * 4), round(point[1] * 4)


def square_layout(board, size: float) -> Layout:
    lay = Layout(board.topology, size=size)
    for s in board.spaces:
        r, c = board.coords[s]
        x0, y0 = c * size, r * size
        lay.centres[s] = (x0 + size / 2, y0 + size / 2)
        lay.shapes[s] = [(x0, y0), (x0 + size, y0), (x0 + size, y0 + size), (x0, y0 + size)]
    return lay


def hex_layout(board, size: float, orientation: str = "pointy") -> Layout:
    """Axial coordinates (q, r): pointy-top hexes in rows, or flat-top ones in columns (`size`: the radius).
    The layout's `size`, the room a space gives what is drawn on it, is the hex's inner width."""
    lay = Layout(board.topology, size=size * SQRT3)
    for s in board.spaces:
        q, r = board.coords[s]
        if orientation == "flat":
            x, y = size * 1.5 * q, size * SQRT3 * (r + q / 2)
            corners = [(x + size * math.cos(math.radians(60 * i)), y + size * math.sin(math.radians(60 * i)))
                       for i in range(6)]
        else:
            x, y = size * SQRT3 * (q + r / 2), size * 1.5 * r
            corners = [(x + size * math.cos(math.radians(60 * i - 30)), y + size * math.sin(math.radians(60 * i - 30)))
                       for i in range(6)]
        lay.centres[s] = (x, y)
        lay.shapes[s] = corners
    return lay


def graph_layout(board, positions: dict[str, tuple[float, float]], radius: float) -> Layout:
    lay = Layout(board.topology, radius=radius)
    placed = {s: positions[s] for s in board.spaces if s in positions}
    rest = [s for s in board.spaces if s not in positions]
    if placed:
        bottom = max(y for _, y in placed.values()) + 4 * radius
        left = min(x for x, _ in placed.values())
    else:
        bottom, left = radius * 2, radius * 2
    if rest and not placed:  # no positions at all: a circle
        n = len(rest)
        big = max(4 * radius, n * radius * 3 / (2 * math.pi))
        for i, s in enumerate(rest):
            a = 2 * math.pi * i / n - math.pi / 2
            lay.centres[s] = (big + 2 * radius + big * math.cos(a), big + 2 * radius + big * math.sin(a))
    else:
        for i, s in enumerate(rest):
            lay.centres[s] = (left + i * radius * 4, bottom)
    lay.centres.update(placed)
    return lay


def layout_of(board, style) -> Layout:
    """The board's layout (a board never changes: made once for each look that places it)."""
    key = (float(style.size), style.hex, float(style.node.get("radius", 18)), tuple(sorted(style.nodes.items())))
    cache = board.__dict__.setdefault("_render_layouts", {})
    if key not in cache:
        cache[key] = _layout_of(board, style)
    return cache[key]


def _layout_of(board, style) -> Layout:
    if board.topology in ("grid", "grid8"):
        return square_layout(board, float(style.size))
    if board.topology == "hex":
        return hex_layout(board, float(style.size) / 2, style.hex)
    return graph_layout(board, style.nodes, float(style.node.get("radius", 18)))


def hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull of points (Andrew's monotone chain), counter-clockwise."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]
