"""A phone that joined comes back: passes, and the table file that keeps them (and the
codes) across a restart of the server the same evening. No Flet here.

When a phone gives the right code it gets a **pass**: 32 random bytes (``secrets``),
kept in its browser (local storage, under :data:`PASS_KEY`) and nowhere else in clear;
the server keeps only its SHA-256, with the role it gives and the seat the phone holds at
each match and event ("I'm Cy"). A seat is held by one phone: another phone asking for it
is refused (:class:`SeatTaken`, naming the holder) until the holder gives it up or the host
frees it; the host's own browsers hold seats under :data:`HOST`, without a pass. A page opened later in that browser (the same address, the home-screen
shortcut, a new tab, the tab the phone's browser dropped) gives its pass instead of a
code and is back at its table, in its seat. Passes end when the host makes new codes or
forgets all phones (:meth:`~scorekeeper.ui.access.gate.Gate.renew`,
:meth:`~scorekeeper.ui.access.gate.Gate.forget_phones`).

>>> passes = Passes()
>>> token = passes.issue(Role.SCORER)
>>> len(token) >= 43 and passes.check(token).role
<Role.SCORER: 'scorer'>
>>> passes.take(digest(token), "m1", "Cy"); passes.check(token).seats
{'m1': 'Cy'}
>>> other = passes.issue(Role.SCORER, "Safari on iPhone")
>>> passes.take(digest(other), "m1", "cy")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scorekeeper.ui.access.passes.SeatTaken: Cy's seat is held by another phone (a phone, joined ...): that phone can tap Change to give it up, or the host can free it (Phones at this table)
>>> passes.free("m1", "Cy") == digest(token), passes.holder("m1", "Cy")
(True, None)
>>> passes.check("not a pass") is None, passes.check(None) is None
(True, True)
>>> passes.forget_all(); passes.check(token) is None
True

The **table file** (``table.json``, a side file of the database: see
:meth:`~scorekeeper.store.Store.side_file`; readable by its owner only) holds the codes, the
secrets of their join links, when they were made, and the passes' digests. ``scorekeeper web``
started again within :data:`KEEP_FOR` of that time takes the same codes and passes, so
nobody joins again after a restart; later (or with ``--new-codes``) it makes new ones.
A table file that cannot be read is set aside: new codes, one line on stderr.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorekeeper.errors import ScorekeeperError, StoreError
from scorekeeper.text import name_key
from scorekeeper.ui.access.roles import Role

if TYPE_CHECKING:
    from scorekeeper.store import Store
    from scorekeeper.store.sidefile import SideFile

__all__ = ["HOST", "KEEP_FOR", "PASS_KEY", "Held", "Holder", "Passes", "SeatTaken", "TableFile", "digest"]

#: The key of the pass in the browser's local storage (Flet's SharedPreferences).
PASS_KEY = "scorekeeper.pass"
#: Codes and passes are kept across a restart this long after the codes were made (an evening).
KEEP_FOR = 12 * 3600.0
_MAX_TOKEN = 200  # longer than any pass: not even hashed
_MAX_SEATS = 500  # seats remembered per pass (the oldest go first)
_MAX_LABEL = 60  # a phone's label, in characters


def digest(token: str) -> str:
    """What the server keeps of a pass: its SHA-256, in hex (the key of its seats)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Held:
    """What a pass gives: a role, the seat taken at each place (a match id, or an event's
    ``event:<id>``; None: asked, nobody's), and how the host's screen names its phone: its
    browser in a few words (``label``) and when it joined (``since``, seconds since the epoch)."""

    role: Role
    seats: dict[str, str | None] = field(default_factory=dict)
    label: str = ""
    since: float = 0.0


@dataclass(frozen=True)
class Holder:
    """Who holds a seat: the key of its phone (a pass's digest, or :data:`HOST`), its role,
    how it is named on the host's screen, and the seat's player."""

    key: str
    role: Role
    label: str
    since: float
    player: str = ""  # the seat's player, as the holder named it

    def words(self) -> str:
        """``'Chrome on Android, joined 20:14'``; the host's own screen as ``'the host'``."""
        if self.key == HOST:
            return "the host's screen"
        joined = time.strftime("%H:%M", time.localtime(self.since)) if self.since else "earlier"
        return f"{self.label or 'a phone'}, joined {joined}"


class SeatTaken(ScorekeeperError):
    """A seat another phone holds: ``holder`` is who."""

    def __init__(self, place: str, player: str, holder: Holder) -> None:
        by = "the host's screen" if holder.key == HOST else f"another phone ({holder.words()})"
        super().__init__(
            f"{player}'s seat is held by {by}: that phone can tap Change to give it up, "
            "or the host can free it (Phones at this table)"
        )
        self.place = place
        self.player = player
        self.holder = holder


#: The key of the host's own seats (its browsers need no pass: the socket says who they are).
HOST = "host"


class Passes:
    """The passes given out, by digest, and the seats they hold; the host's seats under
    :data:`HOST`. A seat of a place is held by one key at a time. ``save`` (if given) is
    called after every change with :meth:`to_json`."""

    def __init__(
        self,
        held: dict[str, Held] | None = None,
        save: Callable[[], None] | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._held: dict[str, Held] = dict(held or {})
        self._lock = threading.Lock()
        self.save = save
        self._clock = clock

    def _saved(self) -> None:
        if self.save is not None:
            self.save()

    def issue(self, role: Role, label: str = "") -> str:
        """A new pass for ``role`` (the token: the browser keeps it, the server its digest);
        ``label``: its browser in a few words, for the host's screen."""
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._held[digest(token)] = Held(role, label=label[:_MAX_LABEL], since=self._clock())
        self._saved()
        return token

    def check(self, token: object) -> Held | None:
        """What ``token`` gives (a copy), or None: not a pass of this table (any more)."""
        if not isinstance(token, str) or not token or len(token) > _MAX_TOKEN:
            return None
        with self._lock:
            held = self._held.get(digest(token))
            return None if held is None else Held(held.role, dict(held.seats), held.label, held.since)

    # ------------------------------------------------------------ seats, by key
    def seat_of(self, key: str, place: str) -> str | None:
        """The player whose seat ``key`` holds at ``place`` (None: none)."""
        with self._lock:
            held = self._held.get(key)
            return None if held is None else held.seats.get(place)

    def asked(self, key: str, place: str) -> bool:
        """Whether the phone of ``key`` answered "which player are you?" at ``place``."""
        with self._lock:
            held = self._held.get(key)
            return held is not None and place in held.seats

    def _holder(self, place: str, player: str) -> Holder | None:
        wanted = name_key(player)
        for key, held in self._held.items():
            name = held.seats.get(place)
            if name is not None and name_key(name) == wanted:
                return Holder(key, held.role, held.label, held.since, name)
        return None

    def holder(self, place: str, player: str) -> Holder | None:
        """Who holds ``player``'s seat at ``place`` (None: it is free)."""
        with self._lock:
            return self._holder(place, player)

    def take(self, key: str, place: str, player: str | None) -> None:
        """The phone of ``key`` is ``player``'s at ``place`` (None: nobody's, it only scores),
        giving up the seat it held there; :class:`SeatTaken` (nothing changed) when another
        key holds that seat. The host's key takes a seat without a pass."""
        with self._lock:
            if player is not None:
                other = self._holder(place, player)
                if other is not None and other.key != key:
                    raise SeatTaken(place, other.player, other)
            held = self._held.get(key)
            if held is None:
                if key != HOST:
                    return  # an ended pass: nothing to hold
                held = self._held[HOST] = Held(Role.HOST, label="the host", since=self._clock())
            held.seats.pop(place, None)
            held.seats[place] = player
            while len(held.seats) > _MAX_SEATS:
                del held.seats[next(iter(held.seats))]
        self._saved()

    def free(self, place: str, player: str) -> str | None:
        """The host frees ``player``'s seat at ``place``: the key that held it (None: nobody)."""
        with self._lock:
            other = self._holder(place, player)
            if other is None:
                return None
            self._held[other.key].seats.pop(place, None)
        self._saved()
        return other.key

    def seating(self) -> list[tuple[str, str, Holder]]:
        """Every seat held: (place, player, holder), by place in the order they were taken."""
        with self._lock:
            out = [
                (place, name, Holder(key, held.role, held.label, held.since, name))
                for key, held in self._held.items()
                for place, name in held.seats.items()
                if name is not None
            ]
        return out

    def forget_all(self) -> None:
        """Every pass ends (their phones must join again); the host keeps its own seats."""
        with self._lock:
            host = self._held.get(HOST)
            self._held.clear()
            if host is not None:
                self._held[HOST] = host
        self._saved()

    def __len__(self) -> int:
        """How many phones joined (the host is not one)."""
        return sum(1 for k in self._held if k != HOST)

    def to_json(self) -> dict[str, Any]:
        with self._lock:
            return {
                d: {"role": h.role.value, "seats": dict(h.seats), "label": h.label, "since": h.since}
                for d, h in self._held.items()
            }

    @staticmethod
    def from_json(data: object) -> dict[str, Held]:
        """The passes of a table file (anything malformed in it is left out)."""
        out: dict[str, Held] = {}
        if not isinstance(data, dict):
            return out
        for key, h in data.items():
            if not (isinstance(key, str) and (len(key) == 64 or key == HOST) and isinstance(h, dict)):
                continue
            try:
                role = Role(h.get("role"))
            except ValueError:
                continue
            if (role is Role.HOST) != (key == HOST):  # the host is who the socket says, never a pass
                continue
            seats = h.get("seats")
            kept = {
                m: p
                for m, p in (seats.items() if isinstance(seats, dict) else ())
                if isinstance(m, str) and (p is None or isinstance(p, str))
            }
            label = h.get("label")
            since = h.get("since")
            out[key] = Held(
                role,
                kept,
                label[:_MAX_LABEL] if isinstance(label, str) else "",
                float(since) if isinstance(since, int | float) and not isinstance(since, bool) else 0.0,
            )
        return out


class TableFile:
    """``table.json``, a side file of the database (:meth:`Store.side_file`, owner-only):
    the codes and passes of this evening."""

    NAME = "table.json"
    #: Its permissions: its owner's only (it holds the codes).
    MODE = 0o600

    def __init__(self, side: SideFile, *, clock: Callable[[], float] = time.time) -> None:
        self._side = side
        self.path = side.path
        self._clock = clock
        self._unread: str | None = None  # why the file found at the start was not read
        self._unwritten: str | None = None  # why the last write failed

    @classmethod
    def of(cls, store: Store, *, clock: Callable[[], float] = time.time) -> TableFile:
        """The table file of the database ``store`` keeps."""
        return cls(store.side_file(cls.NAME, mode=cls.MODE), clock=clock)

    @property
    def problem(self) -> str | None:
        """What went wrong with the file, in words (None: nothing)."""
        return self._unwritten or self._unread

    def load(self) -> tuple[str, str, float, dict[str, Held], tuple[str, str] | None] | None:
        """(table code, watch code, when they were made, passes, the secrets of the table's and
        the watchers' join links) if this evening's file is there; None if there is none, it is
        older than :data:`KEEP_FOR`, or unreadable (``problem`` says so; the file is moved
        aside). The secrets are None in a file written before they were kept."""
        try:
            raw = self._side.read(limit=1 << 20)
        except OSError as e:
            self._unread = f"cannot read {self.path} ({e.strerror or e}): new table codes"
            return None
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            codes = data["codes"]
            scorer, watcher, made = codes["scorer"], codes["watcher"], float(data["made"])
            ok = all(isinstance(c, str) and len(c) == 6 and c.isdigit() for c in (scorer, watcher))
            if not ok or scorer == watcher:
                raise ValueError("bad codes")
        except (ValueError, KeyError, TypeError):
            self._unread = f"{self.path} is not a table file Scorekeeper wrote: set aside, new table codes"
            self._side.set_aside("unreadable")
            return None
        if not 0 <= self._clock() - made <= KEEP_FOR:
            return None
        return scorer, watcher, made, Passes.from_json(data.get("passes")), _secrets(data.get("links"))

    def save(
        self, scorer: str, watcher: str, made: float, passes: Passes, links: tuple[str, str] | None = None
    ) -> None:
        """Write the file (owner-only, whole or not at all), ``links``: the secrets of the
        table's and the watchers' join links; a failure is kept in ``problem`` (the table goes
        on: only a restart would forget the passes)."""
        data: dict[str, Any] = {"codes": {"scorer": scorer, "watcher": watcher}, "made": made}
        if links is not None:
            data["links"] = {"scorer": links[0], "watcher": links[1]}
        data["passes"] = passes.to_json()
        try:
            self._side.save(json.dumps(data).encode())
            self._unwritten = None
        except (OSError, StoreError) as e:
            why = getattr(e, "strerror", None) or e
            self._unwritten = f"cannot write {self.path} ({why}): phones must join again after a restart"


_SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")


def _secrets(links: object) -> tuple[str, str] | None:
    """The two join links' secrets of a table file, or None (none there, or not two that could
    be ours: new ones are made)."""
    if not isinstance(links, dict):
        return None
    scorer, watcher = links.get("scorer"), links.get("watcher")
    if not (isinstance(scorer, str) and isinstance(watcher, str)) or scorer == watcher:
        return None
    if not (_SECRET.fullmatch(scorer) and _SECRET.fullmatch(watcher)):
        return None
    return scorer, watcher
