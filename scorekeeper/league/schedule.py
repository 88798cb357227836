"""A season's fixtures: a double round robin in each division, on the league's night each week.

- **Who meets whom, and where**: the FIDE Berger tables of the events' pairing
  (:func:`scorekeeper.events.pairing.round_robin`, the ``caissify-pairings`` library): every
  team meets every other once at home and once away (``legs`` 2; ``legs`` 1: once), with
  home and away as balanced as a round robin allows (Berger's tables give the fewest
  breaks: two home or two away nights running).
- **Venues shared**: teams of one venue (in one division or in several) are given the
  Berger numbers whose home nights fall on different weeks, so that no venue has more home
  fixtures on a night than its ``tables`` (the fixtures it can hold at once). The numbers
  are looked for by swapping two teams of a division while that lowers the clashes (a
  seeded search: the same plan gives the same fixtures); a clash that cannot be helped is
  reported (:attr:`Schedule.clashes`), never hidden.
- **The nights**: week 1 is the season's first night; each next week is 7 days on, a
  blackout date (a bank holiday, the pub's darts final) passed over.

>>> from datetime import date
>>> plan = Plan({"Premier": [Entry("Reds", "The Plough"), Entry("Blues", "The Plough"),
...                          Entry("Greens", "The Swan"), Entry("Golds", "The Bell")]},
...             starts=date(2026, 9, 7), venue_tables={"The Plough": 1})
>>> s = schedule(plan)
>>> len(s.fixtures), s.clashes, s.weeks
(12, (), 6)
>>> sorted({f.day.isoformat() for f in s.fixtures})[:2]
['2026-09-07', '2026-09-14']
"""

from __future__ import annotations

import datetime as _dt
import functools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scorekeeper import text as _text
from scorekeeper.errors import EventError
from scorekeeper.events import pairing

#: The most teams a division may have, and the most swaps tried to part the venues' nights.
MAX_TEAMS = 40
SEARCH = 20000
#: After this many swaps in a row that lowered nothing, the search starts again from its best.
STALE = 300
#: The search ends when this many fresh starts in a row found nothing better.
KICKS = 6


@dataclass(frozen=True, slots=True)
class Entry:
    """A team of a division and the venue it plays its home fixtures at."""

    team: str
    venue: str


@dataclass(frozen=True, slots=True)
class Plan:
    """What the fixtures are made from: each division's teams (in order), the first
    night, the dates passed over, how many home fixtures each venue holds on a night
    (1 when not said), and how many times teams meet."""

    divisions: Mapping[str, Sequence[Entry]]
    starts: _dt.date
    blackouts: frozenset[_dt.date] = frozenset()
    venue_tables: Mapping[str, int] = field(default_factory=dict)
    legs: int = 2


@dataclass(frozen=True, slots=True)
class Planned:
    """One fixture: its division, week, night, home team and away team."""

    division: str
    week: int
    day: _dt.date
    home: str
    away: str


@dataclass(frozen=True, slots=True)
class Clash:
    """A night a venue has more home fixtures than it holds."""

    day: _dt.date
    venue: str
    fixtures: int
    tables: int

    @property
    def words(self) -> str:
        return f"{self.venue} has {self.fixtures} home fixtures on {self.day:%a} {self.day.day} {self.day:%b %Y} (it holds {self.tables})"


@dataclass(frozen=True, slots=True)
class Schedule:
    fixtures: tuple[Planned, ...]
    clashes: tuple[Clash, ...]
    weeks: int


def nights(starts: _dt.date, count: int, blackouts: Iterable[_dt.date] = ()) -> list[_dt.date]:
    """The season's first ``count`` nights: weekly from ``starts``, the blackouts passed over.

    >>> nights(_dt.date(2026, 12, 14), 3, [_dt.date(2026, 12, 21)])
    [datetime.date(2026, 12, 14), datetime.date(2026, 12, 28), datetime.date(2027, 1, 4)]
    """
    out: list[_dt.date] = []
    day = starts
    skip = set(blackouts)
    if len(skip) > 520:
        raise EventError("a season has at most 520 blackout dates")
    while len(out) < count:
        if day not in skip:
            out.append(day)
        day += _dt.timedelta(days=7)
    return out


@functools.lru_cache(maxsize=128)
def _patterns(n: int, legs: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Berger's rounds for ``n`` positions (0-based): each round's (home, away) pairs."""
    names = [str(i) for i in range(n)]
    return tuple(tuple((int(a), int(b)) for a, b in rnd if b is not None) for rnd in pairing.round_robin(names, legs))


def _check(plan: Plan) -> None:
    if not plan.divisions:
        raise EventError("a season needs at least one division")
    if plan.legs not in (1, 2):
        raise EventError(f"teams meet once or twice (home and away), not {plan.legs} times")
    everyone: list[str] = []
    for name, entries in plan.divisions.items():
        if not 2 <= len(entries) <= MAX_TEAMS:
            raise EventError(f"division {name} has {len(entries)} teams: a division has 2 to {MAX_TEAMS}")
        everyone += [e.team for e in entries]
    problem = _text.same_names_problem(everyone)
    if problem:
        raise EventError(f"a team's name is one team's only: {problem}")


class _Search:
    """The home counts of every venue each week, kept as the divisions' orders change."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.names = list(plan.divisions)
        self.rounds = {d: _patterns(len(plan.divisions[d]), plan.legs) for d in self.names}
        # order[d][position] = index of the team in the division's list
        self.order = {d: list(range(len(plan.divisions[d]))) for d in self.names}
        self.key = {d: [_text.name_key(e.venue) for e in plan.divisions[d]] for d in self.names}
        given = {_text.name_key(v): max(1, int(n)) for v, n in plan.venue_tables.items()}
        self.room = {k: given.get(k, 1) for ks in self.key.values() for k in ks}
        self.home = Counter[tuple[int, str]]()
        self.excess = 0
        for d in self.names:
            self._add(d, 1)

    def _add(self, d: str, sign: int) -> None:
        """Count (``sign`` 1) or take back (-1) the home fixtures of division ``d``."""
        order, keys = self.order[d], self.key[d]
        for week, rnd in enumerate(self.rounds[d], 1):
            for h, _ in rnd:
                k = (week, keys[order[h]])
                before = self.home[k]
                after = before + sign
                self.home[k] = after
                room = self.room[k[1]]
                self.excess += max(0, after - room) - max(0, before - room)

    def cost(self) -> int:
        return self.excess

    def swap(self, d: str, i: int, j: int) -> None:
        self._add(d, -1)
        self.order[d][i], self.order[d][j] = self.order[d][j], self.order[d][i]
        self._add(d, 1)

    def improve(self, seed: int) -> None:
        """Swap two teams of a division while that lowers the clashes (sideways moves
        allowed, so the search walks along a plateau); after :data:`STALE` swaps in a row
        that lowered nothing, start again from the best order found, a few teams swapped at
        random. At most :data:`SEARCH` swaps, and :data:`KICKS` fresh starts in a row that
        found nothing better; the best order found is kept."""
        rng = random.Random(seed)
        shared = [d for d in self.names if self._shares(d)]
        best = self.cost()
        kept = {d: list(o) for d, o in self.order.items()}
        stale = since_best = 0
        for _ in range(SEARCH if shared else 0):
            if best == 0 or since_best > KICKS * STALE:
                break
            if stale > STALE:
                self._restore(kept)
                for _ in range(3):
                    d = rng.choice(shared)
                    self.swap(d, *rng.sample(range(len(self.order[d])), 2))
                stale = 0
            d = rng.choice(shared)
            i, j = rng.sample(range(len(self.order[d])), 2)
            before = self.cost()
            self.swap(d, i, j)
            now = self.cost()
            stale = 0 if now < best else stale + 1
            since_best = 0 if now < best else since_best + 1
            if now < best:
                best = now
                kept = {d: list(o) for d, o in self.order.items()}
            elif now > before:
                self.swap(d, i, j)
        self._restore(kept)

    def _restore(self, orders: dict[str, list[int]]) -> None:
        for d in self.names:
            self._add(d, -1)
            self.order[d] = list(orders[d])
            self._add(d, 1)

    def _shares(self, d: str) -> bool:
        counts = Counter(_text.name_key(e.venue) for es in self.plan.divisions.values() for e in es)
        return any(counts[_text.name_key(e.venue)] > 1 for e in self.plan.divisions[d])


def schedule(plan: Plan, seed: int = 0) -> Schedule:
    """The season's fixtures (see the module)."""
    _check(plan)
    search = _Search(plan)
    search.improve(seed)
    weeks = max(len(r) for r in search.rounds.values())
    days = nights(plan.starts, weeks, plan.blackouts)
    out: list[Planned] = []
    for d in search.names:
        teams = plan.divisions[d]
        for week, rnd in enumerate(search.rounds[d], 1):
            for h, a in rnd:
                home, away = teams[search.order[d][h]].team, teams[search.order[d][a]].team
                out.append(Planned(d, week, days[week - 1], home, away))
    return Schedule(tuple(out), clashes(out, plan), weeks)


def clashes(fixtures: Iterable[Planned], plan: Plan) -> tuple[Clash, ...]:
    """Every night a venue has more home fixtures than it holds."""
    venue_of = {_text.name_key(e.team): e.venue for es in plan.divisions.values() for e in es}
    per = Counter((f.day, _text.name_key(venue_of[_text.name_key(f.home)])) for f in fixtures)
    shown = {_text.name_key(v): v for v in venue_of.values()}
    out = []
    for (day, v), n in sorted(per.items()):
        tables = max(1, int(plan.venue_tables.get(shown[v], 1)))
        if n > tables:
            out.append(Clash(day, shown[v], n, tables))
    return tuple(out)


def breaks(fixtures: Iterable[Planned], team: str) -> int:
    """How many times ``team`` plays two home or two away fixtures running."""
    mine = sorted((f.week, f.home == team) for f in fixtures if team in (f.home, f.away))
    return sum(1 for (_, a), (_, b) in zip(mine, mine[1:], strict=False) if a == b)
