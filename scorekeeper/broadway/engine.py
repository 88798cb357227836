"""Broadway: the match as a fold of events, each hand an immutable value.

:class:`Match` applies one event at a time (:meth:`Match.push`) -- a hand's
start (its leader), a turn (a tile set on two cells, a pass, a tile
exposed), the tiles left unplayed -- checking every rule of
``docs/rules/broadway.md``. Each event makes a new :class:`Hand` value
(nothing is changed in place), so :meth:`Match.pop` simply goes back to the
value before; a refused event changes nothing. Contract and choices:
``docs/broadway-engine.md``.

The spec's example (East holds the ``[6-6]``):

>>> m = Match(Setup.new(["Ann", "Ben", "Cy", "Di"]))
>>> m.start("East")
>>> m.play("6-6", [[0, 0], [0, 1]]).points          # East sets tiles North-South
0
>>> m.hand.preview("6-3", [[1, 0], [2, 0]])        # what Cy (South) would score
Preview(placement=Placement(6, 3, ((1, 0), (2, 0))), matched=((0, 0),), points=0, error=None)
>>> m.play("6-3", [[1, 0], [2, 0]]).matched, m.pass_().kind, m.expose("5-2").kind
(((0, 0),), 'pass', 'exposed')
>>> m.to_move, m.hand.due
('Ben', (7, 6, 6, 7))
>>> m.play("3-3", [[2, 1], [3, 1]])
Traceback (most recent call last):
...
scorekeeper.broadway.engine.OrientationError: hand 1, turn 5: Ben (East) sets tiles North-South (same x), not East-West
>>> m.pop(); m.to_move
Expose(tile=Tile(5, 2), player=None)
'Ann'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, final, overload

from scorekeeper.broadway.grid import HIGHEST, Cell, Layout, Placement, adjacent, neighbours, parse_pips, points_for
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.envelope import Envelope, new_record, type_name
from scorekeeper.errors import (
    HandOverError,
    IllegalEntryError,
    IllegalPlacementError,
    IllegalTileError,
    LeaderError,
    MatchOverError,
    NothingToUndoError,
    RecordFormatError,
    RemainingError,
    RulesError,
    ScorekeeperError,
    Where,
    WrongPlayerError,
    short,
)

__all__ = [
    "DEFAULT_SIDES",
    "Expose",
    "Hand",
    "HandSizeError",
    "MAX_TURNS",
    "Match",
    "NoMatchError",
    "NotAdjacentError",
    "OccupiedCellError",
    "OrientationError",
    "Pass",
    "Play",
    "Preview",
    "Rules",
    "SEATS",
    "Setup",
    "StartHand",
    "Turn",
    "Unplayed",
    "WrongDoubleError",
    "double_of",
]

SEATS = ("North", "East", "South", "West")
DEFAULT_SIDES = ("North-South", "East-West")
HAND_SIZE = 7
SET_SIZE = 28
#: Hands of the match proper; later hands are sudden death.
REGULAR_HANDS = 7
ORIENTATIONS = ("seat", "free")
UNPLAYED_PENALTIES = ("subtract", "to-opponents")
RULE_KEYS = ("orientation", "unplayed_penalty")
#: The most turns one hand may take: a bound on the work a record can ask for (a real
#: hand takes at most a few hundred: 28 tiles, passes, exposures).
MAX_TURNS = 9_999


# ---------------------------------------------------------------------- errors
class OccupiedCellError(IllegalPlacementError):
    """A tile set on a cell that is already covered."""


class NotAdjacentError(IllegalPlacementError):
    """A tile's two cells do not share an edge."""


class OrientationError(IllegalPlacementError):
    """A tile not set horizontally from its placer's seat."""


class NoMatchError(IllegalPlacementError):
    """A tile that touches no half showing the same number."""


class WrongDoubleError(IllegalTileError):
    """A hand's first turn that does not set the hand's double."""


class HandSizeError(IllegalEntryError):
    """More than seven tiles for one player in a hand (set, exposed or listed)."""


# ---------------------------------------------------------------------- setup
def double_of(number: int) -> Tile:
    """The double hand ``number`` is built on: 6-6, 5-5, ... 0-0, then 6-6 again.

    >>> [str(double_of(n)) for n in (1, 2, 7, 8, 14, 15)]
    ['6-6', '5-5', '0-0', '6-6', '0-0', '6-6']
    """
    d = HIGHEST - (number - 1) % (HIGHEST + 1)
    return Tile(d, d)


@dataclass(frozen=True, slots=True)
class Rules:
    """``orientation``: ``"seat"`` (default) or ``"free"``; ``unplayed_penalty``:
    ``"subtract"`` (default) or ``"to-opponents"``.

    >>> Rules.parse({"orientation": "free"})
    Rules(orientation='free', unplayed_penalty='subtract')
    >>> Rules.parse({"target": 100})
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RulesError: rules: unknown rule 'target' (Broadway rules: orientation, unplayed_penalty)
    """

    orientation: str = "seat"
    unplayed_penalty: str = "subtract"

    @classmethod
    def parse(cls, rules: Any) -> Rules:
        if rules is None:
            return cls()
        if not isinstance(rules, Mapping):
            raise RulesError(f"must be an object, not {type_name(rules)}", field="rules")
        for key in rules:
            if key not in RULE_KEYS:
                raise RulesError(f"unknown rule {short(key)} (Broadway rules: {', '.join(RULE_KEYS)})", field="rules")
        orientation = rules.get("orientation", "seat")
        if not isinstance(orientation, str) or orientation not in ORIENTATIONS:
            raise RulesError(f'must be "seat" or "free", not {short(orientation)}', field="rules.orientation")
        penalty = rules.get("unplayed_penalty", "subtract")
        if not isinstance(penalty, str) or penalty not in UNPLAYED_PENALTIES:
            raise RulesError(
                f'must be "subtract" or "to-opponents", not {short(penalty)}', field="rules.unplayed_penalty"
            )
        return cls(orientation, penalty)

    def to_json(self) -> dict[str, str]:
        return {"orientation": self.orientation, "unplayed_penalty": self.unplayed_penalty}


@dataclass(frozen=True, slots=True)
class Setup:
    """The four seats (North, East, South, West: ``players`` in order), the two sides
    (seats 1 & 3 and 2 & 4) and the rules."""

    players: tuple[str, ...]
    sides: tuple[str, ...]
    side_of: tuple[int, ...]
    rules: Rules
    envelope: Envelope | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, record: Any) -> Setup:
        """The setup of a ``"game": "broadway"`` record (envelope, seats, teams, rules)."""
        env = Envelope.parse(record)
        if env.game != "broadway":
            raise RecordFormatError(f"not a Broadway record (game {env.game!r})", field="game")
        players = env.players
        if len(players) != 4:
            raise RecordFormatError(
                f"Broadway is played by four players, in seat order North, East, South, West (here {len(players)})",
                field="players",
            )
        sides: tuple[str, ...]
        side_of: tuple[int, ...]
        if env.teams is None:
            sides, side_of = DEFAULT_SIDES, (0, 1, 0, 1)
        else:
            side_of = env.side_of
            if len(env.sides) != 2 or side_of[0] != side_of[2] or side_of[1] != side_of[3]:
                raise RecordFormatError(
                    f"partners sit opposite each other: the teams are {players[0]} & {players[2]} "
                    f"(seats 1 & 3) and {players[1]} & {players[3]} (seats 2 & 4)",
                    field="teams",
                )
            sides = env.sides
        return cls(players, tuple(sides), tuple(side_of), Rules.parse(record.get("rules")), env)

    @classmethod
    def new(
        cls,
        players: Iterable[str],
        teams: Mapping[str, Iterable[str]] | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> Setup:
        """A setup from the four players (North, East, South, West) for a new match."""
        return cls.of(new_record("broadway", players, teams, rules))

    def seat_of(self, name: Any) -> int | None:
        """The seat (0..3) of a player's name, or of a seat's name (``"East"``) when no
        player is called so; None for anything else.

        >>> s = Setup.new(["Ann", "Ben", "Cy", "Di"])
        >>> s.seat_of("Cy"), s.seat_of("West"), s.seat_of("Zed")
        (2, 3, None)
        """
        if not isinstance(name, str):
            return None
        if name in self.players:
            return self.players.index(name)
        if name in SEATS:
            return SEATS.index(name)
        return None

    def who(self, seat: int) -> str:
        """``"Ben (East)"``, or just ``"East"`` when the player is named after the seat."""
        name = self.players[seat]
        return name if name == SEATS[seat] else f"{name} ({SEATS[seat]})"

    def axis(self, seat: int) -> str | None:
        """How a seat sets its tiles: ``"east-west"`` (North, South), ``"north-south"`` (East,
        West), or None with ``orientation: "free"``."""
        if self.rules.orientation == "free":
            return None
        return "east-west" if seat % 2 == 0 else "north-south"


# ---------------------------------------------------------------------- events
@final
@dataclass(frozen=True, slots=True)
class StartHand:
    """A hand begins; ``leader`` (a player, or a seat's name) holds the hand's double."""

    leader: str


@final
@dataclass(frozen=True, slots=True)
class Play:
    """A turn that sets a tile (``{"play": ..., "at": ...}``)."""

    placement: Placement
    player: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Pass:
    """A turn that passes (``{"pass": true}``)."""

    player: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Expose:
    """A turn lost because the player exposed ``tile`` (``{"exposed": ...}``)."""

    tile: Tile
    player: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Unplayed:
    """The tiles each player was left with: a count, or the tiles (a tuple)."""

    given: tuple[tuple[str, int | tuple[Tile, ...]], ...]


Event = StartHand | Play | Pass | Expose | Unplayed


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
    turns: tuple[Turn, ...] = ()
    set_by: tuple[int, ...] = (0, 0, 0, 0)
    exposures: tuple[tuple[Tile, int, int], ...] = ()  # (tile, seat, turn number), in order
    passes: int = 0  # passes in succession
    end: str | None = None
    unplayed: tuple[int, ...] | None = None  # tiles left per seat, once settled
    unplayed_tiles: tuple[tuple[Tile, ...] | None, ...] | None = None  # where listed
    unplayed_entered: bool = False
    settlement: tuple[int, ...] | None = None  # penalty points per side, once settled
    points: tuple[int, ...] = (0, 0)  # placement points per side in this hand

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
                                found[key] = Placement._trusted(v, w, (n, m))
        # free, adjacent, well oriented cells next to a matching half: legal by construction
        out = []
        for p in sorted(found.values(), key=lambda p: (p.cells, p.first)):
            matched = layout.matched(p)
            out.append(Preview(p, matched, points_for(len(matched))))
        return tuple(out)

    # -- the next value
    def with_play(self, p: Placement) -> tuple[Hand, Turn]:
        """Set ``p`` for the seat to move (every rule checked; raises naming hand and turn)."""
        seat = self._open_seat()
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
            turns=self.turns + (turn,),
            set_by=tuple(set_by),
            passes=0,
            points=tuple(points),
            **changes,
        )
        return new, turn

    def with_pass(self) -> tuple[Hand, Turn]:
        seat = self._open_seat()
        if not self.turns:
            raise WrongDoubleError(
                f"the first turn sets the hand's double {self.double}: {self.setup.who(seat)} cannot pass",
                **self._where(),
            )
        turn = Turn(len(self.turns) + 1, seat)
        passes = self.passes + 1
        new = dataclasses.replace(
            self, turns=self.turns + (turn,), passes=passes, end="blocked" if passes == 4 else None
        )
        return new, turn

    def with_exposed(self, tile: Tile) -> tuple[Hand, Turn]:
        """The seat to move exposed ``tile`` and loses this turn."""
        seat = self._open_seat()
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
        new = dataclasses.replace(self, turns=self.turns + (turn,), passes=0, exposures=exposures)
        return new, turn

    def with_unplayed(self, given: Iterable[tuple[str, Any]]) -> Hand:
        """Settle the ended hand from what each player was left with (a count or the tiles)."""
        setup = self.setup
        players = setup.players
        where: Where = {"hand": self.number, "field": "unplayed"}
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

    def _open_seat(self) -> int:
        """The seat to move; raises once the hand has ended."""
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
            seat = self._open_seat()  # raises: the hand has ended (no seat is to move)
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


# ---------------------------------------------------------------------- the match
#: What an event changed, to put back on undo: the last hand (None: the event started it),
#: the scores, the winner, ``won_at``.
_Before = tuple[Hand | None, tuple[int, ...], int | None, tuple[int, int | None] | None]


class Match:
    """A Broadway match being played or replayed: the fold of its events.

    ``hands`` holds the hand values (the last one is being played), ``scores``
    the totals per side (in the order of ``setup.sides``), ``winner`` a side
    index or None, ``won_at`` ``(hand, turn)`` of the winning moment (turn None:
    the end of the hand).
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.events: list[Event] = []
        self.hands: list[Hand] = []
        self.scores: list[int] = [0, 0]
        self.winner: int | None = None
        self.won_at: tuple[int, int | None] | None = None
        self._before: list[_Before] = []

    # ------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand | None:
        """The current (last) hand."""
        return self.hands[-1] if self.hands else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def phase(self) -> str:
        """What the table enters next: ``"start"`` (a new hand: its leader), ``"play"``
        (a turn), ``"unplayed"`` (the tiles left, after a blocked hand) or ``"over"``."""
        h = self.hand
        if self.winner is not None:
            return "over"
        if h is None or h.settled:
            return "start"
        return "play" if h.end is None else "unplayed"

    @property
    def to_move(self) -> str | None:
        """The player whose turn it is, or None when no turn can be entered."""
        seat = self.seat_to_move
        return None if seat is None else self.setup.players[seat]

    @property
    def seat_to_move(self) -> int | None:
        h = self.hand
        if h is None or self.winner is not None:
            return None
        return h.next_seat

    @property
    def next_double(self) -> Tile | None:
        """The double the next hand is built on (None once the match is over)."""
        return None if self.winner is not None else double_of(len(self.hands) + 1)

    @property
    def totals(self) -> dict[str, int]:
        """``{side: score}``."""
        return dict(zip(self.setup.sides, self.scores, strict=True))

    def preview(self, tile: Any, cells: Any = None) -> Preview:
        """What the player to move would score by setting ``tile`` on ``cells`` (see
        :meth:`Hand.preview`); never raises."""
        try:
            h, _ = self._turn_hand()
        except ScorekeeperError as e:
            p = tile if isinstance(tile, Placement) else None
            return Preview(p, error=e)
        return h.preview(tile, cells)

    def legal_placements(self, tile: Any) -> tuple[Preview, ...]:
        """Where the player to move can set ``tile`` now (see :meth:`Hand.legal_placements`)."""
        h = self.hand
        if h is None or self.phase != "play":
            return ()
        return h.legal_placements(tile)

    def penalties_preview(self, unplayed: Mapping[str, Any]) -> dict[str, int]:
        """``{side: penalty}`` the ended hand would settle with ``unplayed`` (``{player:
        count or [tiles]}``); raises the entry's error if it is wrong. Nothing changes."""
        from scorekeeper.broadway.record import parse_unplayed

        h = self.hand
        number = h.number if h is not None else 1
        event = parse_unplayed(dict(unplayed), number)
        if h is None:
            raise HandOverError("no hand has been started", hand=1, field="unplayed")
        settlement = h.with_unplayed(event.given).settlement
        assert settlement is not None, "with_unplayed settles the hand"
        return dict(zip(self.setup.sides, settlement, strict=True))

    def state(self) -> tuple[object, ...]:
        """A comparable description of the whole state (for tests)."""
        return (tuple(self.hands), tuple(self.scores), self.winner, self.won_at, len(self.events))

    # ------------------------------------------------------------ changing
    @overload
    def push(self, event: Play | Pass | Expose) -> Turn: ...
    @overload
    def push(self, event: StartHand) -> None: ...
    @overload
    def push(self, event: Unplayed) -> Hand: ...
    @overload
    def push(self, event: Event) -> Turn | Hand | None: ...
    def push(self, event: Event) -> Turn | Hand | None:
        """Apply one event, checking every rule; returns the :class:`Turn` of a turn, the
        settled :class:`Hand` for :class:`Unplayed`. On error nothing changes and a
        :class:`ScorekeeperError` naming the hand and turn is raised."""
        before: _Before = (self.hand, tuple(self.scores), self.winner, self.won_at)
        result: Turn | Hand | None
        if type(event) is StartHand:
            self._start(event)
            result = None
            before = (None,) + before[1:]
        elif type(event) is Play or type(event) is Pass or type(event) is Expose:
            result = self._turn(event)
        elif type(event) is Unplayed:
            result = self._unplayed(event)
        else:
            raise TypeError(f"not a Broadway event: {event!r}")
        self.events.append(event)
        self._before.append(before)
        return result

    def extend(self, events: Iterable[Event]) -> None:
        for e in events:
            self.push(e)

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[Event]) -> Match:
        m = cls(setup)
        m.extend(events)
        return m

    def to_record(self) -> dict[str, Any]:
        """The match as a ``scorekeeper/1`` record (the inverse of :func:`~scorekeeper.broadway.record.load`)."""
        from scorekeeper.broadway.record import to_record

        return to_record(self)

    def pop(self) -> Event:
        """Drop the last event and return it (the state is exactly what it was before it)."""
        if not self.events:
            raise NothingToUndoError("there is nothing to undo")
        event = self.events.pop()
        hand, scores, winner, won_at = self._before.pop()
        if hand is None:
            self.hands.pop()
        else:
            self.hands[-1] = hand
        self.scores = list(scores)
        self.winner = winner
        self.won_at = won_at
        return event

    # -- convenience for people and UIs: parse, then push
    def start(self, leader: str) -> None:
        """Start the next hand; ``leader`` holds its double (:attr:`next_double`)."""
        self.push(StartHand(leader))

    def play(self, tile: Any, cells: Any = None, player: str | None = None) -> Turn:
        """``m.play("6-3", [[1, 0], [2, 0]])``: the 6 on (1, 0), the 3 on (2, 0); or ``m.play(placement)``."""
        try:
            p = tile if isinstance(tile, Placement) else Placement.of(tile, cells)
        except ScorekeeperError as e:
            raise type(e)(e.reason, **self._where()) from None
        return self.push(Play(p, player))

    def pass_(self, player: str | None = None) -> Turn:
        return self.push(Pass(player))

    def expose(self, tile: Any, player: str | None = None) -> Turn:
        try:
            t = Tile(*parse_pips(tile))
        except ScorekeeperError as e:
            raise type(e)(e.reason, **self._where()) from None
        return self.push(Expose(t, player))

    def settle(self, unplayed: Mapping[str, Any]) -> Hand:
        """``m.settle({"Ann": 2, "Ben": ["5-2"], ...})``: the tiles each player was left with."""
        from scorekeeper.broadway.record import parse_unplayed

        h = self.hand
        return self.push(parse_unplayed(dict(unplayed), h.number if h is not None else 1))

    # ------------------------------------------------------------ internals
    def _where(self) -> Where:
        h = self.hand
        return {"hand": 1, "turn": 1} if h is None else {"hand": h.number, "turn": len(h.turns) + 1}

    def _over_reason(self) -> str:
        w, won_at = self.winner, self.won_at
        assert w is not None and won_at is not None, "the match is not over"
        hand, turn = won_at
        at = f"hand {hand}, turn {turn}" if turn is not None else f"the end of hand {hand}"
        return f"the match is over: {self.setup.sides[w]} won {self.scores[w]} to {self.scores[1 - w]} at {at}"

    def _turn_hand(self) -> tuple[Hand, int]:
        """The hand a turn goes into and the seat to move (raises if no turn can be entered)."""
        h = self.hand
        if h is None:
            raise HandOverError("no hand has been started: give the leader first", hand=1, turn=1)
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), hand=h.number, turn=len(h.turns) + 1)
        return h, h._open_seat()

    def _start(self, ev: StartHand) -> None:
        number = len(self.hands) + 1
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), hand=number)
        prev = self.hand
        if prev is not None and prev.end is None:
            raise HandOverError(
                f"hand {prev.number} has not ended (turn {len(prev.turns) + 1} is next): a hand is played "
                f"until all 28 tiles are down or four players pass in succession",
                hand=number,
            )
        if prev is not None and not prev.settled:
            due = ", ".join(f"{n} {c}" for n, c in zip(self.setup.players, prev.due, strict=True) if c)
            raise RemainingError(
                f"the hand ended (four passes in succession) but its unplayed tiles are missing ({due})",
                hand=prev.number,
                field="unplayed",
            )
        double = double_of(number)
        leader = ev.leader
        if leader is None:
            raise LeaderError(f"a leader is required: the player who holds {double}", hand=number, field="leader")
        seat = self.setup.seat_of(leader)
        if seat is None:
            raise LeaderError(
                f"{short(leader)} is not a player (players: {', '.join(self.setup.players)})",
                hand=number,
                field="leader",
            )
        self.hands.append(Hand(self.setup, number, seat, tuple(self.scores)))
        return None

    def _turn(self, ev: Play | Pass | Expose) -> Turn:
        h, seat = self._turn_hand()
        if ev.player is not None:
            named = self.setup.seat_of(ev.player)
            if named != seat:
                where = h._where()
                if named is None:
                    raise WrongPlayerError(f"{short(ev.player)} is not a player", **where)
                raise WrongPlayerError(
                    f"turn out of order: it is {self.setup.who(seat)}'s turn, not {self.setup.who(named)}'s", **where
                )
        if type(ev) is Play:
            new, turn = h.with_play(ev.placement)
        elif type(ev) is Pass:
            new, turn = h.with_pass()
        else:
            new, turn = h.with_exposed(ev.tile)
        self.hands[-1] = new
        if turn.points:
            self.scores[self.setup.side_of[seat]] += turn.points
            self._decide(new, turn.number, settled=False)
        if new.end == "complete":
            self._decide(new, turn.number, settled=True)
        return turn

    def _unplayed(self, ev: Unplayed) -> Hand:
        h = self.hand
        if h is None:
            raise HandOverError("no hand has been started", hand=1, field="unplayed")
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), hand=h.number, field="unplayed")
        new = h.with_unplayed(ev.given)
        self.hands[-1] = new
        if not h.settled:
            settlement = new.settlement
            assert settlement is not None, "with_unplayed settles the hand"
            for s, pts in enumerate(settlement):
                self.scores[s] += pts
            self._decide(new, None, settled=True)
        return new

    def _decide(self, h: Hand, turn: int | None, *, settled: bool) -> None:
        """After seven hands the side with more points wins; in sudden death, the first
        side to lead by two or more, at any moment."""
        if self.winner is not None:
            return
        a, b = self.scores
        if h.sudden_death:
            if abs(a - b) >= 2:
                self.winner = 0 if a > b else 1
                self.won_at = (h.number, turn)
        elif settled and h.number == REGULAR_HANDS and a != b:
            self.winner = 0 if a > b else 1
            self.won_at = (h.number, turn)
