"""One browser at the table (a session of the app), without any Flet: its address, its role,
the pass it keeps, the seats it holds, and how the host's screen names its phone.

>>> from scorekeeper.ui.access.gate import Codes, Gate
>>> gate = Gate(Codes("123456", "654321"))
>>> ann, ben = Visitor(gate, "192.168.1.7"), Visitor(gate, "192.168.1.8")
>>> ann.join("123456"), ben.join("123 456")
(True, True)
>>> ann.take_seat("m1", "Ann"); ann.seat("m1"), ann.phone("m1")
('Ann', "Ann's phone")
>>> ben.take_seat("m1", "ann")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scorekeeper.ui.access.passes.SeatTaken: Ann's seat is held by another phone (a browser, joined ...): ...
>>> gate.free_seat("m1", "Ann"), ann.seat("m1")
(True, None)
"""

from __future__ import annotations

import contextvars
import hashlib
from typing import TYPE_CHECKING

from scorekeeper.text import same_name
from scorekeeper.ui.access.gate import JoinRefused
from scorekeeper.ui.access.passes import HOST, digest
from scorekeeper.ui.access.roles import Role

if TYPE_CHECKING:
    from scorekeeper.ui.access.gate import Gate

__all__ = ["AGENT", "PEER", "Visitor", "agent", "browser_words", "peer"]


def browser_words(agent: str) -> str:
    """A browser's ``User-Agent`` in a few words, to name its phone on the host's screen
    (nothing is decided by it: a browser can send any).

    >>> browser_words("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    ...               "Chrome/131.0 Mobile Safari/537.36")
    'Chrome on Android'
    >>> browser_words("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
    ...               "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
    'Safari on iPhone'
    >>> browser_words("")
    'a browser'
    """
    a = agent or ""
    browser = next(
        (
            name
            for mark, name in (
                ("Edg", "Edge"),
                ("OPR/", "Opera"),
                ("SamsungBrowser", "Samsung Internet"),
                ("Firefox/", "Firefox"),
                ("FxiOS", "Firefox"),
                ("CriOS", "Chrome"),
                ("Chrome/", "Chrome"),
                ("Safari/", "Safari"),
            )
            if mark in a
        ),
        None,
    )
    system = next(
        (
            name
            for mark, name in (
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Android", "Android"),
                ("CrOS", "ChromeOS"),
                ("Windows", "Windows"),
                ("Mac OS X", "Mac"),
                ("Linux", "Linux"),
            )
            if mark in a
        ),
        None,
    )
    if browser is None:
        return f"a browser on {system}" if system else "a browser"
    return f"{browser} on {system}" if system else browser


#: the peer address of the WebSocket being served (set by the server's guard,
#: :class:`~scorekeeper.ui.server.guard.Guard`, for the connection's task
#: and the tasks it starts, such as the session's ``main``); None outside a guarded connection
PEER: contextvars.ContextVar[str | None] = contextvars.ContextVar("scorekeeper_peer", default=None)
#: the browser's ``User-Agent`` of that WebSocket (only to name its phone on the host's screen:
#: a browser can send any, so nothing is decided by it)
AGENT: contextvars.ContextVar[str] = contextvars.ContextVar("scorekeeper_agent", default="")


def peer() -> str | None:
    """The peer address of the connection the caller serves (see :data:`PEER`)."""
    return PEER.get()


def agent() -> str:
    """The ``User-Agent`` of the connection the caller serves (see :data:`AGENT`; '' if none)."""
    return AGENT.get()


class Visitor:
    """One browser (a session of the app): its address, its :class:`~scorekeeper.ui.access.gate.Role`
    (None until it gives a code or a pass) and the seats it holds ("I'm Ann").

    A seat is held by one phone: a browser that joined holds its seats by its pass, the
    host's browsers by :data:`~scorekeeper.ui.access.passes.HOST` (see
    :class:`~scorekeeper.ui.access.passes.Passes`). Without a gate (the desktop app, the phone
    alone) or at an open table (``--open``: no code, so no pass) the seats are this session's
    own and nothing holds them against another browser."""

    def __init__(self, gate: Gate | None = None, address: str | None = None, agent: str = "") -> None:
        self.gate = gate
        self.address = address or ""
        self.label = browser_words(agent)  # how the host's screen names this phone
        self._role: Role | None = Role.HOST if gate is None else gate.arrive(address)
        self._epoch = 0 if gate is None else gate.epoch
        self.token: str | None = None  # its pass (see :mod:`scorekeeper.ui.access.passes`), once it joined
        self.error: str | None = None
        self._seats: dict[str, str | None] = {}  # without a key: place -> player (None: asked, no seat)
        self.revision = 0  # changes whenever a screen showing it should redraw
        self.checking = False  # its browser is being asked for a pass (the join screen waits)
        #: where a browser without a code was going (an event's page, from the wall's QR code):
        #: it goes there once it has joined
        self.wanted: str | None = None

    @property
    def role(self) -> Role | None:
        """What this browser may do now: a phone that joined is out once the host ends the
        passes (new codes, or every phone forgotten)."""
        role = self._role
        if role is not None and role is not Role.HOST and self.gate is not None and not self.gate.open:
            if self._epoch != self.gate.epoch:
                return None
        return role

    @role.setter
    def role(self, role: Role | None) -> None:
        self._role = role
        self._epoch = 0 if self.gate is None else self.gate.epoch

    @property
    def key(self) -> str | None:
        """What holds this browser's seats at the table: its pass's digest, the host's
        :data:`~scorekeeper.ui.access.passes.HOST`; None where seats are not held (no gate,
        an open table, a browser that has not joined)."""
        if self.gate is None or self.gate.open:
            return None
        role = self.role
        if role is Role.HOST:
            return HOST
        return digest(self.token) if role is not None and self.token else None

    @property
    def fingerprint(self) -> str | None:
        """What a confirmation keeps of the phone that gave it: a digest of its pass's digest
        (16 hex digits: it names the phone, and lets nobody in), ``'host'`` for the host's."""
        key = self.key
        if key is None or key == HOST:
            return key
        return hashlib.sha256(f"scorekeeper confirmation:{key}".encode()).hexdigest()[:16]

    def changed(self) -> None:
        """Screens showing this browser redraw."""
        self.revision = self.revision + 1

    def _let_in(self, role: Role) -> None:
        if self.role is None:
            self._seats = {}  # an ended pass's seats went with it
        self.role = role
        self.error = None

    def join(self, code: str) -> bool:
        """Give a code; True when it let this browser in (else ``error`` says why). A phone
        let in gets a pass (``token``) for its browser to keep."""
        if self.gate is None or self.role is not None:
            return self.role is not None
        try:
            role = self.gate.join(self.address, code)
            self._let_in(role)
            if not self.gate.open and role is not Role.HOST:
                self.token = self.gate.passes.issue(role, self.label)
        except JoinRefused as e:
            self.error = str(e)
        self.changed()
        return self.role is not None

    def rejoin(self, token: object) -> bool:
        """Come back with a pass this browser kept: its role and its seats, no code. False
        (nothing changed) for a pass this table does not know (any more)."""
        if self.gate is None or self.gate.open or self.role is not None:
            return False
        held = self.gate.passes.check(token)
        if held is None:
            return False
        assert isinstance(token, str)
        self._let_in(held.role)
        self.token = token
        self.changed()
        return True

    def seat(self, place: str) -> str | None:
        """The player this phone is at ``place`` (a match id; an event's ``event:<id>``), or
        None: no seat held there."""
        key = self.key
        if key is None or self.gate is None:
            return self._seats.get(place)
        return self.gate.passes.seat_of(key, place)

    def asked(self, place: str) -> bool:
        """Whether this phone has answered "which player are you?" at ``place``."""
        key = self.key
        if key is None or self.gate is None:
            return place in self._seats
        return self.gate.passes.asked(key, place)

    def take_seat(self, place: str, player: str | None) -> None:
        """This phone is ``player``'s at ``place`` (None: nobody's, it only scores; the seat it
        held there is given up). :class:`~scorekeeper.ui.access.passes.SeatTaken` (nothing
        changed) when another phone holds that seat."""
        key = self.key
        if key is None or self.gate is None:
            self._seats[place] = player
        else:
            self.gate.passes.take(key, place, player)
        self.changed()

    def held(self, place: str, player: str) -> bool:
        """Whether a phone holds ``player``'s seat at ``place`` (where seats are not held, only
        this browser's own seat counts)."""
        if self.key is None or self.gate is None:
            seat = self._seats.get(place)
            return seat is not None and same_name(seat, player)
        return self.gate.passes.holder(place, player) is not None

    def free_seat(self, place: str, player: str) -> bool:
        """Free ``player``'s seat at ``place`` (the phone that held it is told); False where
        there was nothing to free. Whether this browser may is the rules' (the host's act:
        :meth:`~scorekeeper.ui.shell.state.Shared.free_seat` asks them)."""
        if self.gate is None:
            return False
        return self.gate.free_seat(place, player)

    def phone(self, mid: str) -> str:
        """How other phones name this one: "Ann's phone", "the host", "another phone"."""
        seat = self.seat(mid)
        if seat:
            return f"{seat}'s phone"
        return "the host" if self.role is Role.HOST else "another phone"
