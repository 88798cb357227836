"""The History screen's view-model, without Flet: stored matches page by page,
one match's scored hands, export and import -- for every game of the registry.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> hist = HistoryModel(shared)
>>> mid = hist.import_text('{"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"]}')
>>> hist.total, hist.items[0]["title"], hist.summary(mid)["scores"]
(1, 'All Fives', {'Ann': 0, 'Ben': 0})
>>> shared.close()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from scorekeeper import boundary, registry
from scorekeeper.errors import ScorekeeperError, internal_error
from scorekeeper.scored import Scored
from scorekeeper.stats.report import game_name
from scorekeeper.store.errors import message_of
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

T = TypeVar("T")

__all__ = ["MAX_PASTE", "PAGE_SIZE", "HistoryModel"]

PAGE_SIZE = 10
#: The longest text the paste field takes (characters): five times the longest match record
#: made by the simulator (20 hands of five players, a double-12 set: 47 KB as exported). A
#: longer paste is refused at once, before the page lays out or sends it (a paste of 1.2
#: million characters once held a phone's page for minutes).
MAX_PASTE = 250_000


class HistoryModel(Model):
    """The history screen: matches page by page, export and import."""

    def __init__(self, shared: Shared) -> None:
        self._shared = shared
        self.offset = 0
        self.error: str | None = None
        self.message: str | None = None
        self.items: list[dict[str, Any]] = []
        self.total = 0
        #: A question for the player about the record being imported (it is already stored).
        self.question: str | None = None
        self._pending: Any = None  # the record the question is about
        self.load()

    def load(self) -> None:
        """Read the current page; each item gets ``title`` (the match's, else its game's)
        and ``playable`` (not won, and its game has a table screen)."""
        if self._refused():
            self.items = []
            return
        try:
            with self._shared.lock:
                self.total = self._shared.store.count()
                items = self._shared.store.list(self.offset, PAGE_SIZE)
                kinds = [self._shared.store.kind(m["id"], m.get("game")) for m in items]
        except ScorekeeperError as e:
            self.error = message_of(e)
            items, kinds = [], []
        for m, kind in zip(items, kinds, strict=True):
            game = m.get("game")
            m["title"] = m.get("title") or game_name(kind)  # Fives and Threes, not All Fives
            m["playable"] = m.get("status") != "won" and isinstance(game, str) and registry.ui_module(game) is not None
        self.items = items
        self._changed()

    def next_page(self) -> None:
        if self.offset + PAGE_SIZE < self.total:
            self.offset += PAGE_SIZE
        self.load()

    def prev_page(self) -> None:
        self.offset = max(0, self.offset - PAGE_SIZE)
        self.load()

    def _refused(self) -> bool:
        """True (with ``error`` set) for a browser that may not see the stored matches (a watcher)."""
        verdict = self._shared.may(Act.HISTORY)
        if verdict.allowed:
            return False
        self._refuse(verdict.words or "")
        return True

    def export(self, mid: str) -> str | None:
        if self._refused():
            return None
        try:
            with self._shared.lock:
                return self._shared.store.export(mid)
        except ScorekeeperError as e:
            self.error = message_of(e)
            self._changed()
            return None

    # ------------------------------------------------------------ import
    def refuse_paste(self) -> None:
        """A paste longer than :data:`MAX_PASTE` characters: refused at once, never read."""
        self._refuse(f"not pasted: more than {MAX_PASTE:,} characters, and a match record is never that long")

    def import_text(self, text: str) -> str | None:
        """Import a record given as JSON text; returns the new id. None when refused
        (``error`` says why) or when the match is already stored (``question`` asks
        whether to import it again as a copy: :meth:`import_copy` or :meth:`cancel_import`)."""
        self._pending = None
        self.question = None
        if self._refused():
            return None
        if not text.strip():
            self._refuse("paste a match record first")
            return None
        try:
            record = boundary.loads(text)  # the command line's door: the same refusals, in the same words
        except ScorekeeperError as e:
            self._refuse(str(e))
            return None
        verdict = self._shared.may_import(record)
        if not verdict.allowed:
            self._refuse(f"not imported: {verdict.words}")
            return None

        def already(store: Any) -> dict[str, Any] | None:  # the stored match's summary, if it is stored
            same = store.find(record)
            return None if same is None else store.summary(same)

        found = self._importing(already)
        if found is None:
            return None
        (stored,) = found
        if stored is None:
            return self._store(record)
        when = (stored.get("started") or "")[:10]
        # the title the list shows; an untitled match is told by its game and its players
        game = game_name(registry.kind_of(record))
        title = stored.get("title") or f"{game}: {' · '.join(stored.get('players') or [])}"
        self._pending = record
        self.question = f"This match is already stored ({title}, {when}): import it again as a copy?"
        self.error = self.message = None
        self._changed()
        return None

    def import_file(self, name: str, data: bytes | None) -> str | None:
        """Import a picked file (its bytes: a browser gives no path), the way :meth:`import_text` does."""
        if data is None:
            self._refuse(f"{name} could not be read")
            return None
        if not data:
            self._refuse(f"{name} is empty")
            return None
        if len(data) > boundary.MAX_BYTES:
            self._refuse(f"{name}: {boundary.too_large()}")
            return None
        try:
            text = data.decode("utf-8")  # a byte-order mark is left to boundary.loads, as in a paste
        except UnicodeDecodeError:
            self._refuse(f"{name} is not a match record: it is not text")
            return None
        return self.import_text(text)

    def import_copy(self) -> str | None:
        """The answer "Import a copy" to :attr:`question`: the record is stored again."""
        record, self._pending, self.question = self._pending, None, None
        if record is None:
            return None
        return self._store(record)

    def cancel_import(self) -> None:
        """The answer "Cancel" to :attr:`question`: nothing is stored."""
        self._pending = self.question = self.error = None
        self.message = "nothing imported: the match was already stored"
        self._changed()

    def _store(self, record: Any) -> str | None:
        if self._refused():
            return None
        verdict = self._shared.may_import(record)
        if not verdict.allowed:
            self._refuse(f"not imported: {verdict.words}")
            return None
        done = self._importing(lambda store: store.import_record(record))
        if done is None:
            return None
        (mid,) = done
        self.error = None
        self.message = f"imported as {mid}"
        self.offset = 0
        self.load()
        return mid

    def _importing(self, step: Callable[[Any], T]) -> tuple[T] | None:
        """``step(store)`` of an import, under the store's lock: ``(its result,)``, or None once
        the refusal is on the screen ("not imported: ..."; a bug of ours is said so, and the
        session lives on)."""
        try:
            with self._shared.lock:
                return (step(self._shared.store),)
        except ScorekeeperError as e:
            self._refuse(f"not imported: {message_of(e)}")
        except Exception as e:
            self._refuse(internal_error(e))
        return None

    def _refuse(self, why: str) -> None:
        self.error = why
        self.message = None
        self._changed()

    def summary(self, mid: str) -> Scored | None:
        """The scored hands of a stored match (the ``scorekeeper score`` object)."""
        if self._refused():
            return None
        try:
            with self._shared.lock:
                record = self._shared.store.record(mid)
                return registry.game_of(record).result(self._shared.store.match(mid))
        except ScorekeeperError as e:
            self.error = message_of(e)
            self._changed()
            return None
