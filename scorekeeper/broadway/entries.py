"""How the store keeps a Broadway record entry by entry: ``{"hand": {"leader": ...}}``
starts a hand, ``{"turn": {...}}`` is a play (with ``at``), a pass or an exposed tile,
``{"unplayed": {...}}`` the tiles left after a blocked hand; a hand entered as points and
an adjustment are entered as their record items, ``{"points": {...}}`` and
``{"adjust": {...}, "why": "..."}`` (see :mod:`scorekeeper.codec`)."""

from __future__ import annotations

from typing import Any

from scorekeeper.broadway.engine import Event, Match
from scorekeeper.broadway.record import parse_leader, parse_turn, parse_unplayed
from scorekeeper.codec import SHARED_KINDS, TurnEntries

__all__ = ["BroadwayEntries"]


class BroadwayEntries(TurnEntries):
    kinds: tuple[str, ...] = ("hand", "turn", "unplayed", *SHARED_KINDS)
    end = "unplayed"

    def event(self, match: Match, kind: str, value: Any) -> Event:
        hand, turn = self.location(match)
        if kind == "hand":
            return parse_leader(value, len(match.hands) + 1)
        if kind == "turn":
            return parse_turn(value, hand, turn)
        return parse_unplayed(value, hand)
