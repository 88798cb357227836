"""Events kept in the database, and their matches found among the stored ones.

The events live in ``events.json``, a side file of the store (:meth:`Store.side_file`):
read whole, written through the store's atomic and durable write, refused by a read-only
store -- which still reads them, so ``scorekeeper event rounds`` and ``standings`` work
while the app holds the database. A damaged ``events.json`` is never written over: every
reading says so in one line (an :class:`EventsFileError`) and nothing is changed until
it is mended or moved aside.

The results are never kept: :meth:`EventBook.results` finds the stored matches whose
record carries the event's ``"event": {"id", "round", "table"}`` and whose sides are the
players drawn at that table, each time (the index says which matches could be: their
players are a table's; only those are read, and each once while the book lives).

>>> import tempfile
>>> from scorekeeper.store import Store
>>> from scorekeeper.events import new_event
>>> with tempfile.TemporaryDirectory() as d, Store(d) as store:
...     book = EventBook(store)
...     _ = book.add(new_event("club-1", "Club night", "round-robin", "all-fives", players=["Ann", "Ben"]))
...     mids = book.open_round("club-1", 1)
...     [e.id for e in book.events()], len(mids), [s.name for s in book.standings("club-1")]
(['club-1'], 1, ['Ann', 'Ben'])
"""

from __future__ import annotations

import datetime as _dt
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError, one_line, short
from scorekeeper.events import Confirmation, Event, Reopening, Result, Standing, read_event, result_for, standings
from scorekeeper.events import next_round as _next_round
from scorekeeper.events.model import CONFIRMERS, check_teams
from scorekeeper.events.night import NightSheet, night_of
from scorekeeper.events.sheets import sheet_of
from scorekeeper.store import Store, StoreError
from scorekeeper.store.storage import NotDurableError

FILE = "events.json"
SCHEMA = 1
#: The largest events file read (a season of a big league is well under it).
LIMIT = 16 << 20


class EventsFileError(StoreError):
    """``events.json`` cannot be read: damaged, of a newer Scorekeeper, or the disk's trouble."""


@dataclass(frozen=True, slots=True)
class Played:
    """A stored match of an event: its id, round and table, its sides' players and scores
    in the record's order, the winning side (an index) and whether it is finished."""

    id: str
    round: int
    table: int
    sides: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    winner: int | None
    finished: bool
    created: str


def new_id() -> str:
    """A new event's id: the day and a few random letters (``ev-20260517-k3x9``)."""
    day = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d")
    return f"ev-{day}-{secrets.token_hex(3)}"


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class EventBook:
    """The events of one store, and their matches."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: (match id, created) -> what its record says of its event, or None (it has none).
        self._seen: dict[tuple[str, str], tuple[dict[str, Any] | None, tuple[tuple[str, ...], ...]]] = {}
        #: The events file's bytes as last read, and the events they hold (read once).
        self._parsed: tuple[bytes, tuple[Event, ...]] | None = None

    # ------------------------------------------------------------ the file
    def _load(self) -> list[Event]:
        side = self.store.side_file(FILE)
        try:
            data = side.read(LIMIT)
        except OSError as e:
            words = f"the events file {side.path} cannot be read ({e.strerror or e}); nothing was changed"
            raise EventsFileError(words, plain=words) from None  # never "no events"
        if data is None:
            return []
        if self._parsed is not None and self._parsed[0] == data:
            return list(self._parsed[1])  # the same file as last time: read once
        try:
            doc = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise self._damaged(side.path, f"not JSON: {one_line(str(e), 80)}") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("events"), list):
            raise self._damaged(side.path, 'not an object with a list of "events"')
        schema = doc.get("schema")
        if type(schema) is int and schema > SCHEMA:
            raise EventsFileError(
                f"the events file {side.path} was written by a newer Scorekeeper (schema {schema}); nothing was changed"
            )
        if schema != SCHEMA:
            raise self._damaged(side.path, f"schema {short(schema)} is not {SCHEMA}")
        out: list[Event] = []
        seen: set[str] = set()
        for i, item in enumerate(doc["events"]):
            try:
                event = read_event(item)
            except ScorekeeperError as e:
                raise self._damaged(side.path, f"event {i + 1}: {e}") from None
            if event.id in seen:
                raise self._damaged(side.path, f"event {event.id} is there twice")
            seen.add(event.id)
            out.append(event)
        self._parsed = (data, tuple(out))
        return out

    @staticmethod
    def _damaged(path: Any, why: str) -> EventsFileError:
        return EventsFileError(
            f"the events file {path} is damaged ({why}); it is left as it is and nothing was changed: "
            "mend it, or move it aside to start again",
            plain="the events file is damaged; nothing was changed (see the command line's message)",
        )

    def _save(self, events: list[Event]) -> None:
        if self.store.read_only:
            raise StoreError(
                f"cannot change the events: the database {self.store.path} was opened read-only "
                "(another Scorekeeper holds it: do it there)",
                plain="the events cannot be changed here (the database is read-only)",
            )
        doc = {"schema": SCHEMA, "events": [e.to_json() for e in events]}
        data = (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
        try:
            self.store.side_file(FILE).save(data)
        except NotDurableError:
            pass  # saved; only the folder's sync failed
        except OSError as e:
            raise StoreError(
                f"the events could not be saved ({e.strerror or e}); nothing was changed",
                plain=f"could not save the event ({e.strerror or e}); nothing was changed",
            ) from e

    # ------------------------------------------------------------ events
    def events(self) -> list[Event]:
        """Every event, in the order they were made."""
        return self._load()

    def get(self, eid: str) -> Event:
        for e in self._load():
            if e.id == eid:
                return e
        raise ScorekeeperError(f"no event {short(eid)} (see 'scorekeeper event list')")

    def add(self, event: Event) -> Event:
        """Keep a new event (its id must be free)."""
        events = self._load()
        if any(e.id == event.id for e in events):
            raise ScorekeeperError(f"there is already an event {event.id}")
        if not event.created:
            event = read_event(dict(event.to_json(), created=now()))
        self._save([*events, event])
        return event

    def put(self, event: Event) -> None:
        """Keep a changed event in its place."""
        events = self._load()
        for i, e in enumerate(events):
            if e.id == event.id:
                events[i] = event
                self._save(events)
                return
        raise ScorekeeperError(f"no event {short(event.id)}")

    def remove(self, eid: str) -> None:
        """Forget an event (its matches stay stored)."""
        events = self._load()
        kept = [e for e in events if e.id != eid]
        if len(kept) == len(events):
            raise ScorekeeperError(f"no event {short(eid)}")
        self._save(kept)

    # ------------------------------------------------------------ matches
    def played(self, event: Event) -> list[Played]:
        """The stored matches of ``event``, oldest first (the index says which may be: their
        players are a table's; only those records are read)."""
        shapes = {frozenset(map(_text.name_key, t.players)) for r in event.rounds for t in r.tables}
        rows = [
            r for r in self.store.list(limit=None) if frozenset(map(_text.name_key, r.get("players") or ())) in shapes
        ]
        rows.sort(key=lambda r: (r.get("created") or "", r["id"]))
        out: list[Played] = []
        for row in rows:
            key = (row["id"], row.get("created") or "")
            if key not in self._seen:
                try:
                    record, _, _ = self.store.peek(row["id"])
                except ScorekeeperError:
                    continue  # gone or unreadable now: the store says why where it lists
                self._seen[key] = (record.get("event"), sides_of(record))
            ref, sides = self._seen[key]
            if not isinstance(ref, dict) or ref.get("id") != event.id:
                continue
            scores_by = row.get("scores") or {}
            team_names = list(scores_by)
            if len(team_names) != len(sides):
                continue
            scores = tuple(int(scores_by[n]) for n in team_names)
            winner = row.get("winner")
            out.append(
                Played(
                    row["id"],
                    int(ref["round"]),
                    int(ref["table"]),
                    sides,
                    scores,
                    team_names.index(winner) if winner in team_names else None,
                    row.get("status") == "won",
                    key[1],
                )
            )
        return out

    def results(self, event: Event, played: Iterable[Played] | None = None) -> list[Result]:
        """The results that count: finished matches whose sides are their table's."""
        out = []
        for p in self.played(event) if played is None else played:
            if not p.finished:
                continue
            r = result_for(event, p.round, p.table, p.sides, p.scores, p.winner)
            if r is not None:
                out.append(r)
        return out

    def in_play(self, event: Event, played: Iterable[Played] | None = None) -> list[Result]:
        """The matches being played: unfinished matches whose sides are their table's, with
        their scores so far (in the table's order of sides)."""
        out = []
        for p in self.played(event) if played is None else played:
            if p.finished:
                continue
            r = result_for(event, p.round, p.table, p.sides, p.scores, None)
            if r is not None:
                out.append(r)
        return out

    def standings(self, eid: str) -> list[Standing]:
        event = self.get(eid)
        return standings(event, self.results(event))

    def night(self, eid: str) -> NightSheet:
        """The night sheet of a round robin, Swiss or knockout: its results, and the tables
        whose match is stored but not finished ("in play"). A league's: an EventError."""
        event = self.get(eid)
        played = self.played(event)
        in_play = {
            (p.round, p.table)
            for p in played
            if not p.finished and result_for(event, p.round, p.table, p.sides, (0, 0), None) is not None
        }
        return night_of(event, self.results(event, played), in_play)

    def next_round(self, eid: str) -> Event:
        """Draw the next round (Swiss, knockout) and keep it."""
        event = self.get(eid)
        event = _next_round(event, self.results(event))
        self.put(event)
        return event

    def open_round(self, eid: str, round_number: int) -> dict[int, str]:
        """Every table of the round with its match: a table without a stored match of its
        players for it gets a new one, ready (players, rules, the event field)."""
        event = self.get(eid)
        rnd = event.round(round_number)
        have: dict[int, str] = {}
        for p in self.played(event):
            if p.round == round_number and result_for(event, p.round, p.table, p.sides, (0, 0), None):
                have.setdefault(p.table, p.id)
        for t in rnd.tables:
            if t.number not in have:
                have[t.number] = self.store.create(event.record_for(round_number, t.number))
        return dict(sorted(have.items()))

    def confirm(
        self,
        eid: str,
        round_number: int,
        fixture: int,
        team: str,
        by: str,
        *,
        role: str = "captain",
        phone: str | None = None,
    ) -> Confirmation:
        """A confirmation of a fixture's result sheet for ``team``, kept with who and when:
        ``by`` the team's captain or vice-captain (``role`` says which: the phone holding that
        seat, ``phone`` its digest), or the host (``role='host'``: ``by`` is who the host
        confirms for, e.g. the captain's name on a paper sheet, or ``'the host'``). The sheet
        must be complete."""
        event = self.get(eid)
        f = event.fixture(round_number, fixture)
        t = event.team(team)
        if t is None or t.name not in (f.home, f.away):
            raise ScorekeeperError(f"{short(team)} does not play fixture {fixture} ({f.home} v {f.away})", field="team")
        if role not in CONFIRMERS:
            raise ScorekeeperError(f"a sheet is confirmed by a captain, a vice-captain or the host, not {short(role)}")
        if role == "host" and by == "the host" and self.from_league(event):
            raise ScorekeeperError(
                f"the league takes {t.name}'s sheet confirmed by its captain ({t.leaders}), not by the host "
                f"for nobody: on this phone say who you are (I'm {t.captain}) and confirm, confirm on the "
                f"captain's phone, or give the captain's name (on a signed paper sheet)",
                field="by",
            )
        if role != "host" or by != "the host":  # the host confirms for nobody, or on a captain's word
            found = t.leader(by)
            if found is None:
                raise ScorekeeperError(
                    f"{short(by)} is not {t.name}'s captain ({t.leaders}): each team's captain confirms its sheet",
                    field="by",
                )
            role = found if role != "host" else role
            by = t.captain if found == "captain" else (t.vice or by)
        sheet = sheet_of(event, round_number, fixture, self.results(event))
        if not sheet.complete:
            left = ", ".join(str(g.table) for g in sheet.games if g.result is None)
            raise ScorekeeperError(f"the result sheet is not complete: no result yet at table {left}")
        c = Confirmation(round_number, fixture, t.name, by, now(), sheet.games_won, role, phone)
        confirmed = event.with_confirmation(c)
        self.put(confirmed)
        if event.id.startswith("league-"):  # a league fixture taken on a linked laptop: to the outbox
            from scorekeeper.league.club import hand_over

            hand_over(self, confirmed, round_number, fixture)
        return c

    def from_league(self, event: Event) -> bool:
        """Whether ``event`` is a league fixture this laptop (or phone) took from the league it
        is linked to: its sheet goes to the league, which takes only a captain's confirmation."""
        if not event.id.startswith("league-"):
            return False
        from scorekeeper.league.club import link_of

        lk = link_of(self.store.path)
        return lk is not None and event.id in lk.fixtures

    def reopen(self, eid: str, round_number: int, fixture: int) -> Reopening:
        """The host re-opens a fixture's confirmed result sheet: its confirmations are set
        aside (kept in the re-opening, which its captains see), its games may change again,
        and both captains confirm it again."""
        event = self.get(eid)
        f = event.fixture(round_number, fixture)
        was = event.confirmations_of(round_number, fixture)
        if not was:
            raise ScorekeeperError(f"the result sheet of {f.home} v {f.away} is not confirmed: nothing to re-open")
        r = Reopening(round_number, fixture, now(), was)
        self.put(event.with_reopening(r))
        return r

    def belongs(self, record: dict[str, Any]) -> bool:
        """Whether ``record`` is a match of an event kept here (its ``"event"`` names one):
        importing it changes that event's results."""
        ref = record.get("event")
        return isinstance(ref, dict) and any(e.id == ref.get("id") for e in self.events())

    def sheet_lock(self, record: dict[str, Any]) -> str | None:
        """Why a match of ``record`` may not change, be replaced or be imported: it is a game
        of a league fixture whose result sheet a captain (or the host) has confirmed; None
        otherwise (a match of no event, of an event not kept here, of a sheet not confirmed)."""
        ref = record.get("event")
        if not isinstance(ref, dict):
            return None
        eid, rnd, table = ref.get("id"), ref.get("round"), ref.get("table")
        if not isinstance(eid, str) or type(rnd) is not int or type(table) is not int:
            return None
        event = next((e for e in self.events() if e.id == eid), None)
        if event is None or not event.is_league or not 1 <= rnd <= len(event.rounds):
            return None
        fixture = next((f for f in event.rounds[rnd - 1].fixtures if table in f.tables), None)
        if fixture is None or not event.confirmations_of(rnd, fixture.number):
            return None
        return (
            f"the result sheet of {fixture.home} v {fixture.away} (round {rnd}) is confirmed: "
            "the host re-opens it first (the event's page, the fixture's result sheet)"
        )

    def set_team(self, eid: str, name: str, players: list[str], vice: str | None = None) -> Event:
        """A league team's players (the captain first) and vice-captain, changed: a player
        who has a game of the team already drawn stays on it (the drawn tables name him)."""
        event = self.get(eid)
        team = event.team(name)
        if team is None:
            raise ScorekeeperError(f"no team {short(name)} in {event.name}")
        drawn = {
            _text.name_key(p)
            for r in event.rounds
            for t in r.tables
            for side in t.sides
            for p in side
            if event.team_of(p) is team
        }
        gone = [
            p for p in team.players if _text.name_key(p) in drawn and not any(_text.same_name(p, q) for q in players)
        ]
        if gone:
            raise ScorekeeperError(f"{gone[0]} is drawn in {team.name}'s games: a player drawn stays in the team")
        others = {t.name: list(t.players) for t in event.teams if t is not team}
        teams = check_teams({**others, team.name: players}, {team.name: vice} if vice else None)
        changed = event.with_team(next(t for t in teams if t.name == team.name))
        self.put(changed)
        return changed


def sides_of(record: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
    """A record's sides as lists of players, in the record's order of sides."""
    teams = record.get("teams")
    if isinstance(teams, dict):
        return tuple(tuple(v) for v in teams.values() if isinstance(v, list))
    players = record.get("players")
    return tuple((p,) for p in players) if isinstance(players, list) else ()
