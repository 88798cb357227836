"""The layout drawing in the pixels it has: its box in units, its unit, and its end buttons.

Pure arithmetic for :mod:`scorekeeper.ui.allfives.layout_view` (no Flet). The
drawing is laid out for the box it will be drawn in (its arms turn at the box's
edges), at a unit that keeps the pips legible across the table: at :data:`MIN_UNIT` a
spinner's half is 18 px, room for the 14 px digits ``tiles.digit_size`` never goes
under while they fit (issue 48: read by the players across a table, not only by the
phone's holder); a laptop's drawing is laid out for :data:`BIG_UNIT` (:func:`box_unit`).
A margin of :data:`MARGIN` all round leaves room for an open end's mark at the edge.

>>> drawing_box(336, 200)  # a 360 px phone: the content width and the drawing's height
(28, 16)
>>> drawing_box(780, 330)  # a laptop's column, at 14 px units
(54, 21)

While a tile that fits four places or more waits (two or three are the picker's
split cell), each place is a button (at least 44 px square) in the box, beyond its
open end the way the arm grows, on no tile: :func:`end_buttons` puts each where it is
clear nearest that spot -- moving the drawing a little in its box, or last drawing it
smaller, while the tile waits, where the box has no such place (a tap outside the box
would not reach a button).
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
#: thicker border (4 px), is then 18 px, which holds a 14 px digit.
MIN_UNIT = 11.0
#: The unit a wide screen's drawing is laid out for (see :func:`box_unit`).
BIG_UNIT = 14.0
#: How far (px) a button keeps from the tiles and the other buttons.
GAP = 2.0
#: The room kept all round the drawing (px): an open end's mark at the edge (1.6 units
#: across, centred on the end) stays in the box. An end button, needed only for a tile that
#: fits four places or more, finds its room by moving the drawing while the tile waits.
MARGIN = 12.0

#: How much farther (px) a button would rather go than cover another open end's mark; and
#: than move the drawing in its box by a px while the tile waits.
MARK_COST = 24.0
SHIFT_COST = 2.0

Rect = tuple[float, float, float, float]  # left, top, width, height (px)


def max_unit(width: float) -> float:
    """The largest drawing unit for a box ``width`` wide: about 16 px on a phone, up to 28 px
    on a desktop -- big enough to read, never a poster."""
    return max(14.0, min(28.0, width / 24))


def box_unit(width: float) -> float:
    """The unit (px) a drawing is laid out for in a box ``width`` px wide: :data:`MIN_UNIT` on a
    phone, more on a laptop, whose drawing is read across the table (14 px from 780 px wide:
    its arms turn sooner, its tiles are half as large again)."""
    return max(MIN_UNIT, min(BIG_UNIT, width / 56))


def drawing_box(width: float, height: float) -> Box:
    """The box (width, height in units) a drawing must fit to be drawn at :func:`box_unit` or
    more in ``width`` x ``height`` px, inside the margin."""
    unit = box_unit(width)
    return (max(8, int((width - 2 * MARGIN) // unit)), max(6, int((height - 2 * MARGIN) // unit)))


def unit_for(d: Drawing, width: float, height: float) -> float:
    """The unit (px) ``d`` is drawn at in ``width`` x ``height`` px: :func:`max_unit` while that
    fits, then the largest of the steps that fits (see :func:`unit_steps`); under :func:`box_unit`
    only for a drawing that could not be laid out in its box (``d.fits`` false): as large as
    fits, never under 4.

    The tiles change size only at a step (a few times a hand), not with every tile that makes
    the drawing longer: less moves on the table at each entry, and a tile the same size as
    before is not drawn again (a redraw is then one tile, not every tile of the layout).

    >>> from types import SimpleNamespace as Size  # a drawing's size in units
    >>> [round(unit_for(Size(width=w, height=5), 380, 209), 2) for w in (8, 20, 21, 25, 31, 40)]
    [15.83, 15.83, 15.83, 12.67, 11.0, 8.9]
    """
    fits = min((width - 2 * MARGIN) / d.width, (height - 2 * MARGIN) / d.height)
    steps = unit_steps(width)
    if fits < steps[-1]:
        return max(4.0, fits)
    return next(u for u in steps if u <= fits)


#: How much smaller each step of the drawing's unit is than the one before (see :func:`unit_steps`).
STEP = 0.8


@lru_cache(maxsize=64)
def unit_steps(width: float) -> tuple[float, ...]:
    """The units a drawing in a box ``width`` px wide is drawn at, largest first: :func:`max_unit`,
    each next a fifth smaller, the last :func:`box_unit` (the unit it is laid out for; a step
    only a little larger than that is left out).

    >>> [[round(u, 2) for u in unit_steps(w)] for w in (336, 380, 784)]
    [[14.0, 11.0], [15.83, 12.67, 11.0], [28.0, 22.4, 17.92, 14.0]]
    """
    top, least = max_unit(width), box_unit(width)
    steps = [top]
    while steps[-1] * STEP > least:
        steps.append(steps[-1] * STEP)
    if len(steps) > 1 and steps[-1] * STEP**0.5 < least:
        steps.pop()
    if steps[-1] > least:
        steps.append(least)
    return tuple(steps)


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


@dataclass(frozen=True, slots=True)
class Buttons:
    """The end buttons' places, and the unit and top-left corner (px) of the drawing while
    they show (as :func:`unit_for` and :func:`origin` say, but where the box had no clear
    place for a button)."""

    unit: float
    origin: tuple[float, float]
    spots: list[Spot]


def end_buttons(
    d: Drawing,
    unit: float,
    width: float,
    height: float,
    ends: list[tuple[EndMark, tuple[float, float]]],
) -> Buttons:
    """Where each end button goes: ``ends`` are the open ends to choose between and the size
    of each one's button; ``d`` is drawn at ``unit`` in the middle of ``width`` x ``height``
    px. Each button goes just beyond its open end (past the tile it names, the way its arm
    grows), else at the clear place nearest there (one covering another open end's mark
    counting as :data:`MARK_COST` px farther): in the box, on no tile and no other button.
    The drawing may move in its box (up to its margin: a button then has room beside it) where
    that brings the buttons nearer their ends (each px it moves counting as :data:`SHIFT_COST`
    px farther) or the box has no place for one; else it is drawn smaller, till every button
    has one."""
    at = origin(d, unit, width, height)
    slack = ((width - d.width * unit) / 2, (height - d.height * unit) / 2)  # the drawing's margin
    tries = [(unit, at)]
    for axis in (1, 0):  # moved down or up, then right or left
        for shift in sorted({min(16.0, slack[axis]), slack[axis]}):
            for sign in (1, -1):
                moved = list(at)
                moved[axis] += sign * shift
                tries.append((unit, (moved[0], moved[1])))
    room = 2 * (END_BUTTON + GAP)  # drawn this small, it leaves a button's room all round
    least = max(1.0, min((width - room) / d.width, (height - room) / d.height))
    smaller = unit * 0.9
    while smaller > least:
        tries.append((smaller, origin(d, smaller, width, height)))
        smaller *= 0.9
    tries.append((least, origin(d, least, width, height)))
    best: tuple[float, Buttons] | None = None
    for u, o in tries:
        if u < unit and best is not None:
            break  # (drawn smaller only where moving it found no places)
        moved_by = SHIFT_COST * (abs(o[0] - at[0]) + abs(o[1] - at[1]))
        if best is not None and moved_by >= best[0]:
            continue
        found = _spots(d, u, o, width, height, ends)
        if found is not None:  # how far the buttons are from their ends, and the drawing moved
            cost = found[1] + moved_by
            if best is None or cost < best[0]:
                best = (cost, Buttons(u, o, found[0]))
            if cost == 0 or u < unit:
                break
    if best is not None:
        return best[1]
    # (not reached: drawn that small, the box has room for a row of buttons above and below it)
    return Buttons(least, tries[-1][1], [Spot(*just_beyond(m, size, least, tries[-1][1])) for m, size in ends])


def _spots(
    d: Drawing,
    unit: float,
    at: tuple[float, float],
    width: float,
    height: float,
    ends: list[tuple[EndMark, tuple[float, float]]],
) -> tuple[list[Spot], float] | None:
    """The buttons' places with the drawing at ``unit`` from ``at`` and how far (px) they are
    from their ends in all (plus :data:`MARK_COST` for each on another end's mark), or None
    where one of them has no clear place in the box."""
    ox, oy = at
    tiles = [
        (ox + g.x * unit - GAP, oy + g.y * unit - GAP, g.w * unit + 2 * GAP, g.h * unit + 2 * GAP) for g in d.tiles
    ]
    r = 0.8 * unit  # an open end's mark: a disc 1.6 units wide
    marks = [(ox + m.x * unit - r, oy + m.y * unit - r, 2 * r, 2 * r) for m in d.ends]

    def inside(rect: Rect) -> bool:
        return rect[0] >= 0 and rect[1] >= 0 and rect[0] + rect[2] <= width and rect[1] + rect[3] <= height

    ideal = [just_beyond(m, size, unit, at) for m, size in ends]
    own = [(ox + m.x * unit - r, oy + m.y * unit - r, 2 * r, 2 * r) for m, _ in ends]
    spots: list[Spot | None] = [None] * len(ends)
    total = 0.0
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
        for dx, dy in _around(int(4 * END_BUTTON), 4):
            cost = math.hypot(dx, dy)
            if best is not None and cost >= best[0]:
                break
            rect = (x + dx, y + dy, bw, bh)
            if not inside(rect) or _hits(rect, avoid):
                continue
            cost += MARK_COST if _hits(rect, others) else 0
            if best is None or cost < best[0]:
                best = (cost, rect)
        if best is None:  # nowhere near: the clear place in the box nearest it
            far = [
                (left, top, bw, bh)
                for left in range(0, int(width - bw) + 1, 6)
                for top in range(0, int(height - bh) + 1, 6)
            ]
            far.sort(key=lambda f: math.hypot(f[0] - x, f[1] - y))
            best = next(((math.hypot(f[0] - x, f[1] - y), f) for f in far if not _hits(f, avoid)), None)
        if best is None:
            return None
        spots[k] = Spot(*best[1])
        total += best[0]
    return [s for s in spots if s is not None], total


def _grown(s: Spot) -> Rect:
    return (s.left - GAP, s.top - GAP, s.width + 2 * GAP, s.height + 2 * GAP)
