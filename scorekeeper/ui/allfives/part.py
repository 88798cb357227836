"""The base of the small view-models a table is made of (entering a play, claims,
corrections, the hand end), and their one door into the table.

Each part keeps its own state of the entry being made. It reaches the match, the store
and the redraw through :class:`TableDoor`, the few members of the table a part may use
(listed and typed below; the All Fives :class:`~scorekeeper.ui.allfives.table.TableModel`
is one), never through the table itself. A part that needs another is handed it when it
is made (``PlayEntry(door, fixes=..., claims=...)``): no part reaches a sibling through
the table (a layer test holds them to it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from scorekeeper.allfives.engine import Match, Turn
    from scorekeeper.allfives.rules import Rules
    from scorekeeper.store import Store
    from scorekeeper.ui.shell.drafts import DraftBook

__all__ = ["Part", "TableDoor"]


class TableDoor(Protocol):
    """What a part of the All Fives table may use of it."""

    mid: str
    error: str | None  # what the screen shows in place of the entry
    note: str | None  # what the last entry did, in words
    flash: str | None  # "15!" after a scoring play

    # ------------------------------------------------------------ reading
    @property
    def match(self) -> Match:
        """The match as it is stored."""

    @property
    def entry_match(self) -> Match:
        """The match a turn is entered on (while an earlier turn is corrected: as it stood then)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def phase(self) -> str: ...

    @property
    def to_move(self) -> str | None: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def hand_number(self) -> int: ...

    def last_turn(self) -> Turn | None: ...

    def stored_record(self) -> dict[str, Any]: ...

    # ------------------------------------------------------------ this phone and the others
    @property
    def seat(self) -> str | None:
        """The player this phone is, or None."""

    @property
    def phone(self) -> str:
        """This phone in words ("Ann's phone")."""

    @property
    def drafts(self) -> DraftBook:
        """What the table is entering together and has not stored yet."""

    @property
    def refusal(self) -> str | None: ...

    # ------------------------------------------------------------ acting
    def refused(self) -> bool:
        """True (with ``error`` set) when this phone may not act now."""

    def refuse_stale(self, message: str) -> None: ...

    def change(
        self, fn: Callable[[Store], Any], then: Callable[[], Any] | None = None, what: str = "undo the last entry"
    ) -> bool:
        """One change of the stored match: True when it went in."""

    def saying(self, words: str) -> Callable[[], None]: ...

    def submit_turn(self, entry: dict[str, Any]) -> bool:
        """A turn entered: into the store, or into the correction being made."""

    def done(self, note: str | None, flash: str | None = None) -> None: ...

    def tell_others(self, change: object = None) -> None:
        """Tell the other phones of the match of ``change`` (a draft's, made here)."""

    def drop_entry(self) -> None:
        """Drop what every part was entering and has not stored."""

    def redraw(self) -> None: ...


class Part:
    """A part of the table: its ``door`` into it."""

    def __init__(self, door: TableDoor) -> None:
        self.door = door

    @property
    def match(self) -> Match:
        return self.door.match

    def _fail(self, message: str) -> None:
        """Show ``message`` in place of the entry and redraw."""
        self.door.error = message
        self.door.redraw()

    def _refuse_stale(self, message: str) -> None:
        """Refuse the entry because another phone's change came first (see
        :meth:`~scorekeeper.ui.shell.base.TableModel.refuse_stale`) and redraw."""
        self.door.refuse_stale(message)
        self.door.redraw()
