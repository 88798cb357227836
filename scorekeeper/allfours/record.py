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

from typing import Any, NotRequired, cast

from scorekeeper.allfours.engine import HandResult, Match
from scorekeeper.allfours.events import iter_events, parse_deal, parse_fact, record_of
from scorekeeper.allfours.rules import GAME_ID, Setup
from scorekeeper.points import Adjustment, adjust_out, in_order, points_out, start_out, with_start
from scorekeeper.scored import Scored, ScoredHand, played

__all__ = [
    "FoursHand",
    "FoursScored",
    "iter_events",
    "load",
    "own",
    "own_hands",
    "parse_deal",
    "parse_fact",
    "result",
    "score_record",
    "to_record",
]


class FoursHand(ScoredHand):
    """A hand of an All Fours scored result: its dealer and the points credited, beside
    what every game says of a hand (``end``: ``"scored"`` or ``"open"``)."""

    dealer: str
    #: Each item credited, in order: ``{"side", "points", "for"}`` and what the item says.
    points: list[dict[str, Any]]
    card_points: NotRequired[dict[str, int]]
    #: The side that made all four (High, Low, Jack and Game) in the hand.
    all_four: NotRequired[str]
    #: The hand was a misdeal, dealt again.
    void: NotRequired[bool]
    #: The side an honour revoke lost the match.
    honour_revoke: NotRequired[str]


class FoursScored(Scored):
    """An All Fours scored result (``scorekeeper score``): the common part (with the
    target) and the variant."""

    rules: dict[str, Any]


def own(scored: Scored) -> FoursScored:
    """A scored result of All Fours (what :func:`result` made) as its own type."""
    if scored["game"] != GAME_ID:
        raise TypeError(f"not an All Fours result: {scored['game']!r}")
    return cast(FoursScored, scored)


def own_hands(scored: Scored) -> list[FoursHand]:
    """The hands of an All Fours scored result entered fact by fact, as :func:`result` made
    them (without the hands entered as points and the adjustments: :func:`~scorekeeper.scored.played`)."""
    return cast(list[FoursHand], played(own(scored)["hands"]))


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
def _hand_out(m: Match, h: HandResult) -> FoursHand:
    sides = m.setup.sides
    out: dict[str, Any] = {  # the keys in the order they are printed: end and scores last
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
    return cast(FoursHand, out)


def hands_out(m: Match) -> list[ScoredHand]:
    """Every hand and adjustment of a match as the scored result has them, in order."""
    sides = m.setup.sides
    outs: list[ScoredHand] = []
    for e in in_order(m.hands, m.adjustments):
        if isinstance(e, Adjustment):
            outs.append(adjust_out(sides, e))
        elif e.entered is not None:
            outs.append(points_out(e.number, sides, e.entered, (), e.scores_after))
        else:
            outs.append(_hand_out(m, e))
    return outs


def result(m: Match) -> FoursScored:
    """The ``scorekeeper score`` JSON object of an All Fours match."""
    sides = m.setup.sides
    out: FoursScored = {
        "game": GAME_ID,
        "sides": list(sides),
        "target": m.rules.target,
        "rules": {"variant": m.rules.variant, "target": m.rules.target},
        "hands": hands_out(m),
        "scores": dict(zip(sides, m.scores, strict=True)),
        "winner": None if m.winner is None else sides[m.winner],
    }
    return with_start(out, start_out(sides, m.setup.start))


def score_record(record: Any) -> FoursScored:
    return result(load(record))
