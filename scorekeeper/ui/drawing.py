"""Where each tile of a layout is drawn: a pure geometry, no Flet.

The lead sits in the middle. A double is set crosswise; a spinner sends its
two sides left and right along the line and its two ends up and down. Each
arm runs straight until it would leave the drawing's box, then turns
clockwise (a pinwheel, so the four arms keep out of each other's way); a
turn that would cover a tile already drawn turns the other way instead.

Units: a half tile is 2 units square, so a tile is 4 x 2 and a crosswise
double 2 x 4; every rectangle has integer corners.

>>> from scorekeeper.allfives.layout import Layout
>>> from scorekeeper.allfives.tiles import Tile
>>> lay = Layout("first-double")
>>> _ = lay.lead(Tile(3, 2)); _ = lay.place(Tile(2, 2), Tile(3, 2))
>>> d = draw_layout(lay)
>>> [(str(g.tile), g.x, g.y, g.w, g.h, g.first, g.second) for g in d.tiles]
[('3-2', 2, 1, 4, 2, 3, 2), ('2-2', 6, 0, 2, 4, 2, 2)]
>>> [(m.value, m.counts) for m in d.ends]
[(3, 3), (2, 4)]
>>> d.terms
[('3', 3), ('2-2', 4)]
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.allfives.layout import LINE, SPINNER, Layout, Node
from scorekeeper.allfives.tiles import Tile

#: How far (in units) an arm may run from the middle before it turns.
REACH_X = 14
REACH_Y = 18


@dataclass(frozen=True, slots=True)
class TileGlyph:
    """One tile as drawn: its box (top-left x, y, width, height in units) and
    the pips of its first (left or top) and second half."""

    tile: Tile
    x: int
    y: int
    w: int
    h: int
    first: int
    second: int
    spinner: bool
    order: int  # 1 for the lead, then in the order set


@dataclass(frozen=True, slots=True)
class EndMark:
    """An open attachment point: where it is (centre, in units), its pips, and
    what it adds to the count (a double's open side adds the whole double once;
    a spinner's bare end adds nothing)."""

    tile: Tile
    x: float
    y: float
    value: int
    counts: int


@dataclass(frozen=True, slots=True)
class Drawing:
    tiles: list[TileGlyph]
    ends: list[EndMark]
    width: int
    height: int
    count: int
    terms: list[tuple[str, int]]  # the count as a sum: ("5", 5), ("5-5", 10) ...
    overlaps: int  # tiles that could not be kept clear of others (rare Five Up tangles)


def _cw(d):
    return (-d[1], d[0])


def _ccw(d):
    return (d[1], -d[0])


class _Pen:
    def __init__(self) -> None:
        self.boxes: list[tuple[Node, int, int, int, int, int, int]] = []  # node, x0, y0, x1, y1, first, second
        self.cells: set[tuple[int, int]] = set()
        # free attachment points per tile: (cursor, direction, is a spinner's end, pips)
        self.slots: dict[Tile, list[tuple[tuple[int, int], tuple[int, int], bool, int]]] = {}
        self.overlaps = 0

    def free(self, x0, y0, x1, y1) -> bool:
        return all((i, j) not in self.cells for i in range(x0, x1) for j in range(y0, y1))

    def put(self, node: Node, box, first: int, second: int) -> None:
        x0, y0, x1, y1 = box
        if not self.free(x0, y0, x1, y1):
            self.overlaps += 1
        for i in range(x0, x1):
            for j in range(y0, y1):
                self.cells.add((i, j))
        self.boxes.append((node, x0, y0, x1, y1, first, second))


def _box(cursor, along, a0, a1, across, c0, c1):
    """The rectangle spanning ``a0..a1`` along ``along`` and ``c0..c1`` across, from ``cursor``."""
    xs = [cursor[0] + along[0] * a + across[0] * c for a in (a0, a1) for c in (c0, c1)]
    ys = [cursor[1] + along[1] * a + across[1] * c for a in (a0, a1) for c in (c0, c1)]
    return (min(xs), min(ys), max(xs), max(ys))


def _halves(near: int, far: int, axis) -> tuple[int, int]:
    """First (left/top) and second half of a tile whose near half is nearer the cursor."""
    return (near, far) if axis[0] + axis[1] > 0 else (far, near)


def _beyond(cursor, d, length) -> bool:
    reach = REACH_X if d[0] else REACH_Y
    return abs(cursor[0] * d[0] + cursor[1] * d[1] + length) > reach and (cursor[0] * d[0] + cursor[1] * d[1]) >= 0


def draw_layout(layout: Layout) -> Drawing:
    """Place every tile of ``layout``; see the module docstring."""
    pen = _Pen()
    root = layout.root
    if root is None:
        return Drawing([], [], 0, 0, 0, [], 0)
    children: dict[Tile, list[Node]] = {}
    for n in layout:
        if n.parent is not None:
            children.setdefault(n.parent.tile, []).append(n)

    t = root.tile
    if root.kind == LINE:
        pen.put(root, (-2, -1, 2, 1), t.hi, t.lo)
        slots = {t.hi: [((-2, 0), (-1, 0), False, t.hi)], t.lo: [((2, 0), (1, 0), False, t.lo)]}
        for child in children.get(t, []):
            v = t.hi if t.hi in child.tile else t.lo
            cur, d, _, _ = slots[v].pop()
            _grow(pen, child, cur, d, v, children)
        pen.slots[t] = [s for v in (t.hi, t.lo) for s in slots[v]]
    else:
        pen.put(root, (-1, -2, 1, 2), t.hi, t.hi)
        points = [((1, 0), (1, 0), False, t.hi), ((-1, 0), (-1, 0), False, t.hi)]
        if root.kind == SPINNER:
            points += [((0, -2), (0, -1), True, t.hi), ((0, 2), (0, 1), True, t.hi)]
        kids = children.get(t, [])
        for child, (cur, d, _, _) in zip(kids, points):
            _grow(pen, child, cur, d, t.hi, children)
        pen.slots[t] = points[len(kids) :]
    return _finish(pen, layout)


def _grow(pen: _Pen, node: Node, cursor, d, matched: int, children) -> None:
    """Draw ``node`` set at ``cursor`` heading ``d`` (``matched``: the pips it matched), then its children."""
    t = node.tile
    kids = children.get(t, [])
    if node.kind == LINE:
        far = t.lo if t.hi == matched else t.hi
        straight = _box(cursor, d, 0, 4, _cw(d), -1, 1)
        turn = None
        if _beyond(cursor, d, 4) or not pen.free(*straight):
            for d2 in (_cw(d), _ccw(d)):
                b = _box(cursor, d, 0, 2, d2, -1, 3)
                if pen.free(*b):
                    turn = (d2, b)
                    break
            if turn is None and not pen.free(*straight):
                turn = (_cw(d), _box(cursor, d, 0, 2, _cw(d), -1, 3))
        if turn is not None:
            d2, box = turn
            pen.put(node, box, *_halves(matched, far, d2))
            nxt = (cursor[0] + d[0] + 3 * d2[0], cursor[1] + d[1] + 3 * d2[1])
            d = d2
        else:
            pen.put(node, straight, *_halves(matched, far, d))
            nxt = (cursor[0] + 4 * d[0], cursor[1] + 4 * d[1])
        points = [(nxt, d, False, far)]
        value = far
    else:
        pen.put(node, _box(cursor, d, 0, 2, _cw(d), -2, 2), t.hi, t.hi)
        centre = (cursor[0] + d[0], cursor[1] + d[1])
        points = [((cursor[0] + 2 * d[0], cursor[1] + 2 * d[1]), d, False, t.hi)]
        if node.kind == SPINNER:
            for p in (_ccw(d), _cw(d)):
                points.append(((centre[0] + 2 * p[0], centre[1] + 2 * p[1]), p, True, t.hi))
        value = t.hi
    for child, (cur, dd, _, _) in zip(kids, points):
        _grow(pen, child, cur, dd, value, children)
    pen.slots[t] = points[len(kids) :]


def _finish(pen: _Pen, layout: Layout) -> Drawing:
    boxes = pen.boxes
    # the open points, marked just beyond each free slot
    marks = []
    for node in layout.open.values():
        t = node.tile
        slots = pen.slots.get(t, [])
        if node.kind == LINE:
            chosen = [(s, s[3]) for s in slots]
        else:
            sides = [s for s in slots if not s[2]][: node.sides]
            ends = [s for s in slots if s[2]][: node.ends] if not node.sides else []
            chosen = [(s, t.pips if i == 0 else 0) for i, s in enumerate(sides)] + [(s, 0) for s in ends]
        for (cur, d, _, v), counts in chosen:
            marks.append((t, cur[0] + d[0], cur[1] + d[1], v, counts))
    xs = [b[1] for b in boxes] + [m[1] - 1 for m in marks]
    ys = [b[2] for b in boxes] + [m[2] - 1 for m in marks]
    x1s = [b[3] for b in boxes] + [m[1] + 1 for m in marks]
    y1s = [b[4] for b in boxes] + [m[2] + 1 for m in marks]
    ox, oy = min(xs), min(ys)
    order = {n.tile: i for i, n in enumerate(layout, 1)}
    glyphs = sorted(
        (
            TileGlyph(n.tile, x0 - ox, y0 - oy, x1 - x0, y1 - y0, f, s, n.kind == SPINNER, order[n.tile])
            for n, x0, y0, x1, y1, f, s in boxes
        ),
        key=lambda g: g.order,
    )
    ends = [EndMark(t, x - ox, y - oy, v, c) for t, x, y, v, c in marks]
    terms = [(str(m.tile) if m.tile.is_double else str(m.value), m.counts) for m in ends if m.counts or not m.tile.is_double]
    return Drawing(glyphs, ends, max(x1s) - ox, max(y1s) - oy, layout.count, terms, pen.overlaps)


__all__ = ["Drawing", "EndMark", "TileGlyph", "draw_layout"]
