"""An All Fives match on the History screen, without Flet: one short block per hand,
as a phone shows it (the ``--text`` table needs a monospaced font to line up)."""

from __future__ import annotations

from typing import Any

__all__ = ["history_blocks"]


def history_blocks(summary: dict[str, Any]) -> list[str]:
    """The scored match (the ``scorekeeper score`` object) as one text block per hand.

    >>> from scorekeeper.allfives import score_record
    >>> out = score_record({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
    ...                     "rules": {"hand_size": 14}, "hands": [{"leader": "Ann", "turns": [
    ...                         {"play": "5-5"}, {"play": "5-0"}, {"pass": True}]}]})
    >>> print(history_blocks(out)[0])
    Hand 1 (open), Ann led
      Ann: 5-5 (count 10) -> 10
      Ben: 5-0 on 5-5 (count 10) -> 10
      Ann: pass
    """
    blocks = []
    for h in summary["hands"]:
        lines = [f"Hand {h['number']} ({h['end']}), {h['leader']} led"]
        for t in h["turns"]:
            if t.get("pass"):
                lines.append(f"  {t['player']}: {'+' + str(t['drew']) + ' ' if t.get('drew') else ''}pass")
            else:
                pts = f" -> {t['points']}" if t["points"] else ""
                on = f" on {t['on']}" if t["on"] else ""
                lines.append(f"  {t['player']}: {t['tile']}{on} (count {t['count']}){pts}")
        if any(h["settlement"].values()):
            lines.append("  settlement: " + ", ".join(f"{k} {v:+d}" for k, v in h["settlement"].items() if v))
        blocks.append("\n".join(lines))
    return blocks
