"""All Fours: the facts of each hand -> points, in the traditional counting order.

The match is the fold of its events (:mod:`scorekeeper.allfours.events`): a
:class:`~scorekeeper.allfours.events.Deal` starts a hand, and each fact of
the hand is one event; a fact given again replaces the earlier one, as in the
record. Each push credits the hand being entered again from its facts, in the
spec's order (turn-up, gift, penalties, High, Low, Jack, Game); the first side
to reach the target wins at that moment and nothing after it in that hand
counts. :meth:`Match.pop` drops the last event.

>>> m = Match(Setup.new(["Ann", "Ben"]))
>>> m.start("Ann")
>>> h = m.enter(turn_up=["J"], high="Ben", low="Ann", jack={"held": "Ann", "won": "Ben"},
...             game={"Ann": 30, "Ben": 23})
>>> [(i.side, i.points, i.label) for i in h.items]
[(0, 3, 'turn-up'), (1, 1, 'high'), (0, 1, 'low'), (1, 3, 'hang-jack'), (0, 1, 'game')]
>>> m.scores
[5, 4]
>>> m.pop(), m.scores
(GamePoints(points=(('Ann', 30), ('Ben', 23))), [4, 4])
>>> m.to_record()["hands"]
[{'dealer': 'Ann', 'turn_up': ['J'], 'high': 'Ben', 'low': 'Ann', 'jack': {'held': 'Ann', 'won': 'Ben'}}]
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, overload

from scorekeeper.allfours.events import (
    BEGS,
    FACT_TYPES,
    PENALTY_KEYS,
    Adjust,
    Beg,
    Deal,
    Event,
    Fact,
    GameCards,
    GamePoints,
    High,
    Jack,
    Low,
    Penalties,
    Penalty,
    PointsHand,
    TurnUp,
    parse_fact,
    record_of,
)
from scorekeeper.allfours.rules import (
    GAME_ID,
    MAX_POINTS,
    MAX_TARGET,
    PACK_POINTS,
    RULE_KEYS,
    SUITS,
    AllFoursError,
    Rules,
    Setup,
    check_award_points,
    check_card_points,
    check_player,
    check_rank,
    check_side,
)
from scorekeeper.allfours.variants import CARD_POINTS
from scorekeeper.errors import (
    HandOverError,
    MatchOverError,
    NothingToUndoError,
    RecordFormatError,
    short,
    type_name,
)
from scorekeeper.points import Adjustment, adjustment_field, check_adjust, credit_adjust, credit_points, side_points

__all__ = [
    "GAME_ID",
    "MAX_POINTS",
    "MAX_TARGET",
    "RULE_KEYS",
    "AllFoursError",
    "HandResult",
    "Item",
    "Match",
    "Rules",
    "Setup",
    "check_award_points",
    "check_card_points",
    "check_player",
    "check_rank",
    "check_side",
    "short",
]


@dataclass(frozen=True)
class Item:
    """One credited item: ``points`` to side ``side`` for ``label`` (turn-up, high, ...)."""

    side: int
    points: int
    label: str
    extra: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class HandResult:
    """One hand as credited from its facts (an immutable value: each fact makes a new one)."""

    number: int
    dealer: int
    facts: tuple[Fact, ...] = ()  # in the order they were entered; one per key
    items: tuple[Item, ...] = ()
    scores_before: tuple[int, ...] = ()
    scores_after: tuple[int, ...] = ()
    turned: tuple[str, ...] = ()  # the turn-up ranks
    card_points: tuple[int, ...] | None = None
    all_four: int | None = None
    void: bool = False
    honour_revoke: int | None = None
    decided: bool = False  # the match was won (or lost) during this hand
    winner: int | None = None  # the side that won the match in this hand
    #: A hand entered as points: each side's points (no facts, no items; ``dealer`` is -1:
    #: nobody is known to have dealt it). None: a hand of facts.
    entered: tuple[int, ...] | None = None

    def fact(self, key: str) -> Fact | None:
        """The fact entered for ``key`` (``"high"``, ``"game"`` ...), or None."""
        for f in self.facts:
            if f.key == key:
                return f
        return None

    @property
    def complete(self) -> bool:
        """Every fact is in: Game was entered, or the hand was void, or the match ended in it
        (a hand entered as points is complete)."""
        return (
            self.void
            or self.decided
            or self.entered is not None
            or self.fact("game") is not None
            or self.fact("game_cards") is not None
        )


class _Won(Exception):
    pass


class _Credit:
    """Crediting one hand: the running scores and the items, stopped by a win."""

    def __init__(self, target: int, scores: tuple[int, ...]) -> None:
        self.target = target
        self.scores = list(scores)
        self.items: list[Item] = []
        self.winner: int | None = None

    def add(self, side: int, points: int, label: str, **extra: Any) -> None:
        if points <= 0:
            return
        self.scores[side] += points
        self.items.append(Item(side, points, label, tuple(extra.items())))
        if self.scores[side] >= self.target and self.winner is None:
            self.winner = side
            raise _Won


class Match:
    """The state of an All Fours match: the fold of its events.

    ``hands`` holds every hand, those entered as points too (``HandResult.entered``);
    ``adjustments`` the adjustments, each after the hands it followed
    (:func:`scorekeeper.points.in_order`); ``scores`` start from the scores the record
    carries in (``setup.start``)."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.scores = list(setup.scores_at_start)
        self.winner: int | None = None
        self.hands: list[HandResult] = []
        self.adjustments: list[Adjustment] = []
        self.events: list[Event] = []

    # -- reading
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def hand(self) -> HandResult | None:
        return self.hands[-1] if self.hands else None

    def suggested_dealer(self) -> int | None:
        """Who deals next: the same dealer after a misdeal, else the next in the variant's
        direction; None for the first hand, or after a hand entered as points (nobody is
        known to have dealt it)."""
        h = self.hand
        if h is None or h.entered is not None:
            return None
        return h.dealer if h.void else self.setup.next_dealer(h.dealer)

    def state(self) -> tuple[Any, ...]:
        """A comparable description of the whole state (for tests)."""
        return (
            tuple(self.scores),
            self.winner,
            tuple((h.number, h.facts, h.items, h.scores_after, h.entered) for h in self.hands),
            tuple(self.adjustments),
            tuple(self.events),
        )

    # -- changing
    @overload
    def push(self, event: Deal | Fact | PointsHand) -> HandResult: ...
    @overload
    def push(self, event: Adjust) -> Adjustment: ...
    @overload
    def push(self, event: Event) -> HandResult | Adjustment: ...
    def push(self, event: Event) -> HandResult | Adjustment:
        """Apply one event, checking every rule; returns the hand it started or changed (the
        :class:`~scorekeeper.points.Adjustment` of an adjustment).

        A :class:`Deal` starts the next hand; a fact sets (or replaces) that fact of
        the hand being entered, which is credited again; a
        :class:`~scorekeeper.points.PointsHand` is the next hand, entered as points; an
        :class:`~scorekeeper.points.Adjust` comes after the hands so far. On error nothing
        changes and a :class:`ScorekeeperError` naming the hand is raised.
        """
        if isinstance(event, Deal):
            return self._deal(event)
        if isinstance(event, PointsHand):
            return self._points(event)
        if isinstance(event, Adjust):
            return self._adjust(event)
        return self.push_facts((event,))

    def push_facts(self, facts: Iterable[Fact]) -> HandResult:
        """Set several facts of the hand being entered at once; atomic."""
        facts = tuple(facts)
        for f in facts:
            if type(f) not in FACT_TYPES:
                raise TypeError(f"not an All Fours fact: {f!r}")
        h = self.hand
        key = facts[0].key if facts else None
        if h is None:
            raise HandOverError("no hand has been started: the dealer starts a hand", hand=1, field=key)
        if h.entered is not None:
            raise HandOverError("the hand was entered as points: it takes no facts", hand=h.number, field=key)
        if self._closed():
            raise HandOverError("an adjustment follows the hand: deal the next hand", hand=h.number, field=key)
        new_facts = h.facts
        for f in facts:
            new_facts = tuple(x for x in new_facts if x.key != f.key) + (f,)
        new = self._build(h.number, h.dealer, new_facts, h.scores_before)
        keys = {f.key for f in facts}
        start = self._hand_start()
        self.events[start + 1 :] = [
            e for e in self.events[start + 1 :] if isinstance(e, Deal | PointsHand | Adjust) or e.key not in keys
        ]
        self.events.extend(facts)
        self._set_last(new)
        return new

    def pop(self) -> Event:
        """Drop the last event and return it (a fact: the hand is credited without it)."""
        if not self.events:
            raise NothingToUndoError("there is nothing to undo")
        event = self.events.pop()
        if type(event) is Adjust:
            self.scores = list(self.adjustments.pop().scores_before)
            self.winner = None
            return event
        h = self.hands[-1]
        if type(event) is Deal or type(event) is PointsHand:
            self.hands.pop()
            self.scores = list(h.scores_before)
            self.winner = None
        else:
            facts = tuple(f for f in h.facts if f is not event and f.key != event.key)
            self._set_last(self._build(h.number, h.dealer, facts, h.scores_before))
        return event

    @classmethod
    def replay(cls, setup: Setup, events: Iterable[Event]) -> Match:
        m = cls(setup)
        for e in events:
            m.push(e)
        return m

    # -- convenience for people and UIs: parse, then push
    def start(self, dealer: str) -> None:
        """Deal the next hand."""
        self.push(Deal(dealer))

    def points_hand(self, points: dict[str, int], first: str | None = None) -> HandResult:
        """Enter the next hand as points: ``m.points_hand({"Us": 3, "Them": 1})`` (each side's
        points, all in; ``first``: the side that reached the target first, when two do)."""
        return self.push(PointsHand(tuple(points.items()), first))

    def adjust(self, changes: dict[str, int], why: str) -> Adjustment:
        """Enter an adjustment after the hands so far: ``m.adjust({"Them": -1}, "late")``."""
        return self.push(Adjust(tuple(changes.items()), why))

    def enter(self, **facts: Any) -> HandResult:
        """Facts of the hand being entered, written as in a record: ``m.enter(high="Ann",
        turn_up=["J"])``; parsed and pushed at once (atomic)."""
        number = self.hand.number if self.hand else 1
        return self.push_facts([parse_fact(key, value, number, self.setup) for key, value in facts.items()])

    def to_record(self) -> dict[str, Any]:
        """The match as a ``scorekeeper/1`` record (the inverse of :func:`~scorekeeper.allfours.record.load`)."""
        return record_of(self.setup, self.events)

    # -- internals
    def _hand_start(self) -> int:
        """The index in ``events`` of the last hand's Deal."""
        for i in range(len(self.events) - 1, -1, -1):
            if type(self.events[i]) is Deal:
                return i
        raise AssertionError("no hand")  # pragma: no cover - only called with a hand

    def _set_last(self, hand: HandResult) -> None:
        self.hands[-1] = hand
        self.scores = list(hand.scores_after)
        self.winner = hand.winner

    def _closed(self) -> bool:
        """Whether an adjustment was entered after the last hand (it takes no more facts)."""
        return bool(self.adjustments) and self.adjustments[-1].after == len(self.hands)

    def _over_reason(self) -> str:
        assert self.winner is not None, "the match is not over"
        side = self.setup.sides[self.winner]
        if self._closed():  # nothing follows the entry that won: the adjustment won it
            return f"the match is over: {side} won at the {adjustment_field(len(self.hands))}"
        return f"the match is over: {side} won in hand {self.hands[-1].number}"

    def _points(self, ev: PointsHand) -> HandResult:
        """The next hand, entered as points: no side more than one hand can give in the
        variant, nor all the sides together (:meth:`~scorekeeper.allfours.variants.Variant.hand_most`)."""
        number = len(self.hands) + 1
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), hand=number)
        sides = self.setup.sides
        points = side_points(ev.points, sides, number)
        variant = self.rules.spec
        most = variant.hand_most(len(sides))
        for side, p in zip(sides, points, strict=True):
            if p < 0:
                raise AllFoursError(f"{side} cannot score {p}: a hand takes no points off", hand=number, field="points")
            if p > most:
                raise AllFoursError(
                    f"{side} cannot score {p}: one hand gives at most {most} in {variant.title}",
                    hand=number,
                    field="points",
                )
        if sum(points) > most:
            raise AllFoursError(
                f"the points add up to {sum(points)}: one hand gives at most {most} in {variant.title}",
                hand=number,
                field="points",
            )
        done = credit_points(
            self.scores, points, sides, target=self.rules.target, exact=False, first=ev.first, number=number
        )
        hand = HandResult(
            number,
            -1,
            scores_before=tuple(self.scores),
            scores_after=done.scores,
            decided=done.winner is not None,
            winner=done.winner,
            entered=points,
        )
        self.hands.append(hand)
        self.events.append(ev)
        self._set_last(hand)
        return hand

    def _adjust(self, ev: Adjust) -> Adjustment:
        """An adjustment after the hands so far: a side it takes to the target wins."""
        after = len(self.hands)
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), field=adjustment_field(after))
        sides = self.setup.sides
        changes = check_adjust(ev, sides, after)
        done = credit_adjust(self.scores, changes, sides, target=self.rules.target, after=after)
        adjustment = Adjustment(after, changes, ev.why, tuple(self.scores), done.scores)
        self.adjustments.append(adjustment)
        self.events.append(ev)
        self.scores = list(done.scores)
        self.winner = done.winner
        return adjustment

    def _deal(self, ev: Deal) -> HandResult:
        number = len(self.hands) + 1
        if self.winner is not None:
            raise MatchOverError(self._over_reason(), hand=number)
        dealer = self._player(ev.dealer, number, "dealer")
        assert dealer is not None
        hand = self._build(number, dealer, (), tuple(self.scores))
        self.hands.append(hand)
        self.events.append(ev)
        self._set_last(hand)
        return hand

    # -- checking
    def _player(self, value: Any, number: int, what: str, *, null: bool = False) -> int | None:
        return check_player(self.setup, value, number, what, null=null)

    def _side(self, value: Any, number: int, what: str) -> int:
        return check_side(self.setup, value, number, what)

    def _build(self, number: int, dealer: int, facts: tuple[Fact, ...], before: tuple[int, ...]) -> HandResult:
        """Check a hand's facts and credit them from the scores ``before`` it (no state changes)."""
        by_key: dict[str, Fact] = {f.key: f for f in facts}
        variant = self.rules.spec
        pens = by_key.get("penalties")
        penalties = pens.penalties if isinstance(pens, Penalties) else ()
        for i, p in enumerate(penalties, 1):
            self._check_penalty(p, number, f"penalties[{i}]")
        void = any(p.type == "misdeal" for p in penalties)
        if void:
            others = [f.key for f in facts if f.key != "penalties"]
            if others:
                raise AllFoursError(
                    f"a misdeal voids the hand: no other facts ({', '.join(others)}) may be given",
                    hand=number,
                    field=others[0],
                )
        turn_up = by_key.get("turn_up")
        turned = turn_up.ranks if isinstance(turn_up, TurnUp) else ()
        seen: Counter[str] = Counter()
        for r in turned:
            rank = check_rank(r, number, "turn_up")
            seen[rank] += 1
            if seen[rank] > SUITS:  # the pack holds four of each rank
                raise AllFoursError(f"more than four cards of rank {rank} turned up", hand=number, field="turn_up")
        if turned and variant.pitched:
            raise AllFoursError(
                f"{variant.title}: trump is pitched, no card is turned up", hand=number, field="turn_up"
            )
        beg_fact = by_key.get("beg")
        beg: Any = beg_fact.answer if isinstance(beg_fact, Beg) else None
        if beg not in BEGS:
            raise AllFoursError(
                f'beg must be null, "stand", "give" or "run", not {short(beg)}', hand=number, field="beg"
            )
        if beg is not None and variant.pitched:
            raise AllFoursError(f"{variant.title}: trump is pitched, nobody begs", hand=number, field="beg")
        if beg == "give":
            self._check_give(dealer, number, before)
        for key in ("high", "low"):
            f = by_key.get(key)
            if isinstance(f, High | Low):
                self._player(f.player, number, key, null=True)
        jack = by_key.get("jack")
        if isinstance(jack, Jack) and (jack.held is not None or jack.won is not None):
            self._player(jack.held, number, "jack.held")
            self._player(jack.won, number, "jack.won")
        if "game" in by_key and "game_cards" in by_key:
            raise RecordFormatError("give game or game_cards, not both", hand=number, field="game_cards")
        card_points = None
        game = by_key.get("game")
        cards = by_key.get("game_cards")
        if isinstance(game, GamePoints):
            card_points = self._card_points(game, number)
        elif isinstance(cards, GameCards):
            card_points = self._cards_counted(cards, number)
        hand = HandResult(
            number, dealer, facts, scores_before=before, turned=turned, card_points=card_points, void=void
        )
        return self._credit(hand, by_key, penalties)

    def _check_penalty(self, p: Penalty, number: int, where: str) -> None:
        if not isinstance(p, Penalty) or not isinstance(p.type, str) or p.type not in PENALTY_KEYS:
            raise AllFoursError(
                f"a penalty is an object with type {', '.join(PENALTY_KEYS)}, not {short(getattr(p, 'type', p))}",
                hand=number,
                field=where,
            )
        kind = p.type
        if kind in ("revoke", "peek"):
            self._player(p.by, number, f"{where}.by")
        if p.honour is not None and (kind != "revoke" or type(p.honour) is not bool):
            raise AllFoursError("honour must be true or false (on a revoke)", hand=number, field=f"{where}.honour")
        if kind == "award":
            self._side(p.side, number, f"{where}.side")
            check_award_points(p.points, number, f"{where}.points")
            if p.reason is not None and not isinstance(p.reason, str):
                raise AllFoursError(
                    f"reason must be a string, not {type_name(p.reason)}", hand=number, field=f"{where}.reason"
                )

    def _check_give(self, dealer: int, number: int, before: tuple[int, ...]) -> None:
        """Seven Up with three players: no gift when the opponent who did not beg needs one point."""
        if not (self.rules.variant == "seven-up" and len(self.setup.sides) == 3):
            return
        n = len(self.setup.players)
        step = 1 if self.rules.spec.dealing == "clockwise" else -1
        other = (dealer + 2 * step) % n  # the beggar sits next to the dealer; the other opponent after them
        side = self.setup.side_of[other]
        if self.rules.target - before[side] == 1:
            raise AllFoursError(
                f"the dealer may not give: {self.setup.players[other]} needs only one point to win, "
                "so the pack must be run",
                hand=number,
                field="beg",
            )

    def _card_points(self, game: GamePoints, number: int) -> tuple[int, ...]:
        pts = [0] * len(self.setup.sides)
        for name, v in game.points:
            s = self._side(name, number, "game")
            check_card_points(name, v, number)
            pts[s] = v
        if sum(pts) > PACK_POINTS:
            raise AllFoursError(f"card points add up to {sum(pts)}: the pack holds only 80", hand=number, field="game")
        return tuple(pts)

    def _cards_counted(self, game: GameCards, number: int) -> tuple[int, ...]:
        pts = [0] * len(self.setup.sides)
        seen: dict[str, int] = {}
        for name, cards in game.cards:
            s = self._side(name, number, "game_cards")
            for c in cards:
                rank = check_rank(c, number, "game_cards")
                seen[rank] = seen.get(rank, 0) + 1
                if seen[rank] > SUITS:
                    raise AllFoursError(f"more than four cards of rank {rank}", hand=number, field="game_cards")
                pts[s] += CARD_POINTS.get(rank, 0)
        return tuple(pts)

    # -- crediting
    def _credit(self, hand: HandResult, facts: Mapping[str, Fact], penalties: tuple[Penalty, ...]) -> HandResult:
        credit = _Credit(self.rules.target, hand.scores_before)
        honour: list[int] = []
        decided = False
        try:
            self._count(hand, facts, penalties, credit, honour)
        except _Won:
            decided = True
        # from the items credited: a hand that decides the match carries the mark
        # only if all four were credited before (or at) the winning item
        all_four = self._all_four(credit.items)
        return dataclasses.replace(
            hand,
            items=tuple(credit.items),
            scores_after=tuple(credit.scores),
            all_four=all_four,
            honour_revoke=honour[0] if honour else None,
            decided=decided,
            winner=credit.winner,
        )

    def _count(
        self,
        hand: HandResult,
        f: Mapping[str, Fact],
        penalties: tuple[Penalty, ...],
        credit: _Credit,
        honour: list[int],
    ) -> None:
        setup, variant = self.setup, self.rules.spec
        side_of, sides = setup.side_of, range(len(setup.sides))
        dealer_side = side_of[hand.dealer]
        add = credit.add
        # 1. turn-up
        for rank in hand.turned if variant.all_turned else hand.turned[-1:]:
            add(dealer_side, variant.turn_up_points(rank), "turn-up", card=rank)
        # 2. gift
        beg = f.get("beg")
        if isinstance(beg, Beg) and beg.answer == "give":
            for s in sides:
                if s != dealer_side:
                    add(s, 1, "gift")
        # 3. penalties, in order
        barred: set[int] = set()
        for p in penalties:
            kind = p.type
            if kind == "misdeal":
                for s in sides:
                    if s != dealer_side:
                        add(s, 1, "misdeal")
            elif kind == "revoke":
                assert p.by is not None
                rs = side_of[setup.seat[p.by]]
                if p.honour:
                    honour.append(rs)
                    credit.winner = self._honour_winner(rs, credit.scores)
                    raise _Won
                barred.add(rs)
                for s in sides:
                    if s != rs:
                        add(s, 1, "revoke", by=p.by)
            elif kind == "peek":
                assert p.by is not None
                ps = side_of[setup.seat[p.by]]
                for s in sides:
                    if s != ps:
                        add(s, 4, "peek", by=p.by)
            else:
                assert p.side is not None and p.points is not None
                extra = {"reason": p.reason} if p.reason is not None else {}
                add(setup.side_index[p.side], p.points, "award", **extra)
        if hand.void:
            return
        # 4. High, 5. Low
        for key in ("high", "low"):
            fact = f.get(key)
            if isinstance(fact, High | Low) and fact.player is not None:
                add(side_of[setup.seat[fact.player]], 1, key)
        # 6. Jack
        jack = f.get("jack")
        if isinstance(jack, Jack) and jack.held is not None and jack.won is not None:
            held = side_of[setup.seat[jack.held]]
            won = side_of[setup.seat[jack.won]]
            if held == won or not variant.hang_jack:
                add(won, 1, "jack")
            else:
                add(won, 3, "hang-jack")
        # 7. Game
        if hand.card_points is not None:
            game_side = self._game_side(hand.card_points, dealer_side)
            if game_side is not None and game_side not in barred:
                add(game_side, 1, "game")

    def _game_side(self, pts: tuple[int, ...], dealer_side: int) -> int | None:
        best = max(pts)
        tied = [s for s, p in enumerate(pts) if p == best]
        if len(tied) == 1:
            return tied[0]
        if not self.rules.spec.seven_up_tie:
            return None
        # Seven Up: a tie of the dealer's side with one other goes to that other (with two sides:
        # the non-dealer); two non-dealers tied, or all three, -> nobody
        if len(tied) == 2 and dealer_side in tied:
            return next(s for s in tied if s != dealer_side)
        return None

    def _honour_winner(self, loser: int, scores: list[int]) -> int:
        """The revoker's side loses the match: the other side with the higher score wins
        (on a tie the first after the revoker's side)."""
        n = len(self.setup.sides)
        others = [s for s in range(n) if s != loser]
        return sorted(others, key=lambda s: (-scores[s], (s - loser) % n))[0]

    def _all_four(self, items: list[Item]) -> int | None:
        for s in range(len(self.setup.sides)):
            got = {i.label for i in items if i.side == s}
            if {"high", "low", "game"} <= got and ("jack" in got or "hang-jack" in got):
                return s
        return None
