"""The History screen's view-model, without Flet: stored matches page by page,
one match's scored hands, export and import -- for every game of the registry.

>>> import tempfile
>>> from scorekeeper.ui.base import Shared
>>> shared = Shared(tempfile.mkdtemp())
>>> hist = HistoryModel(shared)
>>> mid = hist.import_text('{"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"]}')
>>> hist.total, hist.items[0]["title"], hist.summary(mid)["scores"]
(1, 'All Fives', {'Ann': 0, 'Ben': 0})
>>> shared.close()
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.base import Model, Shared, game_title, screens_of

__all__ = ["PAGE_SIZE", "HistoryModel"]

PAGE_SIZE = 10


class HistoryModel(Model):
    """The history screen: matches page by page, export and import."""

    def __init__(self, shared: Shared) -> None:
        self._shared = shared
        self.offset = 0
        self.error: str | None = None
        self.message: str | None = None
        self.items: list[dict[str, Any]] = []
        self.total = 0
        self.load()

    def load(self) -> None:
        """Read the current page; each item gets ``title`` (the match's, else its game's)
        and ``playable`` (not won, and its game has a table screen)."""
        try:
            with self._shared.lock:
                self.total = self._shared.store.count()
                items = self._shared.store.list(self.offset, PAGE_SIZE)
        except ScorekeeperError as e:
            self.error = str(e)
            items = []
        for m in items:
            game = m.get("game")
            m["title"] = m.get("title") or game_title(game)
            m["playable"] = m.get("status") != "won" and screens_of(game) is not None
        self.items = items
        self._changed()

    def next_page(self) -> None:
        if self.offset + PAGE_SIZE < self.total:
            self.offset += PAGE_SIZE
        self.load()

    def prev_page(self) -> None:
        self.offset = max(0, self.offset - PAGE_SIZE)
        self.load()

    def export(self, mid: str) -> str | None:
        try:
            with self._shared.lock:
                return self._shared.store.export(mid)
        except ScorekeeperError as e:
            self.error = str(e)
            self._changed()
            return None

    def import_text(self, text: str) -> str | None:
        """Import a record given as JSON text; returns the new id (None, with ``error`` set, if refused)."""
        try:
            record = json.loads(text)
        except ValueError as e:
            self.error = f"not a JSON record: {e}"
            self._changed()
            return None
        try:
            with self._shared.lock:
                mid = self._shared.store.import_record(record)
        except ScorekeeperError as e:
            self.error = f"not imported: {e}"
            self._changed()
            return None
        self.error = None
        self.message = f"imported as {mid}"
        self.offset = 0
        self.load()
        return mid

    def summary(self, mid: str) -> dict[str, Any] | None:
        """The scored hands of a stored match (the ``scorekeeper score`` object)."""
        try:
            with self._shared.lock:
                record = self._shared.store.record(mid)
                return registry.game_of(record).result(self._shared.store.match(mid))
        except ScorekeeperError as e:
            self.error = str(e)
            self._changed()
            return None
