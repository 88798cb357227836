"""Broadway: the match as a fold of events, each hand an immutable value.

:class:`Match` applies one event at a time (:meth:`Match.push`) -- a hand's
start (its leader), a turn (a tile set on two cells, a pass, a tile
exposed), the tiles left unplayed -- checking every rule of
``docs/rules/broadway.md`` (:mod:`.rules`; the events are :mod:`.events`'s, the hand
values :mod:`.hand`'s). Each event makes a new :class:`Hand` value
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
scorekeeper.broadway.rules.OrientationError: hand 1, turn 5: Ben (East) sets tiles North-South (same x), not East-West
>>> m.pop(); m.to_move
Expose(tile=Tile(5, 2), player=None)
'Ann'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, overload

from scorekeeper.broadway.events import (
    Adjust,
    Event,
    Expose,
    Pass,
    Play,
    PointsHand,
    StartHand,
    Unplayed,
    parse_unplayed,
    record_of,
)
from scorekeeper.broadway.grid import Placement, parse_pips
from scorekeeper.broadway.hand import Hand, Preview, Turn
from scorekeeper.broadway.rules import (
    DEFAULT_SIDES,
    HAND_SIZE,
    MAX_TURNS,
    REGULAR_HANDS,
    SEATS,
    HandSizeError,
    NoMatchError,
    NotAdjacentError,
    OccupiedCellError,
    OrientationError,
    Rules,
    Setup,
    WrongDoubleError,
    double_of,
)
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import (
    HandOverError,
    IllegalEntryError,
    LeaderError,
    MatchOverError,
    NothingToUndoError,
    RemainingError,
    ScorekeeperError,
    Where,
    WrongPlayerError,
    short,
)
from scorekeeper.points import Adjustment, adjustment_field, check_adjust, credit_adjust, credit_points, side_points

__all__ = [
    "Adjust",
    "DEFAULT_SIDES",
    "Event",
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
    "PointsHand",
    "Preview",
    "REGULAR_HANDS",
    "Rules",
    "SEATS",
    "Setup",
    "StartHand",
    "Turn",
    "Unplayed",
    "WrongDoubleError",
    "double_of",
]

# ---------------------------------------------------------------------- the match
#: The most a hand entered as points may give a side: 10 for each of the 27 tiles set after
#: the double (a tile left unplayed gives the opponents one point, and takes ten away).
MOST_IN_HAND = 10 * 27
#: The most a hand may take off a side where unplayed tiles subtract: both partners' tiles.
MOST_OFF = 2 * HAND_SIZE

#: What an event changed, to put back on undo: the last hand (None: the event started it),
#: the scores, the winner, ``won_at``.
_Before = tuple[Hand | None, tuple[int, ...], int | None, tuple[int, int | None] | None]


class Match:
    """A Broadway match being played or replayed: the fold of its events.

    ``hands`` holds the hand values (the last one is being played; a hand entered as
    points is one too, ``Hand.entered``), ``adjustments`` the adjustments, each after the
    hands it followed (:func:`scorekeeper.points.in_order`), ``scores`` the totals per
    side (in the order of ``setup.sides``, from the scores carried in), ``winner`` a side
    index or None, ``won_at`` ``(hand, turn)`` of the winning moment (turn None: the end
    of the hand; an adjustment: the hands before it, and ``won_by`` is ``"adjust"``).
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.events: list[Event] = []
        self.hands: list[Hand] = []
        self.adjustments: list[Adjustment] = []
        self.scores: list[int] = list(setup.scores_at_start)
        self.winner: int | None = None
        self.won_at: tuple[int, int | None] | None = None
        self.won_by: str | None = None
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
        return (
            tuple(self.hands),
            tuple(self.adjustments),
            tuple(self.scores),
            self.winner,
            self.won_at,
            self.won_by,
            len(self.events),
        )

    # ------------------------------------------------------------ changing
    @overload
    def push(self, event: Play | Pass | Expose) -> Turn: ...
    @overload
    def push(self, event: StartHand) -> None: ...
    @overload
    def push(self, event: Unplayed | PointsHand) -> Hand: ...
    @overload
    def push(self, event: Adjust) -> Adjustment: ...
    @overload
    def push(self, event: Event) -> Turn | Hand | Adjustment | None: ...
    def push(self, event: Event) -> Turn | Hand | Adjustment | None:
        """Apply one event, checking every rule; returns the :class:`Turn` of a turn, the
        settled :class:`Hand` for :class:`Unplayed`, the new hand of a
        :class:`~scorekeeper.points.PointsHand`, the :class:`~scorekeeper.points.Adjustment`
        of an :class:`~scorekeeper.points.Adjust`. On error nothing changes and a
        :class:`ScorekeeperError` naming the hand and turn is raised."""
        before: _Before = (self.hand, tuple(self.scores), self.winner, self.won_at)
        result: Turn | Hand | Adjustment | None
        if type(event) is StartHand:
            self._start(event)
            result = None
            before = (None,) + before[1:]
        elif type(event) is PointsHand:
            result = self._points(event)
            before = (None,) + before[1:]
        elif type(event) is Adjust:
            result = self._adjust(event)
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
        return record_of(self.setup, self.events)

    def pop(self) -> Event:
        """Drop the last event and return it (the state is exactly what it was before it)."""
        if not self.events:
            raise NothingToUndoError("there is nothing to undo")
        event = self.events.pop()
        hand, scores, winner, won_at = self._before.pop()
        if type(event) is Adjust:
            self.adjustments.pop()
        elif hand is None:
            self.hands.pop()
        else:
            self.hands[-1] = hand
        self.scores = list(scores)
        self.winner = winner
        self.won_at = won_at
        self.won_by = None  # only the last entry can have won the match
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

    def points_hand(self, points: dict[str, int]) -> Hand:
        """Enter the next hand as points: ``m.points_hand({"North-South": 12, "East-West": -3})``
        (each side's points, all in: its placements and its unplayed tiles)."""
        return self.push(PointsHand(tuple(points.items())))

    def adjust(self, changes: dict[str, int], why: str) -> Adjustment:
        """Enter an adjustment between hands: ``m.adjust({"East-West": -2}, "exposed twice")``."""
        return self.push(Adjust(tuple(changes.items()), why))

    def settle(self, unplayed: Mapping[str, Any]) -> Hand:
        """``m.settle({"Ann": 2, "Ben": ["5-2"], ...})``: the tiles each player was left with."""
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
        if self.won_by == "adjust":
            at = "the " + adjustment_field(hand)
        else:
            at = f"hand {hand}, turn {turn}" if turn is not None else f"the end of hand {hand}"
        return f"the match is over: {self.setup.sides[w]} won {self.scores[w]} to {self.scores[1 - w]} at {at}"

    def _turn_hand(self) -> tuple[Hand, int]:
        """The hand a turn goes into and the seat to move (raises if no turn can be entered)."""
        h = self.hand
        if h is None:
            raise HandOverError("no hand has been started: give the leader first", hand=1, turn=1)
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), hand=h.number, turn=len(h.turns) + 1)
        return h, h.open_seat()

    def _between(self, where: Where, what: str = "") -> None:
        """The checks of an entry that comes between hands (a hand's start, a hand entered as
        points, an adjustment): the match is not over, the last hand has ended and is settled.
        ``what``: why, said after the refusal of an unfinished hand (else how a hand ends)."""
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), **where)
        prev = self.hand
        if prev is not None and prev.end is None:
            why = what or "a hand is played until all 28 tiles are down or four players pass in succession"
            raise HandOverError(
                f"hand {prev.number} has not ended (turn {len(prev.turns) + 1} is next): {why}", **where
            )
        if prev is not None and not prev.settled:
            due = ", ".join(f"{n} {c}" for n, c in zip(self.setup.players, prev.due, strict=True) if c)
            raise RemainingError(
                f"the hand ended (four passes in succession) but its unplayed tiles are missing ({due})",
                hand=prev.number,
                field="unplayed",
            )

    def _start(self, ev: StartHand) -> None:
        number = len(self.hands) + 1
        self._between({"hand": number})
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

    def _points(self, ev: PointsHand) -> Hand:
        """The next hand, entered as points: each side's from -14 (where unplayed tiles
        subtract; else 0) to 270; after it, the seventh hand or sudden death decides."""
        number = len(self.hands) + 1
        self._between({"hand": number})
        sides = self.setup.sides
        points = side_points(ev.points, sides, number)
        subtract = self.rules.unplayed_penalty == "subtract"
        for side, p in zip(sides, points, strict=True):
            if p < 0 and not subtract:
                raise IllegalEntryError(
                    f"{side} cannot score {p}: a hand takes no points off (unplayed tiles go to the opponents)",
                    hand=number,
                    field="points",
                )
            if p < -MOST_OFF:
                raise IllegalEntryError(
                    f"{side} cannot score {p}: a hand takes at most {MOST_OFF} off (a point for each tile left)",
                    hand=number,
                    field="points",
                )
            if p > MOST_IN_HAND:
                raise IllegalEntryError(
                    f"{side} cannot score {p}: a hand gives at most {MOST_IN_HAND} (10 for each tile after the double)",
                    hand=number,
                    field="points",
                )
        done = credit_points(self.scores, points, sides, target=None, exact=False, first=ev.first, number=number)
        hand = Hand(
            self.setup,
            number,
            -1,
            tuple(self.scores),
            end="points",
            settlement=(0, 0),
            unplayed_entered=True,
            points=points,
            entered=True,
        )
        self.hands.append(hand)
        self.scores = list(done.scores)
        self._decide(hand, None, settled=True)
        return hand

    def _adjust(self, ev: Adjust) -> Adjustment:
        """An adjustment between hands; in sudden death (after the seventh hand) a lead of two
        it makes wins at once."""
        after = len(self.hands)
        self._between({"field": adjustment_field(after)}, "an adjustment comes between hands")
        sides = self.setup.sides
        changes = check_adjust(ev, sides, after)
        done = credit_adjust(self.scores, changes, sides, target=None, after=after)
        adjustment = Adjustment(after, changes, ev.why, tuple(self.scores), done.scores)
        self.adjustments.append(adjustment)
        self.scores = list(done.scores)
        a, b = self.scores
        if after >= REGULAR_HANDS and abs(a - b) >= 2:
            self.winner = 0 if a > b else 1
            self.won_at, self.won_by = (after, None), "adjust"
        return adjustment

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
        if self.adjustments and self.adjustments[-1].after == len(self.hands) and not h.entered:
            raise RemainingError(
                "an adjustment follows the hand: its unplayed tiles can no longer be given",
                hand=h.number,
                field="unplayed",
            )
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
