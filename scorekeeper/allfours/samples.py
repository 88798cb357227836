"""A few small All Fours records, each as the game writes it back: what the game contract
(``tests/registry/test_game_contract.py``) checks the game by. They are dealt by the
seeded simulator (:func:`scorekeeper.allfours.simulate.random_record`).

>>> {name: len(record["hands"]) for name, record in samples().items()}
{'finished': 3, 'mid-hand': 3, 'partners': 5}
"""

from __future__ import annotations

from typing import Any

from scorekeeper.codec import record_after

__all__ = ["samples"]


def samples() -> dict[str, dict[str, Any]]:
    """A Seven Up match won, the same stopped in its third hand, and Trinidad for two
    teams of two."""
    # the simulator is loaded when samples are asked for (the tests): no match needs it
    from scorekeeper.allfours.simulate import random_record

    seven_up = random_record(0, 2, variant="seven-up")
    return {
        "finished": seven_up,
        "mid-hand": record_after(seven_up, 14),
        "partners": random_record(1, 4, teams=True),
    }
