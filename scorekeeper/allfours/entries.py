"""How the store keeps an All Fours record entry by entry: ``{"hand": {"dealer": ...}}``
starts a hand, ``{"fact": {"high": "Ben"}}`` sets facts of the hand being entered (a
fact given again replaces the earlier one, and moves to the end: the record keeps its
facts in the order they were entered); undo takes back the last fact entered. A hand
entered as points and an adjustment are entered as their record items,
``{"points": {...}}`` and ``{"adjust": {...}, "why": "..."}`` (see :mod:`scorekeeper.codec`).

>>> AllFoursEntries().entries_of({"game": "all-fours", "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben"}]})
[{'hand': {'dealer': 'Ann'}}, {'fact': {'turn_up': ['J']}}, {'fact': {'high': 'Ben'}}]
"""

from __future__ import annotations

from typing import Any

from scorekeeper.allfours.engine import Match
from scorekeeper.allfours.events import HAND_KEYS, parse_deal, parse_fact
from scorekeeper.codec import SHARED_KINDS, EntryCodecBase
from scorekeeper.errors import ScorekeeperError, StoreError
from scorekeeper.points import item_kind

__all__ = ["AllFoursEntries"]

Record = dict[str, Any]


class AllFoursEntries(EntryCodecBase):
    kinds: tuple[str, ...] = ("hand", "fact", *SHARED_KINDS)
    object_kinds: tuple[str, ...] = ("hand", "fact")

    def entries_of(self, record: Record) -> list[Record]:
        out: list[Record] = []
        for hand in record.get("hands", []):
            if item_kind(hand) is not None:
                out.append(hand)
                continue
            out.append({"hand": {k: v for k, v in hand.items() if k == "dealer"}})
            out.extend({"fact": {k: v}} for k, v in hand.items() if k != "dealer")
        return out

    @staticmethod
    def _merged(last: Record, value: Record) -> Record:
        new = {k: v for k, v in last.items() if k not in value}
        new.update(value)
        return new

    def push(self, match: Match, record: Record, kind: str, value: Any) -> None:
        if kind in SHARED_KINDS:
            self.push_shared(match, kind, value)
            return
        number = len(match.hands) + (1 if kind == "hand" else 0)
        if kind == "hand":
            match.push(parse_deal(value, number, match.setup))
            facts = {k: v for k, v in value.items() if k != "dealer"}
            if facts:
                try:
                    match.push_facts([parse_fact(k, v, number, match.setup) for k, v in facts.items()])
                except ScorekeeperError:
                    match.pop()
                    raise
            return
        if not match.hands:
            raise StoreError("no hand has been started: enter the dealer first", hand=1)
        if "dealer" in value:
            raise StoreError("the dealer starts a hand: enter a new hand instead", hand=number)
        if not value:
            raise StoreError("a fact entry names at least one fact", hand=number)
        match.push_facts([parse_fact(k, v, number, match.setup) for k, v in value.items()])

    def apply(self, record: Record, kind: str, value: Any) -> None:
        hands = record.setdefault("hands", [])
        if kind == "hand" or kind in SHARED_KINDS:
            hands.append(dict(value))
        else:
            hands[-1] = self._merged(hands[-1], value)

    def drop_last(self, record: Record) -> Record:
        hands = record.get("hands") or []
        if not hands:
            raise StoreError("there is nothing to undo")
        shared = self.drop_shared(record)
        if shared is not None:
            return shared
        last = hands[-1]
        facts = [k for k in last if k != "dealer"]
        if facts:
            key = facts[-1]
            return {"fact": {key: last.pop(key)}}
        hands.pop()
        return {"hand": last}

    def edit(self, record: Record, hand: int, where: Any, value: Any) -> None:
        """``where``: a fact's key (None removes the fact) or ``"dealer"`` of hand ``hand``; or
        a hand entered as points' or an adjustment's (:meth:`edit_shared`)."""
        h = self.edit_shared(record, hand, where, value)
        if h is None:
            return
        if where not in HAND_KEYS:
            raise StoreError(f"hand {hand} has no fact {where!r} (facts: {', '.join(HAND_KEYS)})")
        if value is None and where != "dealer":
            h.pop(where, None)
        else:
            h[where] = value
