"""The layout drawing in the pixels it has: its box in units, its unit, and its end buttons.

Pure arithmetic for :mod:`scorekeeper.ui.allfives.layout_view` (no Flet). The
drawing is laid out for the box it will be drawn in (its arms turn at the box's
edges), at a unit that keeps the pips legible: at :data:`MIN_UNIT` a spinner's
half is 14 px, room for the 11 px digits ``widgets.digit_size`` never goes under
while they fit. A margin of :data:`MARGIN` all round leaves room for an end
button beyond an open end at the edge.

>>> drawing_box(336, 200)  # a 360 px phone: the content width and the drawing's height
(31, 16)
>>> drawing_box(780, 330)  # a laptop's column
(80, 30)

While a tile that fits several places waits, each place is a button (at least
44 px square) beyond its open end, in the way the arm grows, on no tile:
:func:`end_spots` puts each where it is clear nearest that spot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from scorekeeper.ui.allfives.drawing import Drawing, EndMark
from scorekeeper.ui.allfives.placing import Box

#: The least size of a button a thumb hits at a noisy table (px).
END_BUTTON = 44.0
#: The least drawing unit (px; a half tile is 2 units): a spinner's half, 2 units less its
#: thicker border (4 px), is then 14 px, which holds an 11 px digit.
MIN_UNIT = 9.0
#: How far (px) a button keeps from the tiles and the other buttons.
GAP = 2.0
#: The room kept all round the drawing (px) for an end button beyond an open end at its edge
#: (past the end's mark, 2 units).
MARGIN = END_BUTTON + GAP - 2 * MIN_UNIT

#: How far (px) a button may reach past the top or the bottom of the box, over the words
#: there, where it finds no clear place in the box (the buttons are there for one tap).
OVER = END_BUTTON - MARGIN

#: How much farther (px) a button would rather go than cover another open end's mark, or
#: reach past the box.
MARK_COST = 24.0
OVER_COST = 40.0

Rect = tuple[float, float, float, float]  # left, top, width, height (px)


def max_unit(width: float) -> float:
    """The largest drawing unit for a box ``width`` wide: about 16 px on a phone, up to 28 px
    on a desktop -- big enough to read, never a poster."""
    return max(14.0, min(28.0, width / 24))


def drawing_box(width: float, height: float) -> Box:
    """The box (width, height in units) a drawing must fit to be drawn at :data:`MIN_UNIT` or
    more in ``width`` x ``height`` px, inside the margin."""
    return (max(8, int((width - 2 * MARGIN) // MIN_UNIT)), max(6, int((height - 2 * MARGIN) // MIN_UNIT)))


def unit_for(d: Drawing, width: float, height: float) -> float:
    """The unit (px) ``d`` is drawn at in ``width`` x ``height`` px: as large as fits, up to
    :func:`max_unit`; under :data:`MIN_UNIT` only for a drawing that could not be laid out in
    its box (``d.fits`` false), never under 4."""
    return max(4.0, min((width - 2 * MARGIN) / d.width, (height - 2 * MARGIN) / d.height, max_unit(width)))


def half_px(unit: float, spinner: bool) -> float:
    """The size (px) of a half of a laid tile at ``unit`` (a spinner's border is thicker)."""
    return 2 * unit - (4 if spinner else 2)


def origin(d: Drawing, unit: float, width: float, height: float) -> tuple[float, float]:
    """Where (px) the drawing's top-left corner goes: its middle in the middle of the box."""
    return ((width - d.width * unit) / 2, (height - d.height * unit) / 2)


def button_size(lines: list[str]) -> tuple[float, float]:
    """The size (px) of an end button saying ``lines`` (bold, 12 and 15 px; the same width
    for the same text): :data:`END_BUTTON` square, wider for a long name.

    >>> button_size(["on 4-4", "+10"]), button_size(["on 12-12"])
    ((44.0, 44.0), (55.0, 44.0))
    """
    return (max(END_BUTTON, float(round(5.6 * max(len(t) for t in lines) + 10))), END_BUTTON)


@dataclass(frozen=True, slots=True)
class Spot:
    """Where an end button goes (px, from the top-left corner of the drawing's box)."""

    left: float
    top: float
    width: float
    height: float


@lru_cache(maxsize=4)
def _around(radius: int, step: int) -> list[tuple[int, int]]:
    """The points of a grid of ``step`` px within ``radius`` px, nearest first."""
    n = radius // step
    pts = [(i * step, j * step) for i in range(-n, n + 1) for j in range(-n, n + 1)]
    return sorted((p for p in pts if math.hypot(*p) <= radius), key=lambda p: (math.hypot(*p), p))


def _hits(r: Rect, others: list[Rect]) -> bool:
    x, y, w, h = r
    return any(x < ox + ow and ox < x + w and y < oy + oh and oy < y + h for ox, oy, ow, oh in others)


def just_beyond(m: EndMark, size: tuple[float, float], unit: float, at: tuple[float, float]) -> Rect:
    """Where a button of ``size`` goes just beyond the open end ``m`` (past the edge of the
    tile it names, the way its arm grows), the drawing at ``unit`` from ``at`` (px)."""
    sx, sy = at[0] + (m.x - m.dx) * unit, at[1] + (m.y - m.dy) * unit  # the middle of the tile's edge
    along = (size[0] if m.dx else size[1]) / 2 + GAP
    return (sx + m.dx * along - size[0] / 2, sy + m.dy * along - size[1] / 2, *size)


def end_spots(
    d: Drawing,
    unit: float,
    width: float,
    height: float,
    ends: list[tuple[EndMark, tuple[float, float]]],
) -> list[Spot]:
    """Where each end button goes: ``ends`` are the open ends to choose between and the size
    of each one's button; ``d`` is drawn at ``unit`` in the middle of ``width`` x ``height``
    px. Each button goes just beyond its open end (past the tile it names, the way its arm
    grows), else at the clear place nearest there: on no tile and no other button, in the
    box or reaching past its top or bottom by up to :data:`OVER` px, a place that covers
    another open end's mark or reaches past the box counting as farther (:data:`MARK_COST`,
    :data:`OVER_COST`); else (the box full of tiles around it) just above or below the box.
    No button ever covers a tile."""
    ox, oy = origin(d, unit, width, height)
    tiles = [
        (ox + g.x * unit - GAP, oy + g.y * unit - GAP, g.w * unit + 2 * GAP, g.h * unit + 2 * GAP) for g in d.tiles
    ]
    r = 0.8 * unit  # an open end's mark: a disc 1.6 units wide
    marks = [(ox + m.x * unit - r, oy + m.y * unit - r, 2 * r, 2 * r) for m in d.ends]

    def inside(rect: Rect, over: float = 0.0) -> bool:
        return rect[0] >= 0 and rect[1] >= -over and rect[0] + rect[2] <= width and rect[1] + rect[3] <= height + over

    ideal = [just_beyond(m, size, unit, (ox, oy)) for m, size in ends]
    own = [(ox + m.x * unit - r, oy + m.y * unit - r, 2 * r, 2 * r) for m, _ in ends]
    spots: list[Spot | None] = [None] * len(ends)
    for k, rect in enumerate(ideal):  # first every button that fits just beyond its end
        taken = [_grown(s) for s in spots if s is not None]
        if inside(rect) and not _hits(rect, tiles + taken + [x for x in marks if x != own[k]]):
            spots[k] = Spot(*rect)
    for k, (x, y, bw, bh) in enumerate(ideal):  # then the others at the clear place nearest it
        if spots[k] is not None:
            continue
        avoid = tiles + [_grown(s) for s in spots if s is not None]
        others = [v for v in marks if v != own[k]]
        best: tuple[float, Rect] | None = None
        for dx, dy in _around(int(8 * END_BUTTON), 4):
            cost = math.hypot(dx, dy)  # plus what the place hides: another end's mark, the words
            if best is not None and cost >= best[0]:
                break
            rect = (x + dx, y + dy, bw, bh)
            if not inside(rect, OVER) or _hits(rect, avoid):
                continue
            cost += (MARK_COST if _hits(rect, others) else 0) + (0 if inside(rect) else OVER_COST)
            if best is None or cost < best[0]:
                best = (cost, rect)
        if best is None:  # nowhere clear near it: above or below the box, nearest the end
            rows = (-bh - GAP, height + GAP)
            places = [(left, top) for left in range(0, int(width - bw) + 1, 4) for top in rows]
            places.sort(key=lambda p: math.hypot(p[0] - x, p[1] - y))
            best = next((0.0, r) for r in ((*p, bw, bh) for p in places) if not _hits(r, avoid))
        spots[k] = Spot(*best[1])
    return [s for s in spots if s is not None]


def _grown(s: Spot) -> Rect:
    return (s.left - GAP, s.top - GAP, s.width + 2 * GAP, s.height + 2 * GAP)
