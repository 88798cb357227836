"""The Broadway table: a grid of half-tile cells (``x`` grows to the East,
``y`` to the North), the tiles set on it, and the matched sections a new tile
would make.

Everything here is an immutable value: :meth:`Layout.add` returns a new
layout and never checks a rule (the hand does that, see
:mod:`scorekeeper.broadway.engine`).

>>> lay = Layout().add(Placement.of("6-6", [[0, 0], [1, 0]]))
>>> p = Placement.of("6-3", [[0, 1], [0, 2]])     # the 6 on (0, 1), above the left 6
>>> lay.matched(p), points_for(len(lay.matched(p)))
(((0, 0),), 0)
>>> lay = lay.add(p)
>>> lay.pips_at((0, 2)), lay.tile_at((0, 1)), len(lay)
(3, Tile(6, 3), 2)
>>> print(lay.text())
3 .
|
6 .
<BLANKLINE>
6-6
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import IllegalTileError, RecordFormatError, short

__all__ = [
    "Cell",
    "DIRECTIONS",
    "HIGHEST",
    "Layout",
    "MAX_COORDINATE",
    "Placement",
    "adjacent",
    "neighbours",
    "parse_cell",
    "parse_cells",
    "parse_pips",
    "points_for",
]

Cell = tuple[int, int]
#: The set is double-six.
HIGHEST = 6
#: East, West, North, South.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
#: Points to the placer's side by the number of matched sections (4 or more: 10).
POINTS = (0, 0, 1, 5, 10)

_DIGITS = re.compile(r"[0-9]+")  # ASCII digits only: Tile.parse has read them first
#: The farthest a cell may lie from the origin, on either axis (the whole layout is 56
#: cells across at most; a far-off coordinate would only make the drawing's numbers huge).
MAX_COORDINATE = 9_999


def points_for(matched: int) -> int:
    """Points of a placement with ``matched`` matched sections (1: 0, 2: 1, 3: 5, 4 or more: 10).

    >>> [points_for(n) for n in range(7)]
    [0, 0, 1, 5, 10, 10, 10]
    """
    return POINTS[min(matched, 4)]


def neighbours(cell: Cell) -> Iterator[Cell]:
    """The four cells that share an edge with ``cell``.

    >>> list(neighbours((0, 0)))
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
    """
    x, y = cell
    for dx, dy in DIRECTIONS:
        yield (x + dx, y + dy)


def adjacent(a: Cell, b: Cell) -> bool:
    """True when two cells share an edge.

    >>> adjacent((0, 0), (0, -1)), adjacent((0, 0), (1, 1)), adjacent((2, 2), (2, 2))
    (True, False, False)
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def parse_cell(value: Any) -> Cell:
    """``[x, y]`` (whole numbers from -9,999 to 9,999) as a cell; anything else is a RecordFormatError.

    >>> parse_cell([3, -2])
    (3, -2)
    >>> parse_cell([1.5, 0])
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RecordFormatError: a cell is [x, y] with whole numbers, not [1.5, 0]
    >>> parse_cell([10**12, 0])
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RecordFormatError: a cell's x and y are from -9,999 to 9,999, not [1000000000000, 0]
    """
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(type(v) is int for v in value):
        if not all(-MAX_COORDINATE <= v <= MAX_COORDINATE for v in value):
            raise RecordFormatError(
                f"a cell's x and y are from -{MAX_COORDINATE:,} to {MAX_COORDINATE:,}, not {short(value)}"
            )
        return (value[0], value[1])
    raise RecordFormatError(f"a cell is [x, y] with whole numbers, not {short(value)}")


def parse_cells(value: Any) -> tuple[Cell, Cell]:
    """The two cells a tile covers: ``[[x, y], [x, y]]``.

    >>> parse_cells([[0, 0], [0, 1]])
    ((0, 0), (0, 1))
    """
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise RecordFormatError(f"a tile covers two cells: [[x, y], [x, y]], not {short(value)}")
    return (parse_cell(value[0]), parse_cell(value[1]))


def parse_pips(value: Any) -> tuple[int, int]:
    """A tile as written, in its written order: ``"3-6"`` -> ``(3, 6)``.

    A :class:`Tile` gives its higher half first.

    >>> parse_pips("[3|6]"), parse_pips(Tile(3, 6))
    ((3, 6), (6, 3))
    >>> parse_pips("7-1")
    Traceback (most recent call last):
    ...
    scorekeeper.errors.IllegalTileError: 7-1 is not in a double-6 set
    """
    if isinstance(value, Tile):
        if value.hi > HIGHEST:
            raise IllegalTileError(f"{value} is not in a double-{HIGHEST} set")
        return (value.hi, value.lo)
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value):
        a, b = value
        if not (0 <= a <= HIGHEST and 0 <= b <= HIGHEST):
            raise IllegalTileError(f"{short(a)}-{short(b)} is not in a double-{HIGHEST} set")
        return (a, b)
    Tile.parse(value, HIGHEST)  # the format and range checks, with their messages
    a, b = (int(d) for d in _DIGITS.findall(value))
    return (a, b)


class Placement:
    """A tile set on two cells: ``first`` pips on ``cells[0]``, ``second`` on ``cells[1]``.

    An immutable value; it does not check that the cells are adjacent (the
    hand does, with the turn's location). Two placements are equal when they
    put the same halves on the same cells, however written.

    >>> p = Placement.of("3-6", [[1, 0], [2, 0]])
    >>> p, p.tile, p.pips_at((2, 0)), p.axis
    (Placement(3, 6, ((1, 0), (2, 0))), Tile(6, 3), 6, 'east-west')
    >>> p.canonical(), p == Placement(6, 3, ((2, 0), (1, 0))), p == Placement(6, 3, ((1, 0), (2, 0)))
    (Placement(6, 3, ((2, 0), (1, 0))), True, False)
    >>> str(p.canonical()), p.entry()
    ('6-3 at (2, 0) (1, 0)', {'play': '6-3', 'at': [[2, 0], [1, 0]]})
    """

    __slots__ = ("first", "second", "cells", "tile")

    first: int
    second: int
    cells: tuple[Cell, Cell]
    tile: Tile

    def __init__(self, first: int, second: int, cells: tuple[Cell, Cell]) -> None:
        first, second = parse_pips((first, second))
        c0, c1 = parse_cells(cells)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)
        object.__setattr__(self, "cells", (c0, c1))
        object.__setattr__(self, "tile", Tile(first, second))

    @classmethod
    def trusted(cls, first: int, second: int, cells: tuple[Cell, Cell]) -> Placement:
        """A placement from values known to be valid (no checks: the hand's placements, legal by construction)."""
        p = object.__new__(cls)
        object.__setattr__(p, "first", first)
        object.__setattr__(p, "second", second)
        object.__setattr__(p, "cells", cells)
        object.__setattr__(p, "tile", Tile(first, second))
        return p

    @classmethod
    def of(cls, tile: Any, cells: Any) -> Placement:
        """From a tile (``"6-3"``: the 6 on the first cell; a :class:`Tile`: its higher half
        first) and ``[[x, y], [x, y]]``."""
        first, second = parse_pips(tile)
        return cls(first, second, parse_cells(cells))

    def pips_at(self, cell: Cell) -> int:
        return self.first if cell == self.cells[0] else self.second

    def halves(self) -> tuple[tuple[Cell, int], tuple[Cell, int]]:
        """``((cell, pips), (cell, pips))``."""
        return ((self.cells[0], self.first), (self.cells[1], self.second))

    @property
    def axis(self) -> str | None:
        """``"east-west"`` (same ``y``), ``"north-south"`` (same ``x``), or None (not adjacent)."""
        (x0, y0), (x1, y1) = self.cells
        if not adjacent(self.cells[0], self.cells[1]):
            return None
        return "east-west" if y0 == y1 else "north-south"

    def canonical(self) -> Placement:
        """The same placement written with the higher half first (a double: its lower cell
        first), as records are written back."""
        if self.first > self.second or (self.first == self.second and self.cells[0] <= self.cells[1]):
            return self
        return Placement.trusted(self.second, self.first, (self.cells[1], self.cells[0]))

    def _key(self) -> tuple[int, int, tuple[Cell, Cell]]:
        c = self.canonical()
        return (c.first, c.second, c.cells)

    def entry(self) -> dict[str, Any]:
        """``{"play": "6-3", "at": [[x, y], [x, y]]}`` (canonical: higher half first)."""
        c = self.canonical()
        return {"play": f"{c.first}-{c.second}", "at": [list(c.cells[0]), list(c.cells[1])]}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Placement):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Placement is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Placement is immutable")

    def __reduce__(self) -> tuple[type[Placement], tuple[int, int, tuple[Cell, Cell]]]:
        return (Placement, (self.first, self.second, self.cells))

    def __repr__(self) -> str:
        return f"Placement({self.first}, {self.second}, {self.cells})"

    def __str__(self) -> str:
        return f"{self.first}-{self.second} at {self.cells[0]} {self.cells[1]}"


class Layout:
    """The tiles on the table: an immutable value (``add`` returns a new layout).

    ``len(layout)`` is the number of tiles; ``tile in layout`` tells whether a
    :class:`Tile` is down.
    """

    __slots__ = ("placements", "_pips", "_owner", "_tiles", "_by_pips")

    placements: tuple[Placement, ...]
    _pips: dict[Cell, int]  # every covered cell -> the pips it shows
    _owner: dict[Cell, int]  # every covered cell -> the index of the placement covering it
    _tiles: frozenset[Tile]
    _by_pips: tuple[tuple[Cell, ...], ...]  # pips -> the covered cells showing them

    def __init__(self, placements: Iterable[Placement] = ()) -> None:
        pips: dict[Cell, int] = {}
        owner: dict[Cell, int] = {}
        by_pips: list[tuple[Cell, ...]] = [()] * (HIGHEST + 1)
        ps = tuple(placements)
        for i, p in enumerate(ps):
            for cell, v in p.halves():
                pips[cell] = v
                owner[cell] = i
                by_pips[v] = by_pips[v] + (cell,)
        object.__setattr__(self, "placements", ps)
        object.__setattr__(self, "_pips", pips)
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_tiles", frozenset(p.tile for p in ps))
        object.__setattr__(self, "_by_pips", tuple(by_pips))

    def add(self, p: Placement) -> Layout:
        """A new layout with ``p`` set (unchecked: the hand checks every rule first)."""
        new = object.__new__(Layout)
        pips = dict(self._pips)
        owner = dict(self._owner)
        by_pips = list(self._by_pips)
        i = len(self.placements)
        for cell, v in p.halves():
            pips[cell] = v
            owner[cell] = i
            by_pips[v] = by_pips[v] + (cell,)
        object.__setattr__(new, "placements", self.placements + (p,))
        object.__setattr__(new, "_pips", pips)
        object.__setattr__(new, "_owner", owner)
        object.__setattr__(new, "_tiles", self._tiles | {p.tile})
        object.__setattr__(new, "_by_pips", tuple(by_pips))
        return new

    # -- reading
    @property
    def cells(self) -> Mapping[Cell, int]:
        """Every covered cell and the pips it shows (read-only)."""
        return MappingProxyType(self._pips)

    @property
    def tiles(self) -> frozenset[Tile]:
        return self._tiles

    def pips_at(self, cell: Cell) -> int | None:
        return self._pips.get(cell)

    def placement_at(self, cell: Cell) -> Placement | None:
        i = self._owner.get(cell)
        return None if i is None else self.placements[i]

    def index_at(self, cell: Cell) -> int | None:
        """The 0-based order in which the tile covering ``cell`` was set."""
        return self._owner.get(cell)

    def tile_at(self, cell: Cell) -> Tile | None:
        p = self.placement_at(cell)
        return None if p is None else p.tile

    def cells_showing(self, pips: int) -> tuple[Cell, ...]:
        """The covered cells that show ``pips``."""
        return self._by_pips[pips] if 0 <= pips <= HIGHEST else ()

    def matched(self, p: Placement) -> tuple[Cell, ...]:
        """The matched sections ``p`` would make: the covered cells that touch one of its
        halves edge to edge and show the same number as that half (sorted).
        Covered cells under ``p`` itself are not counted (``p`` must go on free cells)."""
        pips = self._pips
        own = p.cells
        out = []
        for cell, v in p.halves():
            for n in neighbours(cell):
                if n not in own and pips.get(n) == v:
                    out.append(n)
        return tuple(sorted(out))

    def frontier(self) -> set[Cell]:
        """The free cells that touch the layout."""
        pips = self._pips
        return {n for c in pips for n in neighbours(c) if n not in pips}

    def bounds(self) -> tuple[int, int, int, int] | None:
        """``(min_x, min_y, max_x, max_y)`` of the covered cells, or None when empty."""
        if not self._pips:
            return None
        xs = [c[0] for c in self._pips]
        ys = [c[1] for c in self._pips]
        return (min(xs), min(ys), max(xs), max(ys))

    def text(self) -> str:
        """The layout as text, North up: pips, ``-`` and ``|`` joining the halves of a tile,
        ``.`` for a free cell."""
        b = self.bounds()
        if b is None:
            return "(empty)"
        x0, y0, x1, y1 = b
        rows = []
        for y in range(y1, y0 - 1, -1):
            line = []
            for x in range(x0, x1 + 1):
                v = self._pips.get((x, y))
                line.append("." if v is None else str(v))
                if x < x1:
                    same = v is not None and self._owner.get((x + 1, y)) == self._owner.get((x, y))
                    line.append("-" if same else " ")
            rows.append("".join(line).rstrip())
            if y > y0:
                link = []
                for x in range(x0, x1 + 1):
                    same = (x, y) in self._owner and self._owner.get((x, y - 1)) == self._owner[(x, y)]
                    link.append("|" if same else " ")
                    if x < x1:
                        link.append(" ")
                rows.append("".join(link).rstrip())
        return "\n".join(rows)

    def __len__(self) -> int:
        return len(self.placements)

    def __contains__(self, tile: object) -> bool:
        return tile in self._tiles

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.placements == other.placements

    def __hash__(self) -> int:
        return hash(self.placements)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Layout is immutable")

    def __repr__(self) -> str:
        return f"Layout({list(self.placements)!r})"
