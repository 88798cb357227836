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

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.errors import ScorekeeperError

__all__ = ["Symbol", "Tally", "TallyError", "tally", "strokes_of", "SPACE_ORDER", "SYMBOL_POINTS"]

#: The four spaces around the large X, in the order they are filled.
SPACE_ORDER = ("top", "right", "bottom", "left")
#: Points one full symbol is worth.
SYMBOL_POINTS = 50
_STROKES = {"": 0, "/": 1, "x": 2, "o": 2}
_TEXT = {"": ".", "/": "/", "x": "x", "o": "o"}
_FROM_TEXT = {v: k for k, v in _TEXT.items()}
_X_TEXT = {0: ".", 1: "\\", 2: "X"}
_X_FROM_TEXT = {v: k for k, v in _X_TEXT.items()}


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
        points = f"{self.total} point{'s' if self.total != 1 else ''}"
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
        raise TallyError(f"{where}{points!r} is not a whole number of points")
    if points < 0:
        raise TallyError(f"{where}{points} points: the tally cannot show a deduction")
    if scale == 1:
        if points % 5:
            raise TallyError(f"{where}{points} points is not a multiple of 5 (one stroke is 5 points)")
        return points // 5
    if scale == 5:
        return points
    raise TallyError(f"scale must be 1 or 5, not {scale!r}")


def tally(points: Iterable[int], scale: int = 1) -> Tally:
    """Build a side's tally from its scoring events, in order (the spec's rules)."""
    if scale not in (1, 5):
        raise TallyError(f"scale must be 1 or 5, not {scale!r}")
    xs: list[int] = []  # per symbol: the strokes of its large X
    spaces_of: list[list[str]] = []  # per symbol: its four spaces
    total = 0
    for i, p in enumerate(points, 1):
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
