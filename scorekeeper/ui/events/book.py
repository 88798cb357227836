"""What the events' view-models share, without any Flet: the app's one book of events read
under the store's lock (a store error becomes the model's one-line ``error``), the one
check of who may do what, and where a phone keeps who it is at an event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import EventBook
from scorekeeper.store import message_of
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.policy import Act

__all__ = ["book_of", "can_enter", "read", "refused", "seat_key"]


def book_of(shared: Shared) -> EventBook:
    """The running app's one book of events (it remembers which stored records it read)."""
    return shared.events


class Reads(Protocol):
    error: str | None


_T = TypeVar("_T")


def read(shared: Shared, model: Reads, look: Callable[[EventBook], _T], default: _T) -> _T:
    """``look`` at the app's event book under the store's lock; a store error becomes the
    ``model``'s ``error`` (one line) and ``default``."""
    try:
        with shared.lock:
            return look(book_of(shared))
    except ScorekeeperError as e:
        model.error = message_of(e)
        return default


def seat_key(eid: str) -> str:
    """Where a phone keeps who it is at an event (its "I'm Ann")."""
    return f"event:{eid}"


def can_enter(shared: Shared) -> bool:
    """This browser enters results (a scorer or the host, not a watcher)."""
    role = shared.visitor.role
    return role is not None and role.can_enter


def refused(shared: Shared, model: Reads, act: Act, place: str | None = None, **facts: Any) -> bool:
    """True (with the ``model``'s ``error`` set to why) when this browser (``shared``'s) may not
    do ``act``: the one check of :mod:`scorekeeper.ui.shell.policy`."""
    verdict = shared.may(act, place, **facts)
    if verdict.allowed:
        return False
    model.error = verdict.words
    return True
