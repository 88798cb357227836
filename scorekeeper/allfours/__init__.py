"""All Fours (the card game): the facts of each hand -> points in the traditional
counting order, for every variant. Rules: ``docs/rules/all-fours.md``;
API and output: ``docs/all-fours-engine.md``."""

from scorekeeper.allfours.engine import HandResult, Item, Match
from scorekeeper.allfours.events import (
    Beg,
    Deal,
    Event,
    Fact,
    GameCards,
    GamePoints,
    High,
    Jack,
    Low,
    Penalties,
    Penalty,
    TurnUp,
    parse_fact,
)
from scorekeeper.allfours.record import load, result, score_record, to_record
from scorekeeper.allfours.rules import AllFoursError, Rules, Setup
from scorekeeper.allfours.text import render
from scorekeeper.allfours.variants import CARD_POINTS, RANKS, VARIANTS, Variant

__all__ = [
    "CARD_POINTS",
    "RANKS",
    "VARIANTS",
    "AllFoursError",
    "Beg",
    "Deal",
    "Event",
    "Fact",
    "GameCards",
    "GamePoints",
    "HandResult",
    "High",
    "Item",
    "Jack",
    "Low",
    "Match",
    "Penalties",
    "Penalty",
    "Rules",
    "Setup",
    "TurnUp",
    "Variant",
    "load",
    "parse_fact",
    "render",
    "result",
    "score_record",
    "to_record",
]
