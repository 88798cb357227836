"""The layout: a tree of tiles rooted at the lead, and its count.

Every tile on the table is a :class:`Node`. A node offers *attachment
points*:

* a non-double: its two halves; the half that matched is covered, the other
  is open (the lead has both open);
* a double, set crosswise: two *sides*; one is covered by the tile it was set
  on (a lead double has both open);
* a spinner (a double that spins): its two sides, and -- once both sides are
  covered -- two *ends*.

The count is kept incrementally: every placement changes it by a few pips.
:meth:`Layout.recount` computes it from scratch (for tests and checks).

The worked example of the spec:

>>> from scorekeeper.dominoes.tiles import Tile
>>> lay = Layout(spinner="first-double")
>>> lay.lead(Tile(3, 2))
5
>>> [lay.place(Tile(*t), Tile(*on)) for t, on in
...  [((2, 2), (3, 2)), ((2, 4), (2, 2)), ((2, 0), (2, 2)), ((3, 6), (3, 2)), ((2, 5), (2, 2))]]
[7, 7, 7, 10, 15]
>>> sorted(lay.open_ends())
[0, 4, 5, 6]
"""

from __future__ import annotations

from collections.abc import Iterator

from scorekeeper.dominoes.tiles import Tile

# Node kinds
LINE, DOUBLE, SPINNER = 0, 1, 2


class Node:
    """A tile on the table and its open attachment points (engine-internal)."""

    __slots__ = ("tile", "kind", "open_hi", "open_lo", "sides", "ends", "parent")

    def __init__(
        self,
        tile: Tile,
        kind: int,
        parent: Node | None,
        open_hi: bool = False,
        open_lo: bool = False,
        sides: int = 0,
    ) -> None:
        self.tile = tile
        self.kind = kind
        self.open_hi = open_hi  # LINE: is the hi half open?
        self.open_lo = open_lo  # LINE: is the lo half open?
        self.sides = sides  # DOUBLE/SPINNER: open sides
        self.ends = 0  # SPINNER: open ends (only once both sides are covered)
        self.parent = parent

    def point_for(self, tile: Tile) -> int | None:
        """The pips of an open attachment point of this node that ``tile`` fits, or None."""
        t = self.tile
        if self.kind == LINE:
            if self.open_hi and (t.hi == tile.hi or t.hi == tile.lo):
                return t.hi
            if self.open_lo and (t.lo == tile.hi or t.lo == tile.lo):
                return t.lo
            return None
        if (self.sides or self.ends) and (t.hi == tile.hi or t.hi == tile.lo):
            return t.hi
        return None

    def open_points(self) -> list[int]:
        """The pips of every open attachment point (a spinner's free ends included)."""
        t = self.tile
        if self.kind == LINE:
            return [v for v, o in ((t.hi, self.open_hi), (t.lo, self.open_lo)) if o]
        return [t.hi] * (self.sides + self.ends)

    def counted(self) -> int:
        """What this node adds to the count."""
        t = self.tile
        if self.kind == LINE:
            return (t.hi if self.open_hi else 0) + (t.lo if self.open_lo else 0)
        return t.pips if self.sides else 0

    def __repr__(self) -> str:
        kind = ("line", "double", "spinner")[self.kind]
        return f"<Node {self.tile} {kind} open={self.open_points()}>"


class Layout:
    """The tiles on the table for one hand, under one spinner policy."""

    __slots__ = ("spinner", "nodes", "open", "count", "root", "has_spinner")

    def __init__(self, spinner: str = "first-double") -> None:
        self.spinner = spinner
        self.nodes: dict[Tile, Node] = {}  # every tile down, in the order set
        self.open: dict[Tile, Node] = {}  # the nodes that still offer a point
        self.count = 0
        self.root: Node | None = None
        self.has_spinner = False

    def __contains__(self, tile: Tile) -> bool:
        return tile in self.nodes

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes.values())

    def children(self, tile: Tile) -> list[Node]:
        """The nodes set on ``tile``, in the order they were set.

        For a spinner the first two children are on its sides, the next two
        on its ends.
        """
        return [n for n in self.nodes.values() if n.parent is not None and n.parent.tile is tile]

    def _kind_of(self, tile: Tile) -> int:
        if not tile.is_double:
            return LINE
        policy = self.spinner
        if policy == "all-doubles" or (policy == "first-double" and not self.has_spinner):
            self.has_spinner = True
            return SPINNER
        return DOUBLE

    def lead(self, tile: Tile) -> int:
        """Set the lead tile; returns the count."""
        if tile.is_double:
            node = Node(tile, self._kind_of(tile), None, sides=2)
        else:
            node = Node(tile, LINE, None, True, True)
        self.nodes[tile] = self.open[tile] = node
        self.root = node
        self.count = tile.pips
        return self.count

    def attach(self, tile: Tile, on: Tile) -> int:
        """Attach ``tile`` to ``on`` and return the new count, or -1 (nothing changed) if it does not fit.

        ``tile`` must not be on the table yet (the caller checks).
        """
        parent = self.open.get(on)
        if parent is None:
            return -1
        th = tile.hi
        tl = tile.lo
        count = self.count
        if parent.kind == LINE:
            v = on.hi
            if parent.open_hi and (v == th or v == tl):
                parent.open_hi = False
                if not parent.open_lo:
                    del self.open[on]
            else:
                v = on.lo
                if parent.open_lo and (v == th or v == tl):
                    parent.open_lo = False
                    if not parent.open_hi:
                        del self.open[on]
                else:
                    return -1
            count -= v
        else:
            v = on.hi
            if v != th and v != tl:
                return -1
            sides = parent.sides
            if sides:
                parent.sides = sides - 1
                if sides == 1:
                    count -= on.pips
                    if parent.kind == SPINNER:
                        parent.ends = 2
                    else:
                        del self.open[on]
            else:  # a spinner's end (only spinners stay open with no side)
                parent.ends -= 1
                if not parent.ends:
                    del self.open[on]
        if th == tl:
            node = Node(tile, self._kind_of(tile), parent, False, False, 1)
            count += th + tl
        elif th == v:
            node = Node(tile, LINE, parent, False, True)
            count += tl
        else:
            node = Node(tile, LINE, parent, True, False)
            count += th
        self.nodes[tile] = self.open[tile] = node
        self.count = count
        return count

    def place(self, tile: Tile, on: Tile) -> int:
        """Attach ``tile`` to ``on``; returns the count. Raises ValueError if it does not fit."""
        count = self.attach(tile, on)
        if count < 0:
            raise ValueError(self.point_on(tile, on) or f"{tile} cannot be played on {on}")
        return count

    def count_after(self, tile: Tile, on: Tile | None) -> int:
        """The count if ``tile`` were set on ``on`` (None: as the lead), without setting it."""
        if on is None:
            return tile.pips
        parent = self.nodes[on]
        o = parent.tile
        count = self.count
        if parent.kind == LINE:
            v = o.hi if parent.open_hi and o.hi in tile else o.lo
            count -= v
        else:
            v = o.hi
            if parent.sides == 1:
                count -= o.pips
        return count + (tile.pips if tile.is_double else tile.other(v))

    def point_on(self, tile: Tile, on: Tile) -> str | None:
        """Why ``tile`` cannot go on ``on``, or None when it can."""
        node = self.nodes.get(on)
        if node is None:
            return f"{on} is not in the layout"
        if node.point_for(tile) is not None:
            return None
        o = on
        if node.kind == LINE:
            if not (node.open_hi or node.open_lo):
                return f"{tile} cannot be played on {o}: both ends of {o} are covered"
            shows = " or ".join(str(v) for v in node.open_points())
            return f"{tile} cannot be played on {o}: the open end of {o} shows {shows}"
        if o.hi not in tile:
            return f"{tile} cannot be played on {o}: it has no {o.hi}"
        if node.kind == SPINNER:
            return f"{tile} cannot be played on {o}: its sides and ends are all covered"
        return f"{tile} cannot be played on {o}: both sides of {o} are covered"

    def fits(self, tile: Tile) -> list[Tile]:
        """Every tile on the table that ``tile`` can be attached to, in the order they were set."""
        return [t for t, node in self.open.items() if node.point_for(tile) is not None]

    def open_ends(self) -> list[int]:
        """The pips of every open attachment point, in the order the tiles were set."""
        return [v for node in self.open.values() for v in node.open_points()]

    def recount(self) -> int:
        """The count computed from scratch (the incremental one must equal it)."""
        return sum(node.counted() for node in self.nodes.values())

    def state(self) -> tuple[object, ...]:
        """A comparable description of the layout (for tests)."""
        return tuple(
            (
                str(n.tile),
                n.kind,
                n.open_hi,
                n.open_lo,
                n.sides,
                n.ends,
                None if n.parent is None else str(n.parent.tile),
            )
            for n in self.nodes.values()
        ) + (self.count,)
