"""What every game's match is set up with: who plays, on which sides, by which rules.

Each game's ``Setup`` (``scorekeeper/<game>/rules.py``) is a :class:`Setup` with its own
rules: it says its game's id, what a record of it is called, how it reads its rules and
writes them back, and, where the game seats players its own way, how it seats them. The
rest is here, once: reading the envelope of a record (:meth:`Setup.of`), a new match's
setup (:meth:`Setup.new`), each player's seat and each side's players, and the head of
the record a match writes back (:meth:`Setup.head`).

A setup is always made from a record (``of``; ``new`` makes the record first), so it
always has the :class:`~scorekeeper.envelope.Envelope` it was read from: the record's
teams and metadata are written back from it.

>>> from scorekeeper.allfives.rules import Setup as FivesSetup
>>> s = FivesSetup.new(["Ann", "Ben", "Cy", "Di"], teams={"NS": ["Ann", "Cy"], "EW": ["Ben", "Di"]})
>>> s.sides, s.side_of, s.seat["Cy"], s.members, s.side_index["EW"]
(('NS', 'EW'), (0, 1, 0, 1), 2, ((0, 2), (1, 3)), 1)
>>> s.head()
{'format': 'scorekeeper/1', 'game': 'all-fives', 'players': ['Ann', 'Ben', 'Cy', 'Di'], 'teams': {'NS': ['Ann', 'Cy'], 'EW': ['Ben', 'Di']}}
>>> FivesSetup.of({"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"]})
Traceback (most recent call last):
...
scorekeeper.errors.RecordFormatError: game: not an All Fives record (game 'broadway')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from scorekeeper.envelope import FORMAT, Envelope, new_record
from scorekeeper.errors import RecordFormatError
from scorekeeper.points import parse_start

__all__ = ["Setup"]

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Setup(Generic[R]):
    """Everything fixed for a whole match: the players in seating order, the sides they
    form (``side_of``: each player's side), the game's ``rules`` and the record's envelope.

    A game's setup sets :attr:`GAME_ID` and :attr:`WHAT`, and gives :meth:`read_rules` and
    :meth:`rules_json`; it may seat players its own way (:meth:`seating`)."""

    players: tuple[str, ...]
    sides: tuple[str, ...]
    side_of: tuple[int, ...]
    rules: R
    #: The envelope of the record the setup was read from: its teams and metadata.
    envelope: Envelope = field(compare=False, repr=False)
    #: Each side's score carried in when the match began (the record's ``"start"``, in the
    #: order of the sides), or None when the record carries nothing in: see :attr:`scores_at_start`.
    start: tuple[int, ...] | None = None
    #: Each player's seat by name (every check of a name is one look-up).
    seat: Mapping[str, int] = field(init=False, repr=False, compare=False)
    #: Each side's index by name.
    side_index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    #: The seats of each side's players.
    members: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    #: The record's ``"game"``.
    GAME_ID: ClassVar[str]
    #: What a record of the game is called in a message: ``"an All Fives record"``.
    WHAT: ClassVar[str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", {p: i for i, p in enumerate(self.players)})
        object.__setattr__(self, "side_index", {s: i for i, s in enumerate(self.sides)})
        members = tuple(tuple(i for i, s in enumerate(self.side_of) if s == side) for side in range(len(self.sides)))
        object.__setattr__(self, "members", members)

    @classmethod
    def of(cls, record: Any) -> Self:
        """The setup of a record of the game: its envelope, seats and rules checked (a
        :class:`~scorekeeper.errors.RecordFormatError` or ``RulesError`` says what is wrong)."""
        env = Envelope.parse(record)
        if env.game != cls.GAME_ID:
            raise RecordFormatError(f"not {cls.WHAT} (game {env.game!r})", field="game")
        sides, side_of = cls.seating(env)
        rules = cls.read_rules(record.get("rules"), env)
        start = parse_start(record["start"], sides, cls.target_of(rules)) if "start" in record else None
        return cls(env.players, sides, side_of, rules, env, start)

    @classmethod
    def new(
        cls,
        players: Iterable[str],
        teams: Mapping[str, Iterable[str]] | None = None,
        rules: Mapping[str, Any] | None = None,
        start: Mapping[str, int] | None = None,
    ) -> Self:
        """A setup for a new match: the players in seating order, the sides, the rule options
        and (``start``) each side's score carried in from paper or another app.

        >>> from scorekeeper.allfives.rules import Setup as FivesSetup
        >>> FivesSetup.new(["Ann", "Ben"], start={"Ann": 85, "Ben": 70}).scores_at_start
        (85, 70)
        """
        return cls.of(new_record(cls.GAME_ID, players, teams, rules, start))

    @property
    def scores_at_start(self) -> tuple[int, ...]:
        """Every side's score before the first entry: what the record carries in, else 0."""
        return self.start if self.start is not None else (0,) * len(self.sides)

    @classmethod
    def target_of(cls, rules: R) -> int | None:
        """The score that wins under ``rules`` (None: the game has no target); a carried-in
        score is below it."""
        target = getattr(rules, "target", None)
        return target if type(target) is int else None

    @classmethod
    def seating(cls, env: Envelope) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The sides and each player's side, from a checked envelope: the envelope's own
        (each player a side, or the record's teams). A game that seats otherwise, or takes
        only some numbers of players, says so here (a RecordFormatError)."""
        return env.sides, env.side_of

    @classmethod
    def read_rules(cls, given: Any, env: Envelope) -> R:
        """The game's rules from a record's ``"rules"`` (None: not given), for the players
        of ``env``; a bad rule is a RulesError naming it."""
        raise NotImplementedError(f"{cls.__name__} reads no rules")

    def rules_json(self) -> Mapping[str, Any]:
        """The rules as a record writes them back (nothing: no ``"rules"`` at all)."""
        raise NotImplementedError(f"{type(self).__name__} writes no rules")

    def head(self) -> dict[str, Any]:
        """The record of a match before its hands: format, game, players, the teams, the
        scores carried in and the rules where there are any, and the metadata (title,
        notes, event ...)."""
        record: dict[str, Any] = {"format": FORMAT, "game": self.GAME_ID, "players": list(self.players)}
        if self.envelope.teams is not None:
            record["teams"] = {k: list(v) for k, v in self.envelope.teams.items()}
        if self.start is not None:
            record["start"] = dict(zip(self.sides, self.start, strict=True))
        rules = self.rules_json()
        if rules:
            record["rules"] = dict(rules)
        record.update(self.envelope.metadata_fields())
        return record
