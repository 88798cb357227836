"""A Broadway hand as an immutable value (:class:`Hand`): the layout, the turns, who set
what, what each turn scored (:class:`Turn`), what a placement would do (:class:`Preview`),
how the hand ended and how it settled."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from scorekeeper.broadway.grid import HIGHEST, Cell, Layout, Placement, adjacent, neighbours, parse_pips, points_for
from scorekeeper.broadway.rules import (
    HAND_SIZE,
    MAX_TURNS,
    REGULAR_HANDS,
    SET_SIZE,
    HandSizeError,
    NoMatchError,
    NotAdjacentError,
    OccupiedCellError,
    OrientationError,
    Setup,
    WrongDoubleError,
    double_of,
)
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import (
    HandOverError,
    IllegalTileError,
    RemainingError,
    ScorekeeperError,
    Where,
    short,
    type_name,
)

__all__ = ["Hand", "Preview", "Turn", "Turns"]


# ---------------------------------------------------------------------- values
@dataclass(frozen=True, slots=True)
class Turn:
    """What one turn did. ``matched``: the cells already down that the tile matched."""

    number: int
    seat: int
    placement: Placement | None = None
    exposed: Tile | None = None
    matched: tuple[Cell, ...] = ()
    points: int = 0

    @property
    def kind(self) -> str:
        """``"play"``, ``"pass"`` or ``"exposed"``."""
        if self.placement is not None:
            return "play"
        return "pass" if self.exposed is None else "exposed"

    @property
    def tile(self) -> Tile | None:
        return self.placement.tile if self.placement is not None else self.exposed


@dataclass(frozen=True, slots=True)
class Preview:
    """What a placement would do, without doing it: the matched cells and the points,
    or the ``error`` (a :class:`ScorekeeperError` naming hand and turn) that refuses it."""

    placement: Placement | None
    matched: tuple[Cell, ...] = ()
    points: int = 0
    error: ScorekeeperError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def sections(self) -> int:
        """The number of matched sections."""
        return len(self.matched)


class Turns(Sequence[Turn]):
    """A hand's turns, in order: an immutable sequence (equal to the tuple of the same
    turns) whose :meth:`plus` costs O(1), not the O(n) of ``tuple + (turn,)``.

    Each value is the first ``n`` items of a list it may share with the values made from
    it: ``plus`` appends to that list when this value is its whole length (the usual
    case, one turn after another), and copies its own prefix otherwise (a value extended
    a second time, e.g. after an undo). No value ever sees an item past its ``n``, and
    the list's first items never change, so every value stays what it was. A hand of
    9,999 turns (with the undo stack holding every earlier hand) is then linear, not
    quadratic, in time and memory.
    """

    __slots__ = ("_items", "_n")

    def __init__(self, turns: Iterable[Turn] = ()) -> None:
        self._items: list[Turn] = list(turns)
        self._n = len(self._items)

    @classmethod
    def _view(cls, items: list[Turn], n: int) -> Turns:
        new = cls.__new__(cls)
        new._items = items
        new._n = n
        return new

    def plus(self, turn: Turn) -> Turns:
        """These turns and then ``turn``."""
        items, n = self._items, self._n
        if len(items) == n:
            items.append(turn)
            if items[n] is turn:  # nobody else appended first (another value of the same length)
                return Turns._view(items, n + 1)
        return Turns._view([*items[:n], turn], n + 1)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Turn: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Turn, ...]: ...
    def __getitem__(self, i: int | slice) -> Turn | tuple[Turn, ...]:
        if isinstance(i, slice):
            return tuple(self._items[: self._n][i])
        if not -self._n <= i < self._n:
            raise IndexError("turn index out of range")
        return self._items[i if i >= 0 else self._n + i]

    def __iter__(self) -> Iterator[Turn]:
        items = self._items
        for i in range(self._n):
            yield items[i]

    def __reversed__(self) -> Iterator[Turn]:
        items = self._items
        for i in range(self._n - 1, -1, -1):
            yield items[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Turns):
            return self._n == other._n and (
                self._items is other._items or self._items[: self._n] == other._items[: other._n]
            )
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class Hand:
    """One hand as an immutable value: the layout, the turns, who set what.

    The ``with_*`` methods check an entry and return the next value (the
    engine keeps the values; nothing changes in place). Read: ``double``,
    ``next_seat``, ``end`` (None, ``"complete"``, ``"blocked"``), ``due``
    (tiles each seat still holds), ``points`` and ``settlement`` per side.
    """

    setup: Setup = field(compare=False, repr=False)
    number: int
    leader: int
    scores_before: tuple[int, ...] = (0, 0)
    layout: Layout = field(default_factory=Layout)
    turns: Turns = field(default_factory=Turns)
    set_by: tuple[int, ...] = (0, 0, 0, 0)
    exposures: tuple[tuple[Tile, int, int], ...] = ()  # (tile, seat, turn number), in order
    passes: int = 0  # passes in succession
    end: str | None = None
    unplayed: tuple[int, ...] | None = None  # tiles left per seat, once settled
    unplayed_tiles: tuple[tuple[Tile, ...] | None, ...] | None = None  # where listed
    unplayed_entered: bool = False
    settlement: tuple[int, ...] | None = None  # penalty points per side, once settled
    points: tuple[int, ...] = (0, 0)  # placement points per side in this hand
    #: A hand entered as points (``end`` ``"points"``; ``points`` each side's, all in; its
    #: ``leader`` is -1: nobody is known to have set the double).
    entered: bool = False

    # -- reading
    @property
    def double(self) -> Tile:
        return double_of(self.number)

    @property
    def sudden_death(self) -> bool:
        return self.number > REGULAR_HANDS

    @property
    def next_seat(self) -> int | None:
        """The seat whose turn it is (turns go clockwise from the leader), None once ended."""
        if self.end is not None:
            return None
        return (self.leader + len(self.turns)) % 4

    @property
    def to_move(self) -> str | None:
        seat = self.next_seat
        return None if seat is None else self.setup.players[seat]

    @property
    def settled(self) -> bool:
        return self.settlement is not None

    @property
    def due(self) -> tuple[int, ...]:
        """The tiles each seat still holds (7 minus the tiles it set): what ``unplayed`` must say."""
        return tuple(HAND_SIZE - n for n in self.set_by)

    def held(self, seat: int) -> int:
        return HAND_SIZE - self.set_by[seat]

    def exposed_by(self, tile: Tile) -> tuple[int, int] | None:
        """``(seat, turn)`` of the first exposure of ``tile`` in this hand, or None."""
        for t, seat, turn in self.exposures:
            if t is tile:
                return (seat, turn)
        return None

    def known_held(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` exposed and has not set yet (it still holds them)."""
        out: list[Tile] = []
        for t, s, _ in self.exposures:
            if s == seat and t not in self.layout and t not in out:
                out.append(t)
        return tuple(out)

    def set_at(self, tile: Tile) -> Turn | None:
        """The turn that set ``tile``, or None."""
        for t in self.turns:
            if t.placement is not None and t.placement.tile is tile:
                return t
        return None

    def penalties(self, counts: Iterable[int]) -> tuple[int, ...]:
        """Penalty points per side for the tiles left per seat, under ``rules.unplayed_penalty``.

        >>> h = Hand(Setup.new(["Ann", "Ben", "Cy", "Di"]), 1, 0)
        >>> h.penalties([1, 0, 2, 4])
        (-3, -4)
        >>> Hand(Setup.new(["Ann", "Ben", "Cy", "Di"], rules={"unplayed_penalty": "to-opponents"}), 1, 0).penalties([1, 0, 2, 4])
        (4, 3)
        """
        held = [0, 0]
        for seat, n in enumerate(counts):
            held[self.setup.side_of[seat]] += n
        if self.setup.rules.unplayed_penalty == "to-opponents":
            return (held[1], held[0])
        return (-held[0], -held[1])

    # -- previews (nothing changes)
    def preview(self, tile: Any, cells: Any = None, seat: int | None = None) -> Preview:
        """What setting ``tile`` on ``cells`` would do for ``seat`` (default: the seat to move).

        ``tile`` is ``"6-3"`` (the 6 on the first cell), a :class:`Tile` (its higher half on
        the first cell) or a :class:`Placement` (then ``cells`` is left out). Never raises:
        a refused placement comes back with ``error`` set and ``ok`` false.
        """
        where = self._where()
        try:
            p = tile if isinstance(tile, Placement) else Placement.of(tile, cells)
        except ScorekeeperError as e:
            return Preview(None, error=type(e)(e.reason, **where))
        try:
            matched = self._check_play(p, self.next_seat if seat is None else seat)
        except ScorekeeperError as e:
            return Preview(p, error=e)
        return Preview(p, matched, points_for(len(matched)) if self.turns else 0)

    def legal_placements(self, tile: Any, seat: int | None = None) -> tuple[Preview, ...]:
        """Every legal placement of ``tile`` for ``seat`` (default: the seat to move) now,
        with its matched cells and points; empty when it cannot be set.

        For the hand's first turn the double may go anywhere: one placement at the
        origin stands for all of them.

        >>> h = Hand(Setup.new(["Ann", "Ben", "Cy", "Di"]), 1, 0).with_play(Placement.of("6-6", [[0, 0], [1, 0]]))[0]
        >>> [(str(p.placement), p.matched) for p in h.legal_placements("6-1")][:2]   # East: North-South
        [('6-1 at (-1, 0) (-1, -1)', ((0, 0),)), ('6-1 at (-1, 0) (-1, 1)', ((0, 0),))]
        >>> len(h.legal_placements("6-1")), h.legal_placements("5-1"), h.legal_placements("6-6")
        (8, (), ())
        """
        if seat is None:
            seat = self.next_seat
        if seat is None or self.end is not None:
            return ()
        try:
            a, b = parse_pips(tile.tile if isinstance(tile, Placement) else tile)
        except ScorekeeperError:
            return ()
        axis = self.setup.axis(seat)
        if axis == "east-west":
            dirs: tuple[Cell, ...] = ((1, 0), (-1, 0))
        elif axis == "north-south":
            dirs = ((0, 1), (0, -1))
        else:
            dirs = ((1, 0), (-1, 0), (0, 1), (0, -1))
        if not self.turns:
            second = (0, 1) if axis == "north-south" else (1, 0)
            pv = self.preview(Placement(a, b, ((0, 0), second)), seat=seat)
            return (pv,) if pv.ok else ()
        tile_ = Tile(a, b)
        try:
            self._check_tile(tile_, seat, self._where())
        except ScorekeeperError:
            return ()
        layout = self.layout
        cells = layout.cells
        found: dict[frozenset[tuple[Cell, int]], Placement] = {}
        for v, w in ((a, b), (b, a)):
            for c in layout.cells_showing(v):
                for n in neighbours(c):
                    if n in cells:
                        continue
                    for dx, dy in dirs:
                        m = (n[0] + dx, n[1] + dy)
                        if m not in cells:
                            key = frozenset(((n, v), (m, w)))
                            if key not in found:
                                found[key] = Placement.trusted(v, w, (n, m))
        # free, adjacent, well oriented cells next to a matching half: legal by construction
        out = []
        for p in sorted(found.values(), key=lambda p: (p.cells, p.first)):
            matched = layout.matched(p)
            out.append(Preview(p, matched, points_for(len(matched))))
        return tuple(out)

    # -- the next value
    def with_play(self, p: Placement) -> tuple[Hand, Turn]:
        """Set ``p`` for the seat to move (every rule checked; raises naming hand and turn)."""
        seat = self.open_seat()
        matched = self._check_play(p, seat)
        pts = points_for(len(matched)) if self.turns else 0
        turn = Turn(len(self.turns) + 1, seat, p, None, matched, pts)
        layout = self.layout.add(p)
        set_by = list(self.set_by)
        set_by[seat] += 1
        points = list(self.points)
        points[self.setup.side_of[seat]] += pts
        changes: dict[str, Any] = {}
        if len(layout) == SET_SIZE:
            changes = {"end": "complete", "unplayed": (0, 0, 0, 0), "settlement": (0, 0)}
        new = dataclasses.replace(
            self,
            layout=layout,
            turns=self.turns.plus(turn),
            set_by=tuple(set_by),
            passes=0,
            points=tuple(points),
            **changes,
        )
        return new, turn

    def with_pass(self) -> tuple[Hand, Turn]:
        seat = self.open_seat()
        if not self.turns:
            raise WrongDoubleError(
                f"the first turn sets the hand's double {self.double}: {self.setup.who(seat)} cannot pass",
                **self._where(),
            )
        turn = Turn(len(self.turns) + 1, seat)
        passes = self.passes + 1
        new = dataclasses.replace(
            self, turns=self.turns.plus(turn), passes=passes, end="blocked" if passes == 4 else None
        )
        return new, turn

    def with_exposed(self, tile: Tile) -> tuple[Hand, Turn]:
        """The seat to move exposed ``tile`` and loses this turn."""
        seat = self.open_seat()
        where = self._where()
        who = self.setup.who(seat)
        if tile.hi > HIGHEST:
            raise IllegalTileError(f"{tile} is not in a double-{HIGHEST} set", **where)
        if not self.turns:
            raise WrongDoubleError(
                f"the first turn sets the hand's double {self.double}: it cannot be a turn lost to an exposed tile",
                **where,
            )
        if tile in self.layout:
            t = self._turn_that_set(tile)
            raise IllegalTileError(
                f"{tile} is already on the table (set by {self.setup.players[t.seat]} at turn {t.number}): "
                f"{who} cannot expose it",
                **where,
            )
        self._check_owner(tile, seat, where)
        pending = self.known_held(seat)
        if tile not in pending:
            self._check_room(seat, pending, tile, where)
        turn = Turn(len(self.turns) + 1, seat, None, tile)
        # a tile exposed again is already known (``exposures`` keeps each tile's first exposure)
        exposures = self.exposures if tile in pending else self.exposures + ((tile, seat, turn.number),)
        new = dataclasses.replace(self, turns=self.turns.plus(turn), passes=0, exposures=exposures)
        return new, turn

    def with_unplayed(self, given: Iterable[tuple[str, Any]]) -> Hand:
        """Settle the ended hand from what each player was left with (a count or the tiles)."""
        setup = self.setup
        players = setup.players
        where: Where = {"hand": self.number, "field": "unplayed"}
        if self.entered:
            raise RemainingError("the hand was entered as points: it has no unplayed tiles", **where)
        if self.end is None:
            raise RemainingError(
                "the hand has not ended: unplayed tiles are given once all 28 tiles are down or "
                "after four passes in succession",
                **where,
            )
        if self.unplayed_entered:
            raise RemainingError("the unplayed tiles of this hand have already been given", **where)
        by_seat: dict[int, Any] = {}
        for name, value in given:
            seat = setup.seat_of(name)
            if seat is None:
                raise RemainingError(f"{short(name)} is not a player (players: {', '.join(players)})", **where)
            if seat in by_seat:
                raise RemainingError(f"{players[seat]} is listed twice", **where)
            by_seat[seat] = value
        counts: list[int] = []
        tiles: list[tuple[Tile, ...] | None] = []
        listed: dict[Tile, int] = {}
        for seat in range(4):
            name = players[seat]
            due = self.held(seat)
            did = f"{name} set {_plural(self.set_by[seat], 'tile')}, so holds {due}"
            value = by_seat.get(seat)
            if value is None:
                if due:
                    raise RemainingError(f"{did}: give {name}'s unplayed tiles (a count or the tiles)", **where)
                counts.append(0)
                tiles.append(None)
                continue
            if type(value) is int:
                if value != due:
                    raise RemainingError(f"{did}, not {short(value)}", **where)
                counts.append(value)
                tiles.append(None)
                continue
            if not isinstance(value, tuple):
                raise RemainingError(f"{name}: give a count or a list of tiles, not {type_name(value)}", **where)
            if len(value) != due:
                raise RemainingError(f"{did}, but {len(value)} are listed", **where)
            for t in value:
                if t.hi > HIGHEST:
                    raise RemainingError(f"{t} is not in a double-{HIGHEST} set", **where)
                if t in self.layout:
                    st = self._turn_that_set(t)
                    raise RemainingError(
                        f"{name} cannot hold {t}: {players[st.seat]} set it at turn {st.number}", **where
                    )
                if t in listed:
                    other = listed[t]
                    whom = "twice" if other == seat else f"for {players[other]} and for {name}"
                    raise RemainingError(f"{t} is listed {whom}", **where)
                ex = self.exposed_by(t)
                if ex is not None and ex[0] != seat:
                    raise RemainingError(
                        f"{name} cannot hold {t}: {players[ex[0]]} exposed it at turn {ex[1]}", **where
                    )
                listed[t] = seat
            for t in self.known_held(seat):
                if t not in value:
                    ex = self.exposed_by(t)
                    assert ex is not None, f"{t} was not exposed"  # known_held lists exposed tiles
                    raise RemainingError(
                        f"{name} exposed {t} at turn {ex[1]} and never set it: "
                        f"it must be among {name}'s unplayed tiles",
                        **where,
                    )
            counts.append(len(value))
            tiles.append(value)
        settlement = self.settlement if self.settlement is not None else self.penalties(counts)
        return dataclasses.replace(
            self, unplayed=tuple(counts), unplayed_tiles=tuple(tiles), unplayed_entered=True, settlement=settlement
        )

    # -- checks
    def _where(self) -> Where:
        return {"hand": self.number, "turn": len(self.turns) + 1}

    def _turn_that_set(self, tile: Tile) -> Turn:
        """The turn that set ``tile``, a tile on the table."""
        t = self.set_at(tile)
        assert t is not None, f"{tile} is not on the table"
        return t

    def open_seat(self) -> int:
        """The seat to move; raises once the hand has ended."""
        if self.entered:
            raise HandOverError("the hand was entered as points: it has no turns", **self._where())
        if self.end is not None:
            how = "all 28 tiles are down" if self.end == "complete" else "four passes in succession"
            raise HandOverError(f"the hand has ended ({how}): no more turns", **self._where())
        if len(self.turns) >= MAX_TURNS:
            raise HandOverError(f"a hand takes at most {MAX_TURNS:,} turns", **self._where())
        return (self.leader + len(self.turns)) % 4  # next_seat, the hand being open

    def _check_owner(self, tile: Tile, seat: int, where: Where) -> None:
        ex = self.exposed_by(tile)
        if ex is not None and ex[0] != seat:
            raise IllegalTileError(
                f"{tile} is {self.setup.players[ex[0]]}'s: it was exposed at turn {ex[1]}, "
                f"so {self.setup.players[seat]} cannot hold it",
                **where,
            )

    def _check_room(self, seat: int, pending: tuple[Tile, ...], tile: Tile, where: Where) -> None:
        """``seat`` still holds ``pending`` (exposed, not set): is there room for ``tile`` too?"""
        held = self.held(seat)
        who = self.setup.who(seat)
        if held == 0:
            raise HandSizeError(f"{who} has set all {HAND_SIZE} tiles and can only pass", **where)
        if len(pending) >= held:
            shown = ", ".join(str(t) for t in pending)
            raise HandSizeError(
                f"{who} holds {_plural(held, 'tile')} and exposed {shown}: {tile} cannot be among them", **where
            )

    def _check_tile(self, tile: Tile, seat: int, where: Where) -> None:
        """May ``seat`` set ``tile`` now, wherever it goes?"""
        if not self.turns:
            if tile is not self.double:
                raise WrongDoubleError(
                    f"hand {self.number} is built on {self.double}: the first turn sets {self.double}, not {tile}",
                    **where,
                )
        elif tile in self.layout:
            t = self._turn_that_set(tile)
            raise IllegalTileError(
                f"{tile} is already on the table (set by {self.setup.players[t.seat]} at turn {t.number})", **where
            )
        self._check_owner(tile, seat, where)
        pending = self.known_held(seat)
        if tile not in pending:
            self._check_room(seat, pending, tile, where)

    def _check_play(self, p: Placement, seat: int | None) -> tuple[Cell, ...]:
        """The matched cells of ``p`` set by ``seat``; raises naming hand and turn if illegal."""
        where = self._where()
        if seat is None or self.end is not None:
            seat = self.open_seat()  # raises: the hand has ended (no seat is to move)
        setup = self.setup
        who = setup.who(seat)
        tile = p.tile
        layout = self.layout
        self._check_tile(tile, seat, where)
        c0, c1 = p.cells
        if not adjacent(c0, c1):
            raise NotAdjacentError(
                f"cells {c0} and {c1} are not adjacent: {tile} covers two cells that share an edge", **where
            )
        for c in p.cells:
            covering = layout.placement_at(c)
            if covering is not None:
                t = self._turn_that_set(covering.tile)
                raise OccupiedCellError(f"cell {c} is already covered by {covering.tile} (turn {t.number})", **where)
        axis = setup.axis(seat)
        if axis is not None and p.axis != axis:
            same = "same y" if axis == "east-west" else "same x"
            wrong = "North-South" if axis == "east-west" else "East-West"
            right = "East-West" if axis == "east-west" else "North-South"
            raise OrientationError(f"{who} sets tiles {right} ({same}), not {wrong}", **where)
        matched = layout.matched(p)
        if self.turns and not matched:
            raise NoMatchError(
                f"{tile} on {c0} {c1} matches no section: neither half touches a half showing its number",
                **where,
            )
        return matched
