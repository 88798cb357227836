"""All Fours (the card game): the facts of each hand -> points in the traditional
counting order, for every variant of ``../shared/spec/all-fours.md``.
API and output: ``docs/all-fours-engine.md``."""

from scorekeeper.allfours.engine import AllFoursError, HandResult, Item, Match, Rules, Setup
from scorekeeper.allfours.record import load, result, score_record
from scorekeeper.allfours.variants import CARD_POINTS, RANKS, VARIANTS, Variant

__all__ = [
    "AllFoursError",
    "CARD_POINTS",
    "HandResult",
    "Item",
    "Match",
    "RANKS",
    "Rules",
    "Setup",
    "VARIANTS",
    "Variant",
    "load",
    "result",
    "score_record",
]
