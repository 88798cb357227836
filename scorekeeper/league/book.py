"""The league kept in its database: its shape, the sheets that come in, the results, who did what.

:class:`League` is every read and write of the service; it keeps nothing in memory, so
several processes over one database behave as one. Every change of a result or a
fixture is noted in ``audit`` with who, when, what and why, and bumps the league's
``revision`` (what the public pages' caches and ETags follow).

A season is made from a plan (:func:`League.add_season`): its venues, clubs, divisions
and teams, and the fixtures :func:`scorekeeper.league.schedule.schedule` makes of them::

    {"name": "Winter 2026", "game": "all-fives", "preset": "fives-and-threes",
     "scoring": "league-2-1", "singles": 9, "doubles": 0, "starts": "2026-09-07",
     "delay_hours": 48, "blackouts": ["2026-12-21"], "legs": 2,
     "venues": [{"name": "The Plough", "address": "High St", "tables": 1}],
     "clubs": [{"name": "Plough", "venue": "The Plough"}],
     "divisions": [{"name": "Premier", "teams": [{"name": "Plough A", "club": "Plough",
        "venue": "The Plough", "players": ["Ann", "Ben", "Cy"], "vice": "Ben"}, ...]}]}
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import EventError, ScorekeeperError, short, type_name
from scorekeeper.events.model import Scoring, check_names, preset_of, whole
from scorekeeper.league import approval, clock, schedule
from scorekeeper.league.db import Database, Tx
from scorekeeper.league.sheets import Checked, FixtureInfo, SheetError, TeamInfo, check


class LeagueError(ScorekeeperError):
    """What the league refuses (one line)."""


class NotFound(LeagueError):
    """No such season, division, team, fixture or club."""


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    name: str
    game: str
    preset: str | None
    scoring: Scoring
    singles: int
    doubles: int
    starts: str
    delay_hours: int

    @property
    def games(self) -> int:
        return self.singles + self.doubles


@dataclass(frozen=True, slots=True)
class Division:
    id: int
    season_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Team:
    id: int
    division_id: int
    club_id: int | None
    venue: str
    name: str
    captain: str
    vice: str | None
    players: tuple[str, ...]

    def info(self) -> TeamInfo:
        return TeamInfo(self.name, self.players, self.captain, self.vice)


@dataclass(frozen=True, slots=True)
class Result:
    """A fixture's result as it stands: its state, totals and games (see :mod:`approval`)."""

    state: str
    games_won: tuple[int, int]
    points: tuple[int, int]
    games: tuple[dict[str, Any], ...]
    sheet: int | None
    due_at: str | None
    by_secretary: bool
    why: str
    changed_at: str


@dataclass(frozen=True, slots=True)
class Fixture:
    id: int
    division_id: int
    week: int
    day: str
    home: Team
    away: Team
    venue: str
    result: Result | None

    @property
    def approved(self) -> Result | None:
        return self.result if self.result is not None and self.result.state == "approved" else None


@dataclass(frozen=True, slots=True)
class Club:
    id: int
    name: str
    venue: str | None
    codes: int


#: A fixture, what its sheet is checked against, and its season (:meth:`League.sheet_target`).
Target = tuple["Fixture", FixtureInfo, "Season"]


@dataclass(frozen=True, slots=True)
class Receipt:
    """What became of a sheet sent: its version, whether it was new, the result's state."""

    version: int
    new: bool
    state: str


@dataclass(frozen=True, slots=True)
class Audit:
    at: str
    who: str
    what: str
    why: str
    fixture: int | None


def code_digest(code: str) -> str:
    """What is kept of a club's code: its SHA-256 (a code is 120 random bits)."""
    return hashlib.sha256(code.strip().encode("utf-8")).hexdigest()


def _key(name: str) -> str:
    return _text.name_key(name)


_TEAM_COLS = "t.id, t.division_id, t.club_id, v.name, t.name, t.captain, t.vice, t.players"
_TEAM_FROM = "team t JOIN venue v ON v.id = t.venue_id"
_SEASON_COLS = "id, name, game, preset, scoring, singles, doubles, starts, delay_hours"
#: How many times psycopg runs a statement on a connection before it prepares it.
PREPARED_AFTER = 5
#: The id of a sheet inserted in this transaction, whose id is not known yet: above every id
#: made (the new sheet's will be the fixture's highest: its sheets are written under its lock).
NEW = 1 << 62
#: What deciding a fixture's result reads of it, and how many disputes it has.
_CURRENT_COLS = (
    "r.by_secretary",
    "r.changed_at",
    "r.state",
    "r.games_home",
    "r.games_away",
    "r.points_home",
    "r.points_away",
    "r.sheet_id",
    "(SELECT COUNT(*) FROM dispute d WHERE d.fixture_id = f.id)",
)
#: How many they are: the first columns of a row of :data:`_CURRENT_AND_SHEETS_SQL`.
_CURRENT_WIDTH = len(_CURRENT_COLS)
#: A fixture's result as deciding it reads it, and how many disputes it has: one row.
_CURRENT_SQL = (
    f"SELECT {', '.join(_CURRENT_COLS)} FROM fixture f LEFT JOIN result r ON r.fixture_id = f.id WHERE f.id = ?"
)
#: What deciding a result reads of a sheet.
_SHEET_COLS = (
    "id, sender, version, content, confirmed_home, confirmed_away, received_at, games_home, games_away, "
    "points_home, points_away, games"
)
#: A fixture's result (:data:`_CURRENT_COLS`) with each of its sheets (:data:`_SHEET_COLS`
#: and the digest), oldest first: one row a sheet, one row of NULL sheet columns when it
#: has none (one statement, where the two were two).
_CURRENT_AND_SHEETS_SQL = (
    f"SELECT {', '.join(_CURRENT_COLS)}, {', '.join('s.' + c for c in _SHEET_COLS.split(', '))}, s.digest "
    "FROM fixture f LEFT JOIN result r ON r.fixture_id = f.id LEFT JOIN sheet s ON s.fixture_id = f.id "
    "WHERE f.id = ? ORDER BY s.id"
)
_CLUB_SQL = (
    "SELECT c.id, c.name, v.name, (SELECT COUNT(*) FROM club_code k WHERE k.club_id = c.id "
    "AND k.revoked_at IS NULL) FROM club c LEFT JOIN venue v ON v.id = c.venue_id"
)

#: Where the league's revision is told to every process (:meth:`Database.listen`).
REVISION_CHANNEL = "league_revision"
#: The league's revision moved on by one: the last statement of a transaction that changed
#: the league (:meth:`Tx.last`: every writer updates this one row, so it is locked for the
#: commit alone).
BUMP = "UPDATE league_state SET revision = revision + 1 WHERE id = 1 RETURNING revision"
_RESULT_COLS = (
    "r.state, r.games_home, r.games_away, r.points_home, r.points_away, r.games, r.sheet_id, r.due_at, "
    "r.by_secretary, r.why, r.changed_at"
)


def _team_cols(t: str, v: str) -> str:
    return f"{t}.id, {t}.division_id, {t}.club_id, {v}.name, {t}.name, {t}.captain, {t}.vice, {t}.players"


#: A club by its code's digest with a fixture, its result, its two teams and its season:
#: one row (the fixture's columns NULL when there is none), none when no club has the code.
_TARGET_SQL = (
    "SELECT c.id, c.name, cv.name, (SELECT COUNT(*) FROM club_code k WHERE k.club_id = c.id "
    "AND k.revoked_at IS NULL), f.id, f.division_id, f.week, f.day, f.home_id, f.away_id, "
    f"{_RESULT_COLS}, {_team_cols('h', 'hv')}, {_team_cols('a', 'av')}, "
    f"{', '.join('s.' + c for c in _SEASON_COLS.split(', '))} "
    "FROM club c LEFT JOIN venue cv ON cv.id = c.venue_id "
    "LEFT JOIN fixture f ON f.id = ? LEFT JOIN result r ON r.fixture_id = f.id "
    "LEFT JOIN team h ON h.id = f.home_id LEFT JOIN venue hv ON hv.id = h.venue_id "
    "LEFT JOIN team a ON a.id = f.away_id LEFT JOIN venue av ON av.id = a.venue_id "
    "LEFT JOIN division d ON d.id = f.division_id LEFT JOIN season s ON s.id = d.season_id "
    "WHERE c.id = (SELECT club_id FROM club_code WHERE digest = ? AND revoked_at IS NULL)"
)


def _team(row: Sequence[Any]) -> Team:
    return Team(int(row[0]), int(row[1]), row[2], row[3], row[4], row[5], row[6], tuple(json.loads(row[7])))


def _result(row: Sequence[Any]) -> Result | None:
    if row[0] is None:
        return None
    return Result(
        row[0],
        (int(row[1]), int(row[2])),
        (int(row[3]), int(row[4])),
        tuple(json.loads(row[5])),
        row[6],
        row[7],
        bool(row[8]),
        row[9],
        row[10],
    )


class League:
    """Every read and write of the league (see the module)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------ the shape
    def add_season(self, plan: Any, who: str) -> int:
        """Make a season from its plan (see the module); its id."""
        return self.db.write(lambda tx: _SeasonMaker(tx, plan).make(who))

    def seasons(self) -> list[Season]:
        rows = self.db.read(lambda tx: tx.rows(f"SELECT {_SEASON_COLS} FROM season ORDER BY id"))
        return [_season(r) for r in rows]

    def season(self, sid: int) -> Season:
        row = self.db.read(lambda tx: tx.one(f"SELECT {_SEASON_COLS} FROM season WHERE id = ?", (sid,)))
        if row is None:
            raise NotFound(f"no season {short(sid)}")
        return _season(row)

    def divisions(self, sid: int | None = None) -> list[Division]:
        rows = self.db.read(lambda tx: tx.rows("SELECT id, season_id, name FROM division ORDER BY season_id, position"))
        return [Division(int(r[0]), int(r[1]), r[2]) for r in rows if sid is None or r[1] == sid]

    def division(self, did: int) -> Division:
        row = self.db.read(lambda tx: tx.one("SELECT id, season_id, name FROM division WHERE id = ?", (did,)))
        if row is None:
            raise NotFound(f"no division {short(did)}")
        return Division(int(row[0]), int(row[1]), row[2])

    def teams(self, did: int | None = None, *, tx: Tx | None = None) -> list[Team]:
        def read(t: Tx) -> list[Team]:
            where, params = ("WHERE t.division_id = ?", (did,)) if did is not None else ("", ())
            return [_team(r) for r in t.rows(f"SELECT {_TEAM_COLS} FROM {_TEAM_FROM} {where} ORDER BY t.id", params)]

        return read(tx) if tx is not None else self.db.read(read)

    def team(self, tid: int) -> Team:
        row = self.db.read(lambda tx: tx.one(f"SELECT {_TEAM_COLS} FROM {_TEAM_FROM} WHERE t.id = ?", (tid,)))
        if row is None:
            raise NotFound(f"no team {short(tid)}")
        return _team(row)

    def fixtures(self, *, division: int | None = None, team: int | None = None) -> list[Fixture]:
        """The fixtures of a division or a team (every one when neither), by week, with results."""
        return self.db.read(lambda tx: self._fixtures(tx, division=division, team=team))

    def _fixtures(
        self, tx: Tx, *, division: int | None = None, team: int | None = None, fid: int | None = None
    ) -> list[Fixture]:
        where, params = "", tuple[int, ...]()
        if fid is not None:
            where, params = "WHERE f.id = ?", (fid,)
        elif division is not None:
            where, params = "WHERE f.division_id = ?", (division,)
        elif team is not None:
            where, params = "WHERE f.home_id = ? OR f.away_id = ?", (team, team)
        rows = tx.rows(
            f"SELECT f.id, f.division_id, f.week, f.day, f.home_id, f.away_id, {_RESULT_COLS} "
            f"FROM fixture f LEFT JOIN result r ON r.fixture_id = f.id {where} ORDER BY f.week, f.day, f.id",
            params,
        )
        ids = {int(r[4]) for r in rows} | {int(r[5]) for r in rows}
        teams = {t.id: t for t in self.teams(tx=tx)} if len(ids) > 2 else {}
        missing = sorted(ids - set(teams))
        if missing:  # a fixture's two teams: one query
            marks = ", ".join("?" * len(missing))
            for r in tx.rows(f"SELECT {_TEAM_COLS} FROM {_TEAM_FROM} WHERE t.id IN ({marks})", missing):
                teams[int(r[0])] = _team(r)
        return [
            Fixture(
                int(r[0]),
                int(r[1]),
                int(r[2]),
                r[3],
                teams[int(r[4])],
                teams[int(r[5])],
                teams[int(r[4])].venue,
                _result(r[6:]),
            )
            for r in rows
        ]

    def fixture(self, fid: int) -> Fixture:
        found = self.db.read(lambda tx: self._fixtures(tx, fid=fid))
        if not found:
            raise NotFound(f"no fixture {short(fid)}")
        return found[0]

    def move(self, fid: int, day: str, who: str, why: str) -> None:
        """Move a fixture to another night: not a blackout date, neither team playing then."""
        new = _date(day, "the new date")
        f = self.fixture(fid)
        season = self.season(self.division(f.division_id).season_id)

        def write(tx: Tx) -> None:
            blackouts = json.loads(tx.value("SELECT blackouts FROM season WHERE id = ?", (season.id,)))
            if new.isoformat() in blackouts:
                raise LeagueError(f"{new.isoformat()} is a blackout date of {season.name}")
            busy = tx.value(
                "SELECT COUNT(*) FROM fixture WHERE day = ? AND id <> ? AND (home_id IN (?, ?) OR away_id IN (?, ?))",
                (new.isoformat(), fid, f.home.id, f.away.id, f.home.id, f.away.id),
            )
            if busy:
                raise LeagueError(f"{f.home.name} or {f.away.name} already plays on {new.isoformat()}")
            tx.run("UPDATE fixture SET day = ? WHERE id = ?", (new.isoformat(), fid))
            note(tx, who, f"moved {f.home.name} v {f.away.name} from {f.day} to {new.isoformat()}", why, fid)
            bump(tx)

        self.db.write(write)

    # ------------------------------------------------------------ clubs
    def clubs(self) -> list[Club]:
        rows = self.db.read(lambda tx: tx.rows(f"{_CLUB_SQL} ORDER BY c.name_key"))
        return [Club(int(r[0]), r[1], r[2], int(r[3])) for r in rows]

    def club(self, cid: int) -> Club:
        row = self.db.read(lambda tx: tx.one(f"{_CLUB_SQL} WHERE c.id = ?", (cid,)))
        if row is None:
            raise NotFound(f"no club {short(cid)}")
        return Club(int(row[0]), row[1], row[2], int(row[3]))

    def new_code(self, cid: int, who: str) -> str:
        """A new code for a club's laptop (shown once: only its digest is kept)."""
        club = self.club(cid)
        code = secrets.token_urlsafe(15)

        def write(tx: Tx) -> None:
            tx.run(
                "INSERT INTO club_code (club_id, digest, made_at) VALUES (?, ?, ?)",
                (cid, code_digest(code), clock.stamp()),
            )
            note(tx, who, f"made a code for {club.name}", "", None)

        self.db.write(write)
        return code

    def revoke(self, cid: int, who: str, why: str = "") -> int:
        """Every code of a club revoked; how many."""
        club = self.club(cid)

        def write(tx: Tx) -> int:
            n = tx.run(
                "UPDATE club_code SET revoked_at = ? WHERE club_id = ? AND revoked_at IS NULL", (clock.stamp(), cid)
            )
            note(tx, who, f"revoked {n} code(s) of {club.name}", why, None)
            return n

        return self.db.write(write)

    def club_for(self, code: str) -> Club | None:
        """The club whose code (not revoked) ``code`` is, or None."""
        sql = f"{_CLUB_SQL} WHERE c.id = (SELECT club_id FROM club_code WHERE digest = ? AND revoked_at IS NULL)"
        row = self.db.read(lambda tx: tx.one(sql, (code_digest(code),)))
        return None if row is None else Club(int(row[0]), row[1], row[2], int(row[3]))

    # ------------------------------------------------------------ sheets and results
    def fixture_info(self, f: Fixture) -> tuple[FixtureInfo, Season]:
        season = self.season(self.division(f.division_id).season_id)
        return FixtureInfo(f.id, f.home.info(), f.away.info(), season.game, season.games), season

    def fixture_and_season(self, fid: int) -> tuple[Fixture, FixtureInfo, Season]:
        """A fixture, what its sheet is checked against, and its season: read at once."""

        def read(tx: Tx) -> tuple[list[Fixture], Any]:
            found = self._fixtures(tx, fid=fid)
            sql = f"SELECT {_SEASON_COLS} FROM season WHERE id = (SELECT season_id FROM division WHERE id = ?)"
            return found, tx.one(sql, (found[0].division_id,)) if found else None

        found, row = self.db.read(read)
        if not found or row is None:
            raise NotFound(f"no fixture {short(fid)}")
        f, season = found[0], _season(row)
        return f, FixtureInfo(f.id, f.home.info(), f.away.info(), season.game, season.games), season

    def sheet_target(self, code: str, fid: int) -> tuple[Club, Target] | None:
        """The club whose code ``code`` is (None: no club's, or revoked) and fixture ``fid``
        with its season (a NotFound when there is none), read in one statement: what a
        club's push reads before its sheet is checked."""
        rows = self.db.query(_TARGET_SQL, (fid, code_digest(code)))
        if not rows:
            return None
        r = rows[0]
        club = Club(int(r[0]), r[1], r[2], int(r[3]))
        if r[4] is None or r[37] is None:
            raise NotFound(f"no fixture {short(fid)}")
        home, away, season = _team(r[21:29]), _team(r[29:37]), _season(r[37:46])
        f = Fixture(int(r[4]), int(r[5]), int(r[6]), r[7], home, away, home.venue, _result(r[10:21]))
        return club, (f, FixtureInfo(f.id, home.info(), away.info(), season.game, season.games), season)

    def warm(self, tx: Tx) -> None:
        """A push's reads, of nothing (no club, no fixture 0), each as often as a
        connection's statement is run before it is prepared: run on a service's new
        connections (:meth:`Database.keep`), the first pushes find them planned."""
        for _ in range(PREPARED_AFTER + 1):
            tx.rows(_TARGET_SQL, (0, ""))
            tx.many(
                [
                    (_CURRENT_AND_SHEETS_SQL, (0,)),
                    ("SELECT revision FROM league_state WHERE id = ?", (0,)),
                    ("SELECT id FROM audit WHERE fixture_id = ?", (0,)),
                ]
            )

    def receive(
        self,
        fid: int,
        club: Club,
        doc: Any,
        now: str | None = None,
        *,
        target: Target | None = None,
        spent: dict[str, float] | None = None,
        digest: str | None = None,
        content: str | None = None,
    ) -> Receipt:
        """A club's sheet of fixture ``fid``: checked and scored again (a SheetError when it
        does not hold), kept once (the same sheet twice is one version), and the result
        decided again. ``target``: the fixture, its sheet's checks and its season, read
        already (:meth:`sheet_target`); ``spent``: the seconds of the check and of the
        write are put in it; ``digest`` and ``content``: the sheet's digests, reckoned already
        (:func:`~scorekeeper.league.sheets.digests`)."""
        f, info, season = target or self.fixture_and_season(fid)
        if club.id not in (f.home.club_id, f.away.club_id):
            raise SheetError(f"{club.name} plays no part in {f.home.name} v {f.away.name}")
        started = time.perf_counter()
        checked = check(doc, info, digest, content)
        body = _text.json_text(doc, separators=(",", ":"))
        sender = f"club:{club.id}"
        checked_at = time.perf_counter()
        got = self.db.write(lambda tx: self._keep(tx, f, season, sender, club.name, checked, body, now))
        if spent is not None:
            spent["check"], spent["write"] = checked_at - started, time.perf_counter() - checked_at
        return got

    def _keep(
        self, tx: Tx, f: Fixture, season: Season, sender: str, who: str, c: Checked, body: str, now: str | None
    ) -> Receipt:
        # the fixture locked, then (the statement's snapshot taken once the lock is had) its
        # result and every sheet of it (a few: this sender's versions, each sender's newest):
        # one round trip
        _, rows = tx.many(
            [
                (f"SELECT id FROM fixture WHERE id = ?{self.db.for_update}", (f.id,)),
                (_CURRENT_AND_SHEETS_SQL, (f.id,)),
            ]
        )
        current = rows[0][:_CURRENT_WIDTH]
        found = [r[_CURRENT_WIDTH:] for r in rows if r[_CURRENT_WIDTH] is not None]
        mine = [r for r in found if r[1] == sender]
        same = max((int(r[2]) for r in mine if r[12] == c.digest), default=None)
        if same is not None:
            return Receipt(same, False, current[2] or "")
        version = max((int(r[2]) for r in mine), default=0) + 1
        at = now or clock.stamp()
        games = json.dumps([g.to_json() for g in c.games])
        confirmed = (int(c.confirmed_home is not None), int(c.confirmed_away is not None))
        tx.later(
            "INSERT INTO sheet (fixture_id, sender, version, digest, content, body, games, games_home, games_away, "
            "points_home, points_away, confirmed_home, confirmed_away, received_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                f.id, sender, version, c.digest, c.content, body, games, c.games_won[0], c.games_won[1],
                c.points[0], c.points[1], confirmed[0], confirmed[1], at,
            ),
        )  # fmt: skip
        score = f"{c.games_won[0]}-{c.games_won[1]}"
        note(tx, who, f"sent version {version} of {f.home.name} v {f.away.name}: {score}", "", f.id)
        # the new sheet's id is made with its INSERT, sent with the COMMIT: here it is NEW (the
        # newest of the fixture's, as its id will be), and the result names it by sender and version
        new = (NEW, sender, version, c.content, *confirmed, at, *c.games_won, *c.points, games)
        newest: dict[str, Sequence[Any]] = {}
        for r in [*found, new]:
            if r[1] not in newest or int(r[2]) > int(newest[r[1]][2]):
                newest[r[1]] = r[:12]
        state = self._decide(tx, f, season, at, list(newest.values()), current, (sender, version))
        return Receipt(version, True, state)

    def _decide(
        self,
        tx: Tx,
        f: Fixture,
        season: Season,
        now: str,
        latest: list[Sequence[Any]] | None = None,
        current: Sequence[Any] | None = None,
        new: tuple[str, int] | None = None,
    ) -> str:
        """The fixture's result decided again from its sheets and disputes; its state.
        ``latest``: the newest sheet of each sender (:data:`_SHEET_COLS`) and ``current``:
        the result (:data:`_CURRENT_SQL`), read already in this transaction (None: read
        here); ``new``: the sender and version of the sheet whose id is :data:`NEW`."""
        if current is None:
            current = tx.one(_CURRENT_SQL, (f.id,))
        assert current is not None  # the fixture is locked by this transaction
        by_secretary = current[2] is not None and bool(current[0])
        since = current[1] if by_secretary else ""
        disputes = (
            [
                r[0]
                for r in tx.rows(
                    "SELECT reason FROM dispute WHERE fixture_id = ? AND at > ? ORDER BY id", (f.id, since)
                )
            ]
            if current[8]
            else []
        )
        if by_secretary and not disputes:
            return str(current[2])  # the secretary's decision stands
        rows: Sequence[Sequence[Any]] = (
            latest
            if latest is not None
            else tx.rows(
                f"SELECT {_SHEET_COLS} FROM sheet s WHERE s.fixture_id = ? AND s.version = "
                "(SELECT MAX(version) FROM sheet o WHERE o.fixture_id = s.fixture_id AND o.sender = s.sender)",
                (f.id,),
            )
        )
        versions = [approval.Version(int(r[0]), r[1], int(r[2]), r[3], bool(r[4]), bool(r[5]), r[6]) for r in rows]
        d = approval.decide(versions, disputes, season.delay_hours)
        if d is None:
            return ""
        if d.state == "waiting" and d.due_at is not None and d.due_at <= now:
            d = approval.Decision("approved", d.sheet, None, f"{d.why}; not disputed within {season.delay_hours} h")
        sheet = next(r[7:] for r in rows if r[0] == d.sheet)  # the newest of each sender's: among these
        self._set(
            tx, f, d.state, d.sheet, sheet[4], (sheet[0], sheet[1]), (sheet[2], sheet[3]), d.due_at, False, d.why, now,
            before=None if current[2] is None else current[2:8], new=new,
        )  # fmt: skip
        return d.state

    def _set(
        self, tx: Tx, f: Fixture, state: str, sheet: int | None, games: str, won: Sequence[int],
        points: Sequence[int], due: str | None, by_secretary: bool, why: str, now: str,
        before: Sequence[Any] | None | Literal["read"] = "read", new: tuple[str, int] | None = None,
    ) -> None:  # fmt: skip
        """The fixture's result set; ``before``: its row's state, games, points and sheet
        (None: no row), read already in this transaction (``"read"``: read here); ``new``:
        the sender and version of the sheet whose id is :data:`NEW` (not made yet)."""
        if isinstance(before, str):
            before = tx.one(
                "SELECT state, games_home, games_away, points_home, points_away, sheet_id FROM result "
                "WHERE fixture_id = ?",
                (f.id,),
            )
        upsert = (
            "INSERT INTO result (fixture_id, state, sheet_id, games, games_home, games_away, points_home, points_away, "
            "due_at, by_secretary, why, changed_at) VALUES (?, ?, {sheet}, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (fixture_id) DO UPDATE SET state = excluded.state, sheet_id = excluded.sheet_id, "
            "games = excluded.games, games_home = excluded.games_home, games_away = excluded.games_away, "
            "points_home = excluded.points_home, points_away = excluded.points_away, due_at = excluded.due_at, "
            "by_secretary = excluded.by_secretary, why = excluded.why, changed_at = excluded.changed_at"
        )
        rest = (games, won[0], won[1], points[0], points[1], due, int(by_secretary), why, now)
        after = (state, won[0], won[1], points[0], points[1], sheet)
        changed = before is None or tuple(before) != after
        if changed and (before is None or before[0] != state):
            # put off before the result's write: with a line of the audit put off just before
            # (a sheet received), one INSERT of both (:meth:`Tx.later`)
            note(tx, "the league", f"{f.home.name} v {f.away.name}: {state} ({won[0]}-{won[1]})", why, f.id)
        if sheet == NEW and new is not None:  # the sheet inserted in this transaction, by sender and version
            named = "(SELECT id FROM sheet WHERE fixture_id = ? AND sender = ? AND version = ?)"
            tx.later(upsert.format(sheet=named), (f.id, state, f.id, *new, *rest))
        else:
            tx.later(upsert.format(sheet="?"), (f.id, state, sheet, *rest))
        if changed:
            bump(tx)

    def dispute(self, fid: int, club: Club, reason: str) -> str:
        """A club disputes a fixture's result (one of its teams plays it); the new state."""
        f = self.fixture(fid)
        if club.id not in (f.home.club_id, f.away.club_id):
            raise LeagueError(f"{club.name} plays no part in {f.home.name} v {f.away.name}")
        reason = _why(reason, "a dispute's reason")
        season = self.fixture_info(f)[1]

        def write(tx: Tx) -> str:
            tx.value(f"SELECT id FROM fixture WHERE id = ?{self.db.for_update}", (fid,))
            at = clock.stamp()
            tx.run(
                "INSERT INTO dispute (fixture_id, sender, reason, at) VALUES (?, ?, ?, ?)",
                (fid, f"club:{club.id}", reason, at),
            )
            note(tx, club.name, f"disputed {f.home.name} v {f.away.name}", reason, fid)
            return self._decide(tx, f, season, at) or "disputed"

        return self.db.write(write)

    def settle(self, now: str | None = None) -> int:
        """Approve every waiting result whose delay has passed; how many."""
        at = now or clock.stamp()

        def write(tx: Tx) -> int:
            rows = tx.rows(
                "UPDATE result SET state = 'approved', due_at = NULL, changed_at = ?, "
                "why = why || '; not disputed in time' WHERE state = 'waiting' AND due_at <= ? RETURNING fixture_id",
                (at, at),
            )
            for (fid,) in rows:
                note(tx, "the league", "approved: not disputed in time", "", int(fid))
            if rows:
                bump(tx)
            return len(rows)

        return self.db.write(write)

    # ------------------------------------------------------------ the secretary
    def decide(self, fid: int, sheet_id: int, who: str, why: str) -> None:
        """The secretary approves one of the fixture's sheets."""
        why = _why(why)
        f = self.fixture(fid)

        def write(tx: Tx) -> None:
            row = tx.one(
                "SELECT games, games_home, games_away, points_home, points_away, sender, version FROM sheet "
                "WHERE id = ? AND fixture_id = ?",
                (sheet_id, fid),
            )
            if row is None:
                raise NotFound(f"fixture {fid} has no sheet {short(sheet_id)}")
            now = clock.stamp()
            self._set(tx, f, "approved", sheet_id, row[0], row[1:3], row[3:5], None, True, why, now)
            note(tx, who, f"approved {row[5]}'s version {row[6]} of {f.home.name} v {f.away.name}", why, fid)

        self.db.write(write)

    def enter(self, fid: int, games_won: tuple[int, int], points: tuple[int, int], who: str, why: str) -> None:
        """The secretary enters a result by hand (a walkover, a paper sheet)."""
        why = _why(why)
        f = self.fixture(fid)
        season = self.fixture_info(f)[1]
        for n in (*games_won, *points):
            whole(n, "a result", 0, 100_000)
        if sum(games_won) > season.games:
            raise LeagueError(f"a fixture has {season.games} games, not {sum(games_won)}")

        def write(tx: Tx) -> None:
            now = clock.stamp()
            self._set(tx, f, "approved", None, "[]", games_won, points, None, True, why, now)
            note(tx, who, f"entered {f.home.name} v {f.away.name} by hand: {games_won[0]}-{games_won[1]}", why, fid)

        self.db.write(write)

    def remove(self, fid: int, who: str, why: str) -> None:
        """The secretary removes a fixture's result (it counts no more; its sheets stay)."""
        why = _why(why)
        f = self.fixture(fid)

        def write(tx: Tx) -> None:
            now = clock.stamp()
            self._set(tx, f, "removed", None, "[]", (0, 0), (0, 0), None, True, why, now)
            note(tx, who, f"removed the result of {f.home.name} v {f.away.name}", why, fid)

        self.db.write(write)

    def sheets(self, fid: int) -> list[dict[str, Any]]:
        """Every version of every sender's sheet of a fixture, oldest first."""
        rows = self.db.read(
            lambda tx: tx.rows(
                "SELECT id, sender, version, games_home, games_away, points_home, points_away, confirmed_home, "
                "confirmed_away, received_at, content FROM sheet WHERE fixture_id = ? ORDER BY id",
                (fid,),
            )
        )
        keys = ("id", "sender", "version", "games_home", "games_away", "points_home", "points_away",
                "confirmed_home", "confirmed_away", "received_at", "content")  # fmt: skip
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def disputes(self, fid: int) -> list[tuple[str, str, str]]:
        return self.db.read(
            lambda tx: [
                (r[0], r[1], r[2])
                for r in tx.rows("SELECT sender, reason, at FROM dispute WHERE fixture_id = ? ORDER BY id", (fid,))
            ]
        )

    def waiting_on_secretary(self) -> list[Fixture]:
        """The fixtures whose result the secretary decides: disputed or different."""
        return [f for f in self.fixtures() if f.result is not None and f.result.state in ("disputed", "different")]

    def audit(self, fid: int | None = None, limit: int = 200) -> list[Audit]:
        where, params = ("WHERE fixture_id = ?", (fid, limit)) if fid is not None else ("", (limit,))
        rows = self.db.read(
            lambda tx: tx.rows(
                f"SELECT at, who, what, why, fixture_id FROM audit {where} ORDER BY id DESC LIMIT ?", params
            )
        )
        return [Audit(*r) for r in rows]

    def revision(self) -> int:
        return int(self.db.read(lambda tx: tx.value("SELECT revision FROM league_state WHERE id = 1")))


def note(tx: Tx, who: str, what: str, why: str, fixture: int | None, detail: Any = None) -> None:
    """One line of the audit: who, when, what and why (written with the next statement, or
    the commit: :meth:`Tx.later`)."""
    tx.later(
        "INSERT INTO audit (at, who, what, why, fixture_id, detail) VALUES (?, ?, ?, ?, ?, ?)",
        (clock.stamp(), who, what, why, fixture, json.dumps(detail or {})),
    )


def bump(tx: Tx) -> None:
    """The league changed: its revision moves on (the public pages follow it), and every
    process is told the new one when the transaction commits."""
    tx.last(BUMP, REVISION_CHANNEL)


def _why(text: Any, what: str = "the reason") -> str:
    if not isinstance(text, str) or not text.strip():
        raise LeagueError(f"say why ({what} is kept with the change)")
    if len(text) > 500:
        raise LeagueError(f"{what} is at most 500 characters, not {len(text)}")
    return _text.check_text(text.strip(), what)


def _date(value: Any, what: str) -> _dt.date:
    if not isinstance(value, str):
        raise LeagueError(f"{what} must be a date (2026-09-07), not {type_name(value)}")
    try:
        return _dt.date.fromisoformat(value)
    except ValueError:
        raise LeagueError(f"{what} must be a date (2026-09-07), not {short(value)}") from None


def _season(r: Sequence[Any]) -> Season:
    scoring = Scoring.of(json.loads(r[4]), "league")
    return Season(int(r[0]), r[1], r[2], r[3], scoring, int(r[5]), int(r[6]), r[7], int(r[8]))


class _SeasonMaker:
    """A season made from its plan, in one transaction (see the module)."""

    KEYS = frozenset(
        {"name", "game", "preset", "scoring", "singles", "doubles", "starts", "delay_hours", "blackouts", "legs"}
        | {"venues", "clubs", "divisions"}
    )

    def __init__(self, tx: Tx, plan: Any) -> None:
        self.tx = tx
        if not isinstance(plan, dict):
            raise LeagueError(f"a season's plan must be a JSON object, not {type_name(plan)}")
        unknown = set(plan) - self.KEYS
        if unknown:
            raise LeagueError(f"a season's plan has no key {short(sorted(unknown)[0])}")
        self.plan = plan

    def _list(self, key: str) -> list[dict[str, Any]]:
        items = self.plan.get(key, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise LeagueError(f"{key} must be a list of objects")
        return items

    def venue(self, name: Any, address: Any = "", tables: Any = 1) -> int:
        name = _text.check_name(name, "a venue's name", 80)
        found = self.tx.value("SELECT id FROM venue WHERE name_key = ?", (_key(name),))
        if found is not None:
            return int(found)
        addr = _text.check_text(address if isinstance(address, str) else "", "a venue's address")
        return int(
            self.tx.value(
                "INSERT INTO venue (name, name_key, address, tables) VALUES (?, ?, ?, ?) RETURNING id",
                (name, _key(name), addr[:200], whole(tables, "a venue's tables", 1, 20)),
            )
        )

    def club(self, name: Any, venue: Any) -> int:
        name = _text.check_name(name, "a club's name", 80)
        found = self.tx.value("SELECT id FROM club WHERE name_key = ?", (_key(name),))
        if found is not None:
            return int(found)
        vid = self.venue(venue) if venue is not None else None
        return int(
            self.tx.value(
                "INSERT INTO club (name, name_key, venue_id) VALUES (?, ?, ?) RETURNING id", (name, _key(name), vid)
            )
        )

    def make(self, who: str) -> int:
        p = self.plan
        name = _text.check_name(p.get("name"), "a season's name", 80)
        game = registry.get(p.get("game", "all-fives")).id
        preset = p.get("preset")
        preset_of(game, preset)
        scoring = Scoring.of(p.get("scoring"), "league")
        singles = whole(p.get("singles", 9), "singles", 0, 30)
        doubles = whole(p.get("doubles", 0), "doubles", 0, 30)
        if not 1 <= singles + doubles <= 30:
            raise LeagueError("a fixture has 1 to 30 games")
        starts = _date(p.get("starts"), "starts")
        blackouts = frozenset(_date(d, "a blackout date") for d in p.get("blackouts", []))
        delay = whole(p.get("delay_hours", 48), "delay_hours", 0, 24 * 28)
        for v in self._list("venues"):
            self.venue(v.get("name"), v.get("address", ""), v.get("tables", 1))
        for c in self._list("clubs"):
            self.club(c.get("name"), c.get("venue"))
        sid = int(
            self.tx.value(
                "INSERT INTO season (name, game, preset, scoring, singles, doubles, starts, delay_hours, blackouts, "
                "made_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (name, game, preset, json.dumps(scoring.to_json()), singles, doubles, starts.isoformat(), delay,
                 json.dumps(sorted(d.isoformat() for d in blackouts)), clock.stamp()),
            )
        )  # fmt: skip
        entries, ids = self._divisions(sid, doubles)
        tables = {v: int(n) for v, n in self.tx.rows("SELECT name, tables FROM venue")}
        plan = schedule.Plan(entries, starts, blackouts, tables, whole(p.get("legs", 2), "legs", 1, 2))
        made = schedule.schedule(plan)
        for f in made.fixtures:
            self.tx.run(
                "INSERT INTO fixture (division_id, week, day, home_id, away_id) VALUES (?, ?, ?, ?, ?)",
                (ids[f.division], f.week, f.day.isoformat(), ids[f.home], ids[f.away]),
            )
        clash = f"; {len(made.clashes)} night(s) a venue has more home fixtures than it holds" if made.clashes else ""
        note(
            self.tx,
            who,
            f"made the season {name}: {len(made.fixtures)} fixtures over {made.weeks} weeks{clash}",
            "",
            None,
        )
        bump(self.tx)
        return sid

    def _divisions(self, sid: int, doubles: int) -> tuple[dict[str, list[schedule.Entry]], dict[str, int]]:
        entries: dict[str, list[schedule.Entry]] = {}
        ids: dict[str, int] = {}
        everyone: list[str] = []
        for pos, d in enumerate(self._list("divisions"), 1):
            dname = _text.check_name(d.get("name"), "a division's name", 80)
            if dname in entries:
                raise LeagueError(f"there are two divisions called {dname}")
            did = int(
                self.tx.value(
                    "INSERT INTO division (season_id, name, position) VALUES (?, ?, ?) RETURNING id", (sid, dname, pos)
                )
            )
            ids[dname] = did
            entries[dname] = []
            teams = d.get("teams")
            if not isinstance(teams, list) or not all(isinstance(t, dict) for t in teams):
                raise LeagueError(f"division {dname}: teams must be a list of objects")
            for t in teams:
                team = self._team(did, t, doubles)
                if team[0] in ids:
                    raise LeagueError(f"there are two teams called {team[0]}")
                ids[team[0]] = team[2]
                entries[dname].append(schedule.Entry(team[0], team[1]))
                everyone += list(t.get("players", []))
        problem = _text.same_names_problem(everyone)
        if problem:
            raise LeagueError(f"a player plays for one team of a season: {problem}")
        if not entries:
            raise EventError("a season needs at least one division")
        return entries, ids

    def _team(self, did: int, t: dict[str, Any], doubles: int) -> tuple[str, str, int]:
        name = _text.check_name(t.get("name"), "a team's name", 80)
        players = check_names(list(t.get("players") or []), "a player's name", f"team {name}")
        if not players:
            raise LeagueError(f"team {name} has no players (the captain first)")
        if doubles and len(players) < 2:
            raise LeagueError(f"team {name}: doubles games need at least 2 players")
        vice = t.get("vice")
        if vice is not None and (not any(_text.same_name(vice, p) for p in players[1:])):
            raise LeagueError(
                f"team {name}: the vice-captain {short(vice)} must be one of its players, not its captain"
            )
        venue = t.get("venue")
        vid = self.venue(venue)
        cid = self.club(t["club"], venue) if t.get("club") is not None else None
        tid = int(
            self.tx.value(
                "INSERT INTO team (division_id, club_id, venue_id, name, name_key, captain, vice, players) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (did, cid, vid, name, _key(name), players[0], vice, json.dumps(list(players))),
            )
        )
        venue_name = str(self.tx.value("SELECT name FROM venue WHERE id = ?", (vid,)))
        return name, venue_name, tid
