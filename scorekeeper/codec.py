"""The bases of the games' entry codecs: how a record is kept entry by entry.

Each game's ``entries.py`` (e.g. :mod:`scorekeeper.allfives.entries`) says how
its record splits into the entries people make at the table, how an entry
goes through the game's engine before it is added, and how the last one is
taken back. :class:`TurnEntries` does most of that for games entered as a
hand's start, its turns one by one, then what was left in hands. The store
keeps records this way (:class:`scorekeeper.registry.EntryCodec`); the bases
live beside the registry so that a game package loads nothing of the store.

A hand entered as points and an adjustment (:mod:`scorekeeper.points`) are entries of
every built-in game (``kinds`` ``"points"`` and ``"adjust"``): each is entered as the
record's item of it, undone as one entry, and corrected with :meth:`Store.edit
<scorekeeper.store.Store.edit>` (``where`` ``"points"``/``"first"`` of a hand's number;
``"adjust"``/``"why"`` of an adjustment's place among the adjustments, from 1).

>>> entries_of({"format": "scorekeeper/1", "game": "all-fives",
...             "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}], "remaining": {"Ben": 3}}]})
[{'hand': {'leader': 'Ann'}}, {'turn': {'play': '5-0'}}, {'remaining': {'Ben': 3}}]
"""

from __future__ import annotations

import copy
from typing import Any

from scorekeeper import registry
from scorekeeper.errors import StoreError, type_name
from scorekeeper.points import ADJUST, ADJUST_KEYS, POINTS, POINTS_KEYS, item_kind, parse_item

__all__ = [
    "SHARED_KINDS",
    "EntryCodecBase",
    "TurnEntries",
    "adjustment_item",
    "entries_of",
    "hand_item",
    "record_after",
]

Record = dict[str, Any]
Entry = dict[str, Any]


#: The kinds of entry every built-in game takes beside its own: a hand entered as points and an
#: adjustment, each entered as the record's item of it (``{"points": {...}, "first": ...}``,
#: ``{"adjust": {...}, "why": "..."}``: see :mod:`scorekeeper.points`).
SHARED_KINDS = (POINTS, ADJUST)


class EntryCodecBase:
    """What every game's codec shares: reading an entry's kind; undo through the engine; the
    hands entered as points and the adjustments (where the game's ``kinds`` have them)."""

    #: The entries' kinds (``{"hand": ...}``, ``{"turn": ...}`` ...).
    kinds: tuple[str, ...] = ()
    #: The kinds whose value is an object.
    object_kinds: tuple[str, ...] = ("hand",)

    def entry_kind(self, entry: Any) -> tuple[str, Any]:
        """``(kind, value)`` of an entry: ``{kind: value}``; a hand entered as points or an
        adjustment is the record's item itself, and its value too."""
        shared = item_kind(entry)
        if shared is not None and shared in self.kinds:
            return shared, entry
        names = ", ".join('{"adjust": ..., "why": ...}' if k == ADJUST else f'{{"{k}": ...}}' for k in self.kinds)
        if not isinstance(entry, dict) or len(entry) != 1:
            raise StoreError(f"an entry is one of {names}, not {entry!r}"[:200])
        ((kind, value),) = entry.items()
        if kind not in self.kinds:
            raise StoreError(f"unknown entry {kind!r} (an entry is one of {names})")
        if kind in self.object_kinds and not isinstance(value, dict):
            raise StoreError(f"a {kind} entry must be an object, not {type_name(value)}")
        return kind, value

    def undo(self, match: Any, record: Record, entry: Entry) -> None:
        """Take ``entry`` (just dropped from ``record``) back: the engine drops its last event."""
        match.pop()

    @staticmethod
    def push_shared(match: Any, kind: str, value: Any) -> None:
        """Push a hand entered as points (the next hand) or an adjustment (after the hands so far)."""
        played = len(match.hands)
        match.push(parse_item(value, kind, played + 1, played))

    @staticmethod
    def drop_shared(record: Record) -> Entry | None:
        """Drop the record's last item when it is a hand entered as points or an adjustment,
        and return it (it is its own entry); None when the last item is another hand."""
        hands = record.get("hands") or []
        if hands and item_kind(hands[-1]) is not None:
            last: Entry = hands.pop()
            return last
        return None

    @staticmethod
    def edit_shared(record: Record, hand: int, where: Any, value: Any) -> Record | None:
        """Correct a hand entered as points or an adjustment; else return the record's item
        of hand ``hand`` for the game to correct (None: done).

        ``where``: ``"points"`` or ``"first"`` (None removes it) of the hand numbered ``hand``
        entered as points; ``"adjust"`` or ``"why"`` of the ``hand``-th adjustment (1: the
        first of the record): an adjustment has no hand number."""
        if where in ADJUST_KEYS:
            adjustment = adjustment_item(record, hand)
            adjustment[where] = value
            return None
        item = hand_item(record, hand)
        if item_kind(item) == POINTS:
            if where not in POINTS_KEYS:
                raise StoreError(f"hand {hand} was entered as points: correct its points or first, not {where!r}")
            if value is None and where == "first":
                item.pop("first", None)
            else:
                item[where] = value
            return None
        if where in POINTS_KEYS:
            raise StoreError(f"hand {hand} was not entered as points: it has no {where}")
        return item


class TurnEntries(EntryCodecBase):
    """A game entered as a hand's start (``{"hand": {"leader": ...}}``), its turns one by one
    (``{"turn": ...}``), then what was left in hands (``{END: ...}``, ``end`` naming the record's
    key for it). Subclasses say how an entry becomes an event (:meth:`event`)."""

    end = ""
    #: The start entry's keys.
    hand_keys: tuple[str, ...] = ("leader",)

    def event(self, match: Any, kind: str, value: Any) -> Any:
        """The engine event of an entry, parsed (raises the engine's format errors)."""
        raise NotImplementedError

    def push(self, match: Any, record: Record, kind: str, value: Any) -> None:
        if kind in SHARED_KINDS:
            self.push_shared(match, kind, value)
            return
        if kind == "hand":
            for key in value:
                if key not in self.hand_keys:
                    raise StoreError(f"unknown key {key!r} in a hand entry")
        match.push(self.event(match, kind, value))

    def entries_of(self, record: Record) -> list[Entry]:
        out: list[Entry] = []
        for hand in record.get("hands", []):
            if item_kind(hand) is not None:
                out.append(hand)
                continue
            out.append({"hand": {k: v for k, v in hand.items() if k not in ("turns", self.end)}})
            out.extend({"turn": t} for t in hand.get("turns", []))
            if self.end in hand:
                out.append({self.end: hand[self.end]})
        return out

    def apply(self, record: Record, kind: str, value: Any) -> None:
        hands = record.setdefault("hands", [])
        if kind in SHARED_KINDS:
            hands.append(dict(value))
        elif kind == "hand":
            hands.append({**value, "turns": []})
        elif kind == "turn":
            hands[-1]["turns"].append(value)
        else:
            hands[-1][self.end] = value

    def drop_last(self, record: Record) -> Entry:
        hands = record.get("hands") or []
        if not hands:
            raise StoreError("there is nothing to undo")
        shared = self.drop_shared(record)
        if shared is not None:
            return shared
        last = hands[-1]
        if self.end in last:
            return {self.end: last.pop(self.end)}
        if last.get("turns"):
            return {"turn": last["turns"].pop()}
        hands.pop()
        return {"hand": {k: v for k, v in last.items() if k != "turns"}}

    def edit(self, record: Record, hand: int, where: Any, value: Any) -> None:
        """``where``: a turn's number, ``"leader"`` (None: left to the rules) or the end's key
        of hand ``hand``; or a hand entered as points' or an adjustment's (:meth:`edit_shared`)."""
        h = self.edit_shared(record, hand, where, value)
        if h is None:
            return
        if where == "leader":
            if value is None:
                h.pop("leader", None)
            else:
                h["leader"] = value
        elif where == self.end:
            if self.end not in h:
                raise StoreError(f"hand {hand} has no {self.end} to correct")
            h[self.end] = value
        elif type(where) is int and 1 <= where <= len(h.get("turns", [])):
            h["turns"][where - 1] = value
        else:
            raise StoreError(f"hand {hand} has no turn {where}")

    @staticmethod
    def location(match: Any) -> tuple[int, int]:
        """``(hand, turn)`` of the next turn: where a malformed entry is reported."""
        h = match.hand
        return (h.number, len(h.turns) + 1) if h is not None else (1, 1)


def hand_item(record: Record, number: int) -> Record:
    """The record's item of hand ``number`` (the hands are numbered without the adjustments).

    >>> hand_item({"hands": [{"adjust": {"Ann": 5}, "why": "late"}, {"points": {"Ann": 5, "Ben": 0}}]}, 1)
    {'points': {'Ann': 5, 'Ben': 0}}
    """
    hands = [h for h in record.get("hands") or [] if item_kind(h) != ADJUST]
    if type(number) is not int or not 1 <= number <= len(hands):
        raise StoreError(f"the match has no hand {number}")
    item: Record = hands[number - 1]
    return item


def adjustment_item(record: Record, n: int) -> Record:
    """The record's ``n``-th adjustment (1: the first)."""
    found = [h for h in record.get("hands") or [] if item_kind(h) == ADJUST]
    if type(n) is not int or not 1 <= n <= len(found):
        raise StoreError(f"the match has no adjustment {n}")
    item: Record = found[n - 1]
    return item


def entries_of(record: Record) -> list[Entry]:
    """A record's entries in the order they were entered (the record's game decides how)."""
    return registry.game_of(record).entries.entries_of(record)


def record_after(record: Record, n: int) -> Record:
    """The record as it stood after its first ``n`` entries (a match stopped there), made
    with the game's codec as the store makes it.

    >>> rec = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
    ...        "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}, {"play": "5-5", "on": "5-0"}]}]}
    >>> record_after(rec, 2)["hands"]
    [{'leader': 'Ann', 'turns': [{'play': '5-0'}]}]
    """
    codec = registry.game_of(record).entries
    record = copy.deepcopy(record)  # nothing of the result is shared with the record given
    out: Record = {**record, "hands": []}
    for entry in codec.entries_of(record)[:n]:
        kind, value = codec.entry_kind(entry)
        codec.apply(out, kind, value)
    return out
