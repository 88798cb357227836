"""The Broadway grid drawn: the window of half-tile cells the table view-model
(:class:`~scorekeeper.ui.broadway.table.BroadwayTableModel`) describes, centred
in a box that pans (scrolls both ways, when the grid is larger) and zooms
(``zoom``).  Every tile down is one framed domino whose halves are read out as
``down x,y: pips`` (or ``matched x,y: pips`` when the tile being set matches
it); every other cell drawn is a tappable ``cell x,y``."""

from __future__ import annotations

import flet as ft

from scorekeeper.broadway.grid import Cell
from scorekeeper.ui.broadway.cells import GridCell
from scorekeeper.ui.broadway.table import BroadwayTableModel
from scorekeeper.ui.shell.widgets import labelled, on

__all__ = ["CELL", "grid_view"]

CELL = 34  # px per half-tile cell at zoom 1

_FILL = {
    "tile": ft.Colors.SURFACE_CONTAINER_HIGHEST,
    "matched": ft.Colors.AMBER_200,
    "new": ft.Colors.PRIMARY_CONTAINER,
    "first": ft.Colors.PRIMARY_CONTAINER,
    "spot": ft.Colors.TERTIARY_CONTAINER,
    "free": None,
}


def _tile(a: GridCell, b: GridCell, x0: int, y1: int, size: float) -> ft.Control:
    """A tile down, its halves ``a`` (top or left) and ``b``."""
    horizontal = a.y == b.y
    halves = [
        labelled(
            ft.Container(
                content=ft.Text(str(g.pips), size=max(9, size * 0.5), weight=ft.FontWeight.BOLD),
                width=size - 2,
                height=size - 2,
                alignment=ft.Alignment.CENTER,
                bgcolor=_FILL[g.state],
                border_radius=3,
            ),
            f"{'matched' if g.state == 'matched' else 'down'} {g.x},{g.y}: {g.pips}",
        )
        for g in (a, b)
    ]
    inner = ft.Row(halves, spacing=0, tight=True) if horizontal else ft.Column(halves, spacing=0, tight=True)
    return ft.Container(
        content=inner,
        left=(a.x - x0) * size,
        top=(y1 - a.y) * size,
        width=(2 * size if horizontal else size),
        height=(size if horizontal else 2 * size),
        bgcolor=_FILL["tile"],
        padding=1,
        border=ft.Border.all(1.5, ft.Colors.ON_SURFACE_VARIANT),
        border_radius=4,
    )


def _cell(t: BroadwayTableModel, c: GridCell, x0: int, y1: int, size: float) -> ft.Control:
    """A cell to tap: free, a spot for the picked tile, or a half of the tile being set."""
    handler = on(t.tap_cell, (c.x, c.y))
    text = str(c.pips) if c.pips is not None else ""
    return ft.Container(
        content=labelled(
            ft.Container(
                content=ft.Text(text, size=max(9, size * 0.5), weight=ft.FontWeight.BOLD),
                alignment=ft.Alignment.CENTER,
                width=size,
                height=size,
                on_click=handler,
            ),
            f"cell {c.x},{c.y}",
            handler,
            selected=c.state in ("new", "first") or None,
        ),
        left=(c.x - x0) * size,
        top=(y1 - c.y) * size,
        width=size,
        height=size,
        bgcolor=_FILL[c.state],
        border=ft.Border.all(
            2 if c.state in ("new", "first") else 1,
            ft.Colors.PRIMARY if c.state in ("new", "first", "spot") else ft.Colors.OUTLINE_VARIANT,
        ),
        border_radius=3,
    )


def grid_view(t: BroadwayTableModel) -> ft.Control:
    """The grid of the table ``t``, centred in a box that scrolls both ways (when it is larger)."""
    (x0, y0, x1, y1), cells = t.grid()
    size = CELL * t.zoom
    children: list[ft.Control] = []
    drawn: set[frozenset[Cell | None]] = set()
    by_cell = {(c.x, c.y): c for c in cells}
    for c in cells:
        if c.state in ("tile", "matched") and c.partner is not None:
            pair = frozenset({(c.x, c.y), c.partner})
            if pair in drawn:
                continue
            drawn.add(pair)
            a, b = sorted([c, by_cell[c.partner]], key=lambda g: (-g.y, g.x))  # top-left half first
            children.append(_tile(a, b, x0, y1, size))
        else:
            children.append(_cell(t, c, x0, y1, size))
    w, h = (x1 - x0 + 1) * size, (y1 - y0 + 1) * size
    stack = ft.Stack(children, width=w, height=h)
    # the sideways scrolling Row fills the box: centred in it while narrower, from its
    # left edge (and scrolling) when wider
    return ft.Container(
        content=ft.Column(
            [ft.Row([stack], scroll=ft.ScrollMode.AUTO, alignment=ft.MainAxisAlignment.CENTER)],
            scroll=ft.ScrollMode.AUTO,
        ),
        height=min(h + 16, 380),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=8,
        padding=4,
    )
