"""The Broadway screens (for the app shell; see ``scorekeeper/ui/base.py``'s GameScreens)."""

from scorekeeper.ui.broadway.views import BroadwayTable as Table
from scorekeeper.ui.broadway.views import NewBroadwayMatch as NewMatch

BLURB = "Broadway: the grid"

__all__ = ["BLURB", "NewMatch", "Table"]
