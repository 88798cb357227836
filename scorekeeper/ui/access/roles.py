"""What a browser may do at the table (its role), and what it is told when it may not,
without any Flet."""

from __future__ import annotations

import enum

__all__ = ["NOT_JOINED", "STALE", "WATCHING", "Role", "refusal", "stale"]


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


#: What a phone is told when it acted on a screen that did not yet show another phone's change.
STALE = "the match changed on another phone: check and tap again"


def stale(first: str | None) -> str:
    """What a phone is told when another phone's entry (``first``, in words, if known) got in
    before its own.

    >>> stale("Ann's 6-6")
    "Ann's 6-6 came first: check and tap again"
    >>> stale(None) == STALE
    True
    """
    return f"{first} came first: check and tap again" if first else STALE


#: What a watcher is told if an entry reaches its view-model anyway.
WATCHING = "this phone is watching: it cannot change the match"
#: ... and a browser that has not joined (it is only ever shown the join screen).
NOT_JOINED = "join the table first: type the table code"


def refusal(role: Role | None) -> str:
    """Why a browser with ``role`` may not change anything."""
    return NOT_JOINED if role is None else WATCHING
