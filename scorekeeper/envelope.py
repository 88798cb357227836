"""The game-independent envelope of a ``scorekeeper/1`` match record.

Every name is checked with the rule of :mod:`scorekeeper.text`. The rest of that rule
(two spellings of one name, the characters of every other text) is checked at the
doors of new records (:func:`scorekeeper.boundary.check`), not here: a match stored
before it was added is still read, listed and exported (with escapes).

>>> env = Envelope.parse({"format": "scorekeeper/1", "game": "all-fives",
...                       "players": ["Ann", "Ben", "Cy", "Di"],
...                       "teams": {"NS": ["Ann", "Cy"], "EW": ["Ben", "Di"]}})
>>> env.sides, env.side_of
(('NS', 'EW'), (0, 1, 0, 1))
>>> Envelope.parse({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"]}).sides
('Ann', 'Ben')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import registry
from scorekeeper.errors import RecordFormatError, short, type_name
from scorekeeper.text import MAX_NAME, name_problem

FORMAT = "scorekeeper/1"
#: The most players a record may list (All Fours has up to six; nobody plays with more).
MAX_PLAYERS = 12
#: ``start`` is read by the game's setup (:meth:`scorekeeper.setup.Setup.of`): it needs the sides and the target.
ENVELOPE_KEYS = ("format", "game", "players", "teams", "start", "rules", "hands")
METADATA_KEYS = ("id", "title", "started", "notes")
#: The optional ``"event"`` of a record: the event, round and table the match was played for.
EVENT_KEYS = ("id", "round", "table")
#: An event's id: a match id's characters (see :mod:`scorekeeper.events`).
EVENT_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: The most rounds, and tables in a round, an event may have.
MAX_EVENT_NUMBER = 100_000


def new_record(
    game: str,
    players: Iterable[str],
    teams: Mapping[str, Iterable[str]] | None = None,
    rules: Mapping[str, Any] | None = None,
    start: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The envelope of a new match's record (what every game's ``Setup.new`` reads);
    ``start``: each side's score carried in (see :mod:`scorekeeper.points`).

    >>> new_record("all-fives", ["Ann", "Ben"], rules={"target": 100})
    {'format': 'scorekeeper/1', 'game': 'all-fives', 'players': ['Ann', 'Ben'], 'rules': {'target': 100}}
    >>> new_record("all-fives", ["Ann", "Ben"], start={"Ann": 85, "Ben": 70})["start"]
    {'Ann': 85, 'Ben': 70}
    """
    record: dict[str, Any] = {"format": FORMAT, "game": game, "players": list(players)}
    if teams is not None:
        record["teams"] = {k: list(v) for k, v in teams.items()}
    if start is not None:
        record["start"] = dict(start)
    if rules is not None:
        record["rules"] = dict(rules)
    return record


@dataclass(frozen=True, slots=True)
class Envelope:
    """Players in seating order, the sides they form, and the raw parts."""

    game: str
    players: tuple[str, ...]
    sides: tuple[str, ...]
    side_of: tuple[int, ...]  # side index of each player
    teams: Mapping[str, tuple[str, ...]] | None
    metadata: Mapping[str, str] = field(default_factory=dict)
    #: The record's ``"event"``: ``{"id", "round", "table"}`` of the event's table it was played at.
    event: Mapping[str, Any] | None = None

    def metadata_fields(self) -> dict[str, Any]:
        """The record's metadata as it is written back: in the order of :data:`METADATA_KEYS`,
        then the ``"event"``."""
        out: dict[str, Any] = {k: self.metadata[k] for k in METADATA_KEYS if k in self.metadata}
        if self.event is not None:
            out["event"] = dict(self.event)
        return out

    def player_index(self, name: Any) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise KeyError(name) from None

    @classmethod
    def parse(cls, record: Any) -> Envelope:
        if not isinstance(record, dict):
            raise RecordFormatError(f"a record must be a JSON object, not {type_name(record)}")
        for key in record:
            if key not in ENVELOPE_KEYS and key not in METADATA_KEYS and key != "event":
                raise RecordFormatError(f"unknown key {short(key)} in the record")
        fmt = record.get("format")
        if fmt != FORMAT:
            raise RecordFormatError(f"format must be {FORMAT!r}, not {short(fmt)}", field="format")
        game = record.get("game")
        known = registry.ids()
        if not isinstance(game, str) or game not in known:
            raise RecordFormatError(f"unknown game {short(game)} (known: {', '.join(known)})", field="game")
        players = record.get("players")
        if not isinstance(players, list):
            raise RecordFormatError(f"must be a list of names, not {type_name(players)}", field="players")
        if len(players) < 2:
            raise RecordFormatError("a match needs at least 2 players", field="players")
        if len(players) > MAX_PLAYERS:
            raise RecordFormatError(f"a match has at most {MAX_PLAYERS} players, not {len(players)}", field="players")
        seen: set[str] = set()
        for p in players:
            problem = name_problem(p, limit=MAX_NAME)
            if problem:
                raise RecordFormatError(problem, field="players")
            if p in seen:
                raise RecordFormatError(f"{short(p)} is listed twice", field="players")
            seen.add(p)
        players_t = tuple(players)

        teams = record.get("teams")
        teams_t: dict[str, tuple[str, ...]] | None
        if teams is None:
            sides = players_t
            side_of = tuple(range(len(players_t)))
            teams_t = None
        else:
            if not isinstance(teams, dict) or not teams:
                raise RecordFormatError("must be an object mapping side names to players", field="teams")
            side_by_player: dict[str, int] = {}
            teams_t = {}
            for s, (name, members) in enumerate(teams.items()):
                problem = name_problem(name, "a side's name", limit=MAX_NAME)
                if problem:
                    raise RecordFormatError(problem, field="teams")
                if not isinstance(members, list) or not members:
                    raise RecordFormatError(f"side {name!r} must list its players", field="teams")
                for m in members:
                    if not isinstance(m, str) or m not in seen:
                        raise RecordFormatError(f"side {name!r} names {short(m)}, who is not a player", field="teams")
                    if m in side_by_player:
                        raise RecordFormatError(f"{m!r} is in more than one side", field="teams")
                    side_by_player[m] = s
                teams_t[name] = tuple(members)
            missing = [p for p in players_t if p not in side_by_player]
            if missing:
                raise RecordFormatError(f"{missing[0]!r} is in no side", field="teams")
            sides = tuple(teams)
            side_of = tuple(side_by_player[p] for p in players_t)

        metadata: dict[str, str] = {}
        for key in METADATA_KEYS:
            if key in record:
                if not isinstance(record[key], str):
                    raise RecordFormatError(f"must be a string, not {type_name(record[key])}", field=key)
                metadata[key] = record[key]
        event = parse_event(record["event"]) if "event" in record else None
        return cls(game, players_t, sides, side_of, teams_t, metadata, event)


def parse_event(value: Any) -> dict[str, Any]:
    """A record's ``"event"``: an object of the event's ``id`` (letters, digits, ``.``, ``_``
    and ``-``, at most 64), the ``round`` and the ``table`` (whole numbers from 1).

    >>> parse_event({"id": "club-1", "round": 2, "table": 3})
    {'id': 'club-1', 'round': 2, 'table': 3}
    >>> parse_event({"id": "club-1", "round": "2", "table": 3})
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RecordFormatError: event.round: must be a whole number from 1, not a string
    """
    if not isinstance(value, dict):
        raise RecordFormatError(f"must be an object of id, round and table, not {type_name(value)}", field="event")
    for key in value:
        if key not in EVENT_KEYS:
            raise RecordFormatError(f"unknown key {short(key)} (keys: id, round, table)", field="event")
    for key in EVENT_KEYS:
        if key not in value:
            raise RecordFormatError(f"the event's {key} is missing", field="event")
    eid = value["id"]
    if not isinstance(eid, str) or EVENT_ID_RE.fullmatch(eid) is None:
        why = type_name(eid) if not isinstance(eid, str) else short(eid)
        raise RecordFormatError(
            f"must be an event's id (letters, digits, '.', '_' and '-', at most 64), not {why}", field="event.id"
        )
    for key in ("round", "table"):
        n = value[key]
        if type(n) is not int:
            raise RecordFormatError(f"must be a whole number from 1, not {type_name(n)}", field=f"event.{key}")
        if not 1 <= n <= MAX_EVENT_NUMBER:
            raise RecordFormatError(f"must be 1 to {MAX_EVENT_NUMBER}, not {short(n)}", field=f"event.{key}")
    return {"id": eid, "round": value["round"], "table": value["table"]}
