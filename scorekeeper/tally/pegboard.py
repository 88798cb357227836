"""The cribbage pegboard as data (``docs/rules/tally.md``).

Each side has two pegs.  The front peg marks the score; the back peg marks the
score before the last scoring event -- on every score the back peg leapfrogs
the front one.

>>> pegs([3, 2, 4])
Pegs(front=9, back=5)
>>> pegs([3, 2, 4]).to_json()
{'front': 9, 'back': 5}

The board for a game of 61 is one lap: 60 holes per side in groups of five,
plus the game hole.  Longer targets get a 121-hole track (120 + game hole);
short games (All Fours to 7, 11, 14 or 31) a one-row board ending in the
target.

>>> board = pegboard({"Us": [3, 2, 4], "Them": [5]})
>>> board.holes, board.track
(61, 60)
>>> pegboard({"Us": [60, 50]}, target=121).holes
121
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.tally.xtally import MAX_TOTAL, TallyError, check_events

__all__ = ["Pegs", "Pegboard", "pegs", "pegboard", "board_holes", "GROUP"]

#: Holes come in groups of five.
GROUP = 5
#: Targets up to this get a short board of one row whose game hole is the target.
SHORT = 31


@dataclass(frozen=True)
class Pegs:
    """Where one side's two pegs stand (scores; 0 = the start)."""

    front: int = 0
    back: int = 0

    def to_json(self) -> dict[str, int]:
        return {"front": self.front, "back": self.back}


def pegs(points: Iterable[int], side: str | None = None) -> Pegs:
    """Move the pegs through a side's scoring events (points on the board's scale).

    A 0 moves nothing (no peg is lifted); a negative score cannot be pegged, nor more
    than 9,999 points at once or 99,999 in all (see :func:`~scorekeeper.tally.xtally.check_events`).
    """
    front = back = 0
    who = f"{side if len(side) <= 40 else side[:37] + '...'}, " if side else ""
    for p in check_events(points, who=who, what="a pegboard"):
        if p:
            back, front = front, front + p
    return Pegs(front, back)


def board_holes(target: int) -> int:
    """Holes per side, game hole included: a short board whose game hole is the
    target for targets up to 31 (All Fours plays to 7, 11, 14, 31), 61 up to a
    target of 61, else 121.

    >>> board_holes(14), board_holes(31), board_holes(32), board_holes(61), board_holes(100)
    (14, 31, 61, 61, 121)
    """
    if target <= SHORT:
        return max(target, 2)
    return 61 if target <= 61 else 121


@dataclass(frozen=True)
class Pegboard:
    """A board: its size, the target, and each side's pegs (in seat order)."""

    target: int
    sides: tuple[tuple[str, Pegs], ...]
    holes: int = 61

    def __post_init__(self) -> None:
        # the boards :func:`board_holes` makes: a drawing has ``holes + 1`` holes per side
        if type(self.holes) is not int or not 2 <= self.holes <= 121:
            raise TallyError(f"a board has 2 to 121 holes, not {str(self.holes)[:40]}")

    @property
    def track(self) -> int:
        """Holes per side before the game hole (60 or 120; fewer on a short board)."""
        return self.holes - 1

    def place(self, score: int) -> tuple[int, int]:
        """(lap, hole) where a peg showing ``score`` stands: hole 0 is the start,
        ``holes`` the game hole; past the game hole a peg stays in it unless the
        target lies beyond the board, when it goes round again (lap 1, 2 ...).

        >>> b = pegboard({"A": []})
        >>> b.place(0), b.place(9), b.place(61), b.place(64)
        ((0, 0), (0, 9), (0, 61), (0, 61))
        >>> pegboard({"A": []}, target=151).place(130)
        (1, 10)
        """
        if score <= 0:
            return (0, 0)
        if self.target <= self.holes or self.track < 1:
            return (0, min(score, self.holes))
        lap, hole = divmod(score - 1, self.track)
        return (lap, hole + 1)

    def to_json(self) -> list[dict[str, Any]]:
        return [{"side": name, **p.to_json()} for name, p in self.sides]


def pegboard(events: Mapping[str, Iterable[int]], target: int = 61) -> Pegboard:
    """The board for every side's scoring events (a mapping side name -> points)."""
    if type(target) is not int or not 1 <= target <= MAX_TOTAL:
        shown = repr(target) if type(target) is not int or -(10**40) < target < 10**40 else "a huge number"
        raise TallyError(f"target must be a whole number from 1 to {MAX_TOTAL:,}, not {shown[:40]}")
    sides = tuple((name, pegs(pts, side=name)) for name, pts in events.items())
    return Pegboard(target, sides, board_holes(target))
