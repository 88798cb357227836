"""The Score screen's one entry, without Flet: "Adjust score" (points given or taken, with a
reason), for a match of any game. It is a table's view-model of the match
(:class:`~scorekeeper.ui.shell.base.TableModel`: the same rules of who may enter, the same
refusal of a screen that missed another phone's change) whose only part is the form of
:mod:`scorekeeper.ui.shell.points`.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> mid = shared.store.create({"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"], "hands": []})
>>> score = ScoreEntries(shared, mid)
>>> score.entries.open_adjust(); score.entries.set_text(1, "-2"); score.entries.set_why("revoke")
>>> score.entries.save(), score.scores, score.note
(True, {'Ann': 0, 'Ben': -2}, 'Adjustment: Ben -2 (revoke)')
>>> shared.close()
"""

from __future__ import annotations

from typing import Any

from scorekeeper.ui.shell.base import Shared, TableModel, game_of
from scorekeeper.ui.shell.points import PointsPart

__all__ = ["ScoreEntries"]


class ScoreEntries(TableModel[Any]):
    """One stored match of any game, for the Score screen's "Adjust score"."""

    def __init__(self, shared: Shared, mid: str) -> None:
        self.game = game_of(shared, mid) or ""  # this match's game (a table shows one game's)
        super().__init__(shared, mid)
        self.entries = PointsPart(self, list, lambda: None, lambda: None)
