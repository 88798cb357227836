"""``scorekeeper score --text`` for an All Fours match."""

from __future__ import annotations

from typing import cast

from scorekeeper.allfours.record import FoursHand, own
from scorekeeper.points import start_lines, text_lines
from scorekeeper.scored import Scored

__all__ = ["render"]


def render(scored: Scored) -> str:
    """``scorekeeper score --text`` for an All Fours match.

    >>> from scorekeeper.allfours.record import score_record
    >>> print(render(score_record({"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"],
    ...     "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben", "game": {"Ann": 10, "Ben": 30}}]})), end="")
    All Fours (trinidad): Ann vs Ben; target 14
    <BLANKLINE>
    Hand 1 (dealer Ann)
      Ann  +3  turn-up J
      Ben  +1  high
      Ben  +1  game (card points Ann 10, Ben 30)
      scores: Ann 3, Ben 2
    """
    out = own(scored)
    lines = [f"All Fours ({out['rules']['variant']}): {' vs '.join(out['sides'])}; target {out['target']}"]
    lines += start_lines(out)
    width = max(len(s) for s in out["sides"])
    for entry in out["hands"]:
        shared = text_lines(entry)  # a hand entered as points, an adjustment
        if shared is not None:
            lines += ["", *shared]
            continue
        h = cast(FoursHand, entry)
        lines += [
            "",
            f"Hand {h['number']} (dealer {h['dealer']})" + (" - misdeal, dealt again" if h.get("void") else ""),
        ]
        for p in h["points"]:
            note = p.get("card") or (f"by {p['by']}" if "by" in p else p.get("reason", ""))
            if p["for"] == "game" and "card_points" in h:
                note = "(card points " + ", ".join(f"{k} {v}" for k, v in h["card_points"].items()) + ")"
            lines.append(f"  {p['side'].ljust(width)}  +{p['points']}  {p['for']} {note}".rstrip())
        if h.get("all_four"):
            lines.append(f"  all four: {h['all_four']}")
        if h.get("honour_revoke"):
            lines.append(f"  honour revoke: {h['honour_revoke']} lose the match")
        if h.get("end") == "open":
            lines.append("  hand open")
        lines.append("  scores: " + ", ".join(f"{k} {v}" for k, v in h["scores"].items()))
    if out["winner"]:
        lines += ["", f"Winner: {out['winner']}"]
    return "\n".join(lines) + "\n"
