"""A few small Broadway records, each as the game writes it back: what the game contract
(``tests/registry/test_game_contract.py``) checks the game by. They are played by the
seeded simulator (:func:`scorekeeper.broadway.simulate.random_record`), every entry legal;
most turns pass, so the seven hands of a match are short.

>>> {name: len(record["hands"]) for name, record in samples().items()}
{'finished': 7, 'mid-hand': 3, 'partners': 2, 'mixed': 4}
"""

from __future__ import annotations

from typing import Any

from scorekeeper.broadway.engine import Match, Setup
from scorekeeper.broadway.record import to_record
from scorekeeper.codec import record_after

__all__ = ["samples"]


def samples() -> dict[str, dict[str, Any]]:
    """A match won after seven hands, the same stopped in its third hand, two hands of
    named teams whose unplayed tiles go to the opponents, and a match carried on from paper
    (scores carried in, a hand entered as points, an adjustment, then two hands played)."""
    # the simulator is loaded when samples are asked for (the tests): no match needs it
    from scorekeeper.broadway.simulate import PLAYERS, random_match, random_record

    finished = random_record(1, pass_rate=0.9, expose_rate=0.0)
    teams = {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}
    carried = Match(Setup.new(PLAYERS, start={"North-South": 12, "East-West": 9}))
    carried.points_hand({"North-South": 3, "East-West": -2})
    carried.adjust({"East-West": -1}, "misdeal")
    return {
        "finished": finished,
        "mid-hand": record_after(finished, 20),
        "partners": random_record(
            0, teams=teams, rules={"unplayed_penalty": "to-opponents"}, pass_rate=0.8, expose_rate=0.1, max_hands=2
        ),
        "mixed": to_record(random_match(2, match=carried, pass_rate=0.9, expose_rate=0.0, max_hands=3)),
    }
