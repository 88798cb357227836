"""A Broadway match as a :class:`~scorekeeper.tally.timeline.Timeline`: both
sides' scores after each scoring placement and each hand's settlement.

>>> from scorekeeper.broadway.simulate import random_match
>>> t = timeline(random_match(3, max_hands=1))
>>> t.sides, t.steps[-1].scores == tuple(random_match(3, max_hands=1).scores)
(('North-South', 'East-West'), True)
"""

from __future__ import annotations

from scorekeeper.broadway.engine import Match
from scorekeeper.points import Adjustment, in_order
from scorekeeper.tally.timeline import POINTS, Step, Timeline

__all__ = ["SUBTRACT_NOTE", "timeline"]

SUBTRACT_NOTE = (
    "No X tally or pegboard: the tiles left at the end of a hand are taken off, "
    "and a tally or a board cannot show a deduction. The chart shows the dips."
)


def timeline(match: Match) -> Timeline:
    """Both sides' scores after each scoring placement and settlement, each hand entered as
    points (one step) and each adjustment, from the scores carried in."""
    setup = match.setup
    steps: list[Step] = []
    for h in in_order(match.hands, match.adjustments):
        if isinstance(h, Adjustment):
            steps.append(Step(h.after, None, h.scores_after, adjustment=h.why))
            continue
        scores = list(h.scores_before)
        if h.entered:
            steps.append(Step(h.number, None, tuple(b + p for b, p in zip(scores, h.points, strict=True)), POINTS))
            continue
        for t in h.turns:
            if t.points:
                scores[setup.side_of[t.seat]] += t.points
                steps.append(Step(h.number, t.number, tuple(scores)))
        if h.settlement is not None and any(h.settlement):
            for s, p in enumerate(h.settlement):
                scores[s] += p
            steps.append(Step(h.number, None, tuple(scores)))
    note = SUBTRACT_NOTE if setup.rules.unplayed_penalty == "subtract" else None
    return Timeline(tuple(setup.sides), 0, 5, tuple(steps), note, start=setup.scores_at_start)
