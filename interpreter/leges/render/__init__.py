"""Pictures of a game: what one seat sees (view.py), drawn as SVG (svg.py) or as text (board_text.py).

Nothing here knows a game: the look comes from the map's `render:` section (style.py).
"""
from .svg import render_board, render_svg
from .view import SeatView, seat_view

__all__ = ["render_svg", "render_board", "seat_view", "SeatView"]
