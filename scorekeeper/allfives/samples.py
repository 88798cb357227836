"""A few small All Fives records, each as the game writes it back: what the game contract
(``tests/registry/test_game_contract.py``) checks the game by. They are played by the
seeded simulator (:func:`scorekeeper.allfives.simulate.random_record`), every entry legal.

>>> {name: len(record["hands"]) for name, record in samples().items()}
{'finished': 1, 'mid-hand': 2, 'partners': 1, 'fives-and-threes': 1, 'mixed': 3}
"""

from __future__ import annotations

from typing import Any

from scorekeeper.codec import record_after
from scorekeeper.points import carried_on

__all__ = ["samples"]


def samples() -> dict[str, dict[str, Any]]:
    """A match won by a domino, one stopped in its second hand, a partnership match with
    muggins called, Fives and Threes for three with the go, and a partnership match
    carried on from paper (scores carried in, a hand entered as points, an adjustment)."""
    # the simulator is loaded when samples are asked for (the tests): no match needs it
    from scorekeeper.allfives.simulate import random_record

    two_hands = random_record(2, 2, target=31)
    played = random_record(3, 4, teams=True, max_hands=1, target=250)
    return {
        "finished": random_record(1, 2, target=31),
        "mid-hand": record_after(two_hands, 28),
        "partners": random_record(2, 4, teams=True, target=31, claims="muggins", claim_rate=0.4),
        "fives-and-threes": random_record(2, 3, count="fives-and-threes", target=15, hand_end="go"),
        "mixed": carried_on(played, {"S1": 85, "S2": 70}, {"S1": 35, "S2": 10}, {"S2": -10}),
    }
