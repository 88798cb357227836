r"""``scorekeeper export --csv``: stored matches as rows for a spreadsheet.

Each game's ``rows`` (see :class:`scorekeeper.registry.Row`) turns a record and its
scored object into one row per turn or fact; a game without it gets one row per
hand from the hand's scores. This module adds the match's columns and the running
scores, and writes CSV as RFC 4180 says: commas, ``"`` quoting where needed, CRLF
line ends, UTF-8 without a byte-order mark. A text cell that starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``, so that a
spreadsheet never runs it as a formula; numbers stay numbers. A control, direction or
format character in a text (a match stored before the rule for text of
:mod:`scorekeeper.text`) is written as a visible escape, ``\x1b`` or ``\u202e``.

>>> rec = {"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "=Ben"],
...        "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "=Ben"}]}
>>> from scorekeeper.allfours.record import load
>>> text = to_csv([COLUMNS, *match_table("m1", None, rec, load(rec))])
>>> print(text.replace("\r\n", "\n"), end="")
match,game,started,hand,turn,player,side,entry,count,points,side_score,scores,note,kind
m1,all-fours,,1,1,Ann,Ann,turn-up J,,3,3,Ann 3; =Ben 0,,all-fours
m1,all-fours,,1,2,'=Ben,'=Ben,high,,1,1,Ann 3; =Ben 1,,all-fours
>>> text.count("\r\n") == 3 == text.count("\n")
True
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper import registry
from scorekeeper.registry import Row
from scorekeeper.scored import ADJUST, POINTS, Scored
from scorekeeper.text import escape

__all__ = ["COLUMNS", "match_rows", "match_table", "safe", "shared_rows", "to_csv"]

#: The columns, in order (the same for one match and for every match).
COLUMNS = (
    "match",
    "game",
    "started",
    "hand",
    "turn",
    "player",
    "side",
    "entry",
    "count",
    "points",
    "side_score",
    "scores",
    "note",
    "kind",  # the game as people name it (fives-and-threes); added last, after the columns of old
)

Cell = str | int
Out = dict[str, Any]

#: What a spreadsheet may take for the start of a formula.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe(cell: Cell) -> Cell:
    """A cell as written: a control, direction or format character (of a match stored
    before the rule for text, :mod:`scorekeeper.text`) as a visible escape, and text
    that a spreadsheet could run as a formula with a leading ``'``.

    >>> safe("=1+1"), safe("-Ann"), safe("Ann"), safe(-5), safe("late\\x1b[2J\\u202e")
    ("'=1+1", "'-Ann", 'Ann', -5, 'late\\\\x1b[2J\\\\u202e')
    """
    if isinstance(cell, str):
        cell = escape(cell)
        if cell.startswith(_FORMULA):
            return "'" + cell
    return cell


def match_rows(record: Out, match: Any) -> tuple[list[str], list[Row]]:
    """The sides and the rows of one match (``match``: the game's ``load(record)``)."""
    game = registry.game_of(record)
    scored = game.result(match)
    make = getattr(game, "rows", None)  # a game may have no ``rows``
    rows = make(record, scored) if make is not None else by_hand(scored)
    return list(scored["sides"]), _every_hand(rows, scored)


def by_hand(scored: Scored) -> list[Row]:
    """A game without ``rows``: per hand, one row for each side whose score moved."""
    out: list[Row] = []
    before: dict[str, int] = dict(scored.get("start") or {})
    for h in scored["hands"]:
        after = h["scores"]
        if h.get("end") not in (POINTS, ADJUST):
            n = h["number"]
            for side, score in after.items():
                if score != before.get(side, 0):
                    out.append(Row(n, None, "", side, f"hand {n}", score - before.get(side, 0)))
        before = after
    return out


def shared_rows(entry: Mapping[str, Any]) -> list[Row]:
    """The rows of a hand entered as points (one per side, its points counted: a voided
    side's are 0, noted ``voided``) or of an adjustment (one per side it changed, no hand)."""
    if entry["end"] == ADJUST:
        why = f"adjustment: {entry.get('why', '')}"
        return [Row(None, None, "", side, why, n) for side, n in (entry.get("adjust") or {}).items()]
    n = entry["number"]
    voided = set(entry.get("voided_sides", ()))
    return [
        Row(
            n, None, "", side, "entered as points", 0 if side in voided else p, None, "voided" if side in voided else ""
        )
        for side, p in (entry.get("points") or {}).items()
    ]


def _every_hand(rows: list[Row], scored: Scored) -> list[Row]:
    """``rows`` with one row ("nothing scored") for each hand that has none, the rows of the
    scores carried in first, and those of the hands entered as points and the adjustments
    in their places."""
    hands = scored["hands"]
    by: dict[int | None, list[Row]] = {h["number"]: [] for h in hands if "number" in h}
    late: list[Row] = []
    for r in rows:
        by.get(r.hand, late).append(r)
    out = [Row(None, None, "", side, "carried in", n) for side, n in (scored.get("start") or {}).items() if n]
    for h in hands:
        if h["end"] in (POINTS, ADJUST):
            out += shared_rows(h)
            continue
        n = h["number"]
        note = "hand open" if h["end"] == "open" else ""
        out += by[n] or [Row(n, None, "", "", "nothing scored", 0, None, note)]
    return out + late


def match_table(mid: str, started: str | None, record: Out, match: Any) -> list[list[Cell]]:
    """The CSV lines of one match (no header), with the running scores."""
    sides, rows = match_rows(record, match)
    running = dict.fromkeys(sides, 0)
    game = str(record.get("game", ""))
    kind = registry.kind_of(record)  # a kind its game counts apart, as in the statistics
    out: list[list[Cell]] = []
    for r in rows:
        if r.side:
            running[r.side] = running.get(r.side, 0) + r.points
        scores = "; ".join(f"{s} {v}" for s, v in running.items())
        out.append(
            [
                mid,
                game,
                started or "",
                "" if r.hand is None else r.hand,
                "" if r.turn is None else r.turn,
                r.player,
                r.side,
                r.entry,
                "" if r.count is None else r.count,
                r.points,
                running[r.side] if r.side else "",
                scores,
                r.note,
                kind,
            ]
        )
    return out


def to_csv(lines: Iterable[Sequence[Cell]]) -> str:
    """CSV text of ``lines`` (RFC 4180: CRLF line ends), every cell made :func:`safe`."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    for line in lines:
        writer.writerow([safe(c) for c in line])
    return buf.getvalue()
