"""Where each tile of a layout is drawn: a pure geometry, no Flet.

The lead sits in the middle. A double is set crosswise; a spinner sends its
two sides left and right along the line and its two ends up and down. The
sniff set across is drawn as a spinner; set in line it lies lengthwise (both
halves showing its pips) and its two flanks go out from its middle, up and
down when its line runs left and right. Each arm runs straight until it
would leave the drawing's box, then turns clockwise (a pinwheel, so the four
arms keep out of each other's way); a turn that would cover a tile already
drawn turns the other way instead.

Tiles are drawn in the order they were set, and no tile may cover another or
the mark of an open end (where the next tile would go). When a tile finds no
clear way, the drawing goes back to the latest tile in its way and draws that
one differently (a turn instead of straight on, ...): a search with
conflict-directed backjumping, which keeps every tile that need not move
where it was.  ``benchmarks/drawing.py`` measures it against drawing tile by
tile without going back.  A search that runs past :data:`BUDGET` tries
settles for the tile-by-tile drawing; its overlaps are counted in
``Drawing.overlaps``.

Units: a half tile is 2 units square, so a tile is 4 x 2 and a crosswise
double 2 x 4; every rectangle has integer corners.

>>> from scorekeeper.allfives.layout import Layout
>>> from scorekeeper.dominoes.tiles import Tile
>>> lay = Layout("first-double")
>>> _ = lay.lead(Tile(3, 2)); _ = lay.place(Tile(2, 2), Tile(3, 2))
>>> d = draw_layout(lay)
>>> [(str(g.tile), g.x, g.y, g.w, g.h, g.first, g.second) for g in d.tiles]
[('3-2', 2, 1, 4, 2, 3, 2), ('2-2', 6, 0, 2, 4, 2, 2)]
>>> [(m.value, m.counts) for m in d.ends]
[(3, 3), (2, 4)]
>>> d.terms
[('3', 3), ('2-2', 4)]

The sniff set in line on a ``[1-4]``, with a ``[4-5]`` on its far end: its flanks
are open (marked above and below its middle) and count nothing.

>>> lay = Layout("sniff")
>>> _ = lay.lead(Tile(1, 4)); _ = lay.place(Tile(4, 4), Tile(1, 4), sniff="inline")
>>> _ = lay.place(Tile(5, 4), Tile(4, 4))
>>> d = draw_layout(lay)
>>> [(str(g.tile), g.x, g.y, g.w, g.h, g.sniff) for g in d.tiles]
[('4-1', 10, 2, 4, 2, None), ('4-4', 6, 2, 4, 2, 'inline'), ('5-4', 2, 2, 4, 2, None)]
>>> [(m.x, m.y, m.value, m.counts) for m in d.ends if m.tile == Tile(4, 4)]
[(8, 5, 4, 0), (8, 1, 4, 0)]
>>> d.terms, d.count
([('1', 1), ('5', 5)], 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from scorekeeper.allfives.layout import LINE, SNIFF_ACROSS, SNIFF_INLINE, SPINNER, Layout, Node
from scorekeeper.dominoes.tiles import Tile

#: The kinds of tile that take four ways (sides, then ends or flanks).
FOUR_WAYS = (SPINNER, SNIFF_ACROSS, SNIFF_INLINE)

#: How far (in units) an arm may run from the middle before it turns.
REACH_X = 14
REACH_Y = 18


@dataclass(frozen=True, slots=True)
class TileGlyph:
    """One tile as drawn: its box (top-left x, y, width, height in units) and
    the pips of its first (left or top) and second half; ``spinner`` for the
    tile that takes four ways (a spinner or the sniff), ``sniff`` for the sniff:
    how it was set, "across" (drawn crosswise) or "inline" (lengthwise)."""

    tile: Tile
    x: int
    y: int
    w: int
    h: int
    first: int
    second: int
    spinner: bool
    order: int  # 1 for the lead, then in the order set
    sniff: str | None = None


@dataclass(frozen=True, slots=True)
class EndMark:
    """An open attachment point: where it is (centre, in units), its pips, and
    what it adds to the count (a double's open side adds the whole double once;
    a spinner's bare end adds nothing; the sniff's open end adds its half once
    both sides are covered when set across, always when set in line; its bare
    flank adds nothing)."""

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
    overlaps: int  # tiles drawn over another (0 unless the search ran out of tries)


def _cw(d):
    return (-d[1], d[0])


def _ccw(d):
    return (d[1], -d[0])


Slot = tuple[tuple[int, int], tuple[int, int], bool, int]  # cursor, direction, a spinner's end?, pips


class _Option(NamedTuple):
    """One way to draw a tile: its box, the pips of its first and second half, and the
    attachment points it offers (in the order its children take them)."""

    box: tuple[int, int, int, int]
    first: int
    second: int
    points: list[Slot]


def _options(node: Node, slot: Slot) -> list[_Option]:
    """The ways to draw ``node`` set on ``slot``, the preferred first: straight on (turning
    clockwise, else the other way, once the arm would leave the box), for a double crosswise."""
    cursor, d, _, matched = slot
    t = node.tile
    if node.kind == LINE:
        far = t.lo if t.hi == matched else t.hi
        straight = _Option(
            _box(cursor, d, 0, 4, _cw(d), -1, 1),
            *_halves(matched, far, d),
            [((cursor[0] + 4 * d[0], cursor[1] + 4 * d[1]), d, False, far)],
        )
        turns = [
            _Option(
                _box(cursor, d, 0, 2, d2, -1, 3),
                *_halves(matched, far, d2),
                [((cursor[0] + d[0] + 3 * d2[0], cursor[1] + d[1] + 3 * d2[1]), d2, False, far)],
            )
            for d2 in (_cw(d), _ccw(d))
        ]
        return turns + [straight] if _beyond(cursor, d, 4) else [straight] + turns
    if node.kind == SNIFF_INLINE:  # lengthwise, straight on; its flanks from its middle
        centre = (cursor[0] + 2 * d[0], cursor[1] + 2 * d[1])
        points = [((cursor[0] + 4 * d[0], cursor[1] + 4 * d[1]), d, False, t.hi)]
        for p in (_ccw(d), _cw(d)):
            points.append(((centre[0] + p[0], centre[1] + p[1]), p, True, t.hi))
        return [_Option(_box(cursor, d, 0, 4, _cw(d), -1, 1), t.hi, t.hi, points)]
    centre = (cursor[0] + d[0], cursor[1] + d[1])
    points = [((cursor[0] + 2 * d[0], cursor[1] + 2 * d[1]), d, False, t.hi)]
    if node.kind in FOUR_WAYS:
        for p in (_ccw(d), _cw(d)):
            points.append(((centre[0] + 2 * p[0], centre[1] + 2 * p[1]), p, True, t.hi))
    return [_Option(_box(cursor, d, 0, 2, _cw(d), -2, 2), t.hi, t.hi, points)]


def _cells(box) -> list[tuple[int, int]]:
    x0, y0, x1, y1 = box
    return [(i, j) for i in range(x0, x1) for j in range(y0, y1)]


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


def _root(node: Node) -> _Option:
    t = node.tile
    if node.kind == LINE:  # its high half left, its low half right
        return _Option((-2, -1, 2, 1), t.hi, t.lo, [((-2, 0), (-1, 0), False, t.hi), ((2, 0), (1, 0), False, t.lo)])
    if node.kind == SNIFF_INLINE:  # lengthwise: its in-line ends right and left, its flanks up and down
        points: list[Slot] = [((2, 0), (1, 0), False, t.hi), ((-2, 0), (-1, 0), False, t.hi)]
        points += [((0, -1), (0, -1), True, t.hi), ((0, 1), (0, 1), True, t.hi)]
        return _Option((-2, -1, 2, 1), t.hi, t.hi, points)
    points = [((1, 0), (1, 0), False, t.hi), ((-1, 0), (-1, 0), False, t.hi)]
    if node.kind in FOUR_WAYS:
        points += [((0, -2), (0, -1), True, t.hi), ((0, 2), (0, 1), True, t.hi)]
    return _Option((-1, -2, 1, 2), t.hi, t.hi, points)


def _mark_cells(slot: Slot) -> list[tuple[int, int]]:
    """The 2 x 2 cells an open end's mark covers, just beyond its slot."""
    (x, y), (dx, dy), _, _ = slot
    mx, my = x + dx, y + dy
    return [(mx - 1, my - 1), (mx, my - 1), (mx - 1, my), (mx, my)]


def _place(
    nodes: list[Node], slot_of: list[int], parent_of: list[int], marked: list[list[tuple[int, int]]], budget: int
) -> tuple[list[_Option], int]:
    """Choose an option for every node, in the order the tiles were set, so that no two
    tiles overlap and no tile covers an open end's mark: a depth-first search that takes the
    preferred option wherever it can.  When a tile fits nowhere it goes back to the latest
    tile in its way (or the one it hangs on) and tries that one's next option
    (conflict-directed backjumping), so a drawing grows without moving tiles that need not
    move.  Past ``budget`` tries it keeps the preferred free option of each tile, else the
    preferred one, and counts the tiles that overlap another."""
    n = len(nodes)
    root = _root(nodes[0])
    chosen: list[_Option | None] = [root] + [None] * (n - 1)
    owner: dict[tuple[int, int], int] = {}  # cell -> the tile covering it or marking an open end on it
    options: list[list[_Option] | None] = [None] * n
    conflicts: list[set[int]] = [set() for _ in range(n)]
    tried = [0] * n

    def cells_of(i: int, o: _Option) -> list[tuple[int, int]]:
        return _cells(o.box) + [c for k, _ in marked[i] for c in _mark_cells(o.points[k])]

    owner.update(dict.fromkeys(cells_of(0, root), 0))
    i, tries = 1, 0
    while 0 < i < n and tries < budget:
        opts = options[i]
        if opts is None:
            parent = chosen[parent_of[i]]  # set before: a tile hangs on an earlier one
            assert parent is not None
            opts = options[i] = _options(nodes[i], parent.points[slot_of[i]])
            tried[i] = 0
            conflicts[i] = {parent_of[i]}
        placed = False
        while tried[i] < len(opts):
            o = opts[tried[i]]
            tried[i] += 1
            tries += 1
            cells = cells_of(i, o)
            blockers = {owner[c] for c in cells if c in owner}
            if blockers:
                conflicts[i] |= blockers
                continue
            owner.update(dict.fromkeys(cells, i))
            chosen[i] = o
            placed = True
            break
        if placed:
            i += 1
            continue
        # no way for tile i: jump back to the latest tile in its way, undoing those after it
        back = max(conflicts[i])
        conflicts[back] |= conflicts[i] - {back}
        for j in range(i, back - 1, -1):
            options[j] = options[j] if j == back else None
            cj = chosen[j]
            if cj is not None and j != i and j > 0:
                for c in cells_of(j, cj):
                    owner.pop(c, None)
                chosen[j] = None
        i = back
    if i == n:
        return [o for o in chosen if o is not None], 0
    # no clear drawing found in time: the preferred option clear of everything, else the
    # preferred one clear of the tiles, else the preferred one
    drawn = [root]
    tiles = set(_cells(root.box))
    taken = tiles | set(cells_of(0, root))
    overlaps = 0
    for i in range(1, n):
        opts = _options(nodes[i], drawn[parent_of[i]].points[slot_of[i]])
        clear = [o for o in opts if taken.isdisjoint(cells_of(i, o))]
        apart = [o for o in opts if tiles.isdisjoint(_cells(o.box))]
        o = (clear or apart or opts)[0]
        overlaps += not apart
        tiles.update(_cells(o.box))
        taken.update(cells_of(i, o))
        drawn.append(o)
    return drawn, overlaps


def _point_kinds(node: Node, root: bool) -> list[bool]:
    """Whether each attachment point of ``node`` (in the order of :func:`_root` and
    :func:`_options`) is a spinner's end (or the sniff's end or flank)."""
    sides = [False, False] if root else [False]
    return sides + ([True, True] if node.kind in FOUR_WAYS else [])


def _marked(node: Node, kinds: list[bool], free: list[int]) -> list[tuple[int, int]]:
    """The open ends of ``node`` to mark: (index of the attachment point, what it adds to the
    count), given whether each point is a spinner's end (``kinds``) and which are free."""
    if node.kind == LINE:
        return [(k, -1) for k in free]  # -1: the pips of that half
    sides = [k for k in free if not kinds[k]][: node.sides]
    ends = [k for k in free if kinds[k]][: node.ends] if not node.sides else []
    if node.kind == SNIFF_INLINE:  # an open in-line end shows its half, a flank nothing
        return [(k, -1) for k in sides] + [(k, 0) for k in ends]
    end = -1 if node.kind == SNIFF_ACROSS else 0  # the sniff's open ends: their half
    return [(k, node.tile.pips if j == 0 else 0) for j, k in enumerate(sides)] + [(k, end) for k in ends]


#: Tries the search may spend before it settles for a drawing with overlaps.
BUDGET = 20_000


def draw_layout(layout: Layout) -> Drawing:
    """Place every tile of ``layout``; see the module docstring."""
    nodes = list(layout)
    if not nodes:
        return Drawing([], [], 0, 0, 0, [], 0)
    index = {n.tile: i for i, n in enumerate(nodes)}
    used: dict[int, int] = {}  # attachment points taken per node
    parent_of, slot_of = [0] * len(nodes), [0] * len(nodes)
    root = nodes[0]
    for i, n in enumerate(nodes[1:], 1):
        assert n.parent is not None  # every tile but the lead hangs on another
        p = index[n.parent.tile]
        parent_of[i] = p
        if p == 0 and root.kind == LINE:  # the lead's half it matched
            slot_of[i] = 0 if root.tile.hi in n.tile else 1
        else:
            slot_of[i] = used.get(p, 0)
        used[p] = used.get(p, 0) + 1
    taken: dict[int, set[int]] = {}
    for i in range(1, len(nodes)):
        taken.setdefault(parent_of[i], set()).add(slot_of[i])
    marked: list[list[tuple[int, int]]] = []
    for i, n in enumerate(nodes):
        kinds = _point_kinds(n, root=i == 0)
        free = [k for k in range(len(kinds)) if k not in taken.get(i, ())]
        marked.append(_marked(n, kinds, free) if n.tile in layout.open else [])
    chosen, overlaps = _place(nodes, slot_of, parent_of, marked, BUDGET)
    return _finish(nodes, chosen, marked, layout, overlaps)


def _finish(nodes: list[Node], chosen: list[_Option], marked, layout: Layout, overlaps: int) -> Drawing:
    index = {n.tile: i for i, n in enumerate(nodes)}
    marks = []  # the open ends, marked just beyond their attachment points
    for node in layout.open.values():
        i = index[node.tile]
        for k, counts in marked[i]:
            (x, y), (dx, dy), _, v = chosen[i].points[k]
            marks.append((node.tile, x + dx, y + dy, v, v if counts < 0 else counts, counts < 0))
    boxes = [o.box for o in chosen]
    xs = [b[0] for b in boxes] + [m[1] - 1 for m in marks]
    ys = [b[1] for b in boxes] + [m[2] - 1 for m in marks]
    x1s = [b[2] for b in boxes] + [m[1] + 1 for m in marks]
    y1s = [b[3] for b in boxes] + [m[2] + 1 for m in marks]
    ox, oy = min(xs), min(ys)
    sniff = layout.sniff
    glyphs = [
        TileGlyph(
            n.tile,
            x0 - ox,
            y0 - oy,
            x1 - x0,
            y1 - y0,
            o.first,
            o.second,
            n.kind in FOUR_WAYS,
            i,
            sniff[1] if sniff is not None and sniff[0] is n.tile else None,
        )
        for i, (n, o, (x0, y0, x1, y1)) in enumerate(zip(nodes, chosen, boxes, strict=True), 1)
    ]
    ends = [EndMark(t, x - ox, y - oy, v, c) for t, x, y, v, c, _ in marks]
    # a half (a tile's open end, the sniff's end) by its pips, always; a whole double by its name
    terms = [(str(v) if half else str(t), c) for t, _, _, v, c, half in marks if half or c]
    return Drawing(glyphs, ends, max(x1s) - ox, max(y1s) - oy, layout.count, terms, overlaps)


__all__ = ["Drawing", "EndMark", "TileGlyph", "draw_layout"]
