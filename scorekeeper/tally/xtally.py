"""The Holsey-Tidwell X tally as data (``docs/rules/tally.md``).

Every stroke is worth five points.  A *symbol* is worth 50: the large X (two
strokes, 10), then a small x of two strokes in each of the four spaces around
it -- top, right, bottom, left.  Within one scoring event, every whole ten that
begins at an empty space is drawn as a small ``o`` instead (the large X is
always strokes).

>>> t = tally([10, 10, 5, 15, 35])
>>> t.total
75
>>> t.symbols
(Symbol(x=2, spaces=('o', 'x', 'o', 'o')), Symbol(x=2, spaces=('o', '/', '', '')))
>>> str(t)
'[X o x o o] [X o / . .]'
>>> Tally.parse(str(t)).symbols == t.symbols
True

With ``scale=5`` (cribbage-style matches) a point is one stroke:

>>> tally([2, 1], scale=5)
Tally(total=3, symbols=(Symbol(x=2, spaces=('/', '', '', '')),), scale=5)
>>> try:
...     tally([10, -5])
... except TallyError as e:
...     print(e)
event 2: -5 points: the tally cannot show a deduction
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.errors import ScorekeeperError

__all__ = [
    "MAX_EVENT",
    "MAX_STROKES",
    "MAX_TOTAL",
    "SPACE_ORDER",
    "SYMBOL_POINTS",
    "Symbol",
    "Tally",
    "TallyError",
    "check_events",
    "number_text",
    "strokes_of",
    "tally",
]

#: The four spaces around the large X, in the order they are filled.
SPACE_ORDER = ("top", "right", "bottom", "left")
#: Points one full symbol is worth.
SYMBOL_POINTS = 50
_STROKES = {"": 0, "/": 1, "x": 2, "o": 2}
_TEXT = {"": ".", "/": "/", "x": "x", "o": "o"}
_FROM_TEXT = {v: k for k, v in _TEXT.items()}
_X_TEXT = {0: ".", 1: "\\", 2: "X"}
_X_FROM_TEXT = {v: k for k, v in _X_TEXT.items()}
#: The most points one scoring event may bring, and the most a tally or a pegboard can
#: draw in all: bounds on the work (and the picture) a list of points can ask for.
MAX_EVENT = 9_999
MAX_TOTAL = 99_999
#: The most strokes one tally draws (2,000 symbols): 99,999 points with ``scale`` 1, and
#: 20,000 with ``scale`` 5, where a point is a stroke (the SVG of a tally grows with it).
MAX_STROKES = 20_000


def number_text(n: int) -> str:
    """A whole number as text, for any int: written out up to 15 digits, else in
    scientific notation (Python refuses to write out more than 4,300 digits).

    >>> number_text(1234), number_text(-(10**400)), number_text(3 * 10**5000)
    ('1234', '-1.0e400', '3.0e5000')
    """
    if -(10**15) < n < 10**15:
        return str(n)
    e = math.floor(math.log10(abs(n)))
    mantissa = abs(n) / 10**e  # int / int: a float of about 1 to 10, whatever the size
    if mantissa >= 10:  # log10 rounded up at a power of ten
        e, mantissa = e + 1, mantissa / 10
    elif mantissa < 1:
        e, mantissa = e - 1, mantissa * 10
    return f"{'-' if n < 0 else ''}{mantissa:.1f}e{e}"


def _short(value: object) -> str:
    """``repr(value)`` for a message, at most 40 characters (a huge number is not written out)."""
    if type(value) is int and not -(10**40) < value < 10**40:
        return "a number of more than 40 digits"
    try:
        text = repr(value)
    except ValueError:  # an int too long for a repr, inside something else
        return "a value too long to write out"
    return text if len(text) <= 40 else text[:37] + "..."


def check_events(points: Iterable[Any], *, who: str = "", what: str = "the tally") -> list[int]:
    """The scoring events as a list, every one a whole number from 0 to 9,999 and their
    sum at most 99,999, checked before anything is drawn (else a TallyError saying which).

    >>> check_events([3, 2, 4])
    [3, 2, 4]
    >>> check_events([5, 99999999])
    Traceback (most recent call last):
    ...
    scorekeeper.tally.xtally.TallyError: event 2: 99999999 points: at most 9,999 points can be drawn for one event
    >>> check_events([9999] * 11)
    Traceback (most recent call last):
    ...
    scorekeeper.tally.xtally.TallyError: at most 99,999 points can be drawn (here 109,989 by event 11)
    """
    out: list[int] = []
    total = 0
    for i, p in enumerate(points, 1):
        if type(p) is not int:
            raise TallyError(f"{who}event {i}: {_short(p)} is not a whole number of points")
        if p < 0:
            raise TallyError(f"{who}event {i}: {_short(p)} points: {what} cannot show a deduction")
        if p > MAX_EVENT:
            raise TallyError(
                f"{who}event {i}: {_short(p)} points: at most {MAX_EVENT:,} points can be drawn for one event"
            )
        total += p
        if total > MAX_TOTAL:
            raise TallyError(f"{who}at most {MAX_TOTAL:,} points can be drawn (here {total:,} by event {i})")
        out.append(p)
    return out


class TallyError(ScorekeeperError):
    """Points the tally cannot show (a deduction, or not a whole number of strokes)."""


@dataclass(frozen=True)
class Symbol:
    """One symbol: ``x`` strokes of the large X (0-2) and the four spaces.

    A space holds ``""`` (empty), ``"/"`` (one stroke), ``"x"`` (two strokes)
    or ``"o"`` (a ten made in one turn).

    >>> Symbol(2, ("o", "x", "/", "")).strokes
    7
    >>> Symbol(2, ("o", "x", "x", "o")).complete
    True
    """

    x: int = 0
    spaces: tuple[str, str, str, str] = ("", "", "", "")

    def __post_init__(self) -> None:
        if self.x not in (0, 1, 2) or len(self.spaces) != 4 or any(s not in _STROKES for s in self.spaces):
            raise TallyError(f"not a tally symbol: x={self.x!r}, spaces={self.spaces!r}")

    @property
    def strokes(self) -> int:
        """Strokes drawn (an ``o`` counts as two)."""
        return self.x + sum(_STROKES[s] for s in self.spaces)

    @property
    def complete(self) -> bool:
        """True when the symbol is full (50 points)."""
        return self.strokes == 10

    def to_json(self) -> dict[str, Any]:
        return {"x": self.x, "spaces": list(self.spaces)}

    def __str__(self) -> str:
        return "[" + " ".join([_X_TEXT[self.x], *(_TEXT[s] for s in self.spaces)]) + "]"


@dataclass(frozen=True)
class Tally:
    """One side's tally: its total (in the match's points) and its symbols."""

    total: int = 0
    symbols: tuple[Symbol, ...] = ()
    scale: int = 1

    @property
    def strokes(self) -> int:
        return sum(s.strokes for s in self.symbols)

    def to_json(self) -> dict[str, Any]:
        """The object ``scorekeeper tally --json`` prints."""
        return {"total": self.total, "symbols": [s.to_json() for s in self.symbols]}

    def describe(self) -> str:
        """A sentence for screen readers and tests.

        >>> tally([10, 10, 5, 15, 35]).describe()
        '75 points: 1 full symbol, then the large X, o, /'
        >>> tally([]).describe()
        '0 points: nothing drawn'
        """
        points = f"{number_text(self.total)} point{'s' if self.total != 1 else ''}"
        if not self.symbols:
            return f"{points}: nothing drawn"
        full = sum(1 for s in self.symbols if s.complete)
        parts = []
        if full:
            parts.append(f"{full} full symbol{'s' if full != 1 else ''}")
        last = self.symbols[-1]
        if not last.complete:
            marks = [{0: "", 1: "half the large X", 2: "the large X"}[last.x]]
            marks += [s for s in last.spaces if s]
            parts.append(("then " if full else "") + ", ".join(m for m in marks if m))
        return f"{points}: " + ", ".join(parts)

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.symbols)

    @classmethod
    def parse(cls, text: str, scale: int = 1) -> Tally:
        """Read the text form back (``[X o x o o] [X o / . .]``)."""
        symbols = []
        for m in re.finditer(r"\[([^\]]*)\]", text):
            marks = m.group(1).split()
            if len(marks) != 5 or marks[0] not in _X_FROM_TEXT or any(k not in _FROM_TEXT for k in marks[1:]):
                raise TallyError(f"not a tally symbol: {m.group(0)!r}")
            symbols.append(Symbol(_X_FROM_TEXT[marks[0]], _four([_FROM_TEXT[k] for k in marks[1:]])))
        strokes = sum(s.strokes for s in symbols)
        return cls(strokes * (5 if scale == 1 else 1), tuple(symbols), scale)


def _four(spaces: Sequence[str]) -> tuple[str, str, str, str]:
    """The four spaces of a symbol as a tuple (``spaces`` holds exactly four)."""
    top, right, bottom, left = spaces
    return (top, right, bottom, left)


def strokes_of(points: int, scale: int = 1, event: int | None = None) -> int:
    """The strokes one scoring event draws (points / 5, or points when ``scale`` is 5).

    >>> strokes_of(15), strokes_of(3, scale=5)
    (3, 3)
    """
    where = f"event {event}: " if event is not None else ""
    if type(points) is not int:
        raise TallyError(f"{where}{_short(points)} is not a whole number of points")
    if points < 0:
        raise TallyError(f"{where}{_short(points)} points: the tally cannot show a deduction")
    if points > MAX_EVENT:
        raise TallyError(f"{where}{_short(points)} points: at most {MAX_EVENT:,} points can be drawn for one event")
    if scale == 1:
        if points % 5:
            raise TallyError(f"{where}{points} points is not a multiple of 5 (one stroke is 5 points)")
        return points // 5
    if scale == 5:
        return points
    raise TallyError(f"scale must be 1 or 5, not {_short(scale)}")


def tally(points: Iterable[int], scale: int = 1) -> Tally:
    """Build a side's tally from its scoring events, in order (the spec's rules).

    Every event is checked first (:func:`check_events`: at most 9,999 points each,
    99,999 in all, and at most 20,000 strokes), so that no list of points makes it draw
    for long.

    >>> tally([9999, 9999, 9999], scale=5)
    Traceback (most recent call last):
    ...
    scorekeeper.tally.xtally.TallyError: event 3: a tally draws at most 20,000 strokes (here 29,997 points with one stroke a point)
    """
    if type(scale) is not int or scale not in (1, 5):
        raise TallyError(f"scale must be 1 or 5, not {_short(scale)}")
    events = check_events(points)
    strokes = 0
    for i, p in enumerate(events, 1):
        strokes += p if scale == 5 else p // 5
        if strokes > MAX_STROKES:
            total = sum(events[:i])
            each = "one stroke a point" if scale == 5 else "one stroke 5 points"
            raise TallyError(
                f"event {i}: a tally draws at most {MAX_STROKES:,} strokes (here {total:,} points with {each})"
            )
    xs: list[int] = []  # per symbol: the strokes of its large X
    spaces_of: list[list[str]] = []  # per symbol: its four spaces
    total = 0
    for i, p in enumerate(events, 1):
        n = strokes_of(p, scale, event=i)
        total += p
        while n:
            if not xs or (xs[-1] == 2 and all(_STROKES[s] == 2 for s in spaces_of[-1])):
                xs.append(0)
                spaces_of.append(["", "", "", ""])
            if xs[-1] < 2:
                take = min(n, 2 - xs[-1])
                xs[-1] += take
                n -= take
                continue
            spaces = spaces_of[-1]
            k = next(j for j, s in enumerate(spaces) if _STROKES[s] < 2)
            if spaces[k] == "/":
                spaces[k], n = "x", n - 1
            elif n >= 2:
                spaces[k], n = "o", n - 2
            else:
                spaces[k], n = "/", n - 1
    return Tally(total, tuple(Symbol(x, _four(sp)) for x, sp in zip(xs, spaces_of, strict=True)), scale)


def tallies(events: Sequence[Iterable[int]], scale: int = 1) -> list[Tally]:
    """One tally per side."""
    return [tally(e, scale) for e in events]
