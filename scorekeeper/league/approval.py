"""What a fixture's sheets and disputes make of its result, as leagues do it.

- Both captains confirmed (on one sheet, or on two clubs' sheets of one content): **approved**.
- One side only: **waiting**, approved when the league's delay (e.g. 48 hours) has passed
  since the sheet came, unless the other side disputes it first.
- A dispute, or two clubs' sheets that differ: **disputed** or **different**; the
  secretary decides (a sheet, a result entered by hand, or none).
- A result the secretary decided stands until the secretary decides again; a dispute
  given after it opens it again.

>>> v = Version(1, "club:1", 1, "c1", True, False, "2026-11-29T22:30:00Z")
>>> decide([v], [], 48)
Decision(state='waiting', sheet=1, due_at='2026-12-01T22:30:00Z', why='confirmed for the home team only')
>>> decide([v, Version(2, "club:2", 1, "c1", False, True, "2026-11-29T22:31:00Z")], [], 48).state
'approved'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.league.clock import later

#: The states of a result; only ``approved`` counts in the tables.
STATES = ("approved", "waiting", "disputed", "different", "removed")


@dataclass(frozen=True, slots=True)
class Version:
    """The latest version one sender sent of a fixture's sheet."""

    id: int
    sender: str
    version: int
    content: str
    confirmed_home: bool
    confirmed_away: bool
    received_at: str


@dataclass(frozen=True, slots=True)
class Decision:
    """A result's state, the sheet it is (None: none), when a waiting one is approved, why."""

    state: str
    sheet: int | None
    due_at: str | None
    why: str


def decide(latest: Sequence[Version], disputes: Sequence[str], delay_hours: int) -> Decision | None:
    """The result of a fixture from the latest version of each sender's sheet and the
    disputes given since the secretary last decided (their reasons); None: no sheet yet."""
    if not latest:
        return None
    newest = max(latest, key=lambda v: (v.received_at, v.id))
    if disputes:
        return Decision("disputed", newest.id, None, f"disputed: {disputes[-1]}")
    if len({v.content for v in latest}) > 1:
        senders = " and ".join(sorted(v.sender for v in latest))
        return Decision("different", newest.id, None, f"the sheets of {senders} differ")
    home = any(v.confirmed_home for v in latest)
    away = any(v.confirmed_away for v in latest)
    if home and away:
        return Decision("approved", newest.id, None, "confirmed by both captains")
    first = min(v.received_at for v in latest)
    side = "home" if home else "away"
    return Decision("waiting", newest.id, later(first, hours=delay_hours), f"confirmed for the {side} team only")
