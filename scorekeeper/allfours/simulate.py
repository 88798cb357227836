"""Random legal All Fours matches (for benchmarks and tests), decided by a seed.

Each hand's facts are drawn at random -- a turn-up where the variant turns one,
High, Low, the jack (held and won), the card points taken -- and the match goes on
until a side wins or ``max_hands`` hands were entered. The dealer moves one seat
each hand.

>>> from scorekeeper.allfours.record import score_record
>>> out = score_record(random_record(7))
>>> out["winner"] in out["sides"]
True
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.allfours.record import load
from scorekeeper.allfours.variants import RANKS, VARIANTS

Record = dict[str, Any]


def random_record(
    seed: int, players: int = 2, *, teams: bool = False, variant: str = "trinidad", max_hands: int = 60
) -> Record:
    """A legal match record: ``players`` P1.., partners alternately with ``teams`` (sides S1..)."""
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    record: Record = {"format": "scorekeeper/1", "game": "all-fours", "players": names, "rules": {"variant": variant}}
    n_sides = players
    if teams:
        n_sides = 2 if players == 4 else players // 2
        record["teams"] = {f"S{s + 1}": names[s::n_sides] for s in range(n_sides)}
    sides = list(record["teams"]) if teams else names
    pitched = VARIANTS[variant].pitched
    record["hands"] = []
    for k in range(max_hands):
        hand: Record = {"dealer": names[k % players]}
        if not pitched:
            hand["turn_up"] = [rng.choice(RANKS)]
        hand["high"] = rng.choice(names)
        hand["low"] = rng.choice(names)
        hand["jack"] = {"held": rng.choice(names), "won": rng.choice(names)} if rng.random() < 0.7 else None
        cuts = sorted(rng.randint(0, 80) for _ in range(n_sides - 1))
        bounds = [0, *cuts, 80]
        hand["game"] = {s: bounds[i + 1] - bounds[i] for i, s in enumerate(sides)}
        record["hands"].append(hand)
        if load(record).winner is not None:
            break
    return record
