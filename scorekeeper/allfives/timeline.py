"""An All Fives match as a :class:`~scorekeeper.tally.timeline.Timeline`:
every side's score after each turn and each settlement.

>>> from scorekeeper.allfives.record import load
>>> record = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...           "rules": {"hand_size": 3},
...           "hands": [{"leader": "Ann", "turns": [{"play": "5-5"}, {"play": "5-0"}]}]}
>>> t = timeline(load(record))
>>> [(s.label, s.scores) for s in t.steps]
[('hand 1, turn 1', (10, 0)), ('hand 1, turn 2', (10, 10))]
>>> t.events()
[[10], [10]]
"""

from __future__ import annotations

from scorekeeper.allfives.engine import Match
from scorekeeper.points import Adjustment, in_order
from scorekeeper.tally.timeline import POINTS, Step, Timeline

__all__ = ["EACH_SUBTRACTS_NOTE", "timeline"]

EACH_SUBTRACTS_NOTE = (
    "No X tally or pegboard: with hand end each-subtracts points are taken off, "
    "and a tally or a board cannot show a deduction. The chart shows the dips."
)


def timeline(match: Match) -> Timeline:
    """Every side's score after each turn and settlement, each hand entered as points (one
    step) and each adjustment, from the scores carried in."""
    setup = match.setup
    side_of = setup.side_of
    steps: list[Step] = []
    for h in in_order(match.hands, match.adjustments):
        if isinstance(h, Adjustment):
            steps.append(Step(h.after, None, h.scores_after, adjustment=h.why))
            continue
        scores = list(h.scores_before)
        if h.entered is not None:
            assert h.settlement is not None, "a hand entered as points is settled"
            steps.append(Step(h.number, None, tuple(b + p for b, p in zip(scores, h.settlement, strict=True)), POINTS))
            continue
        for n, t in enumerate(h.turns, 1):
            scores[side_of[t.player]] += t.points
            if t.muggins is not None:
                scores[t.muggins[1]] += t.muggins[2]
            steps.append(Step(h.number, n, tuple(scores)))
        if h.settlement is not None:
            for s, p in enumerate(h.settlement):
                scores[s] += p
            steps.append(Step(h.number, None, tuple(scores)))
    rules = match.rules
    note = EACH_SUBTRACTS_NOTE if rules.hand_end == "each-subtracts" else None
    pegs = rules.count == "fives-and-threes"
    return Timeline(tuple(setup.sides), rules.target, rules.scale, tuple(steps), note, pegs, setup.scores_at_start)
