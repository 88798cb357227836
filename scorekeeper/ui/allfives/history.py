"""An All Fives match on the History screen, without Flet: one short block per hand,
as a phone shows it (the ``--text`` table needs a monospaced font to line up), in the
table's words: a knock, a bust, the last hand of a won match."""

from __future__ import annotations

from typing import Any

from scorekeeper.allfives.rules import fives_and_threes, worth
from scorekeeper.points import start_lines, text_lines

__all__ = ["history_blocks"]


def history_blocks(summary: dict[str, Any]) -> list[str]:
    """The scored match (the ``scorekeeper score`` object) as one text block per hand.

    A turn starts with the tiles drawn before it ("+1"), a play's as a pass's. A play
    whose points were not scored says why, as the table did ("bust: 4 would pass 61,
    nothing scored"); a player who cannot play where there is no drawing knocks. The
    scores carried in come first ("Carried in: ..."), a hand entered as points is
    "Hand 4 · entered as points", an adjustment "Adjustment: East-West -10 (misdeal)".

    >>> from scorekeeper.allfives import score_record
    >>> out = score_record({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
    ...                     "rules": {"hand_size": 7}, "hands": [{"leader": "Ann", "turns": [
    ...                         {"play": "5-5"}, {"play": "5-0"}, {"draw": 1, "play": "5-4", "on": "5-5"},
    ...                         {"play": "4-4"}]}]})
    >>> print(history_blocks(out)[0])
    Hand 1 (open), Ann led
      Ann: 5-5 (count 10) -> 10
      Ben: 5-0 on 5-5 (count 10) -> 10
      Ann: +1 5-4 on 5-5 (count 4)
      Ben: 4-4 on 5-4 (count 8)
    """
    rules = summary["rules"]
    winner = summary.get("winner")
    teams = summary.get("teams") or {s: [s] for s in summary["sides"]}
    side_of = {p: side for side, members in teams.items() for p in members}
    hands = summary["hands"]
    scores = dict(summary.get("start") or dict.fromkeys(summary["sides"], 0))  # each side's score before the turn
    blocks = list(start_lines(summary))
    for h in hands:
        shared = text_lines(h)  # a hand entered as points, an adjustment: "Hand 4 · entered as points"
        if shared is not None:
            blocks.append("\n".join(shared))
            scores = dict(h["scores"])
            continue
        end = h["end"]
        if end == "open" and winner is not None and h is hands[-1]:  # the winning moment cut it short
            end = f"{winner} won the match"
        lines = [f"Hand {h['number']} ({end}), {h['leader']} led"]
        for n, t in enumerate(h["turns"], 1):
            side = side_of.get(t["player"])
            lines.append("  " + _turn(t, n, scores.get(side) if side else None, rules))
            if side is not None:
                scores[side] += t["points"]
            m = t.get("muggins")
            if m is not None:
                scores[m["side"]] = scores.get(m["side"], 0) + m["points"]
        if any(h["settlement"].values()):
            lines.append("  settlement: " + ", ".join(f"{k} {v:+d}" for k, v in h["settlement"].items() if v))
        blocks.append("\n".join(lines))
        scores = dict(h["scores"])
    return blocks


def _turn(t: dict[str, Any], n: int, before: int | None, rules: dict[str, Any]) -> str:
    """Turn ``n`` of a hand in words; ``before``: the player's side's score before it."""
    who = t["player"]
    drew = f"+{t['drew']}" if t.get("drew") else ""
    if t.get("pass"):
        if not rules["draw"]:  # no drawing: the pass is the knock
            return f"{who} knocks"
        return f"{who}: {drew}, passes" if drew else f"{who} passes"
    on = f" on {t['on']}" if t["on"] else ""
    play = f"{who}: {drew + ' ' if drew else ''}{t['tile']}{on} (count {t['count']})"
    if t.get("voided"):
        return f"{play}, {_not_scored(t, n, before, rules)}"
    return play + (f" -> {t['points']}" if t["points"] else "")


def _not_scored(t: dict[str, Any], n: int, before: int | None, rules: dict[str, Any]) -> str:
    """Why a play's points were voided, in the table's words: the exact target (a bust)
    or the down that may not win (``win_on_lead: false``), checked in the engine's order."""
    count = t["count"]
    value = fives_and_threes(count) if rules["count"] == "fives-and-threes" else worth(count, rules["scale"])
    if rules["claims"] == "muggins":  # the player scores only what they claimed
        claim = t.get("claim") or 0
        value = claim if claim <= value else 0
    would = value + t.get("go", 0)
    target = rules["target"]
    if rules["exact_target"] and (before is None or before + would > target):
        return f"bust: {would} would pass {target}, nothing scored"
    if n == 1 and not rules["win_on_lead"]:
        return f"the down may not win: {would} not scored"
    return "nothing scored"
