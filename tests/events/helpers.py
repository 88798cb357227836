"""What the events' tests share: finished matches for a table, made the quick way."""

from __future__ import annotations

from typing import Any

from scorekeeper.events import Event


def won_record(event: Event, round_number: int, table: int, winner: int, big: bool = False) -> dict[str, Any]:
    """A finished All Fives match of the table, won by side ``winner`` (0 or 1): the
    winner's lead 5-0 reaches a target of 5 (5-0); with ``big``, a target of 15 reached
    after the loser scored 5 (15-5)."""
    record = event.record_for(round_number, table)
    t = event.table(round_number, table)
    leader = t.sides[winner][0]
    if big:
        record["rules"] = {"target": 15}
        turns: list[dict[str, Any]] = [{"play": "5-0"}, {"play": "0-0", "on": "5-0"}, {"play": "5-5", "on": "5-0"}]
        if len(t.players) > 2:
            raise ValueError("big: two players only")
    else:
        record["rules"] = {"target": 5}
        turns = [{"play": "5-0"}]
    record["hands"] = [{"leader": leader, "turns": turns}]
    return record


def scores_of(big: bool, winner: int) -> tuple[int, int]:
    """The table's sides' scores of :func:`won_record`."""
    w, lo = (15, 5) if big else (5, 0)
    return (w, lo) if winner == 0 else (lo, w)
