"""The Broadway new-match form, without Flet: four players in seat order North,
East, South, West (North-South against East-West), the rules that differ from
the defaults, and who holds 6-6 (the leader of hand 1), if that is known yet.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> form = BroadwayNewMatchForm(shared)
>>> form.typed, form.names
(['', '', '', ''], ['North', 'East', 'South', 'West'])
>>> form.set_name(0, "Ann"); form.set_leader("Ann"); form.set_orientation("free")
>>> rec = form.record()
>>> rec["players"], rec["rules"], rec["hands"]
(['Ann', 'East', 'South', 'West'], {'orientation': 'free'}, [{'leader': 'Ann', 'turns': []}])
>>> form.set_name(1, " Ann "); form.start(), form.error
(None, 'two players have the same name')
>>> shared.close()
"""

from __future__ import annotations

from typing import Any

from scorekeeper import registry
from scorekeeper.broadway.engine import SEATS
from scorekeeper.broadway.rules import DEFAULT_SIDES
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.form import FormModel, names_problem

__all__ = ["BroadwayNewMatchForm"]


class BroadwayNewMatchForm(FormModel):
    """Four players in seat order North, East, South, West; North-South against East-West."""

    def __init__(self, shared: Shared, names: list[str] | None = None) -> None:
        super().__init__(shared, names)
        # the four seats: the names given, else earlier players, then empty (named after the seat)
        self.typed = list(names or [])
        self._resize(4)
        self.orientation = "seat"
        self.penalty = "subtract"
        self.leader: str | None = None  # who holds 6-6

    def set_orientation(self, value: str) -> None:
        self.orientation = value
        self._changed()

    def set_penalty(self, value: str) -> None:
        self.penalty = value
        self._changed()

    def placeholder(self, seat: int) -> str:
        """A seat left empty is called by its name ("East")."""
        return SEATS[seat]

    def set_leader(self, name: str | None) -> None:
        self.leader = name
        self._changed()

    def carried_sides(self) -> list[str]:
        """North-South and East-West, whoever sits there."""
        return list(DEFAULT_SIDES)

    def record(self) -> dict[str, Any]:
        """The record of the new match (rules only where they differ from the defaults)."""
        names = self.names
        game = registry.get("broadway")
        rules = registry.rules_for(game, None, len(names))  # the game's rules for four, as an event's match has them
        if self.orientation == "free":
            rules["orientation"] = "free"
        if self.penalty != "subtract":
            rules["unplayed_penalty"] = self.penalty
        rec: dict[str, Any] = {"format": "scorekeeper/1", "game": game.id, "players": names}
        if rules:
            rec["rules"] = rules
        rec["title"] = game.title
        rec["hands"] = [{"leader": self.leader, "turns": []}] if self.leader in names else []
        return rec

    def start(self) -> str | None:
        """Store the new match: its id, or None with ``error`` set."""
        return self._create(names_problem(self.names), self.record)
