"""The facts of an All Fours match, as frozen values.

A match is the fold of these events (:class:`~scorekeeper.allfours.engine.Match`):
:class:`Deal` starts a hand, and each *fact* of the hand is one event that
mirrors one key of the record's hand (``turn_up``, ``beg``, ``high``, ``low``,
``jack``, ``game``, ``game_cards``, ``penalties``). A fact given again replaces
the earlier one, as it does in the record.

>>> TurnUp(("J",)).key, TurnUp(("J",)).to_json()
('turn_up', ['J'])
>>> Jack("Ann", "Ben").to_json(), Jack().to_json()
({'held': 'Ann', 'won': 'Ben'}, None)
>>> GamePoints((("Us", 30), ("Them", 23))).to_json()
{'Us': 30, 'Them': 23}
>>> Penalties((Penalty("revoke", by="Cy"),)).to_json()
[{'type': 'revoke', 'by': 'Cy'}]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = [
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
    "TurnUp",
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
Event = Deal | Fact
#: The fact events' classes.
FACT_TYPES: tuple[type, ...] = (TurnUp, Beg, High, Low, Jack, GamePoints, GameCards, Penalties)

#: The facts of a hand, by their record key, in the order the spec lists them.
FACT_KEYS: tuple[str, ...] = ("turn_up", "beg", "high", "low", "jack", "game", "game_cards", "penalties")
#: Every key a record's hand may have.
HAND_KEYS: tuple[str, ...] = ("dealer", *FACT_KEYS)
