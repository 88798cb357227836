"""A match's entries played through its game's engine, in memory: append, undo, edit.

Each function changes an open match (its record, engine state and redo stack) only
once the engine has accepted the change -- an illegal entry raises the engine's
error and changes nothing -- and returns how to take the change back, for the store
to call when the match's file cannot be written (the screens hold the same engine
state, which must stay as the file is). The store writes the file.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from scorekeeper import registry
from scorekeeper.store.errors import StoreError
from scorekeeper.store.files import OpenMatch
from scorekeeper.store.layout import Record

TakeBack = Callable[[], None]


def append(o: OpenMatch, entry: Record, *, redo: bool = False) -> TakeBack:
    """Add one entry (``redo``: one the redo stack gave back: the stack is kept)."""
    codec = registry.game_of(o.record).entries
    kind, value = codec.entry_kind(entry)
    m = o.match
    codec.push(m, o.record, kind, value)  # raises the engine's error; nothing changed
    value = json.loads(json.dumps(value))
    codec.apply(o.record, kind, value)
    kept = o.redo
    if not redo:
        o.redo = []

    def take_back() -> None:
        o.redo = kept
        codec.undo(m, o.record, codec.drop_last(o.record))

    return take_back


def undo(o: OpenMatch) -> tuple[Record, TakeBack]:
    """Take back the last entry, kept for redo: (the entry, how to enter it again)."""
    codec = registry.game_of(o.record).entries
    entry = codec.drop_last(o.record)
    codec.undo(o.match, o.record, entry)
    o.redo.append(entry)

    def take_back() -> None:  # enter it again, as redo does
        o.redo.pop()
        kind, value = codec.entry_kind(entry)
        codec.push(o.match, o.record, kind, value)
        codec.apply(o.record, kind, value)

    return entry, take_back


def edit(o: OpenMatch, mid: str, hand: int, turn: int | str, value: Any) -> TakeBack:
    """Correct an earlier entry; the whole match is played again through the engine (its
    error, naming hand and turn, if a later entry no longer holds) and the redo stack is
    emptied."""
    game = registry.game_of(o.record)
    record = copy.deepcopy(o.record)
    hands = record.get("hands", [])
    if type(hand) is not int or not 1 <= hand <= len(hands):
        raise StoreError(f"match {mid} has no hand {hand}")
    game.entries.edit(record, hand, turn, value)
    record = json.loads(json.dumps(record))
    match = game.load(record)
    old = (o.record, o.match, o.redo)
    o.record, o.match, o.redo = record, match, []

    def take_back() -> None:
        o.record, o.match, o.redo = old

    return take_back
