"""The base of the small view-models a table is made of (entering a play, claims,
corrections, the hand end): each keeps its own state of the entry being made and
reaches the match, the store and the redraw through its table's public interface
(``match``, ``change``, ``saying``, ``redraw``, ``drafts``, ``stored_record``,
``drop_entry``: see :class:`~scorekeeper.ui.shell.base.TableModel`; ``done``), never through
the table's private members."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.allfives.engine import Match
    from scorekeeper.ui.allfives.table import TableModel

__all__ = ["Part"]


class Part:
    def __init__(self, table: TableModel) -> None:
        self.t = table

    @property
    def match(self) -> Match:
        return self.t.match

    def _fail(self, message: str) -> None:
        """Show ``message`` in place of the entry and redraw."""
        self.t.error = message
        self.t.redraw()

    def _refuse_stale(self, message: str) -> None:
        """Refuse the entry because another phone's change came first (see
        :meth:`~scorekeeper.ui.shell.base.TableModel.refuse_stale`) and redraw."""
        self.t.refuse_stale(message)
        self.t.redraw()
