"""A few small All Fours records, each as the game writes it back: what the game contract
(``tests/registry/test_game_contract.py``) checks the game by. They are dealt by the
seeded simulator (:func:`scorekeeper.allfours.simulate.random_record`).

>>> {name: len(record["hands"]) for name, record in samples().items()}
{'finished': 3, 'mid-hand': 3, 'partners': 5, 'mixed': 4}
"""

from __future__ import annotations

from typing import Any

from scorekeeper.codec import record_after
from scorekeeper.points import carried_on

__all__ = ["samples"]


def samples() -> dict[str, dict[str, Any]]:
    """A Seven Up match won, the same stopped in its third hand, Trinidad for two teams of
    two, and Trinidad carried on from paper (scores carried in, a hand entered as points,
    an adjustment), won in its last hand."""
    # the simulator is loaded when samples are asked for (the tests): no match needs it
    from scorekeeper.allfours.simulate import random_record

    seven_up = random_record(0, 2, variant="seven-up")
    played = random_record(2, 4, teams=True, max_hands=2)
    return {
        "finished": seven_up,
        "mid-hand": record_after(seven_up, 14),
        "partners": random_record(1, 4, teams=True),
        "mixed": carried_on(played, {"S1": 5, "S2": 3}, {"S1": 3, "S2": 2}, {"S1": -1}),
    }
