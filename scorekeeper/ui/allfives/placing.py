"""Where each tile of a drawing may go, and the search that picks one way per tile.

Pure geometry for :mod:`scorekeeper.ui.allfives.drawing` (see its docstring): the
ways to draw a tile set on an attachment point (straight on, or turning at the
edge of its reach; with ``corners``, also straight on with the arm turning at the
side of its far half), and a depth-first search with conflict-directed backjumping
that draws the tiles in the order they were set, no tile over another or over an
open end's mark -- and, given a box, none making the drawing wider or higher than
the box.

Units: a half tile is 2 units square; every rectangle has integer corners, and a
cell ``(x, y)`` is the unit square whose top-left corner is ``(x, y)``.
"""

from __future__ import annotations

from typing import NamedTuple

from scorekeeper.allfives.layout import LINE, SNIFF_ACROSS, SNIFF_INLINE, SPINNER, Node

#: The kinds of tile that take four ways (sides, then ends or flanks).
FOUR_WAYS = (SPINNER, SNIFF_ACROSS, SNIFF_INLINE)

Vec = tuple[int, int]
Cell = tuple[int, int]
#: An attachment point: cursor, direction the arm grows, a spinner's end?, pips.
Slot = tuple[Vec, Vec, bool, int]
#: How far (units) arms run from the lead before they turn: left and right, up and down.
Reach = tuple[int, int]
#: The largest drawing (width, height in units) a search may make.
Box = tuple[int, int]


def _cw(d: Vec) -> Vec:
    return (-d[1], d[0])


def _ccw(d: Vec) -> Vec:
    return (d[1], -d[0])


class Option(NamedTuple):
    """One way to draw a tile: its box, the pips of its first and second half, and the
    attachment points it offers (in the order its children take them)."""

    box: tuple[int, int, int, int]
    first: int
    second: int
    points: list[Slot]


def options(node: Node, slot: Slot, reach: Reach, corners: bool = False) -> list[Option]:
    """The ways to draw ``node`` set on ``slot``, the preferred first: straight on (turning
    clockwise, else the other way, once the arm would run past its ``reach``), for a double
    crosswise.  With ``corners`` a tile in line has two ways more, tried last: straight on,
    its arm turning at the side of its far half (clockwise, else the other way), so that the
    next tile is set against that side -- a corner, as players turn an arm too.  The arm then
    runs a half further before it turns than where the tile turns itself: what a tile set at
    the side of an arm (a spinner's end) may need to clear the marks of its neighbours.

    A ``[6-3]`` set on the right side of a ``6-6`` spinner (the cursor at x = 1): straight
    on, turning down, turning up; then the corners, the next tile below or above its 3.

    >>> from scorekeeper.allfives.layout import Layout
    >>> from scorekeeper.dominoes.tiles import Tile
    >>> lay = Layout("first-double")
    >>> _ = lay.lead(Tile(6, 6)); _ = lay.place(Tile(6, 3), Tile(6, 6))
    >>> for o in options(list(lay)[1], ((1, 0), (1, 0), False, 6), (14, 18), corners=True):
    ...     print(o.box, o.points[0][:2])
    (1, -1, 5, 1) ((5, 0), (1, 0))
    (1, -1, 3, 3) ((2, 3), (0, 1))
    (1, -3, 3, 1) ((2, -3), (0, -1))
    (1, -1, 5, 1) ((4, 1), (0, 1))
    (1, -1, 5, 1) ((4, -1), (0, -1))
    """
    cursor, d, _, matched = slot
    t = node.tile
    if node.kind == LINE:
        far = t.lo if t.hi == matched else t.hi
        straight = Option(
            _box(cursor, d, 0, 4, _cw(d), -1, 1),
            *_halves(matched, far, d),
            [((cursor[0] + 4 * d[0], cursor[1] + 4 * d[1]), d, False, far)],
        )
        turns = [
            Option(
                _box(cursor, d, 0, 2, d2, -1, 3),
                *_halves(matched, far, d2),
                [((cursor[0] + d[0] + 3 * d2[0], cursor[1] + d[1] + 3 * d2[1]), d2, False, far)],
            )
            for d2 in (_cw(d), _ccw(d))
        ]
        ways = turns + [straight] if _beyond(cursor, d, 4, reach) else [straight] + turns
        if corners:  # the next tile against the side of the far half (its centre 3 along)
            ways += [
                Option(
                    straight.box,
                    straight.first,
                    straight.second,
                    [((cursor[0] + 3 * d[0] + d2[0], cursor[1] + 3 * d[1] + d2[1]), d2, False, far)],
                )
                for d2 in (_cw(d), _ccw(d))
            ]
        return ways
    if node.kind == SNIFF_INLINE:  # lengthwise, straight on; its flanks from its middle
        centre = (cursor[0] + 2 * d[0], cursor[1] + 2 * d[1])
        points = [((cursor[0] + 4 * d[0], cursor[1] + 4 * d[1]), d, False, t.hi)]
        for p in (_ccw(d), _cw(d)):
            points.append(((centre[0] + p[0], centre[1] + p[1]), p, True, t.hi))
        return [Option(_box(cursor, d, 0, 4, _cw(d), -1, 1), t.hi, t.hi, points)]
    centre = (cursor[0] + d[0], cursor[1] + d[1])
    points = [((cursor[0] + 2 * d[0], cursor[1] + 2 * d[1]), d, False, t.hi)]
    if node.kind in FOUR_WAYS:
        for p in (_ccw(d), _cw(d)):
            points.append(((centre[0] + 2 * p[0], centre[1] + 2 * p[1]), p, True, t.hi))
    return [Option(_box(cursor, d, 0, 2, _cw(d), -2, 2), t.hi, t.hi, points)]


def root_option(node: Node) -> Option:
    """How the lead is drawn: in the middle, a double crosswise."""
    t = node.tile
    if node.kind == LINE:  # its high half left, its low half right
        return Option((-2, -1, 2, 1), t.hi, t.lo, [((-2, 0), (-1, 0), False, t.hi), ((2, 0), (1, 0), False, t.lo)])
    if node.kind == SNIFF_INLINE:  # lengthwise: its in-line ends right and left, its flanks up and down
        points: list[Slot] = [((2, 0), (1, 0), False, t.hi), ((-2, 0), (-1, 0), False, t.hi)]
        points += [((0, -1), (0, -1), True, t.hi), ((0, 1), (0, 1), True, t.hi)]
        return Option((-2, -1, 2, 1), t.hi, t.hi, points)
    points = [((1, 0), (1, 0), False, t.hi), ((-1, 0), (-1, 0), False, t.hi)]
    if node.kind in FOUR_WAYS:
        points += [((0, -2), (0, -1), True, t.hi), ((0, 2), (0, 1), True, t.hi)]
    return Option((-1, -2, 1, 2), t.hi, t.hi, points)


def cells(box: tuple[int, int, int, int]) -> list[Cell]:
    x0, y0, x1, y1 = box
    return [(i, j) for i in range(x0, x1) for j in range(y0, y1)]


def _box(cursor: Vec, along: Vec, a0: int, a1: int, across: Vec, c0: int, c1: int) -> tuple[int, int, int, int]:
    """The rectangle spanning ``a0..a1`` along ``along`` and ``c0..c1`` across, from ``cursor``."""
    xs = [cursor[0] + along[0] * a + across[0] * c for a in (a0, a1) for c in (c0, c1)]
    ys = [cursor[1] + along[1] * a + across[1] * c for a in (a0, a1) for c in (c0, c1)]
    return (min(xs), min(ys), max(xs), max(ys))


def _halves(near: int, far: int, axis: Vec) -> tuple[int, int]:
    """First (left/top) and second half of a tile whose near half is nearer the cursor."""
    return (near, far) if axis[0] + axis[1] > 0 else (far, near)


def _beyond(cursor: Vec, d: Vec, length: int, reach: Reach) -> bool:
    far = reach[0] if d[0] else reach[1]
    ahead = cursor[0] * d[0] + cursor[1] * d[1]
    return abs(ahead + length) > far and ahead >= 0


class _Way(NamedTuple):
    """An option with the cells it takes (its box and its open ends' marks) and their extent."""

    option: Option
    cells: list[Cell]
    extent: tuple[int, int, int, int]  # the first and last column, the first and last row


def _door(slot: Slot) -> list[Cell]:
    """The 2 x 2 cells just beyond an attachment point: its open end's mark, or the first
    cells of the tile set on it (every way to draw a tile covers them)."""
    (x, y), (dx, dy), _, _ = slot
    mx, my = x + dx, y + dy
    return [(mx - 1, my - 1), (mx, my - 1), (mx - 1, my), (mx, my)]


def _way(o: Option, marked: list[tuple[int, int]], doors: bool, on: Slot | None) -> _Way:
    """``o`` with the cells it takes: its box and the marks of its open ends (``marked``) --
    or with ``doors``, the doors of all its attachment points, open or not, but the door it
    fills (of the point ``on``, kept by the tile it is set on)."""
    x0, y0, x1, y1 = o.box
    taken = cells(o.box)
    for k in range(len(o.points)) if doors else [k for k, _ in marked]:
        door = _door(o.points[k])
        taken += door
        (mx0, my0), (mx1, my1) = door[0], door[3]
        x0, y0, x1, y1 = min(x0, mx0), min(y0, my0), max(x1, mx1 + 1), max(y1, my1 + 1)
    if doors and on is not None:
        filled = set(_door(on))
        taken = [c for c in taken if c not in filled]
    return _Way(o, taken, (x0, y0, x1 - 1, y1 - 1))


def place(
    nodes: list[Node],
    slot_of: list[int],
    parent_of: list[int],
    marked: list[list[tuple[int, int]]],
    budget: int,
    reach: Reach,
    box: Box | None = None,
    doors: bool = False,
    corners: bool = False,
) -> tuple[list[Option], int] | None:
    """Choose an option for every node, in the order the tiles were set, so that no two
    tiles overlap, no tile covers an open end's mark and (given a ``box``) the drawing is no
    wider or higher than ``box``: a depth-first search that takes the preferred option
    wherever it can.  When a tile fits nowhere it goes back to the latest tile in its way (or
    the one it hangs on, or one at the far side of the box) and tries that one's next option
    (conflict-directed backjumping), so a drawing grows without moving tiles that need not
    move.  Past ``budget`` tries: None given a box; else the preferred free option of each
    tile, else the preferred one, and the count of tiles that overlap another or an open
    end's mark.  ``corners``: the tiles in line may also turn their arm at a corner (see
    :func:`options`)."""
    n = len(nodes)
    memo: dict[tuple[int, Slot], list[_Way]] = {}

    def ways(i: int, slot: Slot) -> list[_Way]:
        found = memo.get((i, slot))
        if found is None:
            found = memo[(i, slot)] = [_way(o, marked[i], doors, slot) for o in options(nodes[i], slot, reach, corners)]
        return found

    root = _way(root_option(nodes[0]), marked[0], doors, None)
    chosen: list[_Way | None] = [root] + [None] * (n - 1)
    owner = dict.fromkeys(root.cells, 0)  # cell -> the tile covering it or marking an open end on it
    todo: list[list[_Way] | None] = [None] * n
    conflicts: list[set[int]] = [set() for _ in range(n)]
    tried = [0] * n
    span = list(root.extent)  # the drawing's first and last column and row so far (or wider: stale)
    stale = False
    i, tries = 1, 0
    while 0 < i < n and tries < budget:
        opts = todo[i]
        if opts is None:
            parent = chosen[parent_of[i]]  # set before: a tile hangs on an earlier one
            assert parent is not None
            opts = todo[i] = ways(i, parent.option.points[slot_of[i]])
            tried[i] = 0
            conflicts[i] = {parent_of[i]}
        placed = False
        while tried[i] < len(opts):
            w = opts[tried[i]]
            tried[i] += 1
            tries += 1
            blockers = {owner[c] for c in w.cells if c in owner}
            if blockers:
                conflicts[i] |= blockers
                continue
            e = w.extent
            if e[0] < span[0] or e[1] < span[1] or e[2] > span[2] or e[3] > span[3]:
                if stale:  # (a span that tiles since taken back made wider still holds the drawing)
                    span[:] = _span(chosen)
                    stale = False
                far = None if box is None else _too_far(e, span, box, chosen)
                if far is not None:
                    conflicts[i] |= far
                    continue
                span[:] = [min(span[0], e[0]), min(span[1], e[1]), max(span[2], e[2]), max(span[3], e[3])]
            owner.update(dict.fromkeys(w.cells, i))
            chosen[i] = w
            placed = True
            break
        if placed:
            i += 1
            continue
        # no way for tile i: jump back to the latest tile in its way, undoing those after it
        back = max(conflicts[i])
        conflicts[back] |= conflicts[i] - {back}
        for j in range(i, back - 1, -1):
            todo[j] = todo[j] if j == back else None
            cj = chosen[j]
            if cj is not None and j != i and j > 0:
                for c in cj.cells:
                    del owner[c]
                chosen[j] = None
        stale = True
        i = back
    if i == n:
        return [w.option for w in chosen if w is not None], 0
    if box is not None:
        return None
    # no clear drawing found in time: the preferred option clear of everything, else the
    # preferred one clear of the tiles, else the preferred one
    drawn_ways = [root]
    tiles = set(cells(root.option.box))
    taken = set(root.cells)
    overlaps = 0
    for i in range(1, n):
        opts = ways(i, drawn_ways[parent_of[i]].option.points[slot_of[i]])
        clear = [w for w in opts if taken.isdisjoint(w.cells)]
        apart = [w for w in opts if tiles.isdisjoint(cells(w.option.box))]
        w = (clear or apart or opts)[0]
        overlaps += not clear  # over another tile, or over an open end's mark
        tiles.update(cells(w.option.box))
        taken.update(w.cells)
        drawn_ways.append(w)
    return [w.option for w in drawn_ways], overlaps


def _span(chosen: list[_Way | None]) -> list[int]:
    """The first and last column and row of the cells the tiles drawn take."""
    drawn = [w.extent for w in chosen if w is not None]
    return [min(e[0] for e in drawn), min(e[1] for e in drawn), max(e[2] for e in drawn), max(e[3] for e in drawn)]


def _too_far(e: tuple[int, int, int, int], span: list[int], box: Box, chosen: list[_Way | None]) -> set[int] | None:
    """The tiles drawn that a tile taking the cells of extent ``e`` would leave outside any
    ``box`` around it (None: the drawing, ``span`` so far, still fits)."""
    far: set[int] | None = None
    for axis in (0, 1):
        if max(e[axis + 2], span[axis + 2]) - min(e[axis], span[axis]) < box[axis]:
            continue
        lo, hi = e[axis + 2] - box[axis], e[axis] + box[axis]
        far = (far or set()) | {
            j for j, w in enumerate(chosen) if w is not None and (w.extent[axis] <= lo or w.extent[axis + 2] >= hi)
        }
    return far
