"""The shape the domino games' records share: a list of hands, each its start (the
leader), its turns one by one, then what was left in hands (All Fives' ``remaining``,
Broadway's ``unplayed``). :func:`iter_events` reads it into events once for all of them;
each game says how one entry becomes an event.

>>> record = {"hands": [{"leader": "Ann", "turns": [1, 2], "left": 3}, {"leader": "Ben"}]}
>>> list(iter_events(record, ("leader", "turns", "left"), lambda hand, h: ("start", hand["leader"]),
...                  lambda entry, h, t: (h, t, entry), "left", lambda value, h: ("left", value)))
[('start', 'Ann'), (1, 1, 1), (1, 2, 2), ('left', 3), ('start', 'Ben')]
>>> list(iter_events({"hands": [{"seat": 1}]}, ("leader",), print, print, "left", print))
Traceback (most recent call last):
...
scorekeeper.errors.RecordFormatError: hand 1: unknown key 'seat' in a hand (known: leader)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from scorekeeper.errors import RecordFormatError, short, type_name
from scorekeeper.points import POINTS, Adjust, PointsHand, item_kind, parse_item

__all__ = ["iter_events", "turn_entry"]

E = TypeVar("E")


def iter_events(
    record: Any,
    hand_keys: Sequence[str],
    start: Callable[[dict[str, Any], int], E],
    turn: Callable[[Any, int, int], E],
    end_key: str,
    end: Callable[[Any, int], E],
) -> Iterator[E | PointsHand | Adjust]:
    """The record's entries as events, in order (a malformed entry raises when reached):
    ``start(hand, h)`` of each hand, ``turn(entry, h, t)`` of each of its turns, then
    ``end(value, h)`` of its ``end_key`` when it has one (``h``, ``t``: 1-based). A hand
    entered as points and an adjustment are read as every game reads them
    (:mod:`scorekeeper.points`); an adjustment is not a hand, so ``h`` counts on without it."""
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordFormatError(f"must be a list of hands, not {type_name(hands)}", field="hands")
    h = 0
    for hand in hands:
        kind = item_kind(hand)
        if kind is not None:
            h += kind == POINTS
            yield parse_item(hand, kind, h, h)
            continue
        h += 1
        if not isinstance(hand, dict):
            raise RecordFormatError(f"a hand must be an object, not {type_name(hand)}", hand=h)
        for key in hand:
            if key not in hand_keys:
                raise RecordFormatError(f"unknown key {short(key)} in a hand (known: {', '.join(hand_keys)})", hand=h)
        yield start(hand, h)
        turns = hand.get("turns", [])
        if not isinstance(turns, list):
            raise RecordFormatError(f"must be a list, not {type_name(turns)}", hand=h, field="turns")
        for t, entry in enumerate(turns, 1):
            yield turn(entry, h, t)
        if end_key in hand:
            yield end(hand[end_key], h)


def turn_entry(entry: Any, keys: Sequence[str], hand: int, turn: int) -> str | None:
    """Check the shape every domino game's turn entry has -- an object of the game's
    ``keys``, with an optional ``"player"`` name -- and return that name (None without one).

    >>> turn_entry({"play": "6-3", "player": "Ann"}, ("player", "play"), 1, 2)
    'Ann'
    >>> turn_entry({"play": "6-3", "seat": 1}, ("player", "play"), 1, 2)
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RecordFormatError: hand 1, turn 2: unknown key 'seat' in a turn (known: player, play)
    """
    if not isinstance(entry, dict):
        raise RecordFormatError(f"a turn must be an object, not {type_name(entry)}", hand=hand, turn=turn)
    for key in entry:
        if key not in keys:
            raise RecordFormatError(
                f"unknown key {short(key)} in a turn (known: {', '.join(keys)})", hand=hand, turn=turn
            )
    player = entry.get("player")
    if "player" in entry and not isinstance(player, str):
        raise RecordFormatError(f"player must be a name, not {type_name(player)}", hand=hand, turn=turn)
    return player
