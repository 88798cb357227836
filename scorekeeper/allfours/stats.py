"""What the statistics take from one All Fours match.

Per player, counted only where the point was credited (nothing counts after the
match was won): ``high``, ``low``, ``jacks`` (tricks won holding the jack of
trumps, as credited for Jack), ``hang_jacks`` (jacks won from the other side: the
hang jack, 3 points in Trinidad and Tobago, 1 elsewhere) and ``all_fours`` (hands
in which the player's side made High, Low, Jack and Game). There is no single best
play in a card game of facts: ``best`` is None for everybody.

>>> from scorekeeper.allfours.record import load, result
>>> rec = {"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"],
...        "rules": {"variant": "trinidad"},
...        "hands": [{"dealer": "Ann", "turn_up": ["3"], "high": "Ben", "low": "Ben",
...                   "jack": {"held": "Ann", "won": "Ben"}, "game": {"Ann": 10, "Ben": 30}}]}
>>> f = facts(rec, result(load(rec)))
>>> f["per"][1]
{'high': 1, 'low': 1, 'jacks': 1, 'hang_jacks': 1, 'all_fours': 1}
"""

from __future__ import annotations

from typing import Any

from scorekeeper.allfours.record import own_hands
from scorekeeper.points import played_items
from scorekeeper.registry import Counter, Kind
from scorekeeper.scored import Scored

Record = dict[str, Any]

#: The one kind of game the statistics count, with its counters in order.
KINDS = (
    Kind(
        "all-fours",
        "All Fours",
        (
            Counter("high", "High"),
            Counter("low", "Low"),
            Counter("jacks", "Jacks"),
            Counter("hang_jacks", "hang jacks"),
            Counter("all_fours", "all fours"),
        ),
    ),
)


def facts(record: Record, scored: Scored) -> Record:
    """Per-player counters of one match (see the module's docstring)."""
    players: list[str] = list(record.get("players") or [])
    seat = {p: i for i, p in enumerate(players)}
    sides = scored["sides"]
    teams = record.get("teams")
    side_name = {p: s for s, members in teams.items() for p in members} if teams else {p: p for p in players}
    per: list[Record] = [{"high": 0, "low": 0, "jacks": 0, "hang_jacks": 0, "all_fours": 0} for _ in players]
    entered = played_items(record.get("hands"))  # beside own_hands: without points or adjustments
    for hand, scored_hand in zip(entered, own_hands(scored), strict=False):
        if not isinstance(hand, dict):
            continue
        credited = {(item["side"], item["for"]) for item in scored_hand["points"]}
        for key in ("high", "low"):
            who = hand.get(key)
            if who in seat and (side_name.get(who), key) in credited:
                per[seat[who]][key] += 1
        jack = hand.get("jack")
        if isinstance(jack, dict) and jack.get("won") in seat:
            won = jack["won"]
            if {(side_name.get(won), "jack"), (side_name.get(won), "hang-jack")} & credited:
                per[seat[won]]["jacks"] += 1
                if side_name.get(jack.get("held")) != side_name.get(won):
                    per[seat[won]]["hang_jacks"] += 1
        four = scored_hand.get("all_four")
        if four in sides:
            for p in players:
                if side_name.get(p) == four:
                    per[seat[p]]["all_fours"] += 1
    return {"kind": "all-fours", "per": per, "best": [None] * len(players)}
