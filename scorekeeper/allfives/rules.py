"""The All Fives rule options (``rules`` in a match record).

>>> r = Rules.parse({}, players=2)
>>> r.set, r.spinner, r.hand_size, r.target, r.boneyard
(6, 'first-double', 9, 250, 10)
>>> Rules.parse({"scale": 5}, players=4).target
61
>>> Rules.parse({"hand_size": 8}, players=4)
Traceback (most recent call last):
...
scorekeeper.errors.RulesError: rules.hand_size: 4 players x 8 tiles = 32 is more than the 28 tiles of a double-6 set
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from scorekeeper import setup as _setup
from scorekeeper.dominoes.tiles import set_size
from scorekeeper.envelope import Envelope
from scorekeeper.errors import RulesError, short

GAME_ID = "all-fives"

T = TypeVar("T")

#: Which doubles spin: the first, none, all -- or the sniff: the first double, set across
#: (spinning) or in line at the player's choice.
SPINNER_POLICIES = ("first-double", "none", "all-doubles", "sniff")
#: How a hand is settled: by the pips left in hands, or (Fives and Threes) a point for the
#: go ("go") or nothing at all ("none").
HAND_ENDS = ("winner-takes", "each-subtracts", "go", "none")
#: When a player's last tile ends the hand: at once, or only when their whole side is out.
DOMINO_ENDS = ("player", "side")
#: Who leads the next hand: the player who dominoed (else the leader is named), or the
#: player to the left of the last hand's leader.
NEXT_LEADERS = ("winner", "left")
BLOCK_WINNERS = ("player", "side")
CLAIM_MODES = ("check", "muggins")
#: What a count scores: All Fives' multiples of five, or Fives and Threes' fives and/or threes.
COUNTS = ("fives", "fives-and-threes")

#: Default tiles dealt per player, by number of players (the spec's table).
DEFAULT_HAND_SIZE = {2: 9, 3: 7, 4: 5, 5: 5}

#: Other hand-size tables from the sources, offered as presets by the app.
HAND_SIZE_PRESETS = {
    "default": DEFAULT_HAND_SIZE,
    "european": {2: 7, 3: 5, 4: 5},
    "holsey": {2: 7, 3: 7, 4: 5},
    "newsom-bourne": {2: 7, 3: 7, 4: 7, 5: 5},
}

#: The highest target a match may be played to (a bound on the work a record can ask for).
MAX_TARGET = 9_999

RULE_KEYS = (
    "set",
    "spinner",
    "hand_size",
    "hand_end",
    "block_winner",
    "scale",
    "target",
    "exact_target",
    "boneyard_reserve",
    "claims",
    "count",
    "draw",
    "domino",
    "next_leader",
    "win_on_lead",
)


def worth(count: int, scale: int) -> int:
    """What a count scores: a multiple of five scores itself, divided by ``scale``
    (5 in cribbage-style matches); any other count scores nothing.

    >>> worth(15, 1), worth(15, 5), worth(12, 1), worth(0, 1)
    (15, 3, 0, 0)
    """
    return count // scale if count % 5 == 0 else 0


def fives_and_threes(count: int) -> int:
    """What a count scores in Fives and Threes: count/5 if it is a multiple of five, plus
    count/3 if it is a multiple of three; 0 and any other count score nothing.

    >>> [fives_and_threes(c) for c in (3, 5, 6, 9, 10, 12, 15, 18, 20, 21, 24, 25, 27, 30, 33, 35, 36)]
    [1, 1, 2, 3, 2, 4, 8, 6, 4, 7, 8, 5, 9, 16, 11, 7, 12]
    >>> fives_and_threes(0), fives_and_threes(7), fives_and_threes(16)
    (0, 0, 0)
    """
    if count <= 0:
        return 0
    return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)


def default_target(players: int, scale: int, count: str = "fives") -> int:
    """61 with ``scale`` 5 or the Fives and Threes count; else 250 for two players and
    200 otherwise."""
    if scale == 5 or count == "fives-and-threes":
        return 61
    return 250 if players == 2 else 200


def _bad(key: str, reason: str) -> RulesError:
    return RulesError(reason, field=f"rules.{key}")


def _int(key: str, value: Any) -> int:
    if type(value) is not int:  # bool is an int in Python; a rule value is not
        raise _bad(key, f"must be a whole number, not {short(value)}")
    return value


def _choice(key: str, value: object, choices: tuple[T, ...]) -> T:
    """``value`` if it is one of ``choices``, of the same type: ``true`` is not 1, nor is
    ``6.0`` the set 6.

    >>> _choice("set", 9, (6, 9, 12))
    9
    >>> _choice("set", 6.0, (6, 9, 12))
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RulesError: rules.set: 6.0 is not one of 6, 9, 12
    """
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return choice
    allowed = ", ".join(repr(c) for c in choices)
    raise _bad(key, f"{short(value)} is not one of {allowed}")


@dataclass(frozen=True, slots=True)
class Rules:
    """Resolved rule options: every default filled in for the number of players."""

    players: int
    set: int = 6
    spinner: str = "first-double"
    hand_size: int = 0
    hand_end: str = "winner-takes"
    block_winner: str = "player"
    scale: int = 1
    target: int = 0
    exact_target: bool = False
    boneyard_reserve: int = 0
    claims: str = "check"
    count: str = "fives"
    draw: bool = True
    domino: str = "player"
    next_leader: str = "winner"
    win_on_lead: bool = True
    given: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def worth(self, count: int) -> int:
        """What ``count`` scores under these rules (see :func:`worth`, :func:`fives_and_threes`)."""
        if self.count == "fives-and-threes":
            return fives_and_threes(count)
        return worth(count, self.scale)

    @property
    def settles_pips(self) -> bool:
        """Whether an ended hand is settled by the pips left in hands (``remaining`` required)."""
        return self.hand_end in ("winner-takes", "each-subtracts")

    @property
    def tiles(self) -> int:
        """How many tiles the set holds."""
        return set_size(self.set)

    @property
    def boneyard(self) -> int:
        """Tiles left after the deal."""
        return self.tiles - self.players * self.hand_size

    @classmethod
    def parse(cls, given: Mapping[str, Any] | None, players: int) -> Rules:
        """Check a record's ``rules`` object and fill in the defaults."""
        given = {} if given is None else given
        if not isinstance(given, Mapping):
            raise RulesError(f"must be an object, not {type(given).__name__}", field="rules")
        for key in given:
            if key not in RULE_KEYS:
                if isinstance(key, str) and len(key) <= 40:
                    raise _bad(key, f"unknown rule (known: {', '.join(RULE_KEYS)})")
                raise RulesError(f"unknown rule {short(key)} (known: {', '.join(RULE_KEYS)})", field="rules")
        g = given.get
        highest = _choice("set", g("set", 6), (6, 9, 12))
        spinner = _choice("spinner", g("spinner", "first-double"), SPINNER_POLICIES)
        hand_end = _choice("hand_end", g("hand_end", "winner-takes"), HAND_ENDS)
        block_winner = _choice("block_winner", g("block_winner", "player"), BLOCK_WINNERS)
        scale = _choice("scale", g("scale", 1), (1, 5))
        claims = _choice("claims", g("claims", "check"), CLAIM_MODES)
        exact = g("exact_target", False)
        if type(exact) is not bool:
            raise _bad("exact_target", f"must be true or false, not {short(exact)}")
        reserve = _choice("boneyard_reserve", g("boneyard_reserve", 0), (0, 1, 2))
        counting = _choice("count", g("count", "fives"), COUNTS)
        draw = g("draw", True)
        if type(draw) is not bool:
            raise _bad("draw", f"must be true or false, not {short(draw)}")
        domino = _choice("domino", g("domino", "player"), DOMINO_ENDS)
        next_leader = _choice("next_leader", g("next_leader", "winner"), NEXT_LEADERS)
        win_on_lead = g("win_on_lead", True)
        if type(win_on_lead) is not bool:
            raise _bad("win_on_lead", f"must be true or false, not {short(win_on_lead)}")
        if counting == "fives-and-threes" and scale != 1:
            raise _bad("scale", "must be 1 with the Fives and Threes count: its points already are pegs")
        if not draw and reserve:
            raise _bad("boneyard_reserve", f"must be 0 when there is no drawing (rules.draw is false), not {reserve}")

        if "hand_size" in given:
            hand_size = _int("hand_size", given["hand_size"])
            if hand_size < 1:
                raise _bad("hand_size", f"must be at least 1, not {short(hand_size)}")
        elif players in DEFAULT_HAND_SIZE:
            hand_size = DEFAULT_HAND_SIZE[players]
        else:
            raise _bad("hand_size", f"has no default for {players} players: give it")
        tiles = set_size(highest)
        if hand_size > tiles:
            raise _bad(
                "hand_size", f"{short(hand_size)} tiles each is more than the {tiles} tiles of a double-{highest} set"
            )
        if players * hand_size > tiles:
            raise _bad(
                "hand_size",
                f"{players} players x {hand_size} tiles = {players * hand_size} "
                f"is more than the {tiles} tiles of a double-{highest} set",
            )

        if "target" in given:
            target = _int("target", given["target"])
            if not 1 <= target <= MAX_TARGET:
                raise _bad("target", f"must be from 1 to {MAX_TARGET:,}, not {short(target)}")
        else:
            target = default_target(players, scale, counting)

        return cls(
            players=players,
            set=highest,
            spinner=spinner,
            hand_size=hand_size,
            hand_end=hand_end,
            block_winner=block_winner,
            scale=scale,
            target=target,
            exact_target=exact,
            boneyard_reserve=reserve,
            claims=claims,
            count=counting,
            draw=draw,
            domino=domino,
            next_leader=next_leader,
            win_on_lead=win_on_lead,
            given=dict(given),
        )


@dataclass(frozen=True, slots=True)
class Setup(_setup.Setup[Rules]):
    """Everything fixed for a whole match: who plays, on which sides, by which rules
    (:class:`scorekeeper.setup.Setup` with All Fives' :class:`Rules`).

    >>> s = Setup.new(["Ann", "Ben", "Cy", "Di"], teams={"NS": ["Ann", "Cy"], "EW": ["Ben", "Di"]})
    >>> s.sides, s.side_of, s.rules.hand_size
    (('NS', 'EW'), (0, 1, 0, 1), 5)
    """

    GAME_ID: ClassVar[str] = GAME_ID
    WHAT: ClassVar[str] = "an All Fives record"

    @classmethod
    def read_rules(cls, given: Any, env: Envelope) -> Rules:
        return Rules.parse(given, len(env.players))

    def rules_json(self) -> Mapping[str, Any]:
        return self.rules.given
