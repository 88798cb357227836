"""The window of the Broadway grid the table draws, without Flet: the layout and two
cells around it, and how each cell worth drawing looks."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.broadway.engine import Preview
from scorekeeper.broadway.grid import Cell, Layout

__all__ = ["GridCell", "grid_window", "neighbours"]


@dataclass(frozen=True)
class GridCell:
    """One cell of the drawn window: ``pips`` when covered; ``state`` says how to draw it:
    ``"tile"``, ``"matched"`` (a covered cell the tile being set matches), ``"new"`` (a
    cell of the tile being set), ``"first"`` (its first half, waiting for the second),
    ``"spot"`` (a free cell where the picked tile can go), ``"free"``."""

    x: int
    y: int
    pips: int | None
    state: str
    tile: str | None = None  # the tile covering it
    partner: Cell | None = None  # the other cell of that tile


def grid_window(
    lay: Layout | None, pv: Preview | None, first: Cell | None, spots: set[Cell]
) -> tuple[tuple[int, int, int, int], list[GridCell]]:
    """The window to draw ``(min_x, min_y, max_x, max_y)`` -- the layout ``lay`` and two cells
    around it -- and its cells worth drawing (covered, or free next to the layout), with the
    tile being set (``pv``), the cell its first half goes on and the spots it may go."""
    b = lay.bounds() if lay is not None else None
    if b is None:  # an empty table: room for the double and two cells around it
        x0, y0, x1, y1 = -2, -2, 2, 2
    else:
        x0, y0, x1, y1 = b[0] - 2, b[1] - 2, b[2] + 2, b[3] + 2
    setting = pv.placement if pv is not None else None  # the tile being set
    matched = set(pv.matched) if pv is not None else set()
    frontier = lay.frontier() if lay is not None and len(lay) else None
    cells: list[GridCell] = []
    for y in range(y1, y0 - 1, -1):
        for x in range(x0, x1 + 1):
            c = (x, y)
            p = lay.placement_at(c) if lay is not None else None
            if p is not None:
                other = p.cells[1] if p.cells[0] == c else p.cells[0]
                state = "matched" if c in matched else "tile"
                cells.append(GridCell(x, y, p.pips_at(c), state, str(p.tile), other))
            elif setting is not None and c in setting.cells:
                cells.append(GridCell(x, y, setting.pips_at(c), "new"))
            elif c == first:
                cells.append(GridCell(x, y, None, "first"))
            elif c in spots:
                cells.append(GridCell(x, y, None, "spot"))
            elif frontier is None or c in frontier:
                cells.append(GridCell(x, y, None, "free"))
    return (x0, y0, x1, y1), cells


def neighbours(cell: Cell) -> list[tuple[str, Cell]]:
    """The four cells next to ``cell``, by direction (North is up: ``y + 1``)."""
    x, y = cell
    return [("North", (x, y + 1)), ("East", (x + 1, y)), ("South", (x, y - 1)), ("West", (x - 1, y))]
