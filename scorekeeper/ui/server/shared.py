"""The app's shared state put together, without any Flet: the shell's :class:`Shared`
(the store behind a lock) handed the server's parts -- a new :class:`Hub`, the gate of the
table codes, and :class:`Visitor` for the browsers. ``scorekeeper web`` and the desktop
app start from here (:func:`scorekeeper.ui.server.serve.run`), and so do the tests.

>>> import tempfile
>>> shared = open_shared(tempfile.mkdtemp())
>>> shared.visitor.role, shared.gate is None, type(shared.hub).__name__
(<Role.HOST: 'host'>, True, 'Hub')
>>> shared.close()
"""

from __future__ import annotations

from typing import Any

from scorekeeper.ui.access.gate import Gate, Invite
from scorekeeper.ui.access.visitor import Visitor
from scorekeeper.ui.live.hub import Hub
from scorekeeper.ui.shell.base import Shared

__all__ = ["open_shared"]


def open_shared(path: Any = None, gate: Gate | None = None, invite: Invite | None = None) -> Shared:
    """The shared state of an app on the database in ``path`` (opened at once: a database
    another app holds is refused), with ``gate`` and ``invite`` (None: every browser is
    the host, as in the desktop app)."""
    return Shared(path, gate, invite, hub=Hub(), visitors=Visitor)
