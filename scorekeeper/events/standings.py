"""Standings: always a fold of the results of the stored matches, never running totals.

A :class:`Result` is one finished match of a table, its sides as the table has them. A
match counts for its table only when its sides are the players drawn there (in any
order, any spelling of the names): :func:`result_for` says so. One result a table: when
several finished matches name the same table, the last one given counts.

Singles (round robin, Swiss, knockout): each entrant's matches played, won, drawn and
lost, the points of the matches' scores for and against, and the score (the event's
scoring: by default a point a match won; a Swiss or knockout bye is a match won for the
score, not played). Ranked by the score, then the points difference, then the results
between the entrants still level (head to head: their score in the matches among them);
entrants level after all that share the rank.

A league: per team, fixtures played (once every game of the fixture is finished), won,
drawn and lost, the games won and lost, the match points for and against, and the
score: the fixture's points when it is complete, and a game's points the moment it is
won. Ranked by the score, the games difference, the points difference, head to head.

>>> from scorekeeper.events.draw import new_event
>>> e = new_event("e", "Club night", "round-robin", "all-fives", players=["Ann", "Ben", "Cy"])
>>> r = result_for(e, 1, 1, [("Ben",), ("Ann",)], (61, 40), 0)
>>> [(s.rank, s.name, s.score, s.decided_by) for s in standings(e, [r])]
[(1, 'Ben', 1, ''), (2, 'Cy', 0, 'score'), (3, 'Ann', 0, 'points difference')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scorekeeper import text as _text
from scorekeeper.events.model import Event


@dataclass(frozen=True, slots=True)
class Result:
    """A finished match of round ``round``, table ``table``: the scores of the table's two
    sides (in the table's order) and the side that won (None: nobody, a draw)."""

    round: int
    table: int
    scores: tuple[int, int]
    winner: int | None


@dataclass(slots=True)
class Standing:
    """One line of the standings."""

    name: str
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    games_for: int = 0
    games_against: int = 0
    score: int = 0
    #: Head to head among the entrants level with it (filled while ranking).
    h2h: int = field(default=0, repr=False)
    #: What put it below the line above (filled while ranking): ``"score"``, ``"games
    #: difference"``, ``"points difference"``, ``"head to head"``; ``"level"`` where it shares
    #: that line's place; ``""`` for the first line.
    decided_by: str = field(default="", repr=False)

    @property
    def difference(self) -> int:
        """The points difference: for minus against."""
        return self.points_for - self.points_against

    @property
    def games_difference(self) -> int:
        """A league's games difference: won minus lost."""
        return self.games_for - self.games_against

    def to_json(self, league: bool) -> dict[str, int | str]:
        out: dict[str, int | str] = {
            "rank": self.rank,
            "name": self.name,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "score": self.score,
        }
        if league:
            out["drawn"] = self.drawn
            out["games_for"] = self.games_for
            out["games_against"] = self.games_against
        elif self.drawn:
            out["drawn"] = self.drawn
        return out


def _side_key(side: Iterable[str]) -> frozenset[str]:
    return frozenset(_text.name_key(p) for p in side)


def result_for(
    event: Event,
    round_number: int,
    table: int,
    sides: Sequence[Sequence[str]],
    scores: Sequence[int],
    winner: int | None,
) -> Result | None:
    """The result a finished match gives its table, or None when it does not count: no such
    round or table, or its sides (``sides`` with their ``scores`` and the index of the
    ``winner``) are not the players drawn there."""
    if not 1 <= round_number <= len(event.rounds):
        return None
    t = event.rounds[round_number - 1].table(table)
    if t is None or len(sides) != 2 or len(scores) != 2:
        return None
    want = [_side_key(s) for s in t.sides]
    got = [_side_key(s) for s in sides]
    if got == want:
        order = (0, 1)
    elif got == want[::-1]:
        order = (1, 0)
    else:
        return None
    mine = (int(scores[order[0]]), int(scores[order[1]]))
    won = None if winner is None else order.index(winner)
    return Result(round_number, table, mine, won)


def latest(results: Iterable[Result]) -> dict[tuple[int, int], Result]:
    """One result a table: the last one given."""
    out: dict[tuple[int, int], Result] = {}
    for r in results:
        out[(r.round, r.table)] = r
    return out


def standings(event: Event, results: Iterable[Result]) -> list[Standing]:
    """The standings of ``event`` from its results, in rank order (see the module)."""
    rows = {name: Standing(name) for name in event.entrants}
    by_table = latest(results)
    if event.is_league:
        beaten = _league(event, by_table, rows)
    else:
        beaten = _singles(event, by_table, rows)
    return _ranked(list(rows.values()), beaten, event.is_league)


def _singles(
    event: Event, by_table: dict[tuple[int, int], Result], rows: dict[str, Standing]
) -> dict[tuple[str, str], int]:
    """Fold the tables' results into ``rows``; the head-to-head score of each pair."""
    s = event.scoring
    h2h: dict[tuple[str, str], int] = {}
    for rnd in event.rounds:
        if event.format != "round-robin":
            for name in rnd.byes:
                rows[name].score += s.won
        for t in rnd.tables:
            r = by_table.get((rnd.number, t.number))
            if r is None:
                continue
            names = (t.sides[0][0], t.sides[1][0])
            for i in (0, 1):
                row = rows[names[i]]
                row.played += 1
                row.points_for += r.scores[i]
                row.points_against += r.scores[1 - i]
                if r.winner is None:
                    row.drawn += 1
                    got = s.drawn
                elif r.winner == i:
                    row.won += 1
                    got = s.won
                else:
                    row.lost += 1
                    got = s.lost
                row.score += got
                pair = (names[i], names[1 - i])
                h2h[pair] = h2h.get(pair, 0) + got
    return h2h


def _league(
    event: Event, by_table: dict[tuple[int, int], Result], rows: dict[str, Standing]
) -> dict[tuple[str, str], int]:
    """Fold the fixtures' games into the teams' ``rows``; the head-to-head score of each pair."""
    s = event.scoring
    h2h: dict[tuple[str, str], int] = {}
    for rnd in event.rounds:
        for f in rnd.fixtures:
            home, away = rows[f.home], rows[f.away]
            games = [0, 0]
            done = 0
            for number in f.tables:
                r = by_table.get((rnd.number, number))
                if r is None:
                    continue
                done += 1
                # a fixture's tables have the home team's side first (the draw makes them so,
                # and reading an event back checks it)
                for team, i in ((home, 0), (away, 1)):
                    team.points_for += r.scores[i]
                    team.points_against += r.scores[1 - i]
                    if r.winner == i:
                        team.games_for += 1
                        team.score += s.game
                    elif r.winner is not None:
                        team.games_against += 1
                if r.winner is not None:
                    games[r.winner] += 1
            if done < len(f.tables):
                continue
            for team, mine, theirs in ((home, games[0], games[1]), (away, games[1], games[0])):
                team.played += 1
                if mine > theirs:
                    team.won += 1
                    got = s.won
                elif mine == theirs:
                    team.drawn += 1
                    got = s.drawn
                else:
                    team.lost += 1
                    got = s.close_loss if theirs - mine == 1 else s.lost
                team.score += got
                pair = (team.name, f.away if team is home else f.home)
                h2h[pair] = h2h.get(pair, 0) + got
    return h2h


#: The order of the tie-breaks, in words, for people (the wall, the sheets).
TIE_BREAKS = {
    False: "Ranked by score, then points difference (for minus against), then head to head "
    "(the score in the matches among those still level); still level: the same place.",
    True: "Ranked by score, then games difference, then points difference (for minus against), "
    "then head to head (the score in the fixtures among those still level); still level: the same place.",
}


def tie_breaks(event: Event) -> str:
    """How the standings of ``event`` are ranked, in words."""
    return TIE_BREAKS[event.is_league]


def _ranked(rows: list[Standing], h2h: dict[tuple[str, str], int], league: bool) -> list[Standing]:
    names = ("score", "games difference", "points difference") if league else ("score", "points difference")

    def level(r: Standing) -> tuple[int, ...]:
        diff = r.points_for - r.points_against
        return (-r.score, -(r.games_for - r.games_against), -diff) if league else (-r.score, -diff)

    rows.sort(key=lambda r: (level(r), _text.name_key(r.name), r.name))
    out: list[Standing] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and level(rows[j]) == level(rows[i]):
            j += 1
        group = rows[i:j]
        for r in group:
            r.h2h = sum(h2h.get((r.name, o.name), 0) for o in group if o is not r)
        group.sort(key=lambda r: -r.h2h)  # stable: names in order within a level
        for k, r in enumerate(group):
            r.rank = out[-1].rank if out and k and r.h2h == group[k - 1].h2h else len(out) + 1
            if not out:
                r.decided_by = ""
            elif k:
                r.decided_by = "level" if r.rank == out[-1].rank else "head to head"
            else:
                above = level(out[-1])
                r.decided_by = next(n for n, a, b in zip(names, above, level(r), strict=True) if a != b)
            out.append(r)
        i = j
    return out
