"""An All Fives match on the History screen, without Flet: one short block per hand,
as a phone shows it (the ``--text`` table needs a monospaced font to line up)."""

from __future__ import annotations

from typing import Any

__all__ = ["history_blocks"]


def history_blocks(summary: dict[str, Any]) -> list[str]:
    """The scored match (the ``scorekeeper score`` object) as one text block per hand.

    A turn starts with the tiles drawn before it ("+1"), a play's as a pass's.

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
    blocks = []
    for h in summary["hands"]:
        lines = [f"Hand {h['number']} ({h['end']}), {h['leader']} led"]
        for t in h["turns"]:
            drew = f"+{t['drew']} " if t.get("drew") else ""
            if t.get("pass"):
                lines.append(f"  {t['player']}: {drew}pass")
            else:
                pts = f" -> {t['points']}" if t["points"] else ""
                on = f" on {t['on']}" if t["on"] else ""
                lines.append(f"  {t['player']}: {drew}{t['tile']}{on} (count {t['count']}){pts}")
        if any(h["settlement"].values()):
            lines.append("  settlement: " + ", ".join(f"{k} {v:+d}" for k, v in h["settlement"].items() if v))
        blocks.append("\n".join(lines))
    return blocks
