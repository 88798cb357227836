"""``scorekeeper export --csv`` for Broadway: one row per turn (a placement, a pass, an
exposed tile) and the settlement of each settled hand (one row per side it moved).

>>> from scorekeeper.broadway.record import load, result
>>> rec = {"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"],
...        "hands": [{"leader": "Ben", "turns": [{"play": "6-6", "at": [[0, 0], [0, 1]]},
...                                             {"play": "6-3", "at": [[1, 0], [2, 0]]},
...                                             {"pass": True}, {"exposed": "5-2"}]}]}
>>> for r in rows(rec, result(load(rec))):
...     print(" | ".join(str(v) for v in (r.turn, r.player, r.side, r.entry, r.points, r.note)).rstrip(" |"))
1 | Ben | East-West | 6-6 at (0,0)-(0,1) | 0
2 | Cy | North-South | 6-3 at (1,0)-(2,0) | 0 | matched 1
3 | Di | East-West | pass | 0
4 | Ann | North-South | exposed 5-2 | 0 | turn lost
"""

from __future__ import annotations

from typing import Any

from scorekeeper.broadway.record import BroadwayHand, own, own_hands
from scorekeeper.registry import Row
from scorekeeper.scored import Scored

__all__ = ["rows"]

Out = dict[str, Any]


def rows(record: Out, scored: Scored) -> list[Row]:
    """Every turn and settlement of a scored Broadway match, in order."""
    broadway = own(scored)
    side_of = {p: side for side, players in broadway["teams"].items() for p in players}
    to_opponents = broadway["rules"]["unplayed_penalty"] == "to-opponents"
    out: list[Row] = []
    for h in own_hands(broadway):
        n = h["number"]
        for i, t in enumerate(h["turns"], 1):
            player = t["player"]
            note = ""
            if "tile" in t:
                entry = f"{t['tile']} at " + "-".join(f"({x},{y})" for x, y in t["at"])
                note = f"matched {t['matched']}" if t["matched"] else ""
            elif "exposed" in t:
                entry, note = f"exposed {t['exposed']}", "turn lost"
            else:
                entry = "pass"
            out.append(Row(n, i, player, side_of[player], entry, t["points"], None, note))
        if "unplayed" in h:
            out += _settlement(h, side_of, scored["sides"], to_opponents)
    return out


def _settlement(h: BroadwayHand, side_of: dict[str, str], sides: list[str], to_opponents: bool) -> list[Row]:
    """One row per side whose score the settlement moved, or one row when it moved none."""
    n, end = h["number"], h["end"]
    left = {s: sum(k for p, k in h["unplayed"].items() if side_of[p] == s) for s in sides}
    out: list[Row] = []
    for s in sides:
        points = h["settlement"][s]
        if points:
            other = next(o for o in sides if o != s)
            by = f" by {other}" if to_opponents else ""
            out.append(
                Row(n, None, "", s, f"settlement: {end}, {left[other if to_opponents else s]} tiles left{by}", points)
            )
    return out or [Row(n, None, "", "", f"settlement: {end}, no tiles left", 0)]
