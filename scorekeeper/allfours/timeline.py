"""An All Fours match as a :class:`~scorekeeper.tally.timeline.Timeline`: every
side's score after each credited item (turn-up, High, Low, Jack, Game ...), in
counting order. One point is one peg hole (``scale`` 5: one point, one stroke).

>>> from scorekeeper.allfours.record import load
>>> m = load({"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"],
...           "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben"}]})
>>> [(s.label, s.scores) for s in timeline(m).steps]
[('hand 1, turn-up', (3, 0)), ('hand 1, high', (3, 1))]
"""

from __future__ import annotations

from scorekeeper.allfours.engine import Match
from scorekeeper.points import Adjustment, in_order
from scorekeeper.tally.timeline import POINTS, Step, Timeline

__all__ = ["timeline"]


def timeline(match: Match) -> Timeline:
    """Every side's score after each credited item, each hand entered as points (one step)
    and each adjustment, from the scores carried in."""
    steps: list[Step] = []
    for h in in_order(match.hands, match.adjustments):
        if isinstance(h, Adjustment):
            steps.append(Step(h.after, None, h.scores_after, adjustment=h.why))
            continue
        if h.entered is not None:
            steps.append(Step(h.number, None, h.scores_after, POINTS))
            continue
        scores = list(h.scores_before)
        for n, item in enumerate(h.items, 1):
            scores[item.side] += item.points
            steps.append(Step(h.number, n, tuple(scores), item.label))
    setup = match.setup
    return Timeline(tuple(setup.sides), match.rules.target, 5, tuple(steps), start=setup.scores_at_start)
