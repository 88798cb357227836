"""Broadway (the two-dimensional domino game): the grid of half-tile cells, placement
legality and matched sections, hands, penalties and the seven-hand match with
sudden death -- and the match record that carries them. No UI and no storage here.
Contract and choices: ``docs/broadway-engine.md``.

>>> rec = {"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"],
...        "hands": [{"leader": "Ann", "turns": [{"play": "6-6", "at": [[0, 0], [1, 0]]}]}]}
>>> out = score_record(rec)
>>> out["hands"][0]["double"], out["hands"][0]["end"], out["scores"]
('6-6', 'open', {'North-South': 0, 'East-West': 0})
"""

from scorekeeper.broadway.engine import (
    DEFAULT_SIDES,
    SEATS,
    Expose,
    Hand,
    HandSizeError,
    Match,
    NoMatchError,
    NotAdjacentError,
    OccupiedCellError,
    OrientationError,
    Pass,
    Play,
    Preview,
    Rules,
    Setup,
    StartHand,
    Turn,
    Unplayed,
    WrongDoubleError,
    double_of,
)
from scorekeeper.broadway.grid import Cell, Layout, Placement, points_for
from scorekeeper.broadway.record import load, result, score_record, to_record
from scorekeeper.broadway.text import render

__all__ = [
    "Cell",
    "DEFAULT_SIDES",
    "Expose",
    "Hand",
    "HandSizeError",
    "Layout",
    "Match",
    "NoMatchError",
    "NotAdjacentError",
    "OccupiedCellError",
    "OrientationError",
    "Pass",
    "Placement",
    "Play",
    "Preview",
    "Rules",
    "SEATS",
    "Setup",
    "StartHand",
    "Turn",
    "Unplayed",
    "WrongDoubleError",
    "double_of",
    "load",
    "points_for",
    "render",
    "result",
    "score_record",
    "to_record",
]
