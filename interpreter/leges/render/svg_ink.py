"""What every part of an SVG picture is drawn with: numbers and points written short, a text element,
the ink that reads on a colour, the picture's margins and font."""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .style import rgb

PANEL_WIDTH = 330
MARGIN = 16
FONT = "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""


def num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def points(corners) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in corners)


def svg_text(x, y, text, size=12, anchor="middle", fill="#222", weight="normal", extra="") -> str:
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" text-anchor="{anchor}" fill={quoteattr(fill)}'
            f' font-weight="{weight}"{extra}>{escape(text)}</text>')


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    value = rgb(colour)
    if value is None:
        return "#111"
    r, g, b = value
    return "#111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#fff"
