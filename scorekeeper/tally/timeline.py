"""Every side's score over a match, turn by turn: what the chart draws, and
where each side's scoring events (for the tally and the pegboard) come from.

>>> t = Timeline(("Us", "Them"), target=61, scale=5, steps=(
...     Step(1, 1, (2, 0)), Step(1, 2, (2, 0)), Step(1, 3, (5, 0)),
...     Step(1, None, (5, 4)), Step(2, 1, (5, 6))))
>>> t.events()
[[2, 3], [4, 2]]
>>> t.series(1)
[0, 0, 0, 0, 4, 6]
>>> t.steps[3].label
'hand 1, settlement'
>>> t.deductions
False
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Step", "Timeline"]


@dataclass(frozen=True)
class Step:
    """The scores of every side (in side order) after one turn or settlement."""

    hand: int
    turn: int | None  # None: the hand's settlement
    scores: tuple[int, ...]
    what: str | None = None  # what scored, where "turn" does not say it (All Fours: "high")

    @property
    def label(self) -> str:
        if self.what is not None:
            return f"hand {self.hand}, {self.what}"
        return f"hand {self.hand}, " + ("settlement" if self.turn is None else f"turn {self.turn}")


@dataclass(frozen=True)
class Timeline:
    """A match's scores over its turns; scores start at 0 before the first step."""

    sides: tuple[str, ...]
    target: int  # 0: no target (a match of so many hands)
    scale: int
    steps: tuple[Step, ...] = ()
    #: Why no X tally or pegboard can show this match (its scores can go down), or None.
    note: str | None = None
    #: Kept on a cribbage board first: its points are pegs, one point one hole, and not the
    #: fives an X tally counts (Fives and Threes).
    pegs: bool = False

    def series(self, side: int) -> list[int]:
        """One side's score at the start and after every step."""
        return [0] + [s.scores[side] for s in self.steps]

    def events(self) -> list[list[int]]:
        """Per side, the points of each step that changed its score (its scoring events)."""
        out: list[list[int]] = [[] for _ in self.sides]
        before = (0,) * len(self.sides)
        for step in self.steps:
            for i, (a, b) in enumerate(zip(before, step.scores, strict=True)):
                if a != b:
                    out[i].append(b - a)
            before = step.scores
        return out

    @property
    def deductions(self) -> bool:
        """True if any side's score ever went down (the tally and board cannot show it)."""
        return any(p < 0 for side in self.events() for p in side)

    @property
    def scores(self) -> tuple[int, ...]:
        return self.steps[-1].scores if self.steps else (0,) * len(self.sides)
