"""What the statistics take from one All Fives match (also Fives and Threes, Sniff ...).

Read from the scored output (:func:`scorekeeper.allfives.record.result`), per player:
``plays``, ``own`` (the points of the player's own plays and of the muggins they
called), ``dominoes`` (hands the player ended by going out), ``blocks`` (blocked
hands won by the player's side), ``eights`` (plays that scored 8: a count of 15 in
Fives and Threes) and ``best``, the best single play: its points (the go left out),
then its count.

>>> from scorekeeper.allfives.record import load, result
>>> rec = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...        "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}, {"play": "5-5", "on": "5-0"}]}]}
>>> f = facts(rec, result(load(rec)))
>>> f["kind"], f["per"][1]["own"], f["best"][1]
('all-fives', 10, {'points': 10, 'count': 10, 'hand': 1, 'turn': 2, 'text': '5-5 on 5-0: count 10'})
"""

from __future__ import annotations

from typing import Any

from scorekeeper.allfives.record import own_hands
from scorekeeper.registry import Counter, Kind
from scorekeeper.scored import Scored

Record = dict[str, Any]

_OWN = Counter("own", "points of own plays")
_DOMINOES = Counter("dominoes", "dominoes")
_BLOCKS = Counter("blocks", "blocks won")

#: The kinds of game the statistics count apart: All Fives (Sniff, Muggins, Five Up,
#: Cribbage 61 ...) and Fives and Threes (:func:`kind`), with their counters in order.
KINDS = (
    Kind("all-fives", "All Fives", (_OWN, _DOMINOES, _BLOCKS)),
    Kind("fives-and-threes", "Fives and Threes", (_OWN, Counter("eights", "8s"), _DOMINOES, _BLOCKS)),
)


def kind(record: Record) -> str:
    """The game people name an All Fives record by: ``"fives-and-threes"`` for a match
    with the Fives and Threes count (whatever its other rules), else ``"all-fives"``
    (Sniff, Muggins, Five Up, Cribbage 61). The statistics count the two apart, and
    ``list`` and ``export --csv`` name them so (:func:`scorekeeper.registry.kind_of`).

    >>> kind({"game": "all-fives", "rules": {"count": "fives-and-threes"}}), kind({"game": "all-fives"})
    ('fives-and-threes', 'all-fives')
    """
    rules = record.get("rules")
    count = rules.get("count") if isinstance(rules, dict) else None
    return "fives-and-threes" if count == "fives-and-threes" else "all-fives"


def facts(record: Record, scored: Scored) -> Record:
    """Per-player counters and best plays of one match (see the module's docstring)."""
    players: list[str] = list(record.get("players") or [])
    seat = {p: i for i, p in enumerate(players)}
    sides = scored["sides"]
    side_index = {s: i for i, s in enumerate(sides)}
    teams = record.get("teams")
    side_of = [side_index[s] for p in players for s, members in teams.items() if p in members] if teams else []
    if len(side_of) != len(players):
        side_of = list(range(len(players)))
    fives_threes = kind(record) == "fives-and-threes"
    per: list[Record] = [{"plays": 0, "own": 0, "dominoes": 0, "blocks": 0, "eights": 0} for _ in players]
    best: list[Record | None] = [None] * len(players)
    for hand in own_hands(scored):
        last_player = None
        for t_no, turn in enumerate(hand["turns"], 1):
            p = seat[turn["player"]]
            mug = turn.get("muggins")
            if mug and not mug.get("voided"):
                per[seat[mug["player"]]]["own"] += mug["points"]
            if turn.get("pass"):
                continue
            last_player = p
            mine = per[p]
            mine["plays"] += 1
            mine["own"] += turn["points"]
            if turn.get("voided"):
                continue
            value = turn["points"] - turn.get("go", 0)
            if fives_threes and turn["count"] == 15 and value > 0:
                mine["eights"] += 1
            if value > 0:
                key = (value, turn["count"])
                b = best[p]
                if b is None or key > (b["points"], b["count"]):
                    on = f" on {turn['on']}" if turn.get("on") else ""
                    best[p] = {
                        "points": value,
                        "count": turn["count"],
                        "hand": hand["number"],
                        "turn": t_no,
                        "text": f"{turn['tile']}{on}: count {turn['count']}",
                    }
        if hand["end"] == "domino" and last_player is not None:
            per[last_player]["dominoes"] += 1
        elif hand["end"] == "blocked" and hand["winner"] is not None and hand["winner"] in side_index:
            won = side_index[hand["winner"]]
            for p, s in enumerate(side_of):
                if s == won:
                    per[p]["blocks"] += 1
    return {"kind": kind(record), "per": per, "best": best}
