"""Sessions of browsers that have not given a code: few per client, and gone soon after they drop.

Flet keeps every session whose connection dropped for the tab to come back to
(``scorekeeper web`` keeps it 5 minutes, with its join role). A browser that never joined has
nothing to come back to but the join screen, so its session is deleted :data:`LINGER` seconds
after its connection drops, and one client address keeps at most :data:`PER_CLIENT` of them:
past that, its oldest dropped ones are deleted at once. A client that opens and drops sessions
as fast as it can then holds a handful, not thousands.

This is the one module that reaches into Flet's session manager (``flet_web.fastapi``'s
``app_manager``): the key it files a session under is found by looking the session up.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections import OrderedDict
from typing import Any

from scorekeeper.ui.access.visitor import Visitor

#: seconds a code-less session is kept after its connection dropped (a reload comes back in time)
LINGER = 10.0
#: code-less sessions one client address keeps (connected ones are bounded by its connections)
PER_CLIENT = 8

logger = logging.getLogger("scorekeeper.web")


def _manager() -> Any:
    from flet_web.fastapi.flet_app_manager import app_manager  # type: ignore[import-untyped]

    return app_manager


def _sessions(manager: Any) -> dict[str, Any]:
    found = getattr(manager, "_FletAppManager__sessions", None)
    if not isinstance(found, dict):
        raise RuntimeError("Flet's session manager has changed: scorekeeper.ui.server.strangers needs updating")
    return found


def _key_of(session: Any) -> str | None:
    for key, value in list(_sessions(_manager()).items()):
        if value is session:
            return key
    return None


async def delete(session: Any) -> bool:
    """Delete ``session`` from Flet's manager (as its sweep of expired sessions does); False
    when it was not there."""
    key = _key_of(session)
    if key is None:
        return False
    await _manager().delete_session(key)
    return True


class Strangers:
    """The code-less sessions by client address (see the module's docstring)."""

    def __init__(self, per_client: int = PER_CLIENT, linger: float = LINGER) -> None:
        self.per_client = per_client
        self.linger = linger
        self._lock = threading.Lock()
        # address -> session id -> (the session, weakly; its visitor)
        self._by_client: dict[str, OrderedDict[int, tuple[weakref.ref[Any], Visitor]]] = {}
        self.deleted = 0

    def waiting(self, address: str) -> int:
        """Code-less sessions kept for ``address`` now."""
        with self._lock:
            return len(self._live(address))

    def _live(self, address: str) -> OrderedDict[int, tuple[weakref.ref[Any], Visitor]]:
        kept = self._by_client.get(address, OrderedDict())
        for sid in [sid for sid, (ref, v) in kept.items() if ref() is None or v.role is not None]:
            del kept[sid]  # gone, or it joined: no longer a stranger's
        if not kept:
            self._by_client.pop(address, None)
        return kept

    def arrive(self, page: Any, visitor: Visitor) -> None:
        """``page``'s session belongs to ``visitor``, who has no code yet: keep count of it,
        delete it :attr:`linger` seconds after it drops, and make room for it."""
        session = page.session
        with self._lock:
            kept = self._live(visitor.address)
            kept[id(session)] = (weakref.ref(session), visitor)
            self._by_client[visitor.address] = kept
            alive = [ref() for ref, _ in kept.values()]
            dropped = [old for old in alive if old is not None and old.connection is None]
            excess = dropped[: max(0, len(kept) - self.per_client)]
        for old in excess:
            self._forget(old, visitor.address)
            asyncio.get_running_loop().create_task(self._delete(old))

        loop = asyncio.get_running_loop()

        def expire() -> None:
            if visitor.role is None and session.connection is None:
                self._forget(session, visitor.address)
                loop.create_task(self._delete(session))

        page.on_disconnect = lambda e: loop.call_later(self.linger, expire)

    def _forget(self, session: Any, address: str) -> None:
        with self._lock:
            self._by_client.get(address, OrderedDict()).pop(id(session), None)

    async def _delete(self, session: Any) -> None:
        try:
            if await delete(session):
                self.deleted += 1
        except Exception:  # the sweep still deletes it when it expires
            logger.warning("could not delete a code-less session", exc_info=True)


#: the strangers of this process (Flet's session manager is one per process too)
STRANGERS = Strangers()
