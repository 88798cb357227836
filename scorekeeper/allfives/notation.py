"""The short notation of an All Fives turn, as people write it on paper and in the
app's corrections: ``5-3 on 5-5``, ``+2 5-3`` (drew two, then set 5-3), ``pass``,
``+3 pass``, with ``claim 10`` and ``muggins Ben`` after a play.

:func:`turn_text` writes a turn of the engine in it; :func:`parse_turn_text`
reads it back into a record's turn entry.
"""

from __future__ import annotations

import re
from typing import Any

from scorekeeper.allfives.engine import Turn
from scorekeeper.errors import short

__all__ = ["parse_turn_text", "turn_text"]


def turn_text(t: Turn) -> str:
    """A turn in the short notation the correction field reads back."""
    bits = []
    if t.drew:
        bits.append(f"+{t.drew}")
    if t.tile is None:
        bits.append("pass")
    else:
        bits.append(str(t.tile))
        if t.on is not None:
            bits.append(f"on {t.on}")
        if t.claim is not None:
            bits.append(f"claim {t.claim}")
    return " ".join(bits)


# ASCII digits only (``\d`` takes "٣" and "３", and int() reads them), and at most four of
# them: a draw or a claim of more is refused by the engine anyway
_TEXT_RE = re.compile(
    r"(?:\+(?P<draw>[0-9]{1,4})\s+)?(?:(?P<pass>pass)|(?P<tile>[0-9]{1,2}-[0-9]{1,2})"
    r"(?:\s+on\s+(?P<on>[0-9]{1,2}-[0-9]{1,2}))?"
    r"(?:\s+claim\s+(?P<claim>[0-9]{1,4}))?(?:\s+muggins\s+(?P<muggins>\S.*))?)",
    re.IGNORECASE | re.ASCII,
)


def parse_turn_text(text: str) -> dict[str, Any]:
    """Read the short notation of a turn into a record entry.

    >>> parse_turn_text("+2 5-3 on 5-5 claim 10")
    {'draw': 2, 'play': '5-3', 'on': '5-5', 'claim': 10}
    >>> parse_turn_text("pass")
    {'pass': True}
    >>> parse_turn_text("5 on 3")
    Traceback (most recent call last):
    ...
    ValueError: cannot read '5 on 3': write e.g. 5-3 on 5-5, +2 5-3, pass or +3 pass
    """
    m = _TEXT_RE.fullmatch(" ".join(text.split()))
    if not m:
        raise ValueError(f"cannot read {short(text)}: write e.g. 5-3 on 5-5, +2 5-3, pass or +3 pass")
    entry: dict[str, Any] = {}
    if m["draw"]:
        entry["draw"] = int(m["draw"])
    if m["pass"]:
        entry["pass"] = True
        return entry
    entry["play"] = m["tile"]
    if m["on"]:
        entry["on"] = m["on"]
    if m["claim"]:
        entry["claim"] = int(m["claim"])
    if m["muggins"]:
        entry["muggins"] = m["muggins"].strip()
    return entry
