"""What the statistics take from one Broadway match.

Per player: ``plays`` (tiles placed), ``own`` (the points of those placements),
``blocks`` (hands that ended blocked with the player holding no tile: the
player got every tile down) and ``best``, the best placement: its points, then
the sections it matched.

>>> from scorekeeper.broadway.simulate import random_record
>>> from scorekeeper.broadway.record import load, result
>>> rec = random_record(3)
>>> f = facts(rec, result(load(rec)))
>>> sorted(f["per"][0]), f["kind"]
(['blocks', 'own', 'plays'], 'broadway')
"""

from __future__ import annotations

from typing import Any

from scorekeeper.broadway.record import own_hands
from scorekeeper.registry import Counter, Kind
from scorekeeper.scored import Scored

Record = dict[str, Any]

#: The one kind of game the statistics count, with its counters in order; its best
#: single scoring move is a placement.
KINDS = (
    Kind(
        "broadway",
        "Broadway",
        (Counter("own", "points of own placements"), Counter("blocks", "blocks out")),
        best="best placement",
    ),
)


def facts(record: Record, scored: Scored) -> Record:
    """Per-player counters and best placements of one match (see the module's docstring)."""
    players: list[str] = list(record.get("players") or [])
    seat = {p: i for i, p in enumerate(players)}
    per: list[Record] = [{"plays": 0, "own": 0, "blocks": 0} for _ in players]
    best: list[Record | None] = [None] * len(players)
    for hand in own_hands(scored):
        for t_no, turn in enumerate(hand["turns"], 1):
            if "tile" not in turn:
                continue
            p = seat[turn["player"]]
            per[p]["plays"] += 1
            per[p]["own"] += turn["points"]
            key = (turn["points"], turn["matched"])
            b = best[p]
            if turn["points"] > 0 and (b is None or key > (b["points"], b["count"])):
                best[p] = {
                    "points": turn["points"],
                    "count": turn["matched"],
                    "hand": hand["number"],
                    "turn": t_no,
                    "text": f"{turn['tile']}: {turn['matched']} sections",
                }
        if hand["end"] == "blocked":
            for name, left in (hand.get("unplayed") or {}).items():
                if left == 0 and name in seat:
                    per[seat[name]]["blocks"] += 1
    return {"kind": "broadway", "per": per, "best": best}
