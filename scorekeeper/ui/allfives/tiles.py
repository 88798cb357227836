"""The domino tiles as the All Fives screens draw them: a tile's face (two halves and the
line between them) in the layout, and a tile to tap in the picker."""

from __future__ import annotations

from functools import lru_cache

import flet as ft

__all__ = ["MIN_DIGITS", "LitBorder", "digit_size", "tile_border", "tile_digits", "tile_face"]

#: The least size (px) of a tile's digits, while they fit its half: read across the table.
MIN_DIGITS = 14.0


def digit_size(half: float) -> float:
    """The size (px) of the digits on a tile's half ``half`` px square: a little over half
    of it, never under :data:`MIN_DIGITS` while they fit (at most 0.8 of the half: a half
    under 17.5 px gets smaller digits).

    >>> digit_size(40), digit_size(18), digit_size(16), digit_size(10)
    (22.0, 14.0, 12.8, 8.0)
    """
    return min(max(MIN_DIGITS, half * 0.55), half * 0.8)


class LitBorder(ft.Border):
    """A :class:`flet.Border` that Flet's diff sends whole against a plain one: a picker
    tile's border as it fits (see :func:`tile_border`)."""


@lru_cache(maxsize=32)
def tile_border(width: int, color: str, lit: bool = False) -> ft.Border:
    """A tile's border: one object for each width and colour, shared by every tile drawn with
    it. Flet's diff passes over a value that is the same object as before without looking
    into it, while an equal new one is compared field by field (a border is five objects):
    measured, an eighth of the cost of redrawing an upright tile, less for one across.

    ``lit``: a :class:`LitBorder`, a picker tile's as it fits, against the plain one of a
    tile that does not. Between two borders of one type the diff compares them side by
    side and sends each side's new colour (five objects compared, four changes sent);
    between two types it sends the new one whole, in one change, which costs less than
    half as much (measured, a tile that comes to fit or stops fitting: 62 against 115 us
    for its box and semantics node, the border compared side by side); Flet draws both
    alike."""
    if not lit:
        return ft.Border.all(width, color)
    side = ft.BorderSide(width, color)  # as Border.all makes it (which makes a Border)
    return LitBorder(left=side, top=side, right=side, bottom=side)


def _half(pips: int, size: float) -> ft.Control:
    """A half's digits, centred across the tile (the tile's row or column centres them along it)."""
    return ft.Text(
        str(pips), size=digit_size(size), weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER, width=size
    )


def tile_digits(first: int, second: int, horizontal: bool, half: float) -> ft.Control:
    """A tile's two halves' digits and the line between them, in a row (or column) that spaces
    them evenly -- which centres each in its half, the line exactly between them: what is
    inside a tile's box (:func:`tile_face`; the picker's tiles draw their own box)."""
    line = ft.Container(
        width=1 if horizontal else half * 0.8,
        height=half * 0.8 if horizontal else 1,
        bgcolor=ft.Colors.OUTLINE,
    )
    parts = [_half(first, half), line, _half(second, half)]
    even = ft.MainAxisAlignment.SPACE_EVENLY
    if horizontal:
        return ft.Row(parts, spacing=0, alignment=even, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    return ft.Column(parts, spacing=0, alignment=even, horizontal_alignment=ft.CrossAxisAlignment.CENTER)


def tile_face(
    first: int, second: int, horizontal: bool, half: float, spinner: bool = False, mark: str | None = None
) -> ft.Control:
    """A domino of the drawing: its two halves with a line between them (:func:`tile_digits`)
    in its box (``spinner``: a strong border; ``mark``: its colour, where a tile waiting may go).

    Few controls, since a redraw makes them again for every tile whose look changed: the
    tile's box, a row (or column) of its digits, and the line.

    A tile has no ink (no ripple when tapped): the tile itself changes as soon as the entry
    is in (it leaves the picker, it is drawn on the table). The ink -- Flutter's ink well
    around each tile, with its ripple -- cost more than the tap's own redraw, even with the
    browser asking for reduced motion: eight tile taps in Chromium took 4.1 CPU-s of the
    browser and the server with it, 3.0 without (the page's renderer 2.4 -> 1.8, its GPU
    process 0.7 -> 0.4), CPU a phone's browser spent on nothing a player needs."""
    edge = 3 if spinner else 1
    return ft.Container(
        content=tile_digits(first, second, horizontal, half),
        width=(2 * half + 1 if horizontal else half) + 2 * edge,
        height=(half if horizontal else 2 * half + 1) + 2 * edge,
        bgcolor=mark or ft.Colors.SURFACE_CONTAINER_HIGHEST,
        border=tile_border(edge, ft.Colors.PRIMARY if spinner else ft.Colors.OUTLINE),
        border_radius=max(3, half * 0.15),
    )
