"""Every phone on a match shows the same truth at once, without any Flet: the hub that
tells the other screens of a match that it changed.

A screen subscribes to its match while it is shown; an entry, an undo or a correction
made on one screen is published once it is stored, and every *other* screen of that
match gets it (the Flet layer hands it to that screen's own session, see
:func:`scorekeeper.ui.live.view.use_live`). A delivery that fails (a closed session) drops its subscriber.

>>> hub = Hub()
>>> phone_a, phone_b, got = ["A"], ["B"], []
>>> stop = hub.subscribe("m1", phone_b, lambda origin: got.append(("B", origin)))
>>> _ = hub.subscribe("m1", phone_a, lambda origin: got.append(("A", origin)))
>>> hub.version("m1"), hub.publish("m1", phone_a), hub.version("m1")
(0, 1, 1)
>>> got
[('B', ['A'])]
>>> stop(); hub.publish("m1", phone_a), got
(2, [('B', ['A'])])

Every change bumps the match's :meth:`version`: a screen that acts remembers the version
it shows, so an entry made on a screen that missed a change is caught even when its
delivery has not arrived yet. A screen that changes the match takes the new version
with :meth:`bump` while it still holds the store (so two phones racing make exactly one
entry) and tells the others with :meth:`deliver` after; :meth:`last` says what the last
change was, for the phone that lost the race ("Ann's 6-6").

>>> hub.bump("m1", "Ann's 6-6"), hub.last("m1")
(3, "Ann's 6-6")
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["ANY", "Hub"]

#: Subscribe to it to hear of a change of any match (the events' standings and pages).
ANY = "*"

Deliver = Callable[[Any], None]


class Hub:
    """Subscriptions of shown screens to their match (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, dict[int, tuple[object, Deliver, object]]] = {}
        self._versions: dict[str, int] = {}
        self._last: dict[str, str | None] = {}

    def version(self, mid: str) -> int:
        """How many changes of ``mid`` were published since the app started."""
        with self._lock:
            return self._versions.get(mid, 0)

    def subscribe(self, mid: str, screen: object, deliver: Deliver, owner: object = None) -> Callable[[], None]:
        """``deliver(origin)`` runs when another screen changes match ``mid``; ``owner``
        (a session) lets :meth:`drop` remove all its subscriptions at once. Returns the
        function that unsubscribes."""
        key = id(screen)
        with self._lock:
            self._subs.setdefault(mid, {})[key] = (screen, deliver, owner)

        def stop() -> None:
            with self._lock:
                subs = self._subs.get(mid)
                if subs is not None and key in subs and subs[key][0] is screen:
                    del subs[key]
                    if not subs:
                        del self._subs[mid]

        return stop

    def last(self, mid: str) -> str | None:
        """What the last change of ``mid`` was, in words ("Ann's 6-6"), if it was said."""
        with self._lock:
            return self._last.get(mid)

    def bump(self, mid: str, what: str | None = None) -> int:
        """Count one change of ``mid`` (``what``: it in words); its new version. Nobody is
        told yet: :meth:`deliver` does that."""
        with self._lock:
            version = self._versions[mid] = self._versions.get(mid, 0) + 1
            self._last[mid] = what
            return version

    def publish(self, mid: str, origin: object, what: str | None = None) -> int:
        """:meth:`bump`, then :meth:`deliver`: its new version."""
        version = self.bump(mid, what)
        self.deliver(mid, origin)
        return version

    def deliver(self, mid: str, origin: object, sender: object = None) -> None:
        """Tell every screen of ``mid`` but the one that changed it: ``origin`` is what each
        is given (the screen that made the change, or what it made, e.g. a draft's change;
        then ``sender`` is that screen, which is not told of its own change)."""
        own = origin if sender is None else sender
        with self._lock:
            targets = [(mid, k, s, d) for k, (s, d, _) in self._subs.get(mid, {}).items() if s is not own]
            if mid != ANY:
                targets += [(ANY, k, s, d) for k, (s, d, _) in self._subs.get(ANY, {}).items() if s is not own]
        for where, key, screen, deliver in targets:
            try:
                deliver(origin)
            except Exception:  # a session gone away: forget it
                with self._lock:
                    subs = self._subs.get(where, {})
                    if key in subs and subs[key][0] is screen:
                        del subs[key]

    def drop(self, owner: object) -> None:
        """Forget every subscription of ``owner`` (a session that closed)."""
        with self._lock:
            for mid in list(self._subs):
                subs = self._subs[mid]
                for key in [k for k, (_, _, o) in subs.items() if o is owner]:
                    del subs[key]
                if not subs:
                    del self._subs[mid]

    def screens_of(self, owner: object) -> list[object]:
        """The screens ``owner`` (a session) has subscribed."""
        with self._lock:
            return [s for subs in self._subs.values() for (s, _, o) in subs.values() if o is owner]

    def count(self, mid: str | None = None) -> int:
        """Subscriptions (of ``mid``, or all)."""
        with self._lock:
            if mid is not None:
                return len(self._subs.get(mid, {}))
            return sum(len(s) for s in self._subs.values())
