"""Broadway's rules: the seats and sides, the options a record may set (:class:`Rules`),
a match's :class:`Setup`, the double each hand is built on, and the errors of the
rules a placement breaks (``docs/rules/broadway.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from scorekeeper import setup as _setup
from scorekeeper.broadway.grid import HIGHEST
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.envelope import Envelope
from scorekeeper.errors import (
    IllegalEntryError,
    IllegalPlacementError,
    IllegalTileError,
    RecordFormatError,
    RulesError,
    short,
    type_name,
)

__all__ = [
    "DEFAULT_SIDES",
    "HAND_SIZE",
    "HandSizeError",
    "MAX_TURNS",
    "NoMatchError",
    "NotAdjacentError",
    "OccupiedCellError",
    "OrientationError",
    "REGULAR_HANDS",
    "RULE_KEYS",
    "Rules",
    "SEATS",
    "SET_SIZE",
    "Setup",
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
#: The rules a record need not write.
DEFAULT_RULES = {"orientation": "seat", "unplayed_penalty": "subtract"}
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
class Setup(_setup.Setup[Rules]):
    """The four seats (North, East, South, West: ``players`` in order), the two sides
    (seats 1 & 3 and 2 & 4) and the rules (:class:`scorekeeper.setup.Setup` with
    Broadway's :class:`Rules`)."""

    GAME_ID: ClassVar[str] = "broadway"
    WHAT: ClassVar[str] = "a Broadway record"

    @classmethod
    def seating(cls, env: Envelope) -> tuple[tuple[str, ...], tuple[int, ...]]:
        players = env.players
        if len(players) != 4:
            raise RecordFormatError(
                f"Broadway is played by four players, in seat order North, East, South, West (here {len(players)})",
                field="players",
            )
        if env.teams is None:
            return DEFAULT_SIDES, (0, 1, 0, 1)
        side_of = env.side_of
        if len(env.sides) != 2 or side_of[0] != side_of[2] or side_of[1] != side_of[3]:
            raise RecordFormatError(
                f"partners sit opposite each other: the teams are {players[0]} & {players[2]} "
                f"(seats 1 & 3) and {players[1]} & {players[3]} (seats 2 & 4)",
                field="teams",
            )
        return env.sides, side_of

    @classmethod
    def read_rules(cls, given: Any, env: Envelope) -> Rules:
        return Rules.parse(given)

    def rules_json(self) -> Mapping[str, Any]:
        """Only the rules that are not the default."""
        return {k: v for k, v in self.rules.to_json().items() if v != DEFAULT_RULES[k]}

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
