"""What a browser may do at the table (its role), without any Flet."""

from __future__ import annotations

import enum

__all__ = ["Role"]


class Role(enum.Enum):
    """What a browser may do."""

    HOST = "host"  # the machine the app runs on: everything, and it shows the codes
    SCORER = "scorer"  # entered the table code: enters and corrects
    WATCHER = "watcher"  # entered the watch code: sees, changes nothing

    @property
    def can_enter(self) -> bool:
        """May enter, correct, undo, start matches, import."""
        return self is not Role.WATCHER

    @property
    def can_export(self) -> bool:
        """May see History, export and import (the stored matches of every table)."""
        return self is not Role.WATCHER

    @property
    def can_invite(self) -> bool:
        """May show the codes (the host, and a scorer showing a latecomer)."""
        return self is not Role.WATCHER

    @property
    def word(self) -> str:
        return {"host": "host", "scorer": "scorer", "watcher": "watching"}[self.value]
