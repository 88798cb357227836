"""The value types of an event: what was decided when it was made and what was drawn since.

An :class:`Event` is a club night, a tournament or a league season: a name, its players
(singles) or its teams of named players, the game and preset of its matches (ids the
registry knows), a format, how it scores, and the rounds drawn so far. Every value is
frozen; a change (a round drawn, a result sheet confirmed) makes a new Event.

An event is kept as JSON (:meth:`Event.to_json`; read back by
:func:`scorekeeper.events.reading.read_event`, which checks every field and says what is
wrong in one line, an :class:`EventError`).

>>> from scorekeeper.events.reading import read_event
>>> e = read_event({"id": "ev-1", "name": "Club night", "format": "round-robin",
...               "game": "all-fives", "players": ["Ann", "Ben", "Cy"]})
>>> e.entrants, e.scoring.title
(('Ann', 'Ben', 'Cy'), 'a point a match won')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import EventError, short, type_name

#: An event's id: what a match id is (a file name's characters, at most 64).
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: The formats: the players' own (singles) and the teams' league.
FORMATS = ("round-robin", "swiss", "knockout", "league")
SINGLES_FORMATS = ("round-robin", "swiss", "knockout")
#: The most entrants (players or teams) an event may have, and players in a team.
MAX_ENTRANTS = 256
MAX_TEAM = 30
#: The most games a league fixture may hold, and the most rounds an event may have.
MAX_GAMES = 30
MAX_ROUNDS = 1000
MAX_EVENT_NAME = 80


def whole(value: Any, where: str, low: int, high: int) -> int:
    """``value`` when it is a whole number from ``low`` to ``high``; else an EventError at ``where``."""
    if type(value) is not int:
        raise EventError(f"must be a whole number, not {type_name(value)} {short(value)}", field=where)
    if not low <= value <= high:
        raise EventError(f"must be {low} to {high}, not {short(value)}", field=where)
    return value


def event_name(value: Any, where: str = "name") -> str:
    """An event's name: printable text that shows something, at most 80 characters."""
    return _text.check_name(value, "an event's name", MAX_EVENT_NAME, field=where)


# ---------------------------------------------------------------- scoring
@dataclass(frozen=True, slots=True)
class Scoring:
    """How results become points in the standings.

    Singles: ``won`` / ``drawn`` / ``lost`` points a match. A league: the same a fixture
    (won: more games won than the other team), ``close_loss`` for a fixture lost by exactly
    one game (a 5-4 loss), and ``game`` for every game a team wins. ``bye``: what a bye is
    worth (Swiss and knockout give one as a match won; a round robin's byes are even)."""

    preset: str
    won: int
    drawn: int = 0
    lost: int = 0
    close_loss: int = 0
    game: int = 0

    @property
    def title(self) -> str:
        p = SCORING_PRESETS.get(self.preset)
        if p is not None and (p.won, p.drawn, p.lost, p.close_loss, p.game) == (
            self.won,
            self.drawn,
            self.lost,
            self.close_loss,
            self.game,
        ):
            return SCORING_TITLES[self.preset]
        parts = [f"{self.won} a win"]
        if self.drawn:
            parts.append(f"{self.drawn} a draw")
        if self.lost:
            parts.append(f"{self.lost} a loss")
        if self.close_loss:
            parts.append(f"{self.close_loss} for a loss by one game")
        if self.game:
            parts.append(f"{self.game} a game won")
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "close_loss": self.close_loss,
            "game": self.game,
        }

    @classmethod
    def of(cls, data: Any, fmt: str) -> Scoring:
        """The scoring of an event of format ``fmt``: a preset's name, an object of points
        (``{"preset": ..., "won": 2, "game": 1}``: the preset's, with these changed), or
        None (the format's default)."""
        if data is None:
            return SCORING_PRESETS["league-2-1" if fmt == "league" else "singles"]
        if isinstance(data, str):
            data = {"preset": data}
        if not isinstance(data, dict):
            raise EventError(f"must be a preset's name or an object, not {type_name(data)}", field="scoring")
        for k in data:
            if k not in ("preset", "won", "drawn", "lost", "close_loss", "game"):
                raise EventError(f"unknown key {short(k)}", field="scoring")
        name = data.get("preset", "custom")
        base = SCORING_PRESETS.get(name) if isinstance(name, str) else None
        if base is None and name != "custom":
            raise EventError(
                f"no scoring preset {short(name)} (presets: {', '.join(SCORING_PRESETS)})", field="scoring.preset"
            )
        if base is not None and (base.preset == "singles") != (fmt != "league"):
            kind = "a league" if fmt == "league" else "players' events"
            raise EventError(f"{short(name)} is not a scoring for {kind}", field="scoring.preset")
        base = base or cls("custom", 1)
        points = {k: whole(data.get(k, getattr(base, k)), f"scoring.{k}", 0, 99) for k in cls._POINTS}
        return cls(str(name), **points)

    _POINTS = ("won", "drawn", "lost", "close_loss", "game")


#: The scorings offered by name: singles (a point a match won) and the two league rules.
SCORING_PRESETS: dict[str, Scoring] = {
    "singles": Scoring("singles", won=1),
    "league-2-1": Scoring("league-2-1", won=2, drawn=1, game=1),
    "league-3-1": Scoring("league-3-1", won=3, close_loss=1),
}
SCORING_TITLES = {
    "singles": "a point a match won",
    "league-2-1": "2 a match won + 1 a game won",
    "league-3-1": "3 a win, 1 for a 5-4 loss",
}


# ---------------------------------------------------------------- entrants
@dataclass(frozen=True, slots=True)
class Team:
    """A team of a league: its name and its players, the captain first, and the player who
    stands in for the captain (``vice``, the vice-captain; None: nobody)."""

    name: str
    players: tuple[str, ...]
    vice: str | None = None

    @property
    def captain(self) -> str:
        return self.players[0]

    def leader(self, player: str) -> str | None:
        """``'captain'`` or ``'vice-captain'`` when ``player`` is one of this team's, else None."""
        if _text.same_name(player, self.captain):
            return "captain"
        if self.vice is not None and _text.same_name(player, self.vice):
            return "vice-captain"
        return None

    @property
    def leaders(self) -> str:
        """Who confirms its sheets, in words: ``'Ann'``, ``'Ann or Cy (vice-captain)'``."""
        return self.captain if self.vice is None else f"{self.captain} or {self.vice} (vice-captain)"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "players": list(self.players)}
        if self.vice is not None:
            out["vice"] = self.vice
        return out


@dataclass(frozen=True, slots=True)
class FixtureSheet:
    """What a league fixture holds: ``singles`` games of one player a side, then ``doubles``
    games of two (partners sit opposite)."""

    singles: int = 9
    doubles: int = 0

    @property
    def games(self) -> int:
        return self.singles + self.doubles

    def to_json(self) -> dict[str, int]:
        return {"singles": self.singles, "doubles": self.doubles}


# ---------------------------------------------------------------- rounds
@dataclass(frozen=True, slots=True)
class Table:
    """One match of a round: its number and its two sides (one player each in singles, two
    in a doubles game); in a league, the fixture it belongs to and its game in the sheet."""

    number: int
    sides: tuple[tuple[str, ...], tuple[str, ...]]
    fixture: int | None = None
    game: int | None = None

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seating order: the sides alternate, so partners sit opposite."""
        a, b = self.sides
        out: list[str] = []
        for i in range(max(len(a), len(b))):
            out.extend(s[i] for s in (a, b) if i < len(s))
        return tuple(out)

    @property
    def title(self) -> str:
        """``"Ann & Cy v Ben & Di"``."""
        return " v ".join(" & ".join(s) for s in self.sides)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.number, "sides": [list(s) for s in self.sides]}
        if self.fixture is not None:
            out["fixture"] = self.fixture
            out["game"] = self.game
        return out


@dataclass(frozen=True, slots=True)
class Fixture:
    """A league fixture of a round: home team v away team, and the tables of its games."""

    number: int
    home: str
    away: str
    tables: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"fixture": self.number, "home": self.home, "away": self.away, "tables": list(self.tables)}


@dataclass(frozen=True, slots=True)
class Round:
    """A round as it was drawn: its tables, who sits out (a bye), a league's fixtures."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    fixtures: tuple[Fixture, ...] = ()

    def table(self, number: int) -> Table | None:
        return self.tables[number - 1] if 1 <= number <= len(self.tables) else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.number, "tables": [t.to_json() for t in self.tables]}
        out["byes"] = list(self.byes)
        if self.fixtures:
            out["fixtures"] = [f.to_json() for f in self.fixtures]
        return out


#: Who may confirm a team's result sheet: its captain, its vice-captain, or the host.
CONFIRMERS = ("captain", "vice-captain", "host")


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A captain's word that a fixture's result sheet is right: who (``by``, and ``role``:
    the team's ``'captain'`` or ``'vice-captain'`` on the phone holding that seat, or the
    ``'host'``), when, the games score the sheet showed then (a sheet that changed since must
    be confirmed again), and ``phone``: a digest naming the phone it was given on (None: the
    command line, or a file of an earlier Scorekeeper)."""

    round: int
    fixture: int
    team: str
    by: str
    at: str
    games: tuple[int, int]
    role: str = "captain"
    phone: str | None = None

    @property
    def words(self) -> str:
        """``'Ann (captain)'``; the host's: ``'the host'`` (``'the host, for Ann'``)."""
        if self.role == "host":
            return "the host" if self.by in ("", "the host") else f"the host, for {self.by}"
        return f"{self.by} ({self.role})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round,
            "fixture": self.fixture,
            "team": self.team,
            "by": self.by,
            "at": self.at,
            "games": list(self.games),
            "as": self.role,
        }
        if self.phone is not None:
            out["phone"] = self.phone
        return out


@dataclass(frozen=True, slots=True)
class Reopening:
    """The host re-opened a fixture's confirmed result sheet (a game's result was wrong):
    when, and the confirmations it set aside (its captains see them on the sheet)."""

    round: int
    fixture: int
    at: str
    was: tuple[Confirmation, ...]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "fixture": self.fixture, "at": self.at, "was": [c.to_json() for c in self.was]}


@dataclass(frozen=True, slots=True)
class EventRef:
    """Where a match belongs: the event, the round, the table (a record's ``"event"``)."""

    id: str
    round: int
    table: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "round": self.round, "table": self.table}


# ---------------------------------------------------------------- the event
@dataclass(frozen=True, slots=True)
class Event:
    """An event: what it is, who plays, how it is played and scored, what was drawn."""

    id: str
    name: str
    format: str
    game: str
    preset: str | None
    players: tuple[str, ...] = ()
    teams: tuple[Team, ...] = ()
    scoring: Scoring = field(default_factory=lambda: SCORING_PRESETS["singles"])
    #: Swiss: the rounds it is played over; knockout: until one is left; the others: all drawn.
    planned: int = 0
    sheet: FixtureSheet = field(default_factory=FixtureSheet)
    legs: int = 2
    #: The points that win each match, when not the preset's (a short club night; None: the preset's).
    target: int | None = None
    created: str = ""
    rounds: tuple[Round, ...] = ()
    confirmations: tuple[Confirmation, ...] = ()
    reopened: tuple[Reopening, ...] = ()

    @property
    def is_league(self) -> bool:
        return self.format == "league"

    @property
    def entrants(self) -> tuple[str, ...]:
        """Who the standings rank: the players, or a league's teams."""
        return tuple(t.name for t in self.teams) if self.is_league else self.players

    @property
    def everyone(self) -> tuple[str, ...]:
        """Every player of the event (a league's: team by team)."""
        return tuple(p for t in self.teams for p in t.players) if self.is_league else self.players

    def team(self, name: str) -> Team | None:
        key = _text.name_key(name)
        return next((t for t in self.teams if _text.name_key(t.name) == key), None)

    def team_of(self, player: str) -> Team | None:
        key = _text.name_key(player)
        return next((t for t in self.teams if any(_text.name_key(p) == key for p in t.players)), None)

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            known = f"rounds 1 to {len(self.rounds)}" if self.rounds else "no round is drawn yet"
            raise EventError(f"event {self.id} has no round {short(number)} ({known})", field="round")
        return self.rounds[number - 1]

    def table(self, round_number: int, table: int) -> Table:
        t = self.round(round_number).table(table)
        if t is None:
            n = len(self.rounds[round_number - 1].tables)
            raise EventError(f"round {round_number} of event {self.id} has tables 1 to {n}, not {short(table)}")
        return t

    def fixture(self, round_number: int, number: int) -> Fixture:
        r = self.round(round_number)
        if not 1 <= number <= len(r.fixtures):
            if not r.fixtures:
                raise EventError(f"event {self.id} has no fixtures: result sheets are a league's", field="fixture")
            raise EventError(
                f"round {round_number} has fixtures 1 to {len(r.fixtures)}, not {short(number)}", field="fixture"
            )
        return r.fixtures[number - 1]

    def with_round(self, rnd: Round) -> Event:
        return replace(self, rounds=(*self.rounds, rnd))

    def with_confirmation(self, c: Confirmation) -> Event:
        kept = tuple(
            x
            for x in self.confirmations
            if (x.round, x.fixture, _text.name_key(x.team)) != (c.round, c.fixture, _text.name_key(c.team))
        )
        return replace(self, confirmations=(*kept, c))

    def confirmations_of(self, round_number: int, fixture: int) -> tuple[Confirmation, ...]:
        """The confirmations given for a fixture's sheet (standing or not)."""
        return tuple(c for c in self.confirmations if (c.round, c.fixture) == (round_number, fixture))

    def with_reopening(self, r: Reopening) -> Event:
        """The fixture's confirmations set aside in ``r``."""
        kept = tuple(c for c in self.confirmations if (c.round, c.fixture) != (r.round, r.fixture))
        return replace(self, confirmations=kept, reopened=(*self.reopened, r))

    def with_team(self, team: Team) -> Event:
        """The team of that name changed (its players, captain, vice-captain)."""
        key = _text.name_key(team.name)
        return replace(self, teams=tuple(team if _text.name_key(t.name) == key else t for t in self.teams))

    def record_for(self, round_number: int, table: int) -> dict[str, Any]:
        """The record of a new match for a table: its players in seating order (partners
        opposite, as teams), the rules the game gives its preset at a table of that many
        players (:func:`registry.rules_for`: the rules a New match of that preset has, its
        deal included), the event's target if it has one, and the ``event`` field."""
        t = self.table(round_number, table)
        game = registry.get(self.game)
        record: dict[str, Any] = {"format": "scorekeeper/1", "game": game.id, "players": list(t.players)}
        if len(t.sides[0]) > 1 or len(t.sides[1]) > 1:
            record["teams"] = {" & ".join(s): list(s) for s in t.sides}
        preset_of(self.game, self.preset)  # an unknown preset said as an event's
        rules = registry.rules_for(game, self.preset, len(t.players))
        if self.target is not None:
            rules["target"] = self.target
        if rules:
            record["rules"] = rules
        record["title"] = f"{self.name}, round {round_number}, table {table}"
        record["event"] = EventRef(self.id, round_number, table).to_json()
        return record

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "format": self.format, "game": self.game}
        out["preset"] = self.preset
        if self.is_league:
            out["teams"] = [t.to_json() for t in self.teams]
            out["sheet"] = self.sheet.to_json()
            out["legs"] = self.legs
        else:
            out["players"] = list(self.players)
        out["scoring"] = self.scoring.to_json()
        if self.format == "swiss":
            out["planned"] = self.planned
        if self.target is not None:
            out["target"] = self.target
        out["created"] = self.created
        out["rounds"] = [r.to_json() for r in self.rounds]
        out["confirmations"] = [c.to_json() for c in self.confirmations]
        if self.reopened:
            out["reopened"] = [r.to_json() for r in self.reopened]
        return out


def preset_of(game_id: str, preset: str | None) -> registry.Preset | None:
    """The registry's preset ``preset`` of the game (None: the game's own rules)."""
    if preset is None:
        return None
    game = registry.get(game_id)
    for p in registry.presets_of(game):
        if p.id == preset:
            return p
    known = ", ".join(p.id for p in registry.presets_of(game)) or "none"
    raise EventError(f"{game.title} has no preset {short(preset)} (presets: {known})", field="preset")


def check_names(names: Sequence[Any], what: str, where: str) -> tuple[str, ...]:
    """Names following the rule for names, none twice in any spelling."""
    for n in names:
        _text.check_name(n, what, field=where)
    problem = _text.same_names_problem(names)
    if problem:
        raise EventError(problem, field=where)
    return tuple(names)


def check_teams(teams: Mapping[str, Sequence[str]], vices: Mapping[str, str] | None = None) -> tuple[Team, ...]:
    """A league's teams: two or more, each a name and its players; no player in two teams;
    ``vices``: a team's vice-captain (one of its players, not its captain), by team name."""
    if len(teams) < 2:
        raise EventError(f"a league needs at least 2 teams, not {len(teams)}", field="teams")
    if len(teams) > MAX_ENTRANTS:
        raise EventError(f"an event has at most {MAX_ENTRANTS} teams, not {len(teams)}", field="teams")
    check_names(list(teams), "a team's name", "teams")
    out = []
    for name, players in teams.items():
        if not players:
            raise EventError(f"team {short(name)} has no players", field="teams")
        if len(players) > MAX_TEAM:
            raise EventError(f"team {short(name)} has {len(players)} players (at most {MAX_TEAM})", field="teams")
        out.append(Team(name, check_names(players, "a player's name", "teams")))
    check_names([p for t in out for p in t.players], "a player's name", "teams")
    for team_name, vice in (vices or {}).items():
        i = next((i for i, t in enumerate(out) if _text.same_name(t.name, team_name)), None)
        if i is None:
            raise EventError(f"no team {short(team_name)} to give a vice-captain", field="vice")
        team = out[i]
        player = next((p for p in team.players if _text.same_name(p, vice)), None)
        if player is None:
            raise EventError(f"{short(vice)} is not a player of {team.name}", field="vice")
        if player == team.captain:
            raise EventError(f"{player} is {team.name}'s captain: the vice-captain is another player", field="vice")
        out[i] = Team(team.name, team.players, player)
    return tuple(out)
