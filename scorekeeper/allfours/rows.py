"""``scorekeeper export --csv`` for All Fours: one row per item a hand credited (its
``points`` list, in counting order), with the player the hand's facts name for it.

>>> from scorekeeper.allfours.record import load, result
>>> rec = {"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"],
...        "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben", "low": "Ann",
...                   "jack": {"held": "Ann", "won": "Ben"}, "game": {"Ann": 10, "Ben": 30}}]}
>>> for r in rows(rec, result(load(rec))):
...     print(" | ".join(str(v) for v in (r.turn, r.player, r.side, r.entry, r.points, r.note)).rstrip(" |"))
1 | Ann | Ann | turn-up J | 3
2 | Ben | Ben | high | 1
3 | Ann | Ann | low | 1
4 | Ben | Ben | hang jack | 3
5 |  | Ben | game (card points Ann 10, Ben 30) | 1
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scorekeeper.allfours.record import FoursHand, own_hands
from scorekeeper.points import played_items
from scorekeeper.registry import Row
from scorekeeper.scored import Scored

__all__ = ["rows"]

Out = dict[str, Any]

#: The items that make "all four" (High, Low, Jack and Game in one hand).
FOUR = ("high", "low", "jack", "hang-jack", "game")


def rows(record: Out, scored: Scored) -> list[Row]:
    """Every item credited in a scored All Fours match, in order (and an honour revoke)."""
    facts = played_items(record.get("hands", []))  # the items of the hands entered fact by fact
    out: list[Row] = []
    for i, h in enumerate(own_hands(scored)):
        n = h["number"]
        hand: Out = facts[i] if i < len(facts) else {}
        mine = [_item(n, i, p, h, hand) for i, p in enumerate(h["points"], 1)]
        if h.get("all_four"):
            last = max(i for i, p in enumerate(h["points"]) if p["side"] == h["all_four"] and p["for"] in FOUR)
            mine[last] = replace(mine[last], note="all four")
        if h.get("honour_revoke"):
            by = next((p.get("by", "") for p in hand.get("penalties", []) if p.get("honour")), "")
            lost = f"{h['honour_revoke']} lost the match"
            mine.append(Row(n, len(mine) + 1, by, h["honour_revoke"], f"honour revoke by {by}", 0, None, lost))
        out += mine
    return out


def _item(n: int, i: int, p: Out, h: FoursHand, hand: Out) -> Row:
    what = p["for"]
    player, entry = "", what
    if what == "turn-up":
        player, entry = h["dealer"], f"turn-up {p.get('card', '')}".rstrip()
    elif what in ("high", "low"):
        player = hand.get(what) or ""
    elif what in ("jack", "hang-jack"):
        jack = hand.get("jack")
        player = jack.get("won", "") if isinstance(jack, dict) else ""
        entry = "hang jack" if what == "hang-jack" else "jack"
    elif what in ("revoke", "peek"):
        entry = f"{what} by {p.get('by', '')}"
    elif what == "award" and p.get("reason"):
        entry = f"award: {p['reason']}"
    elif what == "game" and "card_points" in h:
        entry = "game (card points " + ", ".join(f"{k} {v}" for k, v in h["card_points"].items()) + ")"
    return Row(n, i, player, p["side"], entry, p["points"])
