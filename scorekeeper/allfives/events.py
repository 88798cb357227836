"""The facts of an All Fives match, as frozen values.

A match is the fold of these events (see :class:`~scorekeeper.allfives.engine.Match`);
undo drops the last one. They mirror the record's entries one to one:

* :class:`StartHand` -- a hand begins (``leader`` of ``hands[i]``);
* :class:`Play` -- a turn that sets a tile (``{"play": ..., "on": ..., "draw": ...}``);
* :class:`Pass` -- a turn that passes (``{"pass": true, "draw": ...}``);
* :class:`Settle` -- the tiles or pips left in hands (``remaining``);
* :class:`~scorekeeper.points.PointsHand` -- a hand entered as points (``{"points": ...}``);
* :class:`~scorekeeper.points.Adjust` -- an adjustment (``{"adjust": ..., "why": ...}``).

>>> from scorekeeper.dominoes.tiles import Tile
>>> Play(Tile(5, 0), on=Tile(5, 5))
Play(tile=Tile(5, 0), on=Tile(5, 5), draw=0, claim=None, muggins=None, player=None, sniff=None)
>>> Play(Tile(5, 0)) == Play(Tile(0, 5))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, final

from scorekeeper.allfives.rules import Setup
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.points import Adjust, PointsHand

__all__ = ["Adjust", "Event", "Pass", "Play", "PointsHand", "Settle", "StartHand", "event_entry", "record_of"]


@final
@dataclass(frozen=True, slots=True)
class StartHand:
    """A new hand; ``leader`` may be None where the rules imply it (after a domino)."""

    leader: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Play:
    """A turn that sets ``tile`` on ``on`` (None: the lead, or the only tile it fits)."""

    tile: Tile
    on: Tile | None = None
    draw: int = 0
    claim: int | None = None
    muggins: str | None = None
    player: str | None = None
    sniff: str | None = None  # how the tile that sets the sniff is set: "across" or "inline"


@final
@dataclass(frozen=True, slots=True)
class Pass:
    """A turn that passes, after drawing ``draw`` tiles."""

    draw: int = 0
    player: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Settle:
    """What was left in hands at the end of a hand.

    ``remaining`` pairs a player's name with the tiles they held (a tuple) or
    their pip total (an int).
    """

    remaining: tuple[tuple[str, tuple[Tile, ...] | int], ...]


Event = StartHand | Play | Pass | Settle | PointsHand | Adjust


# ---------------------------------------------------------------------- as record entries
def event_entry(event: Play | Pass) -> dict[str, Any]:
    """A turn event as a record entry."""
    entry: dict[str, Any] = {}
    if event.player is not None:
        entry["player"] = event.player
    if event.draw:
        entry["draw"] = event.draw
    if type(event) is Pass:
        entry["pass"] = True
        return entry
    entry["play"] = str(event.tile)
    if event.on is not None:
        entry["on"] = str(event.on)
    if event.claim is not None:
        entry["claim"] = event.claim
    if event.muggins is not None:
        entry["muggins"] = event.muggins
    if event.sniff is not None:
        entry["sniff"] = event.sniff
    return entry


def record_of(setup: Setup, events: Iterable[Event]) -> dict[str, Any]:
    """The events of a match as a ``scorekeeper/1`` record."""
    record = setup.head()
    hands: list[dict[str, Any]] = []
    for e in events:
        if type(e) is StartHand:
            hands.append({"leader": e.leader, "turns": []} if e.leader is not None else {"turns": []})
        elif type(e) is PointsHand or type(e) is Adjust:
            hands.append(e.to_json())
        elif type(e) is Settle:
            hands[-1]["remaining"] = {n: ([str(x) for x in v] if isinstance(v, tuple) else v) for n, v in e.remaining}
        else:
            hands[-1]["turns"].append(event_entry(e))
    record["hands"] = hands
    return record
