"""A division's table, a team's record and a player's figures, from the approved results.

The table is the events' own standings (:func:`scorekeeper.events.standings`: the same
fold, the same tie-breaks, said in the same words under it): the division is made an
:class:`~scorekeeper.events.Event` of format ``league`` whose rounds are its weeks and
whose fixtures are its fixtures, and each approved result gives its games as the
fixture's tables' results. A result the secretary entered by hand (a walkover) has no
games: it gives as many games won to each side as it says, its points on the first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorekeeper import text as _text
from scorekeeper.events import Event, Fixture, FixtureSheet, Result, Round, Standing, Table, Team, standings
from scorekeeper.events import tie_breaks as _tie_breaks
from scorekeeper.league import book


def _games_of(r: book.Result, count: int) -> list[tuple[tuple[int, int], int | None]]:
    """A result's games as (scores, winner), one a table of the fixture."""
    if r.games:
        return [((int(g["scores"][0]), int(g["scores"][1])), g["winner"]) for g in r.games]
    out: list[tuple[tuple[int, int], int | None]] = []
    for i in range(max(count, sum(r.games_won), 1)):
        winner = 0 if i < r.games_won[0] else 1 if i < sum(r.games_won) else None
        out.append((r.points if i == 0 else (0, 0), winner))
    return out


def event_of(
    season: book.Season, division: book.Division, teams: Sequence[book.Team], fixtures: Iterable[book.Fixture]
) -> tuple[Event, list[Result]]:
    """The division as an event of the events' engine, and its approved results."""
    weeks: dict[int, list[book.Fixture]] = defaultdict(list)
    for f in fixtures:
        weeks[f.week].append(f)
    rounds: list[Round] = []
    results: list[Result] = []
    for week in sorted(weeks):
        tables: list[Table] = []
        fixtures_of: list[Fixture] = []
        for n, f in enumerate(weeks[week], 1):
            r = f.approved
            games = _games_of(r, season.games) if r is not None else [((0, 0), None)] * max(season.games, 1)
            first = len(tables) + 1
            for g, (scores, winner) in enumerate(games, 1):
                number = len(tables) + 1
                tables.append(Table(number, ((f.home.name,), (f.away.name,)), n, g))
                if r is not None:
                    results.append(Result(week, number, scores, winner))
            fixtures_of.append(Fixture(n, f.home.name, f.away.name, tuple(range(first, len(tables) + 1))))
        rounds.append(Round(week, tuple(tables), (), tuple(fixtures_of)))
    event = Event(
        f"division-{division.id}",
        division.name,
        "league",
        season.game,
        season.preset,
        teams=tuple(Team(t.name, t.players, t.vice) for t in teams),
        scoring=season.scoring,
        sheet=FixtureSheet(season.singles, season.doubles),
        rounds=tuple(rounds),
    )
    return event, results


def table(
    season: book.Season, division: book.Division, teams: Sequence[book.Team], fixtures: Iterable[book.Fixture]
) -> list[Standing]:
    """The division's table, ranked (see the module)."""
    event, results = event_of(season, division, teams, fixtures)
    return standings(event, results)


def tie_breaks() -> str:
    """How a league's table is ranked, in words (the events' own)."""
    return _tie_breaks(Event("x", "x", "league", "all-fives", None))


@dataclass(slots=True)
class Figures:
    """A player's figures over the approved results: games played and won, points."""

    name: str
    team: str
    played: int = 0
    won: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def won_share(self) -> str:
        return f"{100 * self.won / self.played:.0f}%" if self.played else "-"

    @property
    def average(self) -> str:
        """Points scored a game, on average (``'-'`` before the first game)."""
        return f"{self.points_for / self.played:.1f}" if self.played else "-"

    @property
    def average_against(self) -> str:
        return f"{self.points_against / self.played:.1f}" if self.played else "-"


def players(team: book.Team, fixtures: Iterable[book.Fixture]) -> list[Figures]:
    """The figures of every player of ``team`` (in the team's order) over its approved fixtures."""
    rows = {_text.name_key(p): Figures(p, team.name) for p in team.players}
    for f in fixtures:
        r = f.approved
        if r is None or team.id not in (f.home.id, f.away.id):
            continue
        mine = 0 if f.home.id == team.id else 1
        side = "home" if mine == 0 else "away"
        for g in r.games:
            for p in g[side]:
                row = rows.get(_text.name_key(p))
                if row is None:
                    continue
                row.played += 1
                row.won += g["winner"] == mine
                row.points_for += int(g["scores"][mine])
                row.points_against += int(g["scores"][1 - mine])
    return list(rows.values())
