"""The All Fives rules engine (All Fives, Muggins, Five Up, cribbage-style 61).

No UI and no storage here: tiles, the layout and its count, hands, settlement,
the match, claims -- and the match record that carries them.

>>> rec = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...        "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}]}]}
>>> score_record(rec)["scores"]
{'Ann': 5, 'Ben': 0}
"""

from typing import Any

from scorekeeper.allfives.engine import Hand, LegalPlays, Match, Setup, Turn, round5
from scorekeeper.allfives.events import Event, Pass, Play, Settle, StartHand
from scorekeeper.allfives.layout import Layout
from scorekeeper.allfives.record import load, parse_record, result, score_record, to_record
from scorekeeper.allfives.rules import HAND_SIZE_PRESETS, Rules
from scorekeeper.dominoes.tiles import Tile, tiles_of_set

__all__ = [
    "Event",
    "HAND_SIZE_PRESETS",
    "Hand",
    "Layout",
    "LegalPlays",
    "Match",
    "Pass",
    "Play",
    "Rules",
    "Settle",
    "Setup",
    "StartHand",
    "Tile",
    "Turn",
    "load",
    "parse_record",
    "random_record",
    "result",
    "round5",
    "score_record",
    "tiles_of_set",
    "to_record",
]


def random_record(
    seed: int,
    players: int = 2,
    *,
    teams: bool = False,
    max_hands: int = 40,
    claim_rate: float = 0.0,
    **rules: Any,
) -> dict[str, Any]:
    """A seeded random legal match record (see :mod:`scorekeeper.allfives.simulate`)."""
    from scorekeeper.allfives.simulate import random_record as _random_record

    return _random_record(seed, players, teams=teams, max_hands=max_hands, claim_rate=claim_rate, **rules)
