"""``scorekeeper score --text``: the scored match as a readable table."""

from __future__ import annotations

from typing import Any, cast

from scorekeeper.allfives.record import FivesHand, own
from scorekeeper.points import start_lines, text_lines
from scorekeeper.scored import Scored


def _entry(t: dict[str, Any], knock: bool) -> str:
    drew = f"drew {t['drew']}, " if t.get("drew") else ""
    if t.get("pass"):  # with no drawing, a pass is a knock (as the table says it)
        return f"{drew}{'knock' if knock else 'pass'}"
    on = f" on {t['on']}" if t.get("on") else " (lead)"
    return f"{drew}{t['tile']}{on}"


def _notes(t: dict[str, Any]) -> str:
    notes = []
    if "claim" in t:
        ok = t.get("claim_ok")
        notes.append(f"claimed {t['claim']}" + ("" if ok is None else (" ok" if ok else " WRONG")))
    if t.get("voided"):
        notes.append("bust: would pass the target, nothing scored")
    if "muggins" in t:
        m = t["muggins"]
        notes.append(f"muggins by {m['player']}: +{m['points']} {m['side']}")
    return "; ".join(notes)


def _scores(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items())


def render(scored: Scored) -> str:
    """Render the output of :func:`score_record` as text (a Fives and Threes match by that
    name; a pass with no drawing is a knock, a score past an exact target a bust, as the
    table says them)."""
    out = own(scored)
    rules = out["rules"]
    game = "Fives and Threes" if rules.get("count") == "fives-and-threes" else "All Fives"
    knock = rules.get("draw") is False
    lines = [f"{game}: {' vs '.join(out['sides'])}; target {out['target']}", *start_lines(out)]
    entries = out["hands"]
    last = entries[-1] if entries else None
    for entry in entries:
        lines.append("")
        shared = text_lines(entry)
        if shared is not None:
            lines += shared
            continue
        h = cast(FivesHand, entry)
        lines.append(f"Hand {h['number']} (leader {h['leader']})")
        rows = [("#", "player", "entry", "count", "points", "")]
        for i, t in enumerate(h["turns"], 1):
            count = "" if t.get("pass") else str(t["count"])
            rows.append((str(i), t["player"], _entry(t, knock), count, str(t["points"]), _notes(t)))
        widths = [max(len(r[c]) for r in rows) for c in range(6)]
        for r in rows:
            lines.append("  " + "  ".join(cell.ljust(widths[c]) for c, cell in enumerate(r)).rstrip())
        end = h["end"]
        if end == "open":
            won = out["winner"] is not None and h is last  # the winning moment cut the hand short
            lines.append(f"  {out['winner']} won the match during this hand" if won else "  hand open")
        else:
            who = f", won by {h['winner']}" if h["winner"] else ", tied"
            lines.append(f"  end: {end}{who}")
            if "pips" in h:
                lines.append(f"  pips left: {_scores(h['pips'])}")
            lines.append(f"  settlement: {_scores(h['settlement'])}")
            if h.get("voided"):
                lines.append(f"  settlement bust (would pass the target): {', '.join(h['voided'])}")
        lines.append(f"  scores: {_scores(h['scores'])}")
    lines.append("")
    lines.append(f"Scores: {_scores(out['scores'])}")
    lines.append(f"Winner: {out['winner'] or 'none yet'}")
    return "\n".join(lines) + "\n"
