"""The layout: a tree of tiles rooted at the lead, and its count.

Every tile on the table is a :class:`Node`. A node offers *attachment
points*:

* a non-double: its two halves; the half that matched is covered, the other
  is open (the lead has both open);
* a double, set crosswise: two *sides*; one is covered by the tile it was set
  on (a lead double has both open);
* a spinner (a double that spins): its two sides, and -- once both sides are
  covered -- two *ends*;
* the sniff (``spinner: "sniff"``: the first double of the hand), set
  ``"across"`` (crosswise: sides, then ends, like a spinner) or ``"inline"``
  (lengthwise: its two in-line ends, then -- once both are covered -- two
  *flanks*). Its node keeps the same counters as a spinner's: ``sides`` are
  its sides or in-line ends, ``ends`` its ends or flanks.

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

The sniff (Fives and Threes' spec), set across and in line on a led ``[1-4]``:

>>> for way in ("across", "inline"):
...     lay = Layout("sniff")
...     print(way, lay.lead(Tile(1, 4)), lay.place(Tile(4, 4), Tile(1, 4), sniff=way),
...           lay.place(Tile(4, 5), Tile(4, 4)), lay.place(Tile(4, 0), Tile(4, 4)), lay.sniff)
across 5 9 14 10 (Tile(4, 4), 'across')
inline 5 5 6 6 (Tile(4, 4), 'inline')
"""

from __future__ import annotations

from collections.abc import Iterator

from scorekeeper.dominoes.tiles import Tile

# Node kinds
LINE, DOUBLE, SPINNER = 0, 1, 2
#: The sniff set crosswise (a spinner whose open ends count their half once both sides
#: are covered) and set in line (its open in-line ends count their half; its flanks never).
SNIFF_ACROSS, SNIFF_INLINE = 3, 4
KIND_NAMES = ("line", "double", "spinner", "sniff across", "sniff inline")

#: How the sniff may be set (a turn's ``"sniff"``); the first is the default.
SNIFF_WAYS = ("across", "inline")


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
        self.sides = sides  # DOUBLE/SPINNER/SNIFF_ACROSS: open sides; SNIFF_INLINE: open in-line ends
        self.ends = 0  # SPINNER/SNIFF_ACROSS: open ends; SNIFF_INLINE: open flanks (once sides are 0)
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
        kind = self.kind
        if kind == LINE:
            return (t.hi if self.open_hi else 0) + (t.lo if self.open_lo else 0)
        if kind == SNIFF_INLINE:  # each open in-line end shows a half; the flanks never count
            return t.hi * self.sides
        if kind == SNIFF_ACROSS and not self.sides:  # both sides covered: each open end, its half
            return t.hi * self.ends
        return t.pips if self.sides else 0

    def take(self, pips: int) -> None:
        """Cover one open attachment point showing ``pips`` (one :meth:`point_for` gave)."""
        if self.kind == LINE:
            if self.open_hi and self.tile.hi == pips:
                self.open_hi = False
            else:
                self.open_lo = False
        elif self.sides:
            self.sides -= 1
            if not self.sides and self.kind != DOUBLE:  # both sides covered: the ends (flanks) open
                self.ends = 2
        else:
            self.ends -= 1

    def is_open(self) -> bool:
        """Whether this node still offers an attachment point."""
        return self.open_hi or self.open_lo or bool(self.sides or self.ends)

    def __repr__(self) -> str:
        return f"<Node {self.tile} {KIND_NAMES[self.kind]} open={self.open_points()}>"


class Layout:
    """The tiles on the table for one hand, under one spinner policy.

    ``Layout("sniff")`` is a :class:`SniffLayout` (the sniff's rules live there, so
    the other policies' :meth:`attach` is not slowed by them).
    """

    __slots__ = ("spinner", "nodes", "open", "count", "root", "has_spinner", "sniff")

    def __init__(self, spinner: str = "first-double") -> None:
        if spinner == "sniff":
            # the same slots: a cheaper switch than a __new__ that every hand would call
            self.__class__ = SniffLayout
        self.spinner = spinner
        self.nodes: dict[Tile, Node] = {}  # every tile down, in the order set
        self.open: dict[Tile, Node] = {}  # the nodes that still offer a point
        self.count = 0
        self.root: Node | None = None
        self.has_spinner = False
        #: The sniff once it is down: its tile and how it was set ("across" or "inline").
        self.sniff: tuple[Tile, str] | None = None

    def __contains__(self, tile: Tile) -> bool:
        return tile in self.nodes

    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes.values())

    def children(self, tile: Tile) -> list[Node]:
        """The nodes set on ``tile``, in the order they were set.

        For a spinner the first two children are on its sides, the next two
        on its ends; for the sniff likewise (in line: its in-line ends, then
        its flanks).
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

    def sets_sniff(self, tile: Tile) -> bool:
        """Whether ``tile`` would be the sniff: the policy is "sniff", ``tile`` is a double
        and no sniff is down yet."""
        return self.spinner == "sniff" and tile.is_double and self.sniff is None

    def lead(self, tile: Tile, sniff: str = "across") -> int:
        """Set the lead tile; returns the count (``sniff``: how a sniff is set, else ignored)."""
        if tile.is_double:
            node = Node(tile, self._kind_of(tile), None, sides=2)
        else:
            node = Node(tile, LINE, None, True, True)
        self.nodes[tile] = self.open[tile] = node
        self.root = node
        self.count = tile.pips
        return self.count

    def attach(self, tile: Tile, on: Tile, sniff: str = "across") -> int:
        """Attach ``tile`` to ``on`` and return the new count, or -1 (nothing changed) if it does not fit.

        ``tile`` must not be on the table yet (the caller checks). ``sniff`` says how
        a tile that sets the sniff is set (see :class:`SniffLayout`); else it is ignored.
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

    def place(self, tile: Tile, on: Tile, sniff: str = "across") -> int:
        """Attach ``tile`` to ``on``; returns the count. Raises ValueError if it does not fit."""
        count = self.attach(tile, on, sniff)
        if count < 0:
            raise ValueError(self.point_on(tile, on) or f"{tile} cannot be played on {on}")
        return count

    def count_after(self, tile: Tile, on: Tile | None, sniff: str = "across") -> int:
        """The count if ``tile`` were set on ``on`` (None: as the lead), without setting it.

        ``tile`` must fit ``on`` (see :meth:`fits`).
        """
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
        if node.kind == SNIFF_ACROSS:
            return f"{tile} cannot be played on {o}: the sides and ends of the sniff {o} are all covered"
        if node.kind == SNIFF_INLINE:
            return f"{tile} cannot be played on {o}: both ends and both flanks of the sniff {o} are covered"
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
        """A comparable description of the layout (for tests; a sniff layout adds how
        the sniff was set)."""
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


class SniffLayout(Layout):
    """The layout under ``spinner: "sniff"`` (``Layout("sniff")`` makes one).

    The first double set in the hand, the lead or later, is the sniff; every
    later double is an ordinary double. The tile that sets it says how with
    ``sniff``, which every other tile ignores:

    * ``"across"`` (:data:`SNIFF_ACROSS`): crosswise, it takes tiles like a
      spinner (two sides, then two ends) and counts its pips while a side is
      open; once both sides are covered, each end still open counts its half;
    * ``"inline"`` (:data:`SNIFF_INLINE`): lengthwise, each open in-line end
      counts its half (led: both are open; set on the layout: the one not
      matched); its two flanks take tiles once both in-line ends are covered
      and never count.

    A tile set on the sniff takes a side (an in-line end) while one is open,
    else an end (a flank). The count is kept as each node's
    :meth:`Node.counted` before and after a tile changes it.

    A ``[3-3]`` led in line: its flanks open once both its ends are covered.

    >>> from scorekeeper.dominoes.tiles import Tile
    >>> lay = Layout("sniff")
    >>> lay.lead(Tile(3, 3), sniff="inline"), lay.open_ends()
    (6, [3, 3])
    >>> lay.place(Tile(3, 1), Tile(3, 3)), lay.open_ends()  # one end left, no flank yet
    (4, [3, 1])
    >>> lay.place(Tile(3, 2), Tile(3, 3)), lay.open_ends()  # both ends covered: two flanks
    (3, [3, 3, 1, 2])
    >>> lay.place(Tile(3, 5), Tile(3, 3)), lay.open_ends(), lay.sets_sniff(Tile(5, 5))
    (8, [3, 1, 2, 5], False)
    """

    __slots__ = ()

    def __init__(self, spinner: str = "sniff") -> None:
        Layout.__init__(self, "sniff")

    def _kind_for(self, tile: Tile, sniff: str) -> int:
        """The kind of node ``tile`` makes; ValueError when it sets the sniff in no known way."""
        if not tile.is_double:
            return LINE
        if self.sniff is not None:
            return DOUBLE
        if sniff == "across":
            return SNIFF_ACROSS
        if sniff == "inline":
            return SNIFF_INLINE
        raise ValueError(f'the sniff {tile} is set "across" or "inline", not {sniff!r}')

    def lead(self, tile: Tile, sniff: str = "across") -> int:
        if not tile.is_double:
            return super().lead(tile)
        node = Node(tile, self._kind_for(tile, sniff), None, sides=2)
        self.nodes[tile] = self.open[tile] = node
        self.root = node
        self.sniff = (tile, sniff)
        self.has_spinner = True
        self.count = node.counted()
        return self.count

    def attach(self, tile: Tile, on: Tile, sniff: str = "across") -> int:
        """As :meth:`Layout.attach`; a tile that sets the sniff is set ``sniff`` ("across" or
        "inline"; any other way is a ValueError, nothing changed)."""
        parent = self.open.get(on)
        if parent is None:
            return -1
        v = parent.point_for(tile)
        if v is None:
            return -1
        kind = self._kind_for(tile, sniff)
        before = parent.counted()
        parent.take(v)
        if not parent.is_open():
            del self.open[on]
        node = _child(tile, kind, parent, v)
        self.nodes[tile] = self.open[tile] = node
        if kind > SPINNER:
            self.sniff = (tile, sniff)
            self.has_spinner = True
        self.count += parent.counted() - before + node.counted()
        return self.count

    def count_after(self, tile: Tile, on: Tile | None, sniff: str = "across") -> int:
        """As :meth:`Layout.count_after`; ValueError when ``tile`` does not fit ``on``."""
        if on is None:
            return tile.pips  # led, across or in line: both halves count
        parent = self.nodes[on]
        v = parent.point_for(tile)
        if v is None:
            raise ValueError(self.point_on(tile, on) or f"{tile} cannot be played on {on}")
        probe = Node(parent.tile, parent.kind, None, parent.open_hi, parent.open_lo, parent.sides)
        probe.ends = parent.ends
        probe.take(v)
        node = _child(tile, self._kind_for(tile, sniff), None, v)
        return self.count + probe.counted() - parent.counted() + node.counted()

    def state(self) -> tuple[object, ...]:
        sniff = None if self.sniff is None else (str(self.sniff[0]), self.sniff[1])
        return super().state() + (sniff,)


def _child(tile: Tile, kind: int, parent: Node | None, matched: int) -> Node:
    """The node of ``tile`` set on a point showing ``matched`` (its matching half covered)."""
    if kind == LINE:
        return Node(tile, LINE, parent, tile.hi != matched, tile.lo != matched)
    return Node(tile, kind, parent, sides=1)
