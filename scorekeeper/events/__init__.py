"""Events: club nights, tournaments and league seasons, their rounds, tables and standings.

The engine of events, like the games' engines, knows nothing of Flet or of the store: an
:class:`Event` is a frozen value (what was decided and what was drawn), the rounds are
drawn by :mod:`~scorekeeper.events.draw` (with :mod:`~scorekeeper.events.pairing`), and
the standings are a fold of the results (:mod:`~scorekeeper.events.standings`). Keeping
events and finding their matches in the store is :mod:`scorekeeper.eventbook`'s.
"""

from scorekeeper.events.draw import is_complete, new_event, next_round, unfinished
from scorekeeper.events.model import (
    FORMATS,
    SCORING_PRESETS,
    SCORING_TITLES,
    Confirmation,
    Event,
    EventRef,
    Fixture,
    FixtureSheet,
    Reopening,
    Round,
    Scoring,
    Table,
    Team,
)
from scorekeeper.events.reading import read_event
from scorekeeper.events.standings import Result, Standing, result_for, standings, tie_breaks

__all__ = [
    "FORMATS",
    "SCORING_PRESETS",
    "SCORING_TITLES",
    "Confirmation",
    "Event",
    "EventRef",
    "Fixture",
    "FixtureSheet",
    "Reopening",
    "Result",
    "Round",
    "Scoring",
    "Standing",
    "Table",
    "Team",
    "is_complete",
    "new_event",
    "next_round",
    "read_event",
    "result_for",
    "standings",
    "tie_breaks",
    "unfinished",
]
