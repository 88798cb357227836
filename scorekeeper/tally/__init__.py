"""Paper-style score displays: the Holsey-Tidwell X tally, the cribbage
pegboard and the score chart -- pure data and SVG, no UI.

The tally and the board are built from a side's *scoring events* (the points
each turn or settlement added, in order); :mod:`scorekeeper.tally.events`
gets them from a match.
"""

from scorekeeper.tally.pegboard import Pegboard, Pegs, board_holes, pegboard, pegs
from scorekeeper.tally.xtally import Symbol, Tally, TallyError, strokes_of, tally

__all__ = [
    "Pegboard",
    "Pegs",
    "Symbol",
    "Tally",
    "TallyError",
    "board_holes",
    "pegboard",
    "pegs",
    "strokes_of",
    "tally",
]
