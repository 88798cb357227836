"""The toy game's engine: frozen events, the match as their fold, the record both ways."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from scorekeeper.envelope import Envelope
from scorekeeper.errors import (
    IllegalEntryError,
    LeaderError,
    MatchOverError,
    NothingToUndoError,
    RecordFormatError,
    RulesError,
    type_name,
)
from scorekeeper.setup import Setup as BaseSetup

GAME_ID = "toy-tens"
TARGET = 30


@dataclass(frozen=True)
class Start:
    leader: str


@dataclass(frozen=True)
class Score:
    points: int


Event = Start | Score


@dataclass(frozen=True, slots=True)
class Setup(BaseSetup[None]):
    """The players and sides as every game has them (:class:`scorekeeper.setup.Setup`);
    Tens has no rules."""

    GAME_ID: ClassVar[str] = GAME_ID
    WHAT: ClassVar[str] = "a Tens record"

    @classmethod
    def read_rules(cls, given: Any, env: Envelope) -> None:
        if given is not None:
            raise RulesError("Tens has no rules", field="rules")

    def rules_json(self) -> dict[str, Any]:
        return {}


@dataclass
class Hand:
    number: int
    leader: int
    scores_before: tuple[int, ...]
    turns: list[int]


class Match:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.events: list[Event] = []
        self.hands: list[Hand] = []
        self.scores = [0] * len(setup.sides)
        self.winner: int | None = None

    def push(self, event: Event) -> None:
        number = len(self.hands)
        if self.winner is not None:
            raise MatchOverError("the match is over", hand=max(number, 1))
        if isinstance(event, Start):
            if event.leader not in self.setup.players:
                raise LeaderError(f"{event.leader!r} is not a player", hand=number + 1, field="leader")
            self.hands.append(Hand(number + 1, self.setup.players.index(event.leader), tuple(self.scores), []))
        else:
            if not self.hands:
                raise IllegalEntryError("no hand has been started", hand=1, turn=1)
            h = self.hands[-1]
            if not 0 <= event.points <= 10:
                raise IllegalEntryError(
                    f"a turn scores 0 to 10 points, not {event.points}", hand=h.number, turn=len(h.turns) + 1
                )
            player = (h.leader + len(h.turns)) % len(self.setup.players)
            h.turns.append(event.points)
            side = self.setup.side_of[player]
            self.scores[side] += event.points
            if self.scores[side] >= TARGET:
                self.winner = side
        self.events.append(event)

    def pop(self) -> Event:
        if not self.events:
            raise NothingToUndoError("there is nothing to undo")
        last = self.events[-1]
        fresh = Match(self.setup)  # a toy: fold the others again
        for e in self.events[:-1]:
            fresh.push(e)
        self.__dict__.update(fresh.__dict__)
        return last

    def to_record(self) -> dict[str, Any]:
        hands: list[dict[str, Any]] = []
        for e in self.events:
            if isinstance(e, Start):
                hands.append({"leader": e.leader, "turns": []})
            else:
                hands[-1]["turns"].append({"points": e.points})
        return {**self.setup.head(), "hands": hands}


def parse_start(hand: Any, number: int) -> Start:
    leader = hand.get("leader") if isinstance(hand, dict) else None
    if not isinstance(leader, str):
        raise RecordFormatError(f"must name a player, not {type_name(leader)}", hand=number, field="leader")
    return Start(leader)


def parse_turn(turn: Any, hand: int, number: int) -> Score:
    points = turn.get("points") if isinstance(turn, dict) else None
    if type(points) is not int:
        raise RecordFormatError(f"points must be a whole number, not {points!r}", hand=hand, turn=number)
    return Score(points)


def events_of(record: Any) -> Iterator[Event]:
    for h, hand in enumerate(record.get("hands", []), 1):
        yield parse_start(hand, h)
        for t, turn in enumerate(hand.get("turns", []), 1):
            yield parse_turn(turn, h, t)


def load(record: Any) -> Match:
    m = Match(Setup.of(record))
    for e in events_of(record):
        m.push(e)
    return m
