"""The facts of an All Fours match, as frozen values.

A match is the fold of these events (:class:`~scorekeeper.allfours.engine.Match`):
:class:`Deal` starts a hand, and each *fact* of the hand is one event that
mirrors one key of the record's hand (``turn_up``, ``beg``, ``high``, ``low``,
``jack``, ``game``, ``game_cards``, ``penalties``). A fact given again replaces
the earlier one, as it does in the record. A record's hands are read into
events here (:func:`parse_deal`, :func:`parse_fact`, :func:`iter_events`) and
events written back as a record (:func:`record_of`); the engine folds them.

>>> TurnUp(("J",)).key, TurnUp(("J",)).to_json()
('turn_up', ['J'])
>>> Jack("Ann", "Ben").to_json(), Jack().to_json()
({'held': 'Ann', 'won': 'Ben'}, None)
>>> GamePoints((("Us", 30), ("Them", 23))).to_json()
{'Us': 30, 'Them': 23}
>>> Penalties((Penalty("revoke", by="Cy"),)).to_json()
[{'type': 'revoke', 'by': 'Cy'}]
>>> setup = Setup.new(["Ann", "Ben"])
>>> record_of(setup, [Deal("Ann"), parse_fact("turn_up", ["j"], 1, setup)])["hands"]
[{'dealer': 'Ann', 'turn_up': ['J']}]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from scorekeeper.allfours.rules import (
    AllFoursError,
    Setup,
    check_award_points,
    check_card_points,
    check_player,
    check_rank,
    check_side,
)
from scorekeeper.errors import RecordFormatError, short, type_name
from scorekeeper.points import POINTS, Adjust, PointsHand, item_kind, parse_item

__all__ = [
    "Adjust",
    "BEGS",
    "FACT_KEYS",
    "FACT_TYPES",
    "HAND_KEYS",
    "PENALTY_KEYS",
    "Beg",
    "Deal",
    "Event",
    "Fact",
    "GameCards",
    "GamePoints",
    "High",
    "Jack",
    "Low",
    "Penalties",
    "Penalty",
    "PointsHand",
    "TurnUp",
    "iter_events",
    "parse_deal",
    "parse_fact",
    "record_of",
]

#: A beg's answers: nobody begged (None), the beggar stood, the dealer gave one, the pack was run.
BEGS = (None, "stand", "give", "run")
#: The keys each kind of penalty may have.
PENALTY_KEYS: dict[str, tuple[str, ...]] = {
    "misdeal": ("type",),
    "revoke": ("type", "by", "honour"),
    "peek": ("type", "by"),
    "award": ("type", "side", "points", "reason"),
}


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand begins: ``dealer`` deals it (the record's ``dealer``)."""

    dealer: str
    key: ClassVar[str] = "dealer"


@dataclass(frozen=True, slots=True)
class TurnUp:
    """The cards turned up for trump, in order (several when the pack is run)."""

    ranks: tuple[str, ...]
    key: ClassVar[str] = "turn_up"

    def to_json(self) -> list[str]:
        return list(self.ranks)


@dataclass(frozen=True, slots=True)
class Beg:
    """What became of the beg: ``"stand"``, ``"give"``, ``"run"``, or None (nobody begged)."""

    answer: str | None
    key: ClassVar[str] = "beg"

    def to_json(self) -> str | None:
        return self.answer


@dataclass(frozen=True, slots=True)
class High:
    """Who held the highest trump in play (None: no trump was in play)."""

    player: str | None
    key: ClassVar[str] = "high"

    def to_json(self) -> str | None:
        return self.player


@dataclass(frozen=True, slots=True)
class Low:
    """Who held the lowest trump in play (None: no trump was in play)."""

    player: str | None
    key: ClassVar[str] = "low"

    def to_json(self) -> str | None:
        return self.player


@dataclass(frozen=True, slots=True)
class Jack:
    """Who was dealt the Jack of trumps and who won the trick with it; both None: not in play."""

    held: str | None = None
    won: str | None = None
    key: ClassVar[str] = "jack"

    def to_json(self) -> dict[str, str] | None:
        if self.held is None or self.won is None:
            return None
        return {"held": self.held, "won": self.won}


@dataclass(frozen=True, slots=True)
class GamePoints:
    """Each side's card points for Game, ``(side, points)`` in the order given."""

    points: tuple[tuple[str, int], ...]
    key: ClassVar[str] = "game"

    def to_json(self) -> dict[str, int]:
        return dict(self.points)


@dataclass(frozen=True, slots=True)
class GameCards:
    """The counting cards each side took, ``(side, ranks)``; the engine adds up their points."""

    cards: tuple[tuple[str, tuple[str, ...]], ...]
    key: ClassVar[str] = "game_cards"

    def to_json(self) -> dict[str, list[str]]:
        return {side: list(ranks) for side, ranks in self.cards}


@dataclass(frozen=True, slots=True)
class Penalty:
    """One penalty: ``type`` is ``misdeal``, ``revoke`` (``by``, ``honour``), ``peek``
    (``by``) or ``award`` (``side``, ``points``, ``reason``). ``honour`` is None when the
    record left it out."""

    type: str
    by: str | None = None
    honour: bool | None = None
    side: str | None = None
    points: int | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for key in PENALTY_KEYS[self.type][1:]:
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class Penalties:
    """The hand's penalties, in the order they were given."""

    penalties: tuple[Penalty, ...]
    key: ClassVar[str] = "penalties"

    def to_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.penalties]

    @property
    def misdeal(self) -> bool:
        return any(p.type == "misdeal" for p in self.penalties)


Fact = TurnUp | Beg | High | Low | Jack | GamePoints | GameCards | Penalties
#: A match's events: a hand dealt, its facts, a hand entered as points, an adjustment.
Event = Deal | Fact | PointsHand | Adjust
#: The fact events' classes.
FACT_TYPES: tuple[type, ...] = (TurnUp, Beg, High, Low, Jack, GamePoints, GameCards, Penalties)

#: The facts of a hand, by their record key, in the order the spec lists them.
FACT_KEYS: tuple[str, ...] = ("turn_up", "beg", "high", "low", "jack", "game", "game_cards", "penalties")
#: Every key a record's hand may have.
HAND_KEYS: tuple[str, ...] = ("dealer", *FACT_KEYS)


# ---------------------------------------------------------------------- reading
def parse_deal(hand: Any, number: int, setup: Setup | None = None) -> Deal:
    """The start of hand ``number``: its ``dealer`` (checked against ``setup`` when given)."""
    if not isinstance(hand, Mapping):
        raise RecordFormatError(f"a hand must be an object, not {type_name(hand)}", hand=number)
    for key in hand:
        if key not in HAND_KEYS:
            raise RecordFormatError(f"unknown key {short(key)} in a hand (known: {', '.join(HAND_KEYS)})", hand=number)
    if "dealer" not in hand:
        raise RecordFormatError("the dealer is missing", hand=number, field="dealer")
    dealer = hand["dealer"]
    if setup is not None:
        check_player(setup, dealer, number, "dealer")
    elif not isinstance(dealer, str):
        raise AllFoursError(f"must name a player, not {type_name(dealer)}", hand=number, field="dealer")
    return Deal(dealer)


def _name(setup: Setup | None, value: Any, number: int, what: str, *, null: bool = False) -> Any:
    """A player's name as given (checked against ``setup`` when there is one)."""
    if setup is not None:
        check_player(setup, value, number, what, null=null)
    elif not (isinstance(value, str) or (value is None and null)):
        raise AllFoursError(f"must name a player, not {type_name(value)}", hand=number, field=what)
    return value


def _side(setup: Setup | None, value: Any, number: int, what: str) -> Any:
    if setup is not None:
        check_side(setup, value, number, what)
    return value


def parse_fact(key: str, value: Any, number: int, setup: Setup | None = None) -> Fact:
    """One fact of hand ``number`` as an event, its format checked (its names too, with ``setup``).

    >>> parse_fact("turn_up", ["j", "6"], 1)
    TurnUp(ranks=('J', '6'))
    >>> parse_fact("jack", {"held": "Ann"}, 2)
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RecordFormatError: hand 2, jack: must be null or {"held": player, "won": player}
    """
    where: dict[str, Any] = {"hand": number, "field": key}
    if key == "turn_up":
        # "Empty or absent" in the spec: null and [] say no card was turned; 0, false, "" or {} are no list
        ranks = [] if value is None else value
        if not isinstance(ranks, list):
            raise RecordFormatError(f"must be a list of ranks, not {type_name(ranks)}", **where)
        return TurnUp(tuple(check_rank(r, number, key) for r in ranks))
    if key == "beg":
        if value not in BEGS or type(value) is bool:
            raise AllFoursError(f'beg must be null, "stand", "give" or "run", not {short(value)}', **where)
        return Beg(value)
    if key == "high":
        return High(_name(setup, value, number, key, null=True))
    if key == "low":
        return Low(_name(setup, value, number, key, null=True))
    if key == "jack":
        if value is None:
            return Jack()
        if not isinstance(value, Mapping) or set(value) != {"held", "won"}:
            raise RecordFormatError('must be null or {"held": player, "won": player}', **where)
        return Jack(_name(setup, value["held"], number, "jack.held"), _name(setup, value["won"], number, "jack.won"))
    if key == "game":
        if not isinstance(value, Mapping):
            raise RecordFormatError(f"must map each side to its card points, not {type_name(value)}", **where)
        points = []
        for name, v in value.items():
            _side(setup, name, number, key)
            points.append((name, check_card_points(name, v, number)))
        return GamePoints(tuple(points))
    if key == "game_cards":
        if not isinstance(value, Mapping):
            raise RecordFormatError(f"must map each side to the ranks it took, not {type_name(value)}", **where)
        cards = []
        for name, ranks in value.items():
            _side(setup, name, number, key)
            if not isinstance(ranks, list):
                raise RecordFormatError(
                    f"the cards of {short(name)} must be a list of ranks, not {type_name(ranks)}", **where
                )
            cards.append((name, tuple(check_rank(c, number, key) for c in ranks)))
        return GameCards(tuple(cards))
    if key == "penalties":
        if not isinstance(value, list):
            raise RecordFormatError(f"must be a list, not {type_name(value)}", **where)
        return Penalties(tuple(_penalty(p, number, f"penalties[{i}]", setup) for i, p in enumerate(value, 1)))
    if key == "dealer":
        raise RecordFormatError("the dealer starts a hand: enter a new hand instead", **where)
    raise RecordFormatError(f"unknown key {short(key)} in a hand (known: {', '.join(HAND_KEYS)})", hand=number)


def _penalty(p: Any, number: int, where: str, setup: Setup | None) -> Penalty:
    kind = p.get("type") if isinstance(p, Mapping) else None
    if not isinstance(kind, str) or kind not in PENALTY_KEYS:
        raise AllFoursError(
            f"a penalty is an object with type {', '.join(PENALTY_KEYS)}, not {short(p)}", hand=number, field=where
        )
    for key in p:
        if key not in PENALTY_KEYS[kind]:
            raise RecordFormatError(f"unknown key {short(key)} in a {kind} penalty", hand=number, field=where)
    by = honour = side = points = reason = None
    if kind in ("revoke", "peek"):
        if "by" not in p:
            raise RecordFormatError(f"a {kind} penalty names the player: by", hand=number, field=where)
        by = _name(setup, p["by"], number, f"{where}.by")
    if kind == "revoke" and "honour" in p:
        honour = p["honour"]
        if not isinstance(honour, bool):
            raise RecordFormatError("honour must be true or false", hand=number, field=f"{where}.honour")
    if kind == "award":
        side = p.get("side")
        if setup is not None:
            check_side(setup, side, number, f"{where}.side")
        elif not isinstance(side, str):
            raise AllFoursError(f"must name a side, not {type_name(side)}", hand=number, field=f"{where}.side")
        points = check_award_points(p.get("points"), number, f"{where}.points")
        if "reason" in p:
            reason = p["reason"]
            if not isinstance(reason, str):
                raise RecordFormatError(
                    f"reason must be a string, not {type_name(reason)}", hand=number, field=f"{where}.reason"
                )
    return Penalty(kind, by, honour, side, points, reason)


def iter_events(record: Any, setup: Setup) -> Iterator[Event]:
    """The record's hands as events, in order (a malformed entry raises when reached)."""
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordFormatError("must be a list of hands", field="hands")
    number = 0
    for hand in hands:
        kind = item_kind(hand)
        if kind is not None:  # a hand entered as points, an adjustment (not a hand: not numbered)
            number += kind == POINTS
            yield parse_item(hand, kind, number, number)
            continue
        number += 1
        yield parse_deal(hand, number, setup)
        for key, value in hand.items():
            if key != "dealer":
                yield parse_fact(key, value, number, setup)


# ---------------------------------------------------------------------- writing
def record_of(setup: Setup, events: Iterable[Event]) -> dict[str, Any]:
    """The events of a match as a ``scorekeeper/1`` record."""
    record = setup.head()
    hands: list[dict[str, Any]] = []
    for e in events:
        if isinstance(e, Deal):
            hands.append({"dealer": e.dealer})
        elif isinstance(e, PointsHand | Adjust):
            hands.append(e.to_json())
        else:
            hands[-1][e.key] = e.to_json()
    record["hands"] = hands
    return record
