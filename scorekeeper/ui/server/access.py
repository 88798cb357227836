"""Who may use the app at a table, without any Flet: the table codes, the roles and the
gate that turns a code into a role.

``scorekeeper web`` makes two codes when it starts: the **table code** (a phone that
enters it is a *scorer*: it enters and corrects) and the **watch code** (a *watcher*:
the table, the count, the scores, the tally and chart; nothing that changes or exports).
A browser on the host machine itself is the *host* (a scorer that may also show the
codes). Every other browser sees only the join screen until it gives a code; wrong codes
are slowed down per client address. ``--open`` turns the codes off: every browser is
then a scorer.

>>> gate = Gate(Codes("123456", "654321"), clock=lambda: 0.0)
>>> gate.arrive("127.0.0.1"), gate.arrive("192.168.1.7")
(<Role.HOST: 'host'>, None)
>>> gate.join("192.168.1.7", "123 456")
<Role.SCORER: 'scorer'>
>>> gate.join("192.168.1.8", "654-321")
<Role.WATCHER: 'watcher'>
>>> gate.join("192.168.1.9", "111111")
Traceback (most recent call last):
...
scorekeeper.ui.server.access.JoinRefused: that is not this table's code: check it on the host's screen
>>> Gate(None).arrive("192.168.1.7")
<Role.SCORER: 'scorer'>
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.server.passes import Held, Passes, TableFile
from scorekeeper.ui.shell.roles import Role

if TYPE_CHECKING:
    from scorekeeper.store import Store
    from scorekeeper.ui.server.visitor import Visitor

__all__ = [
    "Codes",
    "Gate",
    "Invite",
    "Held",
    "JoinRefused",
    "Role",
    "is_local",
    "spaced",
]

CODE_DIGITS = 6
FREE_TRIES = 3  # wrong codes from one address before it has to wait
MAX_WAIT = 60.0  # the longest wait, in seconds (it doubles with every wrong code past the free ones)
FORGET_AFTER = 3600.0  # an address's wrong codes are forgotten after an hour without one


class JoinRefused(ScorekeeperError):
    """A code that does not let a browser in (wrong, or too soon after wrong ones)."""


def spaced(code: str) -> str:
    """A code as it is read out: ``'482913'`` -> ``'482 913'``."""
    return f"{code[:3]} {code[3:]}"


def is_local(address: str | None) -> bool:
    """True for a loopback address (a browser on the host machine itself)."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address == "localhost"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


@dataclass(frozen=True)
class Codes:
    """The table code (scorers) and the watch code (watchers): six digits each, different."""

    scorer: str
    watcher: str

    @classmethod
    def new(cls) -> Codes:
        """Two fresh random codes (``secrets``), never the same."""

        def one() -> str:
            return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"

        scorer = one()
        watcher = one()
        while watcher == scorer:
            watcher = one()
        return cls(scorer, watcher)


class Gate:
    """Turns a browser's address and the code it gives into its :class:`Role`.

    ``codes`` None: an open table (``--open``), where every browser is a scorer. Wrong
    codes are counted per address: past :data:`FREE_TRIES` the address waits 1, 2, 4 ...
    seconds (at most :data:`MAX_WAIT`) before its next code is even looked at.
    """

    def __init__(
        self,
        codes: Codes | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        passes: dict[str, Held] | None = None,
        keep: TableFile | None = None,
        made: float | None = None,
    ) -> None:
        self.codes = codes
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float]] = {}  # address -> (wrong codes, when the last one came)
        self._keep = keep
        self._made = time.time() if made is None else made
        self.passes = Passes(passes, save=self._save)
        #: changes when the host ends every pass: a phone that joined before is out
        self.epoch = 0
        self._watchers: weakref.WeakKeyDictionary[Visitor, Callable[[], None]] = weakref.WeakKeyDictionary()

    @classmethod
    def kept(cls, store: Store, *, new: bool = False) -> Gate:
        """The gate of ``scorekeeper web`` on the database ``store`` keeps: this evening's
        codes and passes from its table file (see :mod:`scorekeeper.ui.server.passes`), else (or
        ``new``) new codes, written there at once."""
        keep = TableFile.of(store)
        found = None if new else keep.load()
        if found is None:
            gate = cls(Codes.new(), keep=keep)
            gate._save()
            return gate
        scorer, watcher, made, passes = found
        return cls(Codes(scorer, watcher), keep=keep, passes=passes, made=made)

    @property
    def problem(self) -> str | None:
        """Why this evening's codes and passes are not (or may not be) kept across a restart."""
        return None if self._keep is None else self._keep.problem

    def _save(self) -> None:
        if self._keep is not None and self.codes is not None:
            self._keep.save(self.codes.scorer, self.codes.watcher, self._made, self.passes)

    def watch(self, visitor: Visitor, nudge: Callable[[], None]) -> None:
        """Call ``nudge`` when ``visitor``'s pass ends (its screen must show the join screen)."""
        with self._lock:
            self._watchers[visitor] = nudge

    def free_seat(self, place: str, player: str) -> bool:
        """Free ``player``'s seat at ``place`` (the host's act): the phones that held it are
        told (their screens redraw). False where nobody held it."""
        key = self.passes.free(place, player)
        if key is None:
            return False
        with self._lock:
            nudges = [n for v, n in self._watchers.items() if v.key == key]
        for nudge in nudges:
            try:
                nudge()
            except Exception:  # a session gone away: nothing to tell
                pass
        return True

    def _end_passes(self) -> None:
        self.epoch += 1
        self.passes.forget_all()
        with self._lock:
            nudges = list(self._watchers.values())
        for nudge in nudges:
            try:
                nudge()
            except Exception:  # a session gone away: nothing to tell
                pass

    def renew(self) -> None:
        """New codes: every phone that joined is out until it gives a new one."""
        if self.codes is None:
            return
        self.codes = Codes.new()
        self._made = time.time()
        self._end_passes()

    def forget_phones(self) -> None:
        """The same codes, but every phone that joined must give one again."""
        self._end_passes()

    @property
    def open(self) -> bool:
        return self.codes is None

    def arrive(self, address: str | None) -> Role | None:
        """The role a browser has before it gives any code (None: it must join)."""
        if is_local(address):
            return Role.HOST
        if self.codes is None:
            return Role.SCORER
        return None

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may try a code again (0: now)."""
        with self._lock:
            return self._wait(address, self._clock())

    def _wait(self, address: str, now: float) -> float:
        wrong, last = self._wrong.get(address, (0, 0.0))
        if wrong < FREE_TRIES:
            return 0.0
        return max(0.0, last + min(MAX_WAIT, 2.0 ** min(wrong - FREE_TRIES, 16)) - now)

    def join(self, address: str, code: str) -> Role:
        """The role ``code`` gives; :class:`JoinRefused` (with words for the join screen)
        for a wrong code or one given too soon after wrong ones."""
        if self.codes is None:
            return Role.SCORER
        digits = "".join(c for c in code if not c.isspace() and c not in "-.")
        if not digits:
            raise JoinRefused("type the table code first: six digits, on the host's screen")
        with self._lock:
            now = self._clock()
            self._forget(now)
            left = self._wait(address, now)
            if left > 0:
                raise JoinRefused(f"too many wrong codes from this phone: wait {int(left) + 1} s and try again")
            for role, right in ((Role.SCORER, self.codes.scorer), (Role.WATCHER, self.codes.watcher)):
                if hmac.compare_digest(digits.encode(), right.encode()):
                    self._wrong.pop(address, None)
                    return role
            wrong = self._wrong.get(address, (0, 0.0))[0] + 1
            self._wrong[address] = (wrong, now)
        raise JoinRefused("that is not this table's code: check it on the host's screen")

    def _forget(self, now: float) -> None:
        for address in [a for a, (_, last) in self._wrong.items() if now - last > FORGET_AFTER]:
            del self._wrong[address]


@dataclass(frozen=True)
class Invite:
    """How phones join a served app: its address (``http://192.168.1.20:8550``) and the
    gate whose codes it shows (None, or a gate without codes: an open table)."""

    base: str
    gate: Gate | None

    @property
    def codes(self) -> Codes | None:
        """The codes now (the host may have made new ones)."""
        return None if self.gate is None else self.gate.codes

    @property
    def scorer_link(self) -> str:
        codes = self.codes
        return f"{self.base}/join/{codes.scorer}" if codes else f"{self.base}/"

    @property
    def site_link(self) -> str:
        """The phone's own app (the static site the server serves at ``/app/``)."""
        return f"{self.base}/app/"

    @property
    def watcher_link(self) -> str:
        codes = self.codes
        return f"{self.base}/join/{codes.watcher}" if codes else f"{self.base}/"
