"""What the table is entering together and has not stored yet, the same on every phone,
without any Flet: the tiles or pips each player has left at the end of a hand.

A draft belongs to one match and one hand (``key``): asked for another hand it is empty,
so a new hand's form never shows the last hand's entries. Each entry (a player's tiles
left) has its own version; a screen remembers the versions it shows, and a change made on
a screen that does not show that entry's last change is refused (two phones entering
*different* players' tiles never get in each other's way; two entering the same player's
do, and the second is told).

>>> book = DraftBook()
>>> book.values("m1", 3)
{}
>>> book.put("m1", 3, {"Ben": ["3-3"]}, seen={})
{'Ben': 1}
>>> book.values("m1", 3), book.versions("m1", 3)
({'Ben': ['3-3']}, {'Ben': 1})
>>> book.put("m1", 3, {"Ben": 12}, seen={}) is None  # a screen that never saw Ben's entry
True
>>> book.values("m1", 4)  # the next hand starts empty
{}
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DraftBook", "DraftChange", "DraftView"]


@dataclass
class _Draft:
    key: Any
    values: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)
    by: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DraftChange:
    """What other screens are told when a draft changed: whose entries (``names``), their
    new versions, and the change in words ("Ben holds 3-3, 2-1")."""

    names: tuple[str, ...]
    versions: dict[str, int]
    words: str
    by: str  # the phone it was made on ("Ben's phone")
    kind: str = "remaining"  # which draft of the match


class DraftBook:
    """The drafts of the running app, one per match (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._drafts: dict[str, _Draft] = {}

    def _get(self, mid: str, key: Any) -> _Draft:
        d = self._drafts.get(mid)
        if d is None or d.key != key:
            d = self._drafts[mid] = _Draft(key)
        return d

    def values(self, mid: str, key: Any) -> dict[str, Any]:
        """The entries of match ``mid``'s draft for ``key`` (a copy)."""
        with self._lock:
            d = self._drafts.get(mid)
            return dict(d.values) if d is not None and d.key == key else {}

    def versions(self, mid: str, key: Any) -> dict[str, int]:
        with self._lock:
            d = self._drafts.get(mid)
            return dict(d.versions) if d is not None and d.key == key else {}

    def by(self, mid: str, key: Any, name: str) -> str | None:
        """The phone that made the last change of ``name``'s entry ("Ben's phone")."""
        with self._lock:
            d = self._drafts.get(mid)
            return d.by.get(name) if d is not None and d.key == key else None

    def put(
        self, mid: str, key: Any, changes: dict[str, Any], seen: dict[str, int], by: str = ""
    ) -> dict[str, int] | None:
        """Set the entries ``changes`` (a value of None removes one) if the screen saw the
        last change of each (``seen``: the versions it shows); their new versions, or None
        (nothing changed) when it did not. ``by``: the phone it is made on."""
        with self._lock:
            d = self._get(mid, key)
            if any(d.versions.get(n, 0) != seen.get(n, 0) for n in changes):
                return None
            out = {}
            for name, value in changes.items():
                if value is None:
                    d.values.pop(name, None)
                else:
                    d.values[name] = value
                out[name] = d.versions[name] = d.versions.get(name, 0) + 1
                d.by[name] = by
            return out

    def clear(self, mid: str) -> None:
        with self._lock:
            self._drafts.pop(mid, None)


class DraftView:
    """One screen's view of one draft (``kind``: ``"remaining"``, ``"draws"``) of a match,
    whose ``key`` (e.g. the hand number) is asked of the screen each time: the versions
    it shows (``shown``) and the entries another phone changed since its browser last
    answered (``unseen``). :meth:`put` refuses a change to an entry it does not show as
    it is."""

    def __init__(self, book: DraftBook, mid: str, kind: str, key: Callable[[], Any]) -> None:
        self._book = book
        self._id = f"{mid}#{kind}"
        self.kind = kind
        self._key = key
        self.unseen: set[str] = set()
        self._shown_key = key()
        self.shown: dict[str, int] = book.versions(self._id, self._shown_key)

    def _fresh(self) -> Any:
        """The key now; for another key (a new hand, a new turn) nothing is shown yet."""
        key = self._key()
        if key != self._shown_key:
            self._shown_key, self.shown, self.unseen = key, {}, set()
        return key

    def values(self) -> dict[str, Any]:
        return self._book.values(self._id, self._key())

    def by(self, name: str) -> str:
        """The phone that made the last change of entry ``name``."""
        return self._book.by(self._id, self._key(), name) or "another phone"

    def put(self, changes: dict[str, Any], words: str, by: str) -> DraftChange | str:
        """Change the entries ``changes``: what to tell the other screens, or (nothing
        changed) the words of the change that came first, for :func:`~scorekeeper.ui.access.gate.stale`."""
        key = self._fresh()
        late = [n for n in changes if n in self.unseen]
        versions = None if late else self._book.put(self._id, key, dict(changes), self.shown, by)
        if versions is None:
            name = (late or list(changes))[0]
            other = self.by(name)
            self.shown = {**self.shown, **self._book.versions(self._id, key)}
            self.unseen.add(name)  # until its browser shows it
            return other
        self.shown = {**self.shown, **versions}
        return DraftChange(tuple(changes), versions, words, by, self.kind)

    def remote(self, change: DraftChange) -> None:
        self._fresh()
        self.shown = {**self.shown, **change.versions}
        self.unseen.update(change.names)

    def catch_up(self) -> bool:
        """Show the entries as they are now; whether they had changed."""
        key = self._fresh()
        now = self._book.versions(self._id, key)
        changed = [n for n in now if now[n] != self.shown.get(n, 0)]
        self.shown = {**self.shown, **now}
        self.unseen.update(changed)
        return bool(changed)

    def up_to_date(self) -> bool:
        key = self._fresh()
        now = self._book.versions(self._id, key)
        return not self.unseen and all(now[n] == self.shown.get(n, 0) for n in now)

    def clear(self) -> None:
        """Forget the draft (a change of the match made it moot)."""
        self._book.clear(self._id)
