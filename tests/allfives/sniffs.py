"""Hands played on a ``Layout("sniff")`` for the sniff's property tests, and the count the
spec gives for a layout, worked out from its tree alone (which tile hangs on which, and how
the sniff was set), not from the nodes' counters the layout keeps."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.allfives.layout import Layout
from scorekeeper.dominoes.tiles import Tile, tiles_of_set

DOUBLE_SIX = sorted(tiles_of_set(6))
WAYS = ("across", "inline")

Step = tuple[Tile, "Tile | None", str]  # a tile, what it is set on (None: the lead), the sniff's way


def replay(steps: list[Step], spinner: str = "sniff") -> Layout:
    """A layout with ``steps`` set in order (each one must fit)."""
    lay = Layout(spinner)
    for tile, on, way in steps:
        if on is None:
            lay.lead(tile, sniff=way)
        else:
            lay.place(tile, on, sniff=way)
    return lay


def placements(lay: Layout) -> list[tuple[Tile, Tile]]:
    """Every (tile, on) that may be set next, tiles in set order."""
    return [(t, on) for t in DOUBLE_SIX if t not in lay for on in lay.fits(t)]


@st.composite
def sniff_hands(draw, max_tiles: int = 28) -> list[Step]:
    """A random legal sequence of placements on a double-six set under the sniff policy,
    each tile set across or in line at random (only the sniff's way matters)."""
    lay = Layout("sniff")
    lead = draw(st.sampled_from(DOUBLE_SIX))
    steps: list[Step] = [(lead, None, draw(st.sampled_from(WAYS)))]
    lay.lead(lead, sniff=steps[0][2])
    length = draw(st.integers(1, max_tiles))
    while len(steps) < length:
        legal = placements(lay)
        if not legal:
            break
        tile, on = draw(st.sampled_from(legal))
        way = draw(st.sampled_from(WAYS))
        lay.place(tile, on, sniff=way)
        steps.append((tile, on, way))
    return steps


def spec_points(lay: Layout) -> dict[Tile, tuple[list[int], int]]:
    """Per tile down: the pips of its open attachment points and what it adds to the count,
    by the spec (all-fives.md, The layout and The count; fives-and-threes.md, The sniff)."""
    sniff, way = lay.sniff if lay.sniff is not None else (None, None)
    out = {}
    for node in lay:
        t = node.tile
        kids = [n.tile for n in lay if n.parent is node]
        led = node.parent is None
        if not t.is_double:
            # the half the parent matched is covered; a child covers the half it shows
            halves = [t.hi, t.lo] if led else [t.other(_shared(t, node.parent.tile))]
            open_ = [v for v in halves if not any(v in k for k in kids)]
            out[t] = (open_, sum(open_))
            continue
        first = 2 if led else 1  # sides (in-line ends) still open before any child
        left = max(0, first - len(kids))  # ... and after them
        later = 2 - max(0, len(kids) - first)  # ends (flanks) still open once those are covered
        assert len(kids) <= first + (2 if t is sniff else 0)
        if t is not sniff:  # an ordinary double
            out[t] = ([t.hi] * left, t.pips if left else 0)
        elif way == "across":
            out[t] = ([t.hi] * left, t.pips) if left else ([t.hi] * later, t.hi * later)
        else:  # in line: each open in-line end shows a half, the flanks nothing
            out[t] = ([t.hi] * left, t.hi * left) if left else ([t.hi] * later, 0)
    return out


def spec_count(lay: Layout) -> int:
    return sum(c for _, c in spec_points(lay).values())


def _shared(tile: Tile, parent: Tile) -> int:
    """The pips ``tile`` matched on ``parent``."""
    return parent.hi if parent.hi in tile else parent.lo
