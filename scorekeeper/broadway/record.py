"""Broadway match records: entries <-> events, and the ``scorekeeper score`` output.

>>> rec = {"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"],
...        "hands": [{"leader": "Ben", "turns": [{"play": "6-6", "at": [[0, 0], [0, 1]]},
...                                             {"play": "6-3", "at": [[1, 0], [2, 0]]},
...                                             {"pass": True}, {"exposed": "5-2"}]}]}
>>> out = score_record(rec)
>>> [(t["player"], t.get("tile") or t.get("exposed"), t["matched"], t["points"]) for t in out["hands"][0]["turns"]]
[('Ben', '6-6', 0, 0), ('Cy', '6-3', 1, 0), ('Di', None, 0, 0), ('Ann', '5-2', 0, 0)]
>>> out["hands"][0]["end"], out["scores"], out["winner"]
('open', {'North-South': 0, 'East-West': 0}, None)
>>> to_record(load(rec))["hands"] == rec["hands"]
True
"""

from __future__ import annotations

from typing import Any, NotRequired, cast

from scorekeeper.broadway.engine import Hand, Match, Setup, Turn
from scorekeeper.broadway.events import (
    HAND_KEYS,
    TURN_KEYS,
    event_entry,
    iter_events,
    parse_leader,
    parse_turn,
    parse_unplayed,
    record_of,
)
from scorekeeper.broadway.rules import SEATS
from scorekeeper.errors import RemainingError
from scorekeeper.points import Adjustment, adjust_out, in_order, points_out, scores_after, start_out, with_start
from scorekeeper.scored import Scored, ScoredHand, played

__all__ = [
    "BroadwayHand",
    "BroadwayScored",
    "HAND_KEYS",
    "TURN_KEYS",
    "check_complete",
    "event_entry",
    "iter_events",
    "load",
    "own",
    "own_hands",
    "parse_leader",
    "parse_turn",
    "parse_unplayed",
    "result",
    "score_record",
    "to_record",
]


class BroadwayHand(ScoredHand):
    """A hand of a Broadway scored result: its double, leader, turns and points, beside
    what every game says of a hand (its settlement always there)."""

    double: str
    leader: str
    sudden_death: bool
    turns: list[dict[str, Any]]
    #: The points each side's placements scored in the hand.
    points: dict[str, int]
    #: The tiles each player had not played at a block.
    unplayed: NotRequired[dict[str, int]]


class BroadwayScored(Scored):
    """A Broadway scored result (``scorekeeper score``): the common part, the teams, the
    seats, the rules and where the match was won (``{"hand", "turn"}``, with ``"adjust":
    true`` when the adjustment after that hand won it; or None)."""

    teams: dict[str, list[str]]
    seats: dict[str, str]
    rules: dict[str, str]
    won_at: dict[str, Any] | None


def own(scored: Scored) -> BroadwayScored:
    """A scored result of Broadway (what :func:`result` made) as its own type."""
    if scored["game"] != "broadway":
        raise TypeError(f"not a Broadway result: {scored['game']!r}")
    return cast(BroadwayScored, scored)


def own_hands(scored: Scored) -> list[BroadwayHand]:
    """The hands of a Broadway scored result played tile by tile, as :func:`result` made them
    (without the hands entered as points and the adjustments: :func:`~scorekeeper.scored.played`)."""
    return cast(list[BroadwayHand], played(own(scored)["hands"]))


def load(record: Any) -> Match:
    """Check a record and fold its entries; raises a ScorekeeperError naming hand and turn.
    A match in progress is fine (also one waiting for a blocked hand's ``unplayed``)."""
    match = Match(Setup.of(record))
    push = match.push
    for event in iter_events(record):
        push(event)
    return match


def check_complete(match: Match) -> None:
    """A scored record must not stop between a blocked hand and its ``unplayed``."""
    h = match.hand
    if h is not None and h.end is not None and not h.settled and match.winner is None:
        due = ", ".join(f"{n} {c}" for n, c in zip(match.setup.players, h.due, strict=True) if c)
        raise RemainingError(
            f"the hand ended (four passes in succession) but its unplayed tiles are missing ({due})",
            hand=h.number,
            field="unplayed",
        )


def to_record(match: Match) -> dict[str, Any]:
    """Write a match back as a ``scorekeeper/1`` record (rules only where not the default)."""
    return record_of(match.setup, match.events)


# ---------------------------------------------------------------------- scoring
def _turn_out(match: Match, t: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {"player": match.setup.players[t.seat]}
    if t.placement is not None:
        entry = t.placement.entry()
        out["tile"] = entry["play"]
        out["at"] = entry["at"]
        out["sections"] = [list(c) for c in t.matched]
    elif t.exposed is not None:
        out["exposed"] = str(t.exposed)
    else:
        out["pass"] = True
    out["matched"] = len(t.matched)
    out["points"] = t.points
    return out


def _hand_out(match: Match, h: Hand, scores_after: tuple[int, ...]) -> BroadwayHand:
    s = match.setup
    sides = s.sides
    out: dict[str, Any] = {
        "number": h.number,
        "double": str(h.double),
        "leader": s.players[h.leader],
        "sudden_death": h.sudden_death,
        "turns": [_turn_out(match, t) for t in h.turns],
        "end": h.end or "open",
        "points": dict(zip(sides, h.points, strict=True)),
    }
    if h.unplayed is not None:
        out["unplayed"] = dict(zip(s.players, h.unplayed, strict=True))
    out["settlement"] = dict(zip(sides, h.settlement if h.settlement is not None else (0, 0), strict=True))
    out["scores"] = dict(zip(sides, scores_after, strict=True))
    return cast(BroadwayHand, out)


def result(match: Match) -> BroadwayScored:
    """The ``scorekeeper score`` JSON object of a Broadway match."""
    s = match.setup
    entries = in_order(match.hands, match.adjustments)
    outs: list[ScoredHand] = []
    for e, after in zip(entries, scores_after(entries, match.scores), strict=True):
        if isinstance(e, Adjustment):
            outs.append(adjust_out(s.sides, e))
        elif e.entered:
            outs.append(points_out(e.number, s.sides, e.points, (), after))
        else:
            outs.append(_hand_out(match, e, after))
    won_at: dict[str, Any] | None = None
    if match.won_at is not None:
        won_at = {"hand": match.won_at[0], "turn": match.won_at[1]}
        if match.won_by == "adjust":  # the adjustment after that hand
            won_at["adjust"] = True
    out: BroadwayScored = {
        "game": "broadway",
        "sides": list(s.sides),
        "teams": {
            side: [p for p, si in zip(s.players, s.side_of, strict=True) if si == i] for i, side in enumerate(s.sides)
        },
        "seats": dict(zip(SEATS, s.players, strict=True)),
        "rules": s.rules.to_json(),
        "hands": outs,
        "scores": dict(zip(s.sides, match.scores, strict=True)),
        "winner": None if match.winner is None else s.sides[match.winner],
        "won_at": won_at,
    }
    return with_start(out, start_out(s.sides, s.start))


def score_record(record: Any) -> BroadwayScored:
    """Check a record through the engine and return the scored JSON object.

    Raises a :class:`ScorekeeperError` naming the hand and turn on any fault.
    """
    match = load(record)
    check_complete(match)
    return result(match)
