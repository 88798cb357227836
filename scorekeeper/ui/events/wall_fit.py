"""How the wall's lines fit a screen, without any Flet: the sizes of the type, the
columns, the pages (:mod:`scorekeeper.ui.events.wall_model` makes the lines).

Nothing scrolls, and nothing is cut off. The type is sized from the lines and the room
(:func:`fit`): one column, or two side by side when one would need type smaller than
:data:`LEAST` (22 px on a screen 720 px high: read from across a room); only when two
columns would too, the lines go over pages. The standings and the round's tables share
the screen when both fit on it at that size, side by side or one under the other
(:func:`arrange`); otherwise they take turns, a page at a time.

Thirty-two lines on a 1280x720 screen: two columns of sixteen, on one page.

>>> room = Room(1280, 720)
>>> name = Col("Player", 5.0, grow=True)
>>> lines = tuple(Line(("Ann", "1"), "Ann") for _ in range(32))
>>> f = fit(32, [Style((name, Col("Score", 3.4)), lines=lines), Style((name, Col("Score", 3.4)), split=2)],
...         room.main_width, room.main_height, room.least)
>>> (f.split, f.pages, f.per_column, f.size >= room.least)
(2, 1, 16, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

__all__ = [
    "LEAST",
    "DIGIT",
    "LETTER",
    "STATE",
    "Block",
    "Col",
    "Fit",
    "Line",
    "Page",
    "Room",
    "Style",
    "arrange",
    "fit",
]

#: The least type the wall uses, in px on a screen 720 px high (in proportion on others).
LEAST = 22.0
#: The most: a few lines are not drawn as big as the screen would take.
MOST = 46.0
#: A line's height, in sizes of its type (a header's too); a table's with its state under its players.
ROW = 1.5
TWO_ROW = 2.5
#: The state under the players, in sizes of the players' type.
STATE = 0.72
#: How wide a character is, in sizes of the type: of a number or header, of a name or words.
DIGIT = 0.62
LETTER = 0.56
#: The smallest type drawn at all.
SMALLEST = 6.0
#: A gap between two cells of a line, in sizes of the type.
SPACING = 0.5


@dataclass(frozen=True)
class Room:
    """The screen the wall has (the page's size, with its ``pad`` around the screens) and
    what follows from it: the sizes of the type, the title, the notes, the QR code."""

    width: float
    height: float
    pad: float = 12
    qr: bool = True

    @property
    def scale(self) -> float:
        """The screen's size against 1280x720 (a screen narrower than 16:9 by its width)."""
        return min(self.height, self.width * 9 / 16) / 720

    @property
    def least(self) -> float:
        """The least type: :data:`LEAST` in proportion (never under 14 px: a phone's)."""
        return max(14.0, LEAST * self.scale)

    @property
    def most(self) -> float:
        return max(22.0, MOST * self.scale)

    @property
    def title(self) -> float:
        return max(16.0, 28 * self.scale)

    @property
    def title_height(self) -> float:
        return self.title * 1.5

    @property
    def note(self) -> float:
        return max(13.0, 17 * self.scale)

    @property
    def gap(self) -> float:
        return max(6.0, 12 * self.scale)

    @property
    def gutter(self) -> float:
        """Between two columns of lines."""
        return 3 * self.gap

    @property
    def qr_width(self) -> float:
        """The QR code's side (0: none; a screen narrower than 900 px is a phone's)."""
        if not self.qr or self.width < 900:
            return 0.0
        return min(340.0, max(150.0, 0.16 * self.width))

    @property
    def main_width(self) -> float:
        """What the lines have across: the page but its padding and the QR code's panel."""
        w = self.width - 2 * self.pad
        return w - (self.qr_width + 2 * self.gap if self.qr_width else 0)

    @property
    def main_height(self) -> float:
        """What the lines have down: the page but its padding and the title."""
        return self.height - 2 * self.pad - self.title_height - self.gap

    def notes_height(self, notes: Sequence[str], width: float) -> float:
        """The height the ``notes`` take at the notes' size, wrapped in ``width`` (one line
        more than they need when a word would not fit: a whole word wraps)."""
        if not notes:
            return 0.0
        per_line = max(1, int(width / (self.note * LETTER)))
        lines = sum(math.ceil(len(n) / per_line) for n in notes)
        return lines * self.note * 1.45 + self.gap


@dataclass(frozen=True)
class Col:
    """A column of a block: its header and its width in sizes of the type (``grow``: it
    takes what the others leave, at least that)."""

    header: str
    em: float
    grow: bool = False
    right: bool = False
    bold: bool = False


@dataclass(frozen=True)
class Line:
    """One line: its cells (one a column) and what a screen reader says of it."""

    cells: tuple[str, ...]
    label: str
    dim: bool = False  # a table that is over: its line quieter


@dataclass(frozen=True)
class Style:
    """One way to draw a block's lines: its columns, in ``split`` columns side by side,
    each line ``row`` sizes of its type high; ``two_line``: a table's state under its
    players (its third cell)."""

    cols: tuple[Col, ...]
    split: int = 1
    row: float = ROW
    two_line: bool = False
    lines: tuple[Line, ...] = ()

    @property
    def em(self) -> float:
        """The width a line needs, in sizes of its type (its cells, the gaps between them,
        and half a gap at each end)."""
        ems = [c.em for c in self.cols]
        if self.two_line:
            ems = [ems[0], max(ems[1], STATE * ems[2])]
        return sum(ems) + SPACING * len(ems)


@dataclass(frozen=True)
class Fit:
    """How a block's lines fit: ``split`` columns, over ``pages``, ``per_column`` lines in a
    column (its header not counted), type of ``size`` px in lines ``row`` px high."""

    style: Style
    pages: int
    per_column: int
    size: float

    @property
    def split(self) -> int:
        return self.style.split

    @property
    def row(self) -> float:
        return self.size * self.style.row

    @property
    def head(self) -> float:
        """The header line's height (one line, whatever the style)."""
        return self.size * ROW


def _sized(size: float) -> float:
    """A size of type in half pixels, down; never under :data:`SMALLEST` (a window too small
    for anything: its lines go past its edge rather than vanish)."""
    return max(SMALLEST, math.floor(size * 2) / 2)


def fit(
    count: int,
    styles: Sequence[Style],
    width: float,
    height: float,
    least: float = LEAST,
    most: float = MOST,
    gutter: float = 36.0,
) -> Fit:
    """The biggest type ``count`` lines (and a header line atop each column) are drawn in,
    in ``width`` x ``height`` px, in one of ``styles`` (two columns ``gutter`` px apart): on
    one page if any style gives type of ``least`` px or more there, else on as few pages as
    do (each holding as many lines); the type never bigger than ``most``. Where no number of
    pages gives ``least`` (a screen too narrow for the lines), the fewest that give the
    biggest type there is."""
    best: Fit | None = None
    for pages in range(1, max(1, count) + 1):
        for style in styles:
            per = max(1, math.ceil(count / (style.split * pages)))
            across = (width - (style.split - 1) * gutter) / style.split
            size = _sized(min(height / (per * style.row + ROW), across / style.em, most))
            if best is None or size > best.size:
                best = Fit(style, pages, per, size)
        if best is not None and best.size >= least:
            break
    assert best is not None
    return best


@dataclass(frozen=True)
class Block:
    """What a page shows of the standings (``kind`` ``"standings"``) or of the round's tables
    (``"tables"``): the lines of this page, drawn as ``fit`` says, ``width`` px across."""

    kind: str
    fit: Fit
    lines: tuple[Line, ...]
    width: float

    @property
    def columns(self) -> list[tuple[Line, ...]]:
        """This page's lines, column by column."""
        per = self.fit.per_column
        return [self.lines[i * per : (i + 1) * per] for i in range(self.fit.split) if self.lines[i * per :]]


@dataclass(frozen=True)
class Page:
    """One screen of the wall: its blocks (side by side, or one under the other), and the
    notes under the standings."""

    blocks: tuple[Block, ...]
    side_by_side: bool = False
    notes: tuple[str, ...] = ()


def _pages_of(kind: str, f: Fit, width: float) -> list[Block]:
    lines = f.style.lines
    per_page = f.per_column * f.split
    return [Block(kind, f, lines[i : i + per_page], width) for i in range(0, max(1, len(lines)), per_page)]


def _together(standing: Style, tables: Style, notes: tuple[str, ...], room: Room) -> list[tuple[float, Page]]:
    """The standings (in ``standing``'s one column) and the ``tables`` on one page, side by
    side (each as wide as its lines need of what there is) and one under the other, with
    the size of their type: the same for both."""
    least, most, w, h = room.least, room.most, room.main_width, room.main_height
    two = replace(tables, row=TWO_ROW, two_line=True)
    out: list[tuple[float, Page]] = []
    ws = (w - room.gutter) * standing.em / (standing.em + two.em)
    wt = w - room.gutter - ws
    fs = fit(len(standing.lines), (standing,), ws, h - room.notes_height(notes, ws), least, most)
    ft_ = fit(len(tables.lines), (tables, two), wt, h, least, most)
    size = min(fs.size, ft_.size)
    if fs.pages == ft_.pages == 1:
        blocks = (
            Block("standings", Fit(standing, 1, len(standing.lines), size), standing.lines, ws),
            Block("tables", Fit(ft_.style, 1, len(tables.lines), size), tables.lines, wt),
        )
        out.append((size, Page(blocks, side_by_side=True, notes=notes)))
    rows = (len(standing.lines) + len(tables.lines) + 2) * ROW
    down = h - room.notes_height(notes, w) - room.gap
    size = _sized(min(down / rows, w / standing.em, w / tables.em, most))
    blocks = (
        Block("standings", Fit(standing, 1, len(standing.lines), size), standing.lines, w),
        Block("tables", Fit(tables, 1, len(tables.lines), size), tables.lines, w),
    )
    out.append((size, Page(blocks, notes=notes)))
    return out


def arrange(wide: Style, narrow: Style, tables: Style | None, notes: tuple[str, ...], room: Room) -> list[Page]:
    """The wall's pages: the standings (``wide``: with the points for and against, ``narrow``:
    their differences only) and the round's ``tables`` (None: no draw to show) on one page
    when both fit it at the least type or more, side by side or one under the other; else
    pages of each in turn. The ``notes`` go under the standings."""
    least, most, w, h = room.least, room.most, room.main_width, room.main_height
    fs = fit(
        len(wide.lines),
        (wide, narrow, replace(narrow, split=2)),
        w,
        h - room.notes_height(notes, w),
        least,
        most,
        room.gutter,
    )
    standing_pages = [Page((b,), notes=notes) for b in _pages_of("standings", fs, w)]
    if tables is None or not tables.lines:
        return standing_pages
    together = [t for style in (wide, narrow) for t in _together(style, tables, notes, room) if t[0] >= least]
    if together:
        return [max(together, key=lambda t: t[0])[1]]
    two = replace(tables, row=TWO_ROW, two_line=True)
    ft_ = fit(
        len(tables.lines),
        (tables, two, replace(tables, split=2), replace(two, split=2)),
        w,
        h,
        least,
        most,
        room.gutter,
    )
    return standing_pages + [Page((b,)) for b in _pages_of("tables", ft_, w)]
