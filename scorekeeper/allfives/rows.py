"""``scorekeeper export --csv`` for All Fives: one row per turn, one per muggins call,
and the settlement of each settled hand (one row per side it moved).

The rows come from the scored output (``record.result``) and the record's envelope
(who plays on which side); the points of a match's rows add up to its scores.

>>> from scorekeeper.allfives.record import load, result
>>> rec = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...        "rules": {"hand_size": 3}, "hands": [{"leader": "Ann", "turns": [
...            {"play": "5-5"}, {"play": "5-0", "on": "5-5"}, {"play": "5-1", "on": "5-5", "claim": 5},
...            {"draw": 2, "play": "0-4", "on": "5-0"}, {"play": "1-3"}],
...            "remaining": {"Ben": ["6-6", "6-3", "2-0"]}}]}
>>> for r in rows(rec, result(load(rec))):
...     print(" | ".join(str(v) for v in (r.turn, r.player, r.side, r.entry, r.count, r.points, r.note)).rstrip(" |"))
1 | Ann | Ann | 5-5 (lead) | 10 | 10
2 | Ben | Ben | 5-0 on 5-5 | 10 | 10
3 | Ann | Ann | 5-1 on 5-5 | 1 | 0 | claimed 5 wrong
4 | Ben | Ben | drew 2, 4-0 on 5-0 | 5 | 5
5 | Ann | Ann | 3-1 on 5-1 | 7 | 0
None | Ann | Ann | settlement: Ann dominoed, 23 pips | None | 25
"""

from __future__ import annotations

from typing import Any

from scorekeeper.allfives.record import FivesHand, own, own_hands
from scorekeeper.envelope import Envelope
from scorekeeper.registry import Row
from scorekeeper.scored import Scored

__all__ = ["rows"]

Out = dict[str, Any]


def rows(record: Out, scored: Scored) -> list[Row]:
    """Every turn, muggins call and settlement of a scored All Fives match, in order."""
    env = Envelope.parse(record)
    side_of = {p: env.sides[s] for p, s in zip(env.players, env.side_of, strict=True)}
    fives = own(scored)
    rules = fives["rules"]
    out: list[Row] = []
    for h in own_hands(scored):
        n = h["number"]
        for i, t in enumerate(h["turns"], 1):
            out.append(_turn(n, i, t, side_of, rules))
            m = t.get("muggins")
            if m is not None:
                note = "voided" if m.get("voided") else ""
                out.append(Row(n, i, m["player"], m["side"], f"muggins on {t['player']}", m["points"], None, note))
        if "pips" in h and rules["hand_end"] in ("winner-takes", "each-subtracts"):
            out += _settlement(h, side_of, fives["sides"], rules)
    return out


def _turn(n: int, i: int, t: Out, side_of: dict[str, str], rules: Out) -> Row:
    drew = f"drew {t['drew']}, " if t.get("drew") else ""
    player = t["player"]
    if t.get("pass"):
        return Row(n, i, player, side_of[player], drew + ("pass" if rules["draw"] else "knock"), t["points"])
    on = f" on {t['on']}" if t.get("on") else " (lead)"
    notes = []
    if "claim" in t:
        ok = t.get("claim_ok")
        notes.append(f"claimed {t['claim']}" + ("" if ok is None else (" ok" if ok else " wrong")))
    if t.get("sniff"):
        notes.append(f"the sniff, set {t['sniff']}")
    if t.get("go"):
        notes.append("with the go")
    if t.get("voided"):
        notes.append("voided")
    return Row(n, i, player, side_of[player], f"{drew}{t['tile']}{on}", t["points"], t["count"], "; ".join(notes))


def _settlement(h: FivesHand, side_of: dict[str, str], sides: list[str], rules: Out) -> list[Row]:
    """The rows of a settled hand: one per side whose score it moved (or voided), else one row."""
    n, pips, settlement = h["number"], h["pips"], h["settlement"]
    held = {s: sum(p for name, p in pips.items() if side_of[name] == s) for s in sides}
    domino = h["turns"][-1]["player"] if h["end"] == "domino" and h["turns"] else None
    end = f"{domino} dominoed" if domino else "blocked"
    out: list[Row] = []
    if rules["hand_end"] == "each-subtracts":
        for s in sides:
            if settlement[s]:
                out.append(Row(n, None, "", s, f"settlement: {end}, {held[s]} pips left", settlement[s]))
        return out or [Row(n, None, "", "", f"settlement: {end}, no pips left", 0)]
    voided = h.get("voided", [])
    tied = [h["winner"]] if h["winner"] is not None else _fewest(pips, side_of, sides, rules)
    pot = sum(held[s] for s in sides if s not in tied)
    for s in sides:
        if s == h["winner"] or settlement[s] > 0 or s in voided:
            player = domino if domino and side_of[domino] == s else ""
            note = "voided" if s in voided else ""
            out.append(Row(n, None, player, s, f"settlement: {end}, {pot} pips", settlement[s], None, note))
    return out or [Row(n, None, "", "", f"settlement: {end}, tied", 0)]


def _fewest(pips: dict[str, int], side_of: dict[str, str], sides: list[str], rules: Out) -> list[str]:
    """The sides tied for the fewest pips after a block (measured as ``block_winner`` says)."""
    if rules["block_winner"] == "player":
        measure = {s: min(p for name, p in pips.items() if side_of[name] == s) for s in sides}
    else:
        measure = {s: sum(p for name, p in pips.items() if side_of[name] == s) for s in sides}
    fewest = min(measure.values())
    return [s for s in sides if measure[s] == fewest]
