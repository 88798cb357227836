"""``scorekeeper score --text`` for a Broadway match."""

from __future__ import annotations

from typing import Any, cast

from scorekeeper.broadway.grid import Layout, Placement
from scorekeeper.broadway.record import BroadwayHand, own
from scorekeeper.points import adjustment_field, start_lines, text_lines
from scorekeeper.scored import Scored

__all__ = ["render"]


def _cells(at: list[list[int]]) -> str:
    return " ".join(f"({x},{y})" for x, y in at)


def _scores(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items())


def render(scored: Scored) -> str:
    """``scorekeeper score --text`` for a Broadway match.

    >>> from scorekeeper.broadway.record import score_record
    >>> rec = {"format": "scorekeeper/1", "game": "broadway", "players": ["Ann", "Ben", "Cy", "Di"],
    ...        "hands": [{"leader": "Ben", "turns": [{"play": "6-6", "at": [[0, 0], [0, 1]]},
    ...                                             {"play": "6-3", "at": [[1, 0], [2, 0]]},
    ...                                             {"pass": True}, {"exposed": "5-2"}]}]}
    >>> print(render(score_record(rec)), end="")
    Broadway: North-South (Ann, Cy) vs East-West (Ben, Di)
    Seats: North Ann, East Ben, South Cy, West Di; orientation by seat; unplayed tiles subtract
    <BLANKLINE>
    Hand 1 on 6-6 (leader Ben)
      #  player  entry               matched  points
      1  Ben     6-6 at (0,0) (0,1)           0
      2  Cy      6-3 at (1,0) (2,0)  1        0
      3  Di      pass                         0
      4  Ann     exposed 5-2 (turn lost)      0
      layout:
        6 . .
        |
        6 6-3
      hand open
      scores: North-South 0, East-West 0
    <BLANKLINE>
    Scores: North-South 0, East-West 0
    Winner: none yet
    """
    out = own(scored)
    teams = out["teams"]
    lines = ["Broadway: " + " vs ".join(f"{s} ({', '.join(teams[s])})" for s in out["sides"])]
    rules = out["rules"]
    orientation = "by seat" if rules["orientation"] == "seat" else "free"
    penalty = "subtract" if rules["unplayed_penalty"] == "subtract" else "go to the opponents"
    lines.append(
        f"Seats: {', '.join(f'{k} {v}' for k, v in out['seats'].items())}; orientation {orientation}; "
        f"unplayed tiles {penalty}"
    )
    lines += start_lines(out)
    entries = out["hands"]
    last = entries[-1] if entries else None
    for item in entries:
        shared = text_lines(item)  # a hand entered as points, an adjustment
        if shared is not None:
            lines += ["", *shared]
            continue
        h = cast(BroadwayHand, item)
        sd = "sudden death; " if h["sudden_death"] else ""
        lines += ["", f"Hand {h['number']} on {h['double']} ({sd}leader {h['leader']})"]
        rows = [("#", "player", "entry", "matched", "points")]
        placements = []
        for i, t in enumerate(h["turns"], 1):
            if "tile" in t:
                entry = f"{t['tile']} at {_cells(t['at'])}"
                matched = str(t["matched"]) if i > 1 else ""
                placements.append(Placement.of(t["tile"], t["at"]))
            elif "exposed" in t:
                entry, matched = f"exposed {t['exposed']} (turn lost)", ""
            else:
                entry, matched = "pass", ""
            rows.append((str(i), t["player"], entry, matched, str(t["points"])))
        normal = [r for r in rows if not r[2].startswith("exposed")]
        widths = [max(len(r[c]) for r in normal) for c in range(5)]
        for r in rows:
            if r[2].startswith("exposed"):  # a long entry spills into the empty matched column
                text = "  ".join(
                    (r[0].ljust(widths[0]), r[1].ljust(widths[1]), r[2].ljust(widths[2] + 2 + widths[3]), r[4])
                )
            else:
                text = "  ".join(cell.ljust(widths[c]) for c, cell in enumerate(r))
            lines.append("  " + text.rstrip())
        if placements:
            lines.append("  layout:")
            lines += ["    " + row if row else "" for row in Layout(placements).text().split("\n")]
        if h["end"] == "open":
            won = out["winner"] is not None and h is last  # the winning moment cut the hand short
            lines.append(f"  {out['winner']} won the match during this hand" if won else "  hand open")
        else:
            lines.append(f"  end: {h['end']}")
            if "unplayed" in h:
                lines.append(f"  unplayed: {_scores(h['unplayed'])}")
            lines.append(f"  settlement: {_scores(h['settlement'])}")
        lines.append(f"  scores: {_scores(h['scores'])}")
    lines += ["", f"Scores: {_scores(out['scores'])}"]
    if out["winner"]:
        at = out["won_at"] or {}  # set whenever there is a winner
        if at.get("adjust"):
            when = "the " + adjustment_field(at["hand"])
        elif at["turn"] is not None:
            when = f"hand {at['hand']}, turn {at['turn']}"
        else:
            when = f"the end of hand {at['hand']}"
        lines.append(f"Winner: {out['winner']} (at {when})")
    else:
        lines.append("Winner: none yet")
    return "\n".join(lines) + "\n"
