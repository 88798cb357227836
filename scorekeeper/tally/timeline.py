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

A match that carries scores in starts from them: the carried-in score is each side's
first scoring event (a tally draws it, the pegboard's front peg moves to it); an
adjustment is a step of its own.

>>> t = Timeline(("Us", "Them"), 121, 5, (Step(1, None, (90, 75), "entered as points"),
...     Step(1, None, (90, 65), adjustment="misdeal")), start=(85, 70))
>>> t.series(0), t.events(), [s.label for s in t.steps]
([85, 90, 90], [[85, 5], [70, 5, -10]], ['hand 1, entered as points', 'adjustment after hand 1 (misdeal)'])
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["POINTS", "Step", "Timeline"]

#: The ``what`` of the one step of a hand entered as points.
POINTS = "entered as points"


@dataclass(frozen=True)
class Step:
    """The scores of every side (in side order) after one turn or settlement."""

    hand: int
    turn: int | None  # None: the hand's settlement
    scores: tuple[int, ...]
    what: str | None = None  # what scored, where "turn" does not say it (All Fours: "high")
    #: An adjustment's reason: the step is the adjustment entered after hand ``hand`` (0:
    #: before the first hand), not a part of a hand.
    adjustment: str | None = None

    @property
    def label(self) -> str:
        if self.adjustment is not None:
            where = f"after hand {self.hand}" if self.hand else "before hand 1"
            return f"adjustment {where} ({self.adjustment})"
        if self.what is not None:
            return f"hand {self.hand}, {self.what}"
        return f"hand {self.hand}, " + ("settlement" if self.turn is None else f"turn {self.turn}")


@dataclass(frozen=True)
class Timeline:
    """A match's scores over its turns; scores start at ``start`` (every side's score carried
    in; ``()``: 0) before the first step."""

    sides: tuple[str, ...]
    target: int  # 0: no target (a match of so many hands)
    scale: int
    steps: tuple[Step, ...] = ()
    #: Why no X tally or pegboard can show this match (its scores can go down), or None.
    note: str | None = None
    #: Kept on a cribbage board first: its points are pegs, one point one hole, and not the
    #: fives an X tally counts (Fives and Threes).
    pegs: bool = False
    #: Every side's score carried in when the match began (``()``: none, 0).
    start: tuple[int, ...] = ()

    @property
    def first(self) -> tuple[int, ...]:
        """Every side's score before the first step."""
        return self.start or (0,) * len(self.sides)

    def series(self, side: int) -> list[int]:
        """One side's score at the start and after every step."""
        return [self.first[side]] + [s.scores[side] for s in self.steps]

    def events(self) -> list[list[int]]:
        """Per side, the points of each step that changed its score (its scoring events),
        the score it carried in first."""
        out: list[list[int]] = [[n] if n else [] for n in self.first]
        before = self.first
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
        return self.steps[-1].scores if self.steps else self.first
