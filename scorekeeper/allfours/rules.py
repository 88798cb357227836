"""All Fours' rules and setup: the variant and target, who plays as which sides, and
the checks of one value of a record (a player, a side, a rank, card and award points).

>>> s = Setup.new(["Ann", "Ben", "Cy", "Di"], teams={"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]})
>>> s.sides, s.side_of, s.rules.variant, s.rules.target
(('Us', 'Them'), (0, 1, 0, 1), 'trinidad', 14)
>>> check_side(s, "Us", 1, "game"), check_player(s, "Di", 1, "high")
(0, 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from scorekeeper import setup as _setup
from scorekeeper.allfours.variants import DEFAULT_VARIANT, RANKS, VARIANTS, Variant
from scorekeeper.envelope import Envelope
from scorekeeper.errors import SHORT, IllegalEntryError, RecordFormatError, RulesError, short, type_name

__all__ = [
    "GAME_ID",
    "MAX_POINTS",
    "MAX_TARGET",
    "PACK_POINTS",
    "RULE_KEYS",
    "SUITS",
    "AllFoursError",
    "Rules",
    "Setup",
    "check_award_points",
    "check_card_points",
    "check_player",
    "check_rank",
    "check_side",
]

GAME_ID = "all-fours"
RULE_KEYS = ("variant", "target")
#: The highest target a match may be played to (a bound on the work a record can ask for).
MAX_TARGET = 9_999
#: The most points one award may give.
MAX_POINTS = 9_999
#: Card points per side cannot exceed the pack's 80.
PACK_POINTS = 80
#: Each rank is in the pack four times.
SUITS = 4


class AllFoursError(IllegalEntryError):
    """A hand's facts that break the rules of All Fours."""


@dataclass(frozen=True)
class Rules:
    """The variant and the target (``given``: the record's rule options as written)."""

    variant: str
    target: int
    given: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def spec(self) -> Variant:
        return VARIANTS[self.variant]

    @classmethod
    def parse(cls, rules: Any, players: int) -> Rules:
        """Check a record's ``rules`` object and fill in the defaults.

        >>> Rules.parse({"variant": "seven-up"}, players=2).target
        7
        >>> Rules.parse({"variant": []}, players=2)
        Traceback (most recent call last):
        ...
        scorekeeper.errors.RulesError: rules.variant: unknown variant [] (known: trinidad, tobago, west-yorkshire, lancashire, english-1674, running, north-american, seven-up, pitch)
        """
        if rules is None:
            rules = {}
        if not isinstance(rules, Mapping):
            raise RulesError(f"must be an object, not {type_name(rules)}", field="rules")
        for key in rules:
            if key not in RULE_KEYS:
                raise RulesError(f"unknown rule {short(key)} (All Fours rules: {', '.join(RULE_KEYS)})", field="rules")
        variant = rules.get("variant", DEFAULT_VARIANT)
        if not isinstance(variant, str) or variant not in VARIANTS:  # (a list or an object cannot be looked up)
            raise RulesError(f"unknown variant {short(variant)} (known: {', '.join(VARIANTS)})", field="rules.variant")
        target = rules.get("target", VARIANTS[variant].default_target(players))
        if type(target) is not int or not 1 <= target <= MAX_TARGET:  # (true is not 1, nor 7.0 a whole number)
            raise RulesError(
                f"must be a whole number from 1 to {MAX_TARGET:,}, not {short(target)}", field="rules.target"
            )
        return cls(variant, target, dict(rules))


@dataclass(frozen=True, slots=True)
class Setup(_setup.Setup[Rules]):
    """Who plays, as which sides, under which rules (:class:`scorekeeper.setup.Setup` with
    All Fours' :class:`Rules`): two or three sides of one or two players each."""

    GAME_ID: ClassVar[str] = GAME_ID
    WHAT: ClassVar[str] = "an All Fours record"

    @classmethod
    def seating(cls, env: Envelope) -> tuple[tuple[str, ...], tuple[int, ...]]:
        n, sides = len(env.players), len(env.sides)
        sizes = set(Counter(env.side_of).values())  # one pass: a record may list thousands of players
        if sides not in (2, 3) or len(sizes) != 1 or sizes.pop() > 2:
            raise RecordFormatError(
                f"All Fours is played by two or three sides: 2 or 3 players, or 4 or 6 in teams of two "
                f"(here {n} players as {sides} sides)",
                field="teams" if env.teams else "players",
            )
        return env.sides, env.side_of

    @classmethod
    def read_rules(cls, given: Any, env: Envelope) -> Rules:
        return Rules.parse(given, len(env.players))

    def rules_json(self) -> Mapping[str, Any]:
        return self.rules.given

    def next_dealer(self, dealer: int) -> int:
        """The next dealer: to the right in Trinidad (counter-clockwise), else to the left."""
        step = -1 if self.rules.spec.dealing == "counter-clockwise" else 1
        return (dealer + step) % len(self.players)


def check_player(setup: Setup, value: Any, number: int, what: str, *, null: bool = False) -> int | None:
    """The seat of the player ``value`` names (None for null where ``null``); raises naming hand and field."""
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise AllFoursError(f"must name a player, not {type_name(value)}", hand=number, field=what)
    seat = setup.seat.get(value)
    if seat is None:
        raise AllFoursError(
            f"{short(value)} is not a player (players: {', '.join(setup.players)})", hand=number, field=what
        )
    return seat


def check_side(setup: Setup, value: Any, number: int, what: str) -> int:
    """The index of the side ``value`` names; raises naming hand and field."""
    index = setup.side_index.get(value) if isinstance(value, str) else None
    if index is None:
        raise AllFoursError(f"{short(value)} is not a side (sides: {', '.join(setup.sides)})", hand=number, field=what)
    return index


def check_rank(value: Any, number: int, what: str) -> str:
    """A card's rank as a record writes it (``"j"`` is read as ``"J"``; the number 6 is refused).

    >>> check_rank("j", 1, "turn_up")
    'J'
    >>> check_rank(6, 2, "turn_up")
    Traceback (most recent call last):
    ...
    scorekeeper.allfours.rules.AllFoursError: hand 2, turn_up: unknown rank 6 (ranks: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A)
    """
    # a rank is a string exactly, of at most two characters: "１０" or "٣" is no rank
    rank = value.upper() if isinstance(value, str) and len(value) <= 2 else None
    if rank not in RANKS:
        raise AllFoursError(f"unknown rank {short(value)} (ranks: {', '.join(RANKS)})", hand=number, field=what)
    return rank


def check_card_points(side: Any, value: Any, number: int) -> int:
    """A side's card points for Game: a whole number from 0 to 80 (the pack holds 80)."""
    who = side if isinstance(side, str) and len(side) <= SHORT else short(side)
    if type(value) is not int:  # true is not 1, nor 23.0 a whole number
        raise AllFoursError(
            f"card points of {who} must be a whole number, not {short(value)}", hand=number, field="game"
        )
    if value < 0:
        raise AllFoursError(f"card points of {who} cannot be below 0 ({short(value)})", hand=number, field="game")
    if value > PACK_POINTS:
        raise AllFoursError(
            f"card points of {who} cannot be above {PACK_POINTS}: the pack holds only {PACK_POINTS} "
            f"(not {short(value)})",
            hand=number,
            field="game",
        )
    return value


def check_award_points(value: Any, number: int, what: str) -> int:
    """An award's points: a whole number from 0 to 9,999."""
    if type(value) is not int or not 0 <= value <= MAX_POINTS:
        raise AllFoursError(
            f"award points must be a whole number from 0 to {MAX_POINTS:,}, not {short(value)}", hand=number, field=what
        )
    return value
