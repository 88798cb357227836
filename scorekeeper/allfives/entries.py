"""How the store keeps an All Fives record entry by entry: ``{"hand": {"leader": ...}}``
starts a hand, ``{"turn": {...}}`` is one turn, ``{"remaining": {...}}`` what was left
in hands; a hand entered as points and an adjustment are entered as their record items,
``{"points": {...}}`` and ``{"adjust": {...}, "why": "..."}`` (see :mod:`scorekeeper.codec`)."""

from __future__ import annotations

from typing import Any

from scorekeeper.allfives.engine import Match
from scorekeeper.allfives.events import Event
from scorekeeper.allfives.record import parse_leader, parse_remaining, parse_turn
from scorekeeper.codec import SHARED_KINDS, TurnEntries

__all__ = ["AllFivesEntries"]


class AllFivesEntries(TurnEntries):
    kinds: tuple[str, ...] = ("hand", "turn", "remaining", *SHARED_KINDS)
    end = "remaining"

    def event(self, match: Match, kind: str, value: Any) -> Event:
        hand, turn = self.location(match)
        if kind == "hand":
            return parse_leader(value, len(match.hands) + 1)
        if kind == "turn":
            return parse_turn(value, match.rules.set, hand, turn)
        return parse_remaining(value, match.rules.set, hand)
