"""What the Players screens show, without Flet: the figures of the store as kept
between visits (:func:`figures_of`), names in routes (:func:`slug`), and the
figures put in words (:class:`Figure`, :class:`Row`, :class:`MatchRow` ...). The
figures themselves are :mod:`scorekeeper.stats`'s; :mod:`scorekeeper.ui.players.model`
picks them for each screen.

The figures are made once and kept until a match file or the players' names change,
so a visit replays nothing and adds nothing up again when nothing was played.

Routes (each part is a word people can read or a name's :func:`slug`)::

    /players[/<game>]                         the standings of a game
    /player/<who>[/<game>]                    one player, or a pair ("ann+cy")
    /player/<who>/<game>/<figure>[/<other>]   the matches behind a figure
    /player/<who>/rename                      rename or merge
    /head-to-head[/<a>/<b>[/<game>/<figure>]]

>>> slug("ann"), slug("mary ann"), slug("o'neil"), unslug(slug("o'neil"))
('ann', 'mary-ann', '~6f276e65696c', "o'neil")
>>> who_slug(("cy", "ann")), who_of("cy+ann"), who_of("~zz")
('cy+ann', ('ann', 'cy'), None)
>>> by_words(7.94, "Ann", "Ben"), by_words(-2, "Ann", "Ben"), by_words(0.0, "Ann", "Ben")
('Ann by 7.94 points a match on average', 'Ben by 2 points a match on average', 'level on average')
"""

from __future__ import annotations

import datetime as _dt
import re
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import registry
from scorekeeper.stats import cache, figures
from scorekeeper.stats import names as _names
from scorekeeper.stats.figures import Stats
from scorekeeper.store import Store
from scorekeeper.ui.shell.base import Shared

__all__ = [
    "PAGE",
    "Bar",
    "Behind",
    "Figure",
    "Kept",
    "MatchRow",
    "Meeting",
    "PlayerPage",
    "Row",
    "by_words",
    "day",
    "figures_of",
    "forget",
    "games_in_order",
    "is_month",
    "month",
    "pct",
    "slug",
    "unslug",
    "who_of",
    "who_slug",
]

#: Matches listed at once behind a figure (then "Older").
PAGE = 20
#: Figures are made again at least this often (an unfinished match becomes abandoned with time).
FRESH_FOR = 300.0

_SIMPLE = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")
_MONTH = re.compile(r"^\d{4}-\d\d$")
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


# ------------------------------------------------------------------ names in routes
def slug(person: str) -> str:
    """A person (a name's key) as a part of a route: ``mary-ann``, or ``~`` and its UTF-8 in hex."""
    if _SIMPLE.fullmatch(person):
        return person.replace(" ", "-")
    return "~" + person.encode().hex()


def unslug(text: str) -> str | None:
    """The person of a :func:`slug` (None: not one)."""
    if text.startswith("~"):
        try:
            return bytes.fromhex(text[1:]).decode()
        except ValueError:
            return None
    return text.replace("-", " ") if text else None


def who_slug(members: tuple[str, ...]) -> str:
    """One player or a pair of partners in a route (``ann+cy``)."""
    return "+".join(slug(p) for p in members)


def who_of(text: str) -> tuple[str, ...] | None:
    """The members of a :func:`who_slug` (None: not one)."""
    members = tuple(unslug(part) for part in text.split("+"))
    if not members or len(members) > 2 or any(m is None for m in members):
        return None
    return tuple(sorted(m for m in members if m is not None))


# ------------------------------------------------------------------ the kept figures
@dataclass
class Kept:
    """The figures of a store as last made, with what they were made from."""

    stats: Stats
    names: _names.Names
    stamp: tuple[Any, ...]
    made: float  # time.monotonic() when made
    wall: float  # time.time() when made
    memory: dict[str, Any] = field(default_factory=dict)  # the statistics cache, kept in memory
    by_id: dict[str, Any] = field(default_factory=dict)  # id -> (facts, seats, status)
    typed: dict[str, str] = field(default_factory=dict)  # a spelling's key -> as it was typed


_KEPT: weakref.WeakKeyDictionary[Store, Kept] = weakref.WeakKeyDictionary()
_MAKING = threading.Lock()  # one session makes the figures; the others wait and share them


#: A stamp younger than this is not trusted: two writes within one tick of the clock
#: would leave the same stamp (the figures are then made again, which is always right).
SETTLED = 2.0


def _stamp(store: Store) -> tuple[Any, ...]:
    """What changes whenever a match file or the names change: every write of a match is
    a new file renamed into the matches' directory (a new mtime of the directory), and
    ``players.json`` is replaced the same way."""
    out: list[Any] = []
    for path in (store.matches_dir, store.path / _names.FILE):
        try:
            st = path.stat()
            out.append((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


def _settled(stamp: tuple[Any, ...], made: float) -> bool:
    return all(s is None or made - s[3] / 1e9 > SETTLED for s in stamp)


def figures_of(shared: Shared) -> Kept:
    """The figures of the app's store: the kept ones while no match file and no name has
    changed (and they are younger than :data:`FRESH_FOR`), else made again from the
    statistics cache (:func:`scorekeeper.stats.cache.load_all`). Raises the store's errors."""
    with _MAKING:
        with shared.lock:  # every write of the app holds it: nothing changes in between
            store = shared.store
            stamp = _stamp(store)
            kept = _KEPT.get(store)
            if (
                kept is not None
                and kept.stamp == stamp
                and _settled(stamp, kept.wall)
                and time.monotonic() - kept.made < FRESH_FOR
            ):
                return kept
            wall = time.time()
            memory = kept.memory if kept is not None else {}
            facts = cache.load_all(store, memory)
            names = _names.load(store)
        # unchanged figures (only an unfinished match moved on) are given back, not added up again
        stats = figures.compute(facts, names, previous=kept.stats if kept is not None else None)
        kept = Kept(stats, names, stamp, time.monotonic(), wall, memory)
        for entry in stats.matches:
            kept.by_id[entry[0].id] = entry
            for name in entry[0].facts["players"]:
                kept.typed.setdefault(_names.key(name), " ".join(name.split()))
        _KEPT[store] = kept
        return kept


def forget(shared: Shared) -> None:
    """Make the figures again on the next look (the names were just changed)."""
    with _MAKING:
        kept = _KEPT.get(shared.store)
        if kept is not None:
            kept.made = float("-inf")


# ------------------------------------------------------------------ what the screens show
@dataclass(frozen=True)
class Figure:
    """One figure in words; ``route``: the matches behind it (None: nothing to open)."""

    label: str
    value: str
    route: str | None = None
    note: str = ""  # a line under it ("Ann by 7.9 points a match on average")

    @property
    def text(self) -> str:
        """How it is read out (and found by the tests): ``Won: 7``, then the note."""
        return f"{self.label}: {self.value}" + (f"; {self.note}" if self.note else "")


@dataclass(frozen=True)
class Row:
    """A player (or pair) in the standings of a game."""

    name: str
    route: str
    played: Figure
    won: Figure
    rate: str


@dataclass(frozen=True)
class Bar:
    """One month of the chart: matches finished and won."""

    month: str
    matches: int
    wins: int
    route: str

    @property
    def text(self) -> str:
        return f"{self.month}: won {self.wins} of {self.matches}"


@dataclass
class PlayerPage:
    """One player's (or pair's) figures in one game."""

    name: str
    who: str
    pair: bool  # a pair of partners, or two spellings of one name in one match: not renamed here
    game: str
    games: list[tuple[str, str]]  # (title, game) of every game played
    figures: list[Figure]
    apart: list[Figure]  # unfinished and abandoned
    partners: list[Figure]
    opponents: list[Figure]
    months: list[Bar]


@dataclass(frozen=True)
class MatchRow:
    """A match in a list: when, what, the sides with their scores, how it went."""

    id: str
    route: str
    when: str
    game: str
    sides: str
    outcome: str

    @property
    def text(self) -> str:
        return f"{self.when}, {self.game}: {self.sides}, {self.outcome}"


@dataclass
class Behind:
    """The matches behind one figure, newest first."""

    title: str
    subtitle: str
    back: str
    ids: list[str]


@dataclass
class Meeting:
    """Two players or sides against each other in one game."""

    game: str
    title: str
    figures: list[Figure]
    margin: str


def pct(rate: float | None) -> str:
    """A win rate in words: ``58%`` (``-``: no finished match)."""
    return "-" if rate is None else f"{round(rate * 100)}%"


def day(started: str) -> str:
    """The day a match started: ``12 Mar 2026``."""
    try:
        d = _dt.date.fromisoformat(started[:10])
    except ValueError:
        return started[:10]
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def is_month(text: str) -> bool:
    return bool(_MONTH.match(text))


def month(text: str) -> str:
    """A month of the chart: ``2026-03`` -> ``Mar 2026``."""
    return f"{MONTHS[int(text[5:7]) - 1]} {text[:4]}" if is_month(text) and 1 <= int(text[5:7]) <= 12 else text


def by_words(margin: float | None, who: str, other: str) -> str:
    """An average margin in words, from ``who``'s side."""
    if margin is None:
        return ""
    if margin == 0:
        return "level on average"
    ahead = who if margin > 0 else other
    return f"{ahead} by {abs(margin):g} points a match on average"


def games_in_order(games: set[str]) -> list[str]:
    """Games in the usual order: the registry's kinds in order, then any other by name."""
    order = [k.id for k in registry.kinds()]
    return sorted(games, key=lambda g: (order.index(g) if g in order else len(order), g))
