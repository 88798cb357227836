"""A league fixture's result sheet: filled from its matches, confirmed by both captains.

The sheet lists the fixture's games in order (the tables of the fixture: the players of
each side, the match's score and who won it), the games each team won, the match points,
the league points it gives each team, and the captains' confirmations. A confirmation
holds the games score the sheet showed when it was given; if the sheet has changed since
(a match corrected), it no longer stands and must be given again.

>>> from scorekeeper.events.draw import new_event
>>> e = new_event("lg", "League", "league", "all-fives", teams={"Reds": ["Ann"], "Blues": ["Ben"]},
...               singles=1, legs=1)
>>> s = sheet_of(e, 1, 1, [])
>>> s.complete, [g.title for g in s.games], [g.state for g in s.games]
(False, ['Ann v Ben'], ['not started'])
>>> from scorekeeper.events.standings import Result
>>> [g.state for g in sheet_of(e, 1, 1, [], [Result(1, 1, (5, 3), None)]).games]
['in play (5 - 3)']
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
from collections.abc import Iterable
from dataclasses import dataclass

from scorekeeper import text as _text
from scorekeeper.events.model import Confirmation, Event, Reopening
from scorekeeper.events.standings import Result, latest


def when(at: str, tz: _dt.tzinfo | None = None) -> str:
    """A confirmation's moment as a captain reads it: the time, then the day, in the
    local time of this machine (``tz`` for another). A stamp that cannot be read is
    shown as it is.

    >>> when("2026-11-27T21:58:24Z", _dt.UTC)
    '21:58 on Fri 27 Nov 2026'
    >>> when("whenever")
    'whenever'
    """
    try:
        moment = _dt.datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at
    local = moment.astimezone(tz)
    return f"{local:%H:%M} on {local:%a} {local.day} {local:%b %Y}"


@dataclass(frozen=True, slots=True)
class SheetGame:
    """One game of the sheet: its table, its number in the fixture, the sides, the result;
    ``playing``: the scores so far of its match in play (no result yet)."""

    table: int
    game: int
    home: tuple[str, ...]
    away: tuple[str, ...]
    result: Result | None
    playing: Result | None = None

    @property
    def state(self) -> str:
        """Where the game is, in words: ``'5 - 3'`` (finished), ``'in play (5 - 3)'`` (its
        match is being played), ``'not started'`` (no match for its table yet)."""
        if self.result is not None:
            return f"{self.result.scores[0]} - {self.result.scores[1]}"
        if self.playing is not None:
            return f"in play ({self.playing.scores[0]} - {self.playing.scores[1]})"
        return "not started"

    @property
    def title(self) -> str:
        return f"{' & '.join(self.home)} v {' & '.join(self.away)}"

    @property
    def score(self) -> tuple[int, int] | None:
        return None if self.result is None else self.result.scores


@dataclass(frozen=True, slots=True)
class Reopened:
    """A re-opening of the sheet, as its captains read it."""

    reopening: Reopening

    def words(self) -> str:
        """``'re-opened by the host at 21:40 on ...: it was confirmed 5-4 for Reds by Ann (captain)'``."""
        r = self.reopening
        was = "; ".join(f"{c.games[0]}-{c.games[1]} for {c.team} by {c.words}" for c in r.was)
        return f"re-opened by the host at {when(r.at)}" + (f": it was confirmed {was}" if was else "")


@dataclass(frozen=True, slots=True)
class Sheet:
    """A fixture's result sheet (see the module)."""

    event: Event
    round: int
    fixture: int
    home: str
    away: str
    games: tuple[SheetGame, ...]
    confirmations: tuple[Confirmation, ...]

    @property
    def complete(self) -> bool:
        return all(g.result is not None for g in self.games)

    @property
    def games_won(self) -> tuple[int, int]:
        won = [0, 0]
        for g in self.games:
            if g.result is not None and g.result.winner is not None:
                won[g.result.winner] += 1
        return won[0], won[1]

    @property
    def points(self) -> tuple[int, int]:
        """The match points each team scored over the games."""
        pts = [0, 0]
        for g in self.games:
            if g.result is not None:
                pts[0] += g.result.scores[0]
                pts[1] += g.result.scores[1]
        return pts[0], pts[1]

    @property
    def league_points(self) -> tuple[int, int]:
        """What the fixture gives each team in the table (the games' points as they are won,
        the fixture's once it is complete)."""
        s = self.event.scoring
        h, a = self.games_won
        out = [h * s.game, a * s.game]
        if self.complete:
            for i, (mine, theirs) in enumerate(((h, a), (a, h))):
                if mine > theirs:
                    out[i] += s.won
                elif mine == theirs:
                    out[i] += s.drawn
                else:
                    out[i] += s.close_loss if theirs - mine == 1 else s.lost
        return out[0], out[1]

    def confirmed(self, team: str) -> Confirmation | None:
        """The team's captain's confirmation, if it stands (the sheet unchanged since)."""
        for c in self.confirmations:
            if c.team == team and c.games == self.games_won and self.complete:
                return c
        return None

    def stale(self, team: str) -> Confirmation | None:
        """A confirmation given for another score than the sheet's now."""
        for c in self.confirmations:
            if c.team == team and self.confirmed(team) is None:
                return c
        return None

    @property
    def reopenings(self) -> tuple[Reopened, ...]:
        """Each time the host re-opened this sheet, with the confirmations it set aside."""
        return tuple(Reopened(r) for r in self.event.reopened if (r.round, r.fixture) == (self.round, self.fixture))

    @property
    def locked(self) -> bool:
        """A confirmation stands: the sheet's games change only once the host re-opens it."""
        return any(self.confirmed(t) is not None for t in (self.home, self.away))

    @property
    def signed(self) -> bool:
        return self.confirmed(self.home) is not None and self.confirmed(self.away) is not None

    def text(self) -> str:
        """The sheet as text for a terminal or a printer."""
        e = self.event
        lines = [
            f"{e.name}: round {self.round}, fixture {self.fixture}",
            f"{self.home} (home) v {self.away} (away)",
            f"scoring: {e.scoring.title}",
            "",
        ]
        rows = [("game", "table", self.home, self.away, "score", "won by")]
        for g in self.games:
            r = g.result
            score = "" if r is None else f"{r.scores[0]}-{r.scores[1]}"
            who = "" if r is None else ("draw" if r.winner is None else (self.home, self.away)[r.winner])
            rows.append((str(g.game), str(g.table), " & ".join(g.home), " & ".join(g.away), score, who or "-"))
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        for row in rows:
            lines.append("  ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip())
        h, a = self.games_won
        ph, pa = self.points
        lh, la = self.league_points
        lines += [
            "",
            f"games: {self.home} {h}, {self.away} {a}" + ("" if self.complete else " (not complete)"),
            f"match points: {self.home} {ph}, {self.away} {pa}",
            f"league points: {self.home} {lh}, {self.away} {la}",
        ]
        for team in (self.home, self.away):
            c = self.confirmed(team)
            old = self.stale(team)
            if c is not None:
                lines.append(f"confirmed for {team} by {c.words} at {when(c.at)}")
            elif old is not None:
                lines.append(
                    f"{team}: confirmed by {old.words} at {when(old.at)} for {old.games[0]}-{old.games[1]}; changed since"
                )
            else:
                lines.append(f"{team}: not confirmed yet")
        lines += [r.words() for r in self.reopenings]
        return _text.terminal("\n".join(lines) + "\n")

    def csv(self) -> str:
        """The sheet as CSV (RFC 4180, CRLF), a row a game then the totals."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\r\n")
        w.writerow(["event", "round", "fixture", "game", "table", "home", "away", "home_score", "away_score", "won_by"])
        for g in self.games:
            r = g.result
            w.writerow(
                [
                    csv_cell(self.event.name),
                    self.round,
                    self.fixture,
                    g.game,
                    g.table,
                    csv_cell(" & ".join(g.home)),
                    csv_cell(" & ".join(g.away)),
                    "" if r is None else r.scores[0],
                    "" if r is None else r.scores[1],
                    "" if r is None else ("draw" if r.winner is None else csv_cell((self.home, self.away)[r.winner])),
                ]
            )
        h, a = self.games_won
        ph, pa = self.points
        lh, la = self.league_points
        w.writerow(
            [
                csv_cell(self.event.name),
                self.round,
                self.fixture,
                "games won",
                "",
                csv_cell(self.home),
                csv_cell(self.away),
                h,
                a,
                "",
            ]
        )
        w.writerow(
            [
                csv_cell(self.event.name),
                self.round,
                self.fixture,
                "match points",
                "",
                csv_cell(self.home),
                csv_cell(self.away),
                ph,
                pa,
                "",
            ]
        )
        w.writerow(
            [
                csv_cell(self.event.name),
                self.round,
                self.fixture,
                "league points",
                "",
                csv_cell(self.home),
                csv_cell(self.away),
                lh,
                la,
                "",
            ]
        )
        for team in (self.home, self.away):
            c = self.confirmed(team)
            w.writerow(
                [csv_cell(self.event.name), self.round, self.fixture, "confirmed", "", csv_cell(team), "", "", "", ""]
                if c is None
                else [
                    csv_cell(self.event.name),
                    self.round,
                    self.fixture,
                    "confirmed",
                    c.at,
                    csv_cell(team),
                    csv_cell(c.words),
                    "",
                    "",
                    "",
                ]
            )
        return out.getvalue()


def csv_cell(text: str) -> str:
    """A text cell: escapes for what the rule for text refuses, and a leading ``'`` before
    what a spreadsheet would run as a formula."""
    text = _text.escape(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def sheet_of(
    event: Event, round_number: int, fixture: int, results: Iterable[Result], playing: Iterable[Result] = ()
) -> Sheet:
    """The result sheet of a fixture from the event's results (and, for the games without
    one, the scores so far of the matches in play: ``playing``, their sides as the tables')."""
    f = event.fixture(round_number, fixture)
    done = latest(results)
    now = latest(playing)
    rnd = event.round(round_number)
    games = []
    for n in f.tables:
        t = rnd.tables[n - 1]
        key = (round_number, n)
        games.append(SheetGame(n, t.game or 0, t.sides[0], t.sides[1], done.get(key), now.get(key)))
    mine = tuple(c for c in event.confirmations if (c.round, c.fixture) == (round_number, fixture))
    return Sheet(event, round_number, fixture, f.home, f.away, tuple(games), mine)
