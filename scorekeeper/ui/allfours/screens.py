"""The All Fours screens (for the app shell; see ``scorekeeper/ui/base.py``'s GameScreens)."""

from scorekeeper.ui.allfours.views import FoursTable as Table
from scorekeeper.ui.allfours.views import NewFoursMatch as NewMatch

BLURB = "All Fours: the facts of each hand"

__all__ = ["BLURB", "NewMatch", "Table"]
