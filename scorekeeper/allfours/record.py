"""All Fours records: entries <-> events, and the ``scorekeeper score`` output.

A record's hand is its ``dealer`` (a :class:`~scorekeeper.allfours.events.Deal`)
and then its facts, one event per key, in the order they were entered.

>>> rec = {"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"],
...        "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben"}]}
>>> m = load(rec)
>>> m.events
[Deal(dealer='Ann'), TurnUp(ranks=('J',)), High(player='Ben')]
>>> m.scores, to_record(m) == rec
([3, 1], True)
"""

from __future__ import annotations

from typing import Any

from scorekeeper.allfours.engine import HandResult, Match
from scorekeeper.allfours.events import iter_events, parse_deal, parse_fact, record_of
from scorekeeper.allfours.rules import Setup

__all__ = ["iter_events", "load", "parse_deal", "parse_fact", "result", "score_record", "to_record"]


def load(record: Any) -> Match:
    """Check a record and fold its hands; raises a ScorekeeperError naming the hand."""
    setup = Setup.of(record)
    match = Match(setup)
    for event in iter_events(record, setup):
        match.push(event)
    return match


# ---------------------------------------------------------------------- writing
def to_record(match: Match) -> dict[str, Any]:
    """Write a match back as a ``scorekeeper/1`` record."""
    return record_of(match.setup, match.events)


# ---------------------------------------------------------------------- scoring
def _hand_out(m: Match, h: HandResult) -> dict[str, Any]:
    sides = m.setup.sides
    out: dict[str, Any] = {
        "number": h.number,
        "dealer": m.setup.players[h.dealer],
        "points": [{"side": sides[i.side], "points": i.points, "for": i.label, **dict(i.extra)} for i in h.items],
    }
    if h.card_points is not None:
        out["card_points"] = dict(zip(sides, h.card_points, strict=True))
    if h.all_four is not None:
        out["all_four"] = sides[h.all_four]
    if h.void:
        out["void"] = True
    if h.honour_revoke is not None:
        out["honour_revoke"] = sides[h.honour_revoke]
    out["end"] = "scored" if h.complete else "open"
    out["scores"] = dict(zip(sides, h.scores_after, strict=True))
    return out


def result(m: Match) -> dict[str, Any]:
    """The ``scorekeeper score`` JSON object of an All Fours match."""
    sides = m.setup.sides
    return {
        "game": "all-fours",
        "sides": list(sides),
        "target": m.rules.target,
        "rules": {"variant": m.rules.variant, "target": m.rules.target},
        "hands": [_hand_out(m, h) for h in m.hands],
        "scores": dict(zip(sides, m.scores, strict=True)),
        "winner": None if m.winner is None else sides[m.winner],
    }


def score_record(record: Any) -> dict[str, Any]:
    return result(load(record))
