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
conflict-directed backjumping (``placing.py``), which keeps every tile that
need not move where it was.  ``benchmarks/drawing.py`` measures it against
drawing tile by tile without going back.  A search that runs past
:data:`BUDGET` tries settles for the tile-by-tile drawing; its overlaps are
counted in ``Drawing.overlaps``.

Where those ways leave no clear drawing at all (rare: in Five Up, two spinners
whose ends are open, one on the line and one at the end of another spinner's
end, can stand a unit apart with no room between for both their ends' marks),
the drawing is searched again with one way more for a tile in line, tried after
its others: straight on, its arm turning at a corner, the next tile set against
the side of its far half (``placing.options``), as players turn an arm where
the table is crowded. Only then, so a layout that has a clear drawing without
corners is drawn as it was; given a box, the search again goes through every
box below.

Without a box the arms turn 14 units left or right of the lead and 18 up or
down. Given the box the drawing will be drawn in (``draw_layout(layout, box)``,
its width and height in units: ``fit.drawing_box``), they turn :data:`SHORT`
units short of its edges, and no tile may make the drawing wider or higher than
the box: such a tile goes back as for a tile in its way (to the tiles at the far
side, or the one it hangs on). Every tile then keeps the doors of all its
attachment points free, open or not yet (the 2 x 2 cells where a tile set there
begins), so that a tile set never changes where the tiles before it could go: a
turn's drawing is the last turn's with one tile more, unless that tile finds no
room in the box. A search that runs past :data:`BOX_BUDGET` tries draws in a
box a little larger (:data:`GROWTH`: the drawing is then drawn a little
smaller), and last in none; ``Drawing.fits`` says whether it fits its box.

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

from scorekeeper.allfives.layout import LINE, SNIFF_ACROSS, SNIFF_INLINE, Layout, Node
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.ui.allfives.placing import FOUR_WAYS, Box, Option, Reach, place

#: How far (in units) an arm may run from the middle before it turns, where the drawing has
#: no box to fit.
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
    flank adds nothing); ``dx, dy``: the way the arm grows from it (the next tile goes there)."""

    tile: Tile
    x: float
    y: float
    value: int
    counts: int
    dx: int = 0
    dy: int = 0


@dataclass(frozen=True, slots=True)
class Drawing:
    tiles: list[TileGlyph]
    ends: list[EndMark]
    width: int
    height: int
    count: int
    terms: list[tuple[str, int]]  # the count as a sum: ("5", 5), ("5-5", 10) ...
    overlaps: int  # tiles drawn over another (0 unless the search ran out of tries)
    box: Box | None = None  # the box (width, height in units) it was drawn to fit, if any

    @property
    def fits(self) -> bool:
        """Whether the drawing is no wider and no higher than the box it was drawn for."""
        return self.box is None or (self.width <= self.box[0] and self.height <= self.box[1])


def _point_kinds(node: Node, root: bool) -> list[bool]:
    """Whether each attachment point of ``node`` (in the order of ``placing.root_option`` and
    ``placing.options``) is a spinner's end (or the sniff's end or flank)."""
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


def draw_layout(layout: Layout, box: Box | None = None) -> Drawing:
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
    placed: tuple[list[Option], int] | None = None
    for corners in (False, True):  # corners only where the ordinary ways leave no clear drawing
        if box is None:
            other = place(nodes, slot_of, parent_of, marked, BUDGET, (REACH_X, REACH_Y), corners=corners)
        else:
            other = _fit(nodes, slot_of, parent_of, marked, box, corners)
        assert other is not None
        if placed is None or other[1] < placed[1]:
            placed = other
        if not placed[1]:
            break
    assert placed is not None
    chosen, overlaps = placed
    return _finish(nodes, chosen, marked, layout, overlaps, box)


#: Tries the search may spend on fitting a box, and then on each larger box.
BOX_BUDGET = 6_000
GROWN_BUDGET = 1_500
#: The larger boxes (units more, wide and high) tried in turn for a drawing that does not fit.
GROWTH = ((2, 1), (4, 2), (8, 4), (16, 8))
#: How many units short of the edges of a box (the lead in its middle) its arms turn.
SHORT = 3


def reach_of(box: Box) -> Reach:
    """How far the arms of a drawing that must fit ``box`` run from the lead before they turn.

    >>> reach_of((31, 16))
    (12, 5)
    """
    return (max(4, box[0] // 2 - SHORT), max(2, box[1] // 2 - SHORT))


def _fit(
    nodes: list[Node],
    slot_of: list[int],
    parent_of: list[int],
    marked: list[list[tuple[int, int]]],
    box: Box,
    corners: bool = False,
):
    """The drawing in ``box``, else in a box a little larger, ..., else in none (see the module
    docstring), its arms turning where they would in ``box`` -- or, where that leaves no
    clear way (many spinners), where they would with no box; ``corners``: as ``place``."""
    reach = reach_of(box)
    for grow, budget in zip(((0, 0), *GROWTH), (BOX_BUDGET,) + (GROWN_BUDGET,) * len(GROWTH), strict=True):
        grown = (box[0] + grow[0], box[1] + grow[1])
        placed = place(nodes, slot_of, parent_of, marked, budget, reach, grown, True, corners)
        if placed is not None:
            return placed
    placed = place(nodes, slot_of, parent_of, marked, BUDGET, reach, None, True, corners)
    # arms turning that soon, and every door kept, leave no clear way (many spinners): then as
    # without a box, where a tile may be set on a door no tile has taken yet
    for later in ((REACH_X, REACH_Y), True), ((REACH_X, REACH_Y), False):
        if placed is None or not placed[1]:
            break
        reach_now, doors = later
        other = place(nodes, slot_of, parent_of, marked, BUDGET, reach_now, None, doors, corners)
        if other is not None and other[1] < placed[1]:
            placed = other
    return placed


def _finish(nodes: list[Node], chosen: list[Option], marked, layout: Layout, overlaps: int, box: Box | None) -> Drawing:
    index = {n.tile: i for i, n in enumerate(nodes)}
    marks = []  # the open ends, marked just beyond their attachment points
    for node in layout.open.values():
        i = index[node.tile]
        for k, counts in marked[i]:
            (x, y), (dx, dy), _, v = chosen[i].points[k]
            marks.append((node.tile, x + dx, y + dy, v, v if counts < 0 else counts, counts < 0, dx, dy))
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
    ends = [EndMark(t, x - ox, y - oy, v, c, dx, dy) for t, x, y, v, c, _, dx, dy in marks]
    # a half (a tile's open end, the sniff's end) by its pips, always; a whole double by its name
    terms = [(str(v) if half else str(t), c) for t, _, _, v, c, half, _, _ in marks if half or c]
    return Drawing(glyphs, ends, max(x1s) - ox, max(y1s) - oy, layout.count, terms, overlaps, box)


__all__ = ["Drawing", "EndMark", "TileGlyph", "draw_layout"]
