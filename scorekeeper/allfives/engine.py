"""The All Fives match: state as the fold of events.

:class:`Match` applies events one at a time (:meth:`Match.push`), checking
every rule, and keeps its state incrementally: a play costs a handful of
integer updates, never a recount. :meth:`Match.pop` drops the last event
(the current hand is folded again from its start; earlier hands are kept).

>>> from scorekeeper.dominoes import Tile
>>> m = Match(Setup.new(["Ann", "Ben"]))
>>> m.start("Ann")
>>> m.play("3-2").points, m.play("2-2", on="3-2").count
(5, 7)
>>> m.to_move, m.scores
('Ann', [5, 0])
>>> sorted(str(t) for t in m.placements(Tile(2, 6)))
['2-2']
>>> m.play("2-2")
Traceback (most recent call last):
...
scorekeeper.errors.IllegalTileError: hand 1, turn 3: 2-2 is already on the table
>>> m.pop(); m.scores
Play(tile=Tile(2, 2), on=Tile(3, 2), draw=0, claim=None, muggins=None, player=None, sniff=None)
[5, 0]
>>> m.to_record()["hands"]
[{'leader': 'Ann', 'turns': [{'play': '3-2'}]}]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, NamedTuple, NoReturn, overload

from scorekeeper.allfives.events import Adjust, Event, Pass, Play, PointsHand, Settle, StartHand, record_of
from scorekeeper.allfives.layout import SNIFF_WAYS, Layout
from scorekeeper.allfives.rules import Setup as Setup
from scorekeeper.dominoes.tiles import Tile, tiles_of_set
from scorekeeper.errors import (
    AmbiguousPlacementError,
    ClaimError,
    HandOverError,
    IllegalDrawError,
    IllegalEntryError,
    IllegalPassError,
    IllegalPlacementError,
    IllegalTileError,
    LeaderError,
    MatchOverError,
    NothingToUndoError,
    RemainingError,
    Where,
    WrongPlayerError,
    short,
)
from scorekeeper.points import Adjustment, adjustment_field, check_adjust, credit_adjust, credit_points, side_points

#: The most points a play may claim (a count with a double-twelve set is far below it).
MAX_CLAIM = 9_999


def shown_name(value: object) -> str:
    """A name as given, for a message: as it is when short, else cut (see :func:`short`)."""
    return value if isinstance(value, str) and len(value) <= 40 else short(value)


def round5(x: int | Fraction) -> int:
    """The multiple of five nearest to ``x``, halves rounded up.

    >>> [round5(x) for x in (7, 8, 0, 2, 3, Fraction(25, 2), Fraction(5, 2))]
    [5, 10, 0, 0, 5, 15, 5]
    """
    x = Fraction(x)
    return _round5_ratio(x.numerator, x.denominator)


def _round5_ratio(pips: int, parts: int) -> int:
    """``round5(pips / parts)`` in integers."""
    return 5 * ((2 * pips + 5 * parts) // (10 * parts))


class Turn(NamedTuple):
    """What one turn did."""

    player: int  # player index
    tile: Tile | None  # None for a pass
    on: Tile | None
    # the count after the turn; the field hides tuple.count, which mypy reports as an incompatible
    # override: Turn.count is the engine's public API (a turn is read by name, never counted)
    count: int  # type: ignore[assignment]
    points: int  # what the turn added to the player's side
    drew: int
    claim: int | None = None
    claim_ok: bool | None = None  # claims "check" only
    voided: bool = False  # exact_target voided the points
    muggins: tuple[int, int, int, bool] | None = None  # (caller index, caller's side, points, voided)
    go: int = 0  # hand_end "go": the point for going out, included in ``points`` (unless voided)
    sniff: str | None = None  # the turn set the sniff: "across" or "inline"

    @property
    def passed(self) -> bool:
        return self.tile is None

    def state(self) -> tuple[object, ...]:
        return tuple(self)


#: A turn made with its fields by name: ``Turn.__new__`` called directly skips the dict of
#: keywords ``Turn(...)`` builds on the way (0.34 against 0.70 microseconds a turn).
_new_turn = Turn.__new__


class Hand:
    """The state of one hand (read-only for users of the engine)."""

    __slots__ = (
        "number",
        "leader",
        "layout",
        "held",
        "boneyard",
        "turns",
        "next_player",
        "passes",
        "end",
        "domino_player",
        "pips",
        "settlement",
        "winner",
        "voided",
        "scores_before",
        "first_event",
        "entered",
    )

    def __init__(
        self, number: int, leader: int, setup: Setup, scores_before: tuple[int, ...], first_event: int
    ) -> None:
        rules = setup.rules
        self.number = number
        self.leader = leader
        self.layout = Layout(rules.spinner)
        self.held = [rules.hand_size] * len(setup.players)
        self.boneyard = rules.boneyard
        self.turns: list[Turn] = []
        self.next_player = leader
        self.passes = 0  # passes in succession
        self.end: str | None = None  # None (open), "domino" or "blocked"
        self.domino_player: int | None = None
        self.pips: list[int] | None = None  # pips left per player, once settled
        self.settlement: list[int] | None = None  # per side, once settled
        self.winner: int | None = None  # side index
        self.voided: list[int] = []  # sides whose settlement exact_target voided
        self.scores_before = scores_before
        self.first_event = first_event
        #: A hand entered as points: the points entered for each side (those counted are its
        #: ``settlement``; the sides an exact target voided, ``voided``). None: played tile by tile.
        self.entered: tuple[int, ...] | None = None

    @property
    def count(self) -> int:
        return self.layout.count

    @property
    def settled(self) -> bool:
        return self.settlement is not None

    def state(self) -> tuple[object, ...]:
        return (
            self.number,
            self.leader,
            self.layout.state(),
            tuple(self.held),
            self.boneyard,
            tuple(t.state() for t in self.turns),
            self.next_player,
            self.passes,
            self.end,
            self.domino_player,
            None if self.pips is None else tuple(self.pips),
            None if self.settlement is None else tuple(self.settlement),
            self.winner,
            tuple(self.voided),
            self.scores_before,
            self.first_event,
            self.entered,
        )


class LegalPlays:
    """The plays open on the table now, as a lazy view (tiles not yet down that fit).

    Supports ``in`` (a :class:`Tile` or a :class:`Play`), ``bool``, ``len`` and
    iteration (one :class:`Play` per tile and tile it can go on).
    """

    __slots__ = ("_match",)

    def __init__(self, match: Match) -> None:
        self._match = match

    def __iter__(self) -> Iterator[Play]:
        m = self._match
        for tile in m.tiles:
            for on in m.placements(tile):
                yield Play(tile, on)

    def __contains__(self, item: object) -> bool:
        m = self._match
        if isinstance(item, Tile):
            return bool(m.placements(item))
        if isinstance(item, Play):
            places = m.placements(item.tile)
            return item.on in places if item.on is not None else len(places) == 1
        return False

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalPlays ({', '.join(f'{p.tile} on {p.on}' for p in self)})>"


class Match:
    """An All Fives match being played or replayed.

    ``hands`` holds every hand, those entered as points too (``Hand.entered``: their
    ``end`` is ``"points"``, their points counted are their ``settlement``, their
    ``leader`` is -1: nobody led); ``adjustments`` the adjustments, each after the hands
    it followed (:func:`scorekeeper.points.in_order` puts them in their place); ``scores``
    start from the scores the record carries in (``setup.start``).
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.tiles = tiles_of_set(setup.rules.set)
        self.events: list[Event] = []
        self.hands: list[Hand] = []
        self.adjustments: list[Adjustment] = []
        self.scores: list[int] = list(setup.scores_at_start)
        self.winner: int | None = None  # side index
        self.won_at: tuple[int, int | None] | None = None  # (hand, turn or None for settlement)
        #: How the match was won where no turn won it: ``"points"`` (a hand entered as points,
        #: hand ``won_at[0]``), ``"adjust"`` (the adjustment after ``won_at[0]`` hands), else None.
        self.won_by: str | None = None
        # read on every play: kept as plain attributes
        self._highest = setup.rules.set
        self._worth = setup.rules.worth
        self._check_claims = setup.rules.claims == "check"
        self._side_of = setup.side_of
        self._n = len(setup.players)
        self._members = setup.members
        # "side" with one player per side is "player"
        self._by_player = setup.rules.domino == "player" or len(setup.sides) == self._n
        self._go = 1 if setup.rules.hand_end == "go" else 0
        self._open_hand: Hand | None = None  # the hand that takes turns now, if any

    # ------------------------------------------------------------------ queries
    @property
    def hand(self) -> Hand | None:
        """The current (last) hand."""
        return self.hands[-1] if self.hands else None

    @property
    def to_move(self) -> str | None:
        """The player whose turn it is, or None when no turn can be entered."""
        h = self.hand
        if h is None or h.end is not None or self.winner is not None:
            return None
        return self.setup.players[h.next_player]

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def legal_plays(self) -> LegalPlays:
        return LegalPlays(self)

    def placements(self, tile: Tile) -> Sequence[Tile | None]:
        """Where ``tile`` can be set now: the tiles it fits (``[None]`` for the lead)."""
        h = self.hand
        if h is None or h.end is not None or self.winner is not None or tile in h.layout:
            return []
        if not h.turns:
            return [None]
        return h.layout.fits(tile)

    def counted_holders(self) -> list[str]:
        """The players still holding tiles at the end of the hand whose tiles change its
        settlement, in seating order: after a domino under winner-takes, the other sides'
        holders (the winning side's own tiles are left out of the pot); after a block, or
        under each-subtracts, every holder; none once the hand is settled (the go, or no
        settlement: the pips are only recorded). ``remaining`` may leave out the others."""
        h = self.hand
        if h is None or h.end is None or h.settlement is not None:
            return []
        return [self.setup.players[i] for i in sorted(self._counted(h))]

    def _counted(self, h: Hand) -> set[int]:
        """The seats of :meth:`counted_holders` for the ended hand ``h``."""
        holders = {i for i, held in enumerate(h.held) if held}
        if not self.rules.settles_pips:
            return set()
        if h.domino_player is not None and self.rules.hand_end == "winner-takes":
            side = self._side_of[h.domino_player]
            return {i for i in holders if self._side_of[i] != side}
        return holders

    def preview(self, tile: Tile, on: Tile | None = None, sniff: str = "across") -> tuple[int, int]:
        """``(count, points)`` if ``tile`` were set on ``on`` now (unchecked; nothing changes);
        ``sniff``: how a tile that sets the sniff would be set.

        ``points`` is what the count is worth in the match's scale, before
        claims and the exact target.
        """
        h = self.hand
        assert h is not None, "no hand has been started"
        count = h.layout.count_after(tile, on if h.turns else None, sniff)
        return count, self.rules.worth(count)

    def state(self) -> tuple[object, ...]:
        """A comparable description of the whole state (for tests)."""
        return (
            tuple(h.state() for h in self.hands),
            tuple(self.adjustments),
            tuple(self.scores),
            self.winner,
            self.won_at,
            self.won_by,
            len(self.events),
        )

    # ------------------------------------------------------------------ entry points
    @overload
    def push(self, event: Play | Pass) -> Turn: ...
    @overload
    def push(self, event: StartHand) -> None: ...
    @overload
    def push(self, event: Settle | PointsHand) -> Hand: ...
    @overload
    def push(self, event: Adjust) -> Adjustment: ...
    @overload
    def push(self, event: Event) -> Turn | Hand | Adjustment | None: ...
    def push(self, event: Event) -> Turn | Hand | Adjustment | None:
        """Apply one event, checking every rule; returns the :class:`Turn` for turns
        (the settled :class:`Hand` for :class:`Settle`, the new hand for a
        :class:`~scorekeeper.points.PointsHand`, the :class:`~scorekeeper.points.Adjustment`
        of an :class:`~scorekeeper.points.Adjust`, None for :class:`StartHand`).

        On error nothing changes and a :class:`ScorekeeperError` naming the
        hand and turn is raised.
        """
        result: Turn | Hand | Adjustment | None
        if type(event) is Play:
            result = self._play(event)
        elif type(event) is Pass:
            result = self._pass(event)
        elif type(event) is StartHand:
            self._start(event)
            result = None
        elif type(event) is Settle:
            result = self._settle(event)
        elif type(event) is PointsHand:
            result = self._points(event)
        elif type(event) is Adjust:
            result = self._adjust(event)
        else:
            raise TypeError(f"not an All Fives event: {event!r}")
        self.events.append(event)
        return result

    def extend(self, events: Iterable[Event]) -> None:
        for e in events:
            self.push(e)

    def play(
        self,
        tile: str | Tile,
        on: str | Tile | None = None,
        *,
        draw: int = 0,
        claim: int | None = None,
        muggins: str | None = None,
        player: str | None = None,
        sniff: str | None = None,
    ) -> Turn:
        """Parse and push a play: ``m.play("5-0", on="5-5", draw=1, claim=5)``."""
        highest = self.rules.set
        where = self._where()
        try:
            t = tile if isinstance(tile, Tile) else Tile.parse(tile, highest)
            o = on if on is None or isinstance(on, Tile) else Tile.parse(on, highest)
        except IllegalTileError as e:
            raise IllegalTileError(e.reason, **where) from None
        return self.push(Play(t, o, draw, claim, muggins, player, sniff))

    def pass_(self, draw: int = 0, player: str | None = None) -> Turn:
        return self.push(Pass(draw, player))

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[Event]) -> Match:
        m = cls(setup)
        m.extend(events)
        return m

    def start(self, leader: str | None = None) -> None:
        """Start the next hand; ``leader`` may be left out where the rules name it (after a domino)."""
        self.push(StartHand(leader))

    def points_hand(self, points: dict[str, int], first: str | None = None) -> Hand:
        """Enter the next hand as points: ``m.points_hand({"Us": 35, "Them": 10})`` (each
        side's points, all in, in the match's scale; ``first``: the side that reached the
        target first, when two do)."""
        return self.push(PointsHand(tuple(points.items()), first))

    def adjust(self, changes: dict[str, int], why: str) -> Adjustment:
        """Enter an adjustment between hands: ``m.adjust({"Them": -10}, "misdeal")``."""
        return self.push(Adjust(tuple(changes.items()), why))

    def to_record(self) -> dict[str, Any]:
        """The match as a ``scorekeeper/1`` record (the inverse of :func:`~scorekeeper.allfives.record.load`)."""
        return record_of(self.setup, self.events)

    def pop(self) -> Event:
        """Drop the last event and return it."""
        if not self.events:
            raise NothingToUndoError("there is nothing to undo")
        last = self.events.pop()
        self.winner = None
        self.won_at = None
        self.won_by = None
        self._open_hand = None
        if type(last) is Adjust:
            self.scores = list(self.adjustments.pop().scores_before)
            return last
        hand = self.hands[-1]
        self.scores = list(hand.scores_before)
        self.hands.pop()
        if type(last) is not StartHand and type(last) is not PointsHand:
            redo = self.events[hand.first_event :]
            del self.events[hand.first_event :]
            for e in redo:
                self.push(e)
        return last

    # ------------------------------------------------------------------ internals
    def _where(self) -> Where:
        """The location of the next turn, for errors raised before the engine sees it."""
        h = self.hand
        return {"hand": 1, "turn": 1} if h is None else {"hand": h.number, "turn": len(h.turns) + 1}

    def _turn_hand(self) -> Hand:
        """The hand a turn goes into, after the checks common to every turn."""
        h = self.hand
        if h is None:
            raise HandOverError("no hand has been started", hand=1, turn=1)
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), hand=h.number, turn=len(h.turns) + 1)
        if h.end is not None:
            raise HandOverError(
                f"the hand has already ended ({self.end_text(h)})", hand=h.number, turn=len(h.turns) + 1
            )
        return h

    def _check_player(self, h: Hand, name: str | None) -> None:
        if name is not None:
            expected = self.setup.players[h.next_player]
            if name != expected:
                if not isinstance(name, str) or name not in self.setup.seat:
                    raise WrongPlayerError(f"{short(name)} is not a player", hand=h.number, turn=len(h.turns) + 1)
                if not h.held[self.setup.seat[name]]:
                    raise WrongPlayerError(
                        f"{name} is out (has set their last tile): it is {expected}'s turn",
                        hand=h.number,
                        turn=len(h.turns) + 1,
                    )
                raise WrongPlayerError(f"it is {expected}'s turn, not {name}'s", hand=h.number, turn=len(h.turns) + 1)

    def _check_draw(self, h: Hand, draw: int) -> None:
        if draw and not self.rules.draw:
            raise IllegalDrawError(
                "there is no drawing in this match (rules.draw is false): a player who cannot play knocks (a pass)",
                hand=h.number,
                turn=len(h.turns) + 1,
            )
        if draw:
            if type(draw) is not int or draw < 0:
                raise IllegalDrawError(
                    f"draw must be a whole number of tiles, not {short(draw)}", hand=h.number, turn=len(h.turns) + 1
                )
            can = h.boneyard - self.rules.boneyard_reserve
            if draw > can:
                reserve = self.rules.boneyard_reserve
                detail = f"{h.boneyard} in the boneyard" + (f", {reserve} kept in reserve" if reserve else "")
                raise IllegalDrawError(
                    f"{self.setup.players[h.next_player]} cannot draw {short(draw)}: only {can} can be drawn ({detail})",
                    hand=h.number,
                    turn=len(h.turns) + 1,
                )

    def _play(self, ev: Play) -> Turn:
        h = self._open_hand
        if h is None:
            h = self._turn_hand()  # raises the right error
        if ev.player is not None:
            self._check_player(h, ev.player)
        draw = ev.draw
        if draw:
            self._check_draw(h, draw)
        tile = ev.tile
        layout = h.layout
        turns = h.turns
        if tile in layout.nodes or tile.hi > self._highest:
            self._bad_tile(h, tile)
        claim = ev.claim
        caller = None
        if claim is not None and (type(claim) is not int or not 0 <= claim <= MAX_CLAIM):
            raise ClaimError(
                f"a claim must be a whole number of points from 0 to {MAX_CLAIM:,}, not {short(claim)}",
                hand=h.number,
                turn=len(turns) + 1,
            )
        p = h.next_player
        if ev.muggins is not None:
            caller = self._muggins_caller(h, p, ev.muggins, len(turns) + 1)
        on = ev.on
        # the sniff: the turn that sets it may say how ("across", the default, or "inline")
        way = None
        if ev.sniff is not None or layout.spinner == "sniff":
            way = self._sniff_way(h, tile, ev.sniff)
        # -- the placement checks itself and changes nothing when it fails
        if turns:
            if on is None:
                on = self._only_fit(h, tile)
            count = layout.attach(tile, on, way or "across")
            if count < 0:
                raise IllegalPlacementError(
                    layout.point_on(tile, on) or f"{tile} cannot be played on {on}", hand=h.number, turn=len(turns) + 1
                )
        elif on is None:
            count = layout.lead(tile, way or "across")
        else:
            raise IllegalPlacementError(
                f"the lead is set alone: {tile} cannot be played on {on}", hand=h.number, turn=1
            )

        # -- every check passed: apply
        if draw:
            h.boneyard -= draw
        held = h.held
        left = held[p] + draw - 1
        held[p] = left
        h.passes = 0
        # the hand's domino: this player is out and (domino "side") so is the rest of the side
        ends = not left and (self._by_player or not any(held[q] for q in self._members[self._side_of[p]]))
        go = self._go if ends else 0
        value = self._worth(count)
        if self._check_claims:
            if value or go:
                points, voided = self._score(self._side_of[p], value + go, h, len(turns) + 1)
            else:
                points = 0
                voided = False
            turn = _new_turn(
                Turn,
                player=p,
                tile=tile,
                on=on,
                count=count,
                points=points,
                drew=draw,
                claim=claim,
                claim_ok=None if claim is None else claim == value,
                voided=voided,
                go=go,
                sniff=way,
            )
        else:
            turn = self._muggins_turn(h, p, tile, on, count, value, draw, claim, caller, go, way)
        turns.append(turn)
        if ends:
            self._end_domino(h, p)
        h.next_player = self._after(h, p)
        return turn

    def _sniff_way(self, h: Hand, tile: Tile, given: str | None) -> str | None:
        """How ``tile`` sets the sniff ("across" when the turn does not say), or None when it
        does not set it; a turn's ``sniff`` anywhere else is refused."""
        sets = h.layout.sets_sniff(tile)
        if given is None:
            return "across" if sets else None
        turn = len(h.turns) + 1
        if self.rules.spinner != "sniff":
            raise IllegalPlacementError(
                f'"sniff" is only said in a match with the sniff (rules.spinner "sniff"), not {self.rules.spinner!r}',
                hand=h.number,
                turn=turn,
            )
        if given not in SNIFF_WAYS:
            raise IllegalPlacementError(
                f'the sniff is set "across" or "inline", not {short(given)}', hand=h.number, turn=turn
            )
        if not sets:
            down = h.layout.sniff  # a double that does not set the sniff finds it down
            if not tile.is_double or down is None:
                why = f"{tile} is not a double"
            else:
                why = f"the sniff is already down ({down[0]}): {tile} is an ordinary double"
            raise IllegalPlacementError(
                f'"sniff" is said only by the turn that sets the sniff: {why}', hand=h.number, turn=turn
            )
        return given

    def _after(self, h: Hand, p: int) -> int:
        """The player after ``p`` in seating order, passing over players who are out."""
        n = self._n
        nxt = (p + 1) % n
        if not self._by_player:
            held = h.held
            while not held[nxt] and nxt != p:
                nxt = (nxt + 1) % n
        return nxt

    def _end_domino(self, h: Hand, p: int) -> None:
        h.end = "domino"
        h.domino_player = p
        self._open_hand = None
        if not self.rules.settles_pips:  # the go or nothing: settled now, remaining optional
            h.winner = self._side_of[p]
            h.settlement = [0] * len(self.setup.sides)

    def _bad_tile(self, h: Hand, tile: Tile) -> NoReturn:
        turn = len(h.turns) + 1
        if tile in h.layout.nodes:
            raise IllegalTileError(f"{tile} is already on the table", hand=h.number, turn=turn)
        raise IllegalTileError(f"{tile} is not in a double-{self._highest} set", hand=h.number, turn=turn)

    def _only_fit(self, h: Hand, tile: Tile) -> Tile:
        fits = h.layout.fits(tile)
        if len(fits) == 1:
            return fits[0]
        turn = len(h.turns) + 1
        if not fits:
            ends = ", ".join(str(v) for v in h.layout.open_ends()) or "none"
            raise IllegalPlacementError(f"{tile} matches no open end (open ends: {ends})", hand=h.number, turn=turn)
        raise AmbiguousPlacementError(
            f'{tile} fits {" and ".join(str(t) for t in fits)}: say which with "on"', hand=h.number, turn=turn
        )

    def _muggins_turn(
        self,
        h: Hand,
        p: int,
        tile: Tile,
        on: Tile | None,
        count: int,
        value: int,
        draw: int,
        claim: int | None,
        caller: int | None,
        go: int,
        way: str | None,
    ) -> Turn:
        """A play under ``claims: "muggins"``: the player scores only what they claim (and the go)."""
        turn_no = len(h.turns) + 1
        c = claim or 0
        gained = (c if c <= value else 0) + go
        points, voided = self._score(self.setup.side_of[p], gained, h, turn_no) if gained else (0, False)
        muggins: tuple[int, int, int, bool] | None = None
        if caller is not None and self.winner is None:
            csid = self.setup.side_of[caller]
            missed = value - c
            mpoints, mvoided = self._score(csid, missed, h, turn_no) if missed > 0 else (0, False)
            muggins = (caller, csid, mpoints, mvoided)
        return _new_turn(
            Turn,
            player=p,
            tile=tile,
            on=on,
            count=count,
            points=points,
            drew=draw,
            claim=claim,
            voided=voided,
            muggins=muggins,
            go=go,
            sniff=way,
        )

    def _muggins_caller(self, h: Hand, p: int, name: str, turn_no: int) -> int:
        players = self.setup.players
        if self.rules.claims != "muggins":
            raise ClaimError('"muggins" is only used with the rule claims: "muggins"', hand=h.number, turn=turn_no)
        caller = self.setup.seat.get(name) if isinstance(name, str) else None
        if caller is None:
            raise ClaimError(f"muggins caller {short(name)} is not a player", hand=h.number, turn=turn_no)
        if self.setup.side_of[caller] == self.setup.side_of[p]:
            raise ClaimError(
                f"{name} cannot call muggins on {players[p]}: they are on the same side", hand=h.number, turn=turn_no
            )
        return caller

    def _score(self, side: int, points: int, h: Hand, turn_no: int | None) -> tuple[int, bool]:
        """Add ``points`` to ``side``; returns (points added, voided)."""
        new = self.scores[side] + points
        target = self.rules.target
        if points > 0 and new > target and self.rules.exact_target:
            return 0, True
        if points > 0 and new >= target and turn_no == 1 and not self.rules.win_on_lead:
            return 0, True  # the down may not score the points that win
        self.scores[side] = new
        if new >= target and points > 0 and self.winner is None:
            self.winner = side
            self._open_hand = None
            self.won_at = (h.number, turn_no)
        return points, False

    def _pass(self, ev: Pass) -> Turn:
        h = self._turn_hand()
        self._check_player(h, ev.player)
        draw = ev.draw
        self._check_draw(h, draw)
        turn_no = len(h.turns) + 1
        if not h.turns:
            raise IllegalPassError(
                "the first turn of a hand is the lead: a tile must be set", hand=h.number, turn=turn_no
            )
        left = h.boneyard - draw
        reserve = self.rules.boneyard_reserve
        if left > reserve and self.rules.draw:  # without drawing, the knock is always allowed
            can = left - reserve
            raise IllegalPassError(
                f"{self.setup.players[h.next_player]} cannot pass: {can} tile{'s' if can > 1 else ''} "
                f"can still be drawn",
                hand=h.number,
                turn=turn_no,
            )
        p = h.next_player
        h.boneyard = left
        h.held[p] += draw
        h.passes += 1
        turn = _new_turn(Turn, player=p, tile=None, on=None, count=h.layout.count, points=0, drew=draw)
        h.turns.append(turn)
        # blocked: every player still holding tiles has passed in succession
        if h.passes == (self._n if self._by_player else sum(1 for x in h.held if x)):
            h.end = "blocked"
            self._open_hand = None
            if not self.rules.settles_pips:  # a blocked hand scores nothing
                h.settlement = [0] * len(self.setup.sides)
        h.next_player = self._after(h, p)
        return turn

    def _between(self, where: Where, what: str = "") -> None:
        """The checks of an entry that comes between hands (a hand's start, a hand entered
        as points, an adjustment): the match is not over, the last hand has ended and is
        settled. ``what``: why, said after the refusal of an unfinished hand."""
        prev = self.hand
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), **where)
        if prev is not None and prev.end is None:
            raise HandOverError(f"hand {prev.number} has not ended yet{what}", **where)
        if prev is not None and prev.settlement is None:
            raise RemainingError(
                f"the hand ended ({self.end_text(prev)}) but remaining is missing",
                hand=prev.number,
                field="remaining",
            )

    def _start(self, ev: StartHand) -> None:
        players = self.setup.players
        prev = self.hand
        number = len(self.hands) + 1
        self._between({"hand": number})
        leader = ev.leader
        left = self.rules.next_leader == "left"
        # the player who dominoed the hand before (set exactly when it ended in a domino) leads;
        # with next_leader "left", the player after the last hand's leader; nobody is known
        # to lead after a hand entered as points
        if prev is None or prev.entered is not None:
            default = None
        elif left:
            default = (prev.leader + 1) % self._n
        else:
            default = prev.domino_player
        if default is not None:
            if leader is None:
                leader_i = default
            elif leader != players[default]:
                why = (
                    f"the lead passes to the left: {players[default]} leads hand {number}"
                    if left
                    else f"{players[default]} dominoed hand {number - 1} and leads"
                )
                raise LeaderError(f"{why}, not {shown_name(leader)}", hand=number, field="leader")
            else:
                leader_i = default
        else:
            if leader is None:
                if prev is None:
                    why = "for the first hand"
                else:
                    why = "after a hand entered as points" if prev.entered is not None else "after a blocked hand"
                raise LeaderError(f"a leader is required {why}", hand=number, field="leader")
            seat = self.setup.seat.get(leader) if isinstance(leader, str) else None
            if seat is None:
                raise LeaderError(f"{short(leader)} is not a player", hand=number, field="leader")
            leader_i = seat
        self._open_hand = hand = Hand(number, leader_i, self.setup, tuple(self.scores), len(self.events))
        self.hands.append(hand)
        return None

    def _points(self, ev: PointsHand) -> Hand:
        """The next hand, entered as points: checked as a hand of this match can score them."""
        number = len(self.hands) + 1
        self._between({"hand": number})
        sides = self.setup.sides
        points = side_points(ev.points, sides, number)
        rules = self.rules
        for side, p in zip(sides, points, strict=True):
            if p < 0 and rules.hand_end != "each-subtracts":
                raise IllegalEntryError(
                    f'{side} cannot score {p}: a hand takes no points off (only with hand_end "each-subtracts")',
                    hand=number,
                    field="points",
                )
            if rules.count == "fives" and rules.scale == 1 and p % 5:
                raise IllegalEntryError(
                    f"{side} cannot score {p}: every count and settlement scores a multiple of 5",
                    hand=number,
                    field="points",
                )
        done = credit_points(
            self.scores, points, sides, target=rules.target, exact=rules.exact_target, first=ev.first, number=number
        )
        hand = Hand(number, -1, self.setup, tuple(self.scores), len(self.events))
        hand.end = "points"
        hand.entered = points
        hand.held = [0] * self._n
        hand.settlement = list(done.counted)
        hand.voided = list(done.voided)
        self.hands.append(hand)
        self.scores = list(done.scores)
        if done.winner is not None:
            self.winner, self.won_at, self.won_by = done.winner, (number, None), "points"
        return hand

    def _adjust(self, ev: Adjust) -> Adjustment:
        """An adjustment, between hands: never voided; a side it takes to the target wins."""
        after = len(self.hands)
        self._between({"field": adjustment_field(after)}, ": an adjustment comes between hands")
        sides = self.setup.sides
        changes = check_adjust(ev, sides, after)
        done = credit_adjust(self.scores, changes, sides, target=self.rules.target, after=after)
        adjustment = Adjustment(after, changes, ev.why, tuple(self.scores), done.scores)
        self.adjustments.append(adjustment)
        self.scores = list(done.scores)
        if done.winner is not None:
            self.winner, self.won_at, self.won_by = done.winner, (after, None), "adjust"
        return adjustment

    def _settle(self, ev: Settle) -> Hand:
        players = self.setup.players
        h = self.hand
        if h is None:
            raise HandOverError("no hand has been started", hand=1, field="remaining")
        where: Where = {"hand": h.number, "field": "remaining"}
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), **where)
        if h.end is None:
            raise RemainingError("the hand has not ended: remaining is given only after a domino or a block", **where)
        if h.entered is not None:
            raise RemainingError("the hand was entered as points: it has no remaining", **where)
        if self.adjustments and self.adjustments[-1].after == len(self.hands):
            raise RemainingError("an adjustment follows the hand: its remaining can no longer be given", **where)
        if h.pips is not None:
            raise RemainingError("the hand has already been settled", **where)
        given: dict[str, tuple[Tile, ...] | int] = {}
        for name, left in ev.remaining:
            if not isinstance(name, str) or name not in self.setup.seat:
                raise RemainingError(f"{short(name)} is not a player", **where)
            if name in given:
                raise RemainingError(f"{name} is listed twice", **where)
            given[name] = left
        highest = self.rules.set
        pips: list[int] = []
        listed: list[Tile] = []
        counted = self._counted(h)
        for i, name in enumerate(players):
            held = h.held[i]
            value = given.get(name)
            if value is None:  # (tiles that change nothing may be left out: taken as 0)
                if held and i in counted:
                    raise RemainingError(
                        f"{name} still holds {held} tile{'s' if held > 1 else ''}: list them or give their pips",
                        **where,
                    )
                pips.append(0)
            elif type(value) is int:
                if not 0 <= value <= held * 2 * highest:
                    raise RemainingError(
                        f"{name} cannot hold {short(value)} pips in {held} tile{'s' if held != 1 else ''} (0 to {held * 2 * highest})",
                        **where,
                    )
                pips.append(value)
            elif not isinstance(value, tuple):
                raise RemainingError(f"{name}: give a list of tiles or a pip total, not {short(value)}", **where)
            elif len(value) != held:
                raise RemainingError(
                    f"{name} holds {held} tile{'s' if held != 1 else ''} but {len(value)} are listed", **where
                )
            else:
                listed += value
                pips.append(sum([t.pips for t in value]))
        if listed and (
            len(set(listed)) != len(listed)
            or not h.layout.nodes.keys().isdisjoint(listed)
            or max([t.hi for t in listed]) > highest
        ):
            self._bad_remaining(h, given, where)

        # -- settle
        h.pips = pips
        if not self.rules.settles_pips:  # the go or nothing: the pips are only recorded
            return h
        side_of = self.setup.side_of
        n_sides = len(self.setup.sides)
        side_pips = [0] * n_sides
        for i, p in enumerate(pips):
            side_pips[side_of[i]] += p
        if h.domino_player is not None:  # the hand ended in a domino
            tied = [side_of[h.domino_player]]
        else:
            if self.rules.block_winner == "player":  # each side's player with the fewest pips
                measure = [min(p for i, p in enumerate(pips) if side_of[i] == s) for s in range(n_sides)]
            else:
                measure = side_pips
            fewest = min(measure)
            tied = [s for s in range(n_sides) if measure[s] == fewest]
        scale = self.rules.scale
        settlement = [0] * n_sides
        h.winner = tied[0] if len(tied) == 1 else None
        if self.rules.hand_end == "each-subtracts":
            for i, p in enumerate(pips):
                settlement[side_of[i]] -= _round5_ratio(p, 1) // scale
            for s in range(n_sides):
                self.scores[s] += settlement[s]
        elif len(tied) < n_sides:
            pot = sum(side_pips) - sum(side_pips[s] for s in tied)
            share = _round5_ratio(pot, len(tied)) // scale
            for s in tied:  # in the order of the sides; the first to reach the target wins
                if share and self.winner is None:
                    settlement[s], voided = self._score(s, share, h, None)
                    if voided:
                        h.voided.append(s)
        h.settlement = settlement
        return h

    def _bad_remaining(self, h: Hand, given: dict[str, tuple[Tile, ...] | int], where: Where) -> None:
        """Name the first impossible tile listed in ``remaining``."""
        seen: set[Tile] = set()
        for name, value in given.items():
            if isinstance(value, int):  # a pip total (exactly an int: _settle has checked)
                continue
            for t in value:
                if t.hi > self.rules.set:
                    raise RemainingError(f"{t} is not in a double-{self.rules.set} set", **where)
                if t in h.layout.nodes:
                    raise RemainingError(f"{name} cannot hold {t}: it is on the table", **where)
                if t in seen:
                    raise RemainingError(f"{t} is listed twice", **where)
                seen.add(t)

    def end_text(self, h: Hand) -> str:
        """How hand ``h`` ended, in words: ``Ann dominoed``, ``blocked`` or ``entered as points``."""
        if h.entered is not None:
            return "entered as points"
        if h.domino_player is not None:  # set exactly when the hand ended in a domino
            return f"{self.setup.players[h.domino_player]} dominoed"
        return "blocked"

    def _over_reason(self) -> str:
        winner, won_at = self.winner, self.won_at
        assert winner is not None and won_at is not None, "the match is not over"
        hand, turn = won_at
        if self.won_by == "adjust":
            at = "the " + adjustment_field(hand)
        elif self.won_by == "points":
            at = f"hand {hand} (entered as points)"
        else:
            at = f"hand {hand}, turn {turn}" if turn is not None else f"the settlement of hand {hand}"
        side = self.setup.sides[winner]
        return f"the match is over: {side} reached {self.scores[winner]} at {at}"
