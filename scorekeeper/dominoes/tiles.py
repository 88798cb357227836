"""Domino tiles and sets.

Tiles are small immutable values, interned: there is exactly one ``Tile``
object per pair of pips, so they compare and hash by identity (fast in the
engine's hot path) and still behave as values.

>>> Tile.parse("3-5")
Tile(5, 3)
>>> Tile.parse("[5|3]") is Tile(3, 5)
True
>>> str(Tile(2, 6)), Tile(4, 4).is_double, Tile(6, 5).pips
('6-2', True, 11)
>>> len(tiles_of_set(6)), len(tiles_of_set(9)), len(tiles_of_set(12))
(28, 55, 91)
"""

from __future__ import annotations

import re
from functools import cache

from scorekeeper.errors import IllegalTileError, short

#: The highest pip count any supported set has.
MAX_PIPS = 12

# ASCII digits only: ``\d`` would take "٣-٥" or "３-５", and int() reads them
_TILE_RE = re.compile(r"\s*\[?\s*([0-9]{1,2})\s*[-|:]\s*([0-9]{1,2})\s*\]?\s*", re.ASCII)


class Tile:
    """One domino tile; ``Tile(5, 3)`` and ``Tile(3, 5)`` are the same object.

    Attributes: ``hi`` and ``lo`` (pips, ``hi >= lo``), ``pips`` (their sum),
    ``is_double`` and ``index`` (a small unique number, used for bit sets).
    """

    __slots__ = ("hi", "lo", "pips", "is_double", "index")
    _interned: dict[tuple[int, int], Tile] = {}

    hi: int
    lo: int
    pips: int
    is_double: bool
    index: int

    def __new__(cls, a: int, b: int) -> Tile:
        tile = cls._interned.get((a, b))  # both spellings are interned
        if tile is None:
            if type(a) is not int or type(b) is not int or not (0 <= a <= MAX_PIPS and 0 <= b <= MAX_PIPS):
                raise IllegalTileError(f"{short(a)}-{short(b)} is not a domino tile")
            hi, lo = (a, b) if a >= b else (b, a)
            tile = object.__new__(cls)
            object.__setattr__(tile, "hi", hi)
            object.__setattr__(tile, "lo", lo)
            object.__setattr__(tile, "pips", hi + lo)
            object.__setattr__(tile, "is_double", hi == lo)
            object.__setattr__(tile, "index", hi * (hi + 1) // 2 + lo)
            cls._interned[(hi, lo)] = cls._interned[(lo, hi)] = tile
        return tile

    @classmethod
    def parse(cls, text: str, highest: int = MAX_PIPS) -> Tile:
        """Read ``"a-b"``, ``"a|b"``, ``"[a-b]"`` or ``"a:b"``.

        ``highest`` is the set's highest pip; a tile outside it is refused.

        >>> Tile.parse("6:6")
        Tile(6, 6)
        >>> Tile.parse("7-1", highest=6)
        Traceback (most recent call last):
        ...
        scorekeeper.errors.IllegalTileError: 7-1 is not in a double-6 set
        """
        if not isinstance(text, str):
            raise IllegalTileError(f'a tile must be written as a string like "5-3", not {short(text)}')
        m = _TILE_RE.fullmatch(text)
        if m is None:
            raise IllegalTileError(f'{short(text)} is not a tile (write it like "5-3")')
        a, b = int(m.group(1)), int(m.group(2))
        if a > highest or b > highest:
            raise IllegalTileError(f"{a}-{b} is not in a double-{highest} set")
        return cls(a, b)

    def other(self, pips: int) -> int:
        """The half opposite a half showing ``pips``.

        >>> Tile(5, 2).other(2)
        5
        """
        return self.hi if self.lo == pips else self.lo

    def __contains__(self, pips: int) -> bool:
        return pips == self.hi or pips == self.lo

    def __str__(self) -> str:
        return f"{self.hi}-{self.lo}"

    def __repr__(self) -> str:
        return f"Tile({self.hi}, {self.lo})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.hi, self.lo))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Tile:
        return self

    def __lt__(self, other: Tile) -> bool:
        return (self.hi, self.lo) < (other.hi, other.lo)


@cache
def tiles_of_set(highest: int) -> tuple[Tile, ...]:
    """Every tile of a double-``highest`` set, lowest first."""
    return tuple(Tile(a, b) for a in range(highest + 1) for b in range(a + 1))


def set_size(highest: int) -> int:
    """``(set+1)(set+2)/2``: 28 for double-six."""
    return (highest + 1) * (highest + 2) // 2
