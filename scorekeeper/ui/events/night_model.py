"""A round robin's, Swiss's or knockout's night sheet, without any Flet: worked out again
from the stored matches at every look (a match won on a phone shows at once), with what
the screen shows of each standing, a line a screen reader and the tests read whole.

Reading only: any browser that sees the event sees its sheet (the wall's watcher too). An
error (no such event, a league, the store's trouble) is kept in ``error`` for the screen
to say in place; nothing here raises to the UI.

>>> import tempfile
>>> from scorekeeper.events import new_event
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> _ = shared.events.add(new_event("club", "Club night", "round-robin", "all-fives", players=["Ann", "Ben"]))
>>> vm = NightModel(shared, "club")
>>> for s in vm.sheet().standings:
...     print(vm.label(s))
1. Ann: played 0, won 0, lost 0, points 0-0 (0), score 0
= Ben: played 0, won 0, lost 0, points 0-0 (0), score 0 (level)
>>> vm.csv_name
'night-sheet-club.csv'
>>> shared.close()
"""

from __future__ import annotations

from scorekeeper.eventbook import EventBook
from scorekeeper.events.night import NightSheet
from scorekeeper.events.standings import Standing
from scorekeeper.ui.events.model import read
from scorekeeper.ui.shell.base import Model, Shared

__all__ = ["NightModel"]


class NightModel(Model):
    """A singles event's night sheet, on the screen and printed."""

    def __init__(self, shared: Shared, eid: str) -> None:
        self._shared = shared
        self.eid = eid
        self.error: str | None = None
        self._sheet: NightSheet | None = None

    def sheet(self) -> NightSheet | None:
        """The sheet now (None: ``error`` says why)."""

        def look(book: EventBook) -> NightSheet | None:
            return book.night(self.eid)

        self._sheet = read(self._shared, self, look, None)
        if self._sheet is not None:
            self.error = None
        return self._sheet

    @property
    def csv_name(self) -> str:
        return f"night-sheet-{self.eid}.csv"

    def label(self, s: Standing) -> str:
        """A standing in one line: ``'2. Ann: played 3, won 2, lost 1, points 172-171 (+1),
        score 2 (points difference)'``."""
        sheet = self._sheet
        drawn = f", drawn {s.drawn}" if sheet is not None and sheet.drawn else ""
        why = NightSheet.tie_break(s)
        return (
            f"{NightSheet.place(s)} {s.name}: played {s.played}, won {s.won}{drawn}, lost {s.lost}, "
            f"points {s.points_for}-{s.points_against} ({NightSheet.difference(s)}), score {s.score}"
            + (f" ({why})" if why else "")
        )

    def tick(self, origin: object = None) -> None:
        """A match changed somewhere: look again."""
        self._changed()
