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
scorekeeper.ui.access.gate.JoinRefused: that is not this table's code: check it on the host's screen
>>> Gate(None).arrive("192.168.1.7")
<Role.SCORER: 'scorer'>

The join link and the QR code carry a longer secret than the typed code (:data:`SECRET_BYTES`
random bytes, one for each code): a phone that scans or opens the link never meets the limits
on wrong codes, and nobody guesses it. The typed code stays six digits, read across a table;
wrong typed codes are limited per address and for the whole table together
(:data:`GUESS_BURST`, :data:`GUESS_EVERY`): the arithmetic is in docs/security.md.

>>> codes = Codes("123456", "654321", "s" * 22, "w" * 22)
>>> Gate(codes).join("192.168.1.7", "s" * 22), Gate(codes).join("192.168.1.7", "w" * 22)
(<Role.SCORER: 'scorer'>, <Role.WATCHER: 'watcher'>)
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import secrets
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.access.passes import Held, Passes, TableFile
from scorekeeper.ui.access.roles import Role

if TYPE_CHECKING:
    from scorekeeper.store import Store
    from scorekeeper.ui.access.visitor import Visitor

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
#: wrong typed codes the whole table may have looked at in one go (every address together) ...
GUESS_BURST = 30
#: ... and the seconds it takes to earn one more back: at most 30 + 120 in 4 hours, 30 + 360 in
#: the 12 hours codes are kept (docs/security.md has the arithmetic)
GUESS_EVERY = 120.0
#: wrong typed codes (since the codes were made) from which the host is told codes are being guessed
GUESSING = 10
#: random bytes of a join link's secret (the QR code's): 128 bits, never guessed
SECRET_BYTES = 16


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


def new_secret() -> str:
    """A join link's secret: :data:`SECRET_BYTES` random bytes (``secrets``), URL-safe text."""
    return secrets.token_urlsafe(SECRET_BYTES)


@dataclass(frozen=True)
class Codes:
    """The table code (scorers) and the watch code (watchers): six digits each, different;
    and the secrets of their join links (the QR codes), new ones unless given."""

    scorer: str
    watcher: str
    scorer_secret: str = field(default_factory=new_secret, repr=False)
    watcher_secret: str = field(default_factory=new_secret, repr=False)

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
    seconds (at most :data:`MAX_WAIT`) before its next code is even looked at. And for the
    whole table: :data:`GUESS_BURST` wrong typed codes, then one every :data:`GUESS_EVERY`
    seconds (a token bucket over every address together); while none is left, no typed code
    is looked at, the right one included. A join link's secret is never limited.
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
        self._guesses = (float(GUESS_BURST), clock())  # the table's wrong codes left, when counted
        #: wrong typed codes since these codes were made, from every address
        self.wrong = 0
        #: typed codes not looked at since these codes were made: the table's limit was reached
        self.held_back = 0
        self._keep = keep
        self._made = time.time() if made is None else made
        self.passes = Passes(passes, save=self._save)
        #: changes when the host ends every pass: a phone that joined before is out
        self.epoch = 0
        self._watchers: weakref.WeakKeyDictionary[Visitor, Callable[[], None]] = weakref.WeakKeyDictionary()

    @classmethod
    def kept(cls, store: Store, *, new: bool = False) -> Gate:
        """The gate of ``scorekeeper web`` on the database ``store`` keeps: this evening's
        codes and passes from its table file (see :mod:`scorekeeper.ui.access.passes`), else (or
        ``new``) new codes, written there at once."""
        keep = TableFile.of(store)
        found = None if new else keep.load()
        if found is None:
            gate = cls(Codes.new(), keep=keep)
            gate._save()
            return gate
        scorer, watcher, made, passes, links = found
        codes = Codes(scorer, watcher) if links is None else Codes(scorer, watcher, *links)
        gate = cls(codes, keep=keep, passes=passes, made=made)
        if links is None:  # a table file of a Scorekeeper before the links' secrets
            gate._save()
        return gate

    @property
    def problem(self) -> str | None:
        """Why this evening's codes and passes are not (or may not be) kept across a restart."""
        return None if self._keep is None else self._keep.problem

    def _save(self) -> None:
        if self._keep is not None and self.codes is not None:
            c = self.codes
            self._keep.save(c.scorer, c.watcher, self._made, self.passes, (c.scorer_secret, c.watcher_secret))

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
        with self._lock:  # (the table's limit is not filled again: it bounds the evening)
            self.wrong = self.held_back = 0
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
        """Seconds before ``address`` may try a typed code again (0: now): its own wait, or the
        whole table's when that is longer."""
        with self._lock:
            now = self._clock()
            return max(self._wait(address, now), max(0.0, 1.0 - self._guesses_left(now)) * GUESS_EVERY)

    def _wait(self, address: str, now: float) -> float:
        wrong, last = self._wrong.get(address, (0, 0.0))
        if wrong < FREE_TRIES:
            return 0.0
        return max(0.0, last + min(MAX_WAIT, 2.0 ** min(wrong - FREE_TRIES, 16)) - now)

    @property
    def guessing(self) -> bool:
        """True when the host should be told that someone seems to be guessing the codes."""
        return self.wrong >= GUESSING or self.held_back > 0

    def _guesses_left(self, now: float) -> float:
        left, then = self._guesses
        return min(float(GUESS_BURST), left + max(0.0, now - then) / GUESS_EVERY)

    def join(self, address: str, code: str) -> Role:
        """The role ``code`` gives (a typed code, or a join link's secret); :class:`JoinRefused`
        (with words for the join screen) for a wrong code, or a typed code given too soon after
        wrong ones (from this address, or from the whole table)."""
        codes = self.codes
        if codes is None:
            return Role.SCORER
        given = code.strip().encode("utf-8", "replace")
        for role, secret in ((Role.SCORER, codes.scorer_secret), (Role.WATCHER, codes.watcher_secret)):
            if hmac.compare_digest(given, secret.encode()):  # the link's: never limited, never guessed
                return role
        digits = "".join(c for c in code if not c.isspace() and c not in "-.")
        if not digits:
            raise JoinRefused("type the table code first: six digits, on the host's screen")
        with self._lock:
            now = self._clock()
            self._forget(now)
            left = self._wait(address, now)
            if left > 0:
                raise JoinRefused(f"too many wrong codes from this phone: wait {int(left) + 1} s and try again")
            guesses = self._guesses_left(now)
            if guesses < 1.0 - 1e-9:  # (a guesser that waited exactly as long as :meth:`wait` said is let in)
                self.held_back += 1
                wait = math.ceil((1.0 - guesses) * GUESS_EVERY)
                raise JoinRefused(
                    "too many wrong codes at this table: scan the QR code on the host's screen,"
                    f" or type the code again in {wait} s"
                )
            for role, right in ((Role.SCORER, codes.scorer), (Role.WATCHER, codes.watcher)):
                if hmac.compare_digest(digits.encode("utf-8", "replace"), right.encode()):
                    self._wrong.pop(address, None)
                    return role
            self._guesses = (guesses - 1.0, now)
            self.wrong += 1
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
        """The table's join link (and QR code): its secret, not the typed code."""
        codes = self.codes
        return f"{self.base}/join/{codes.scorer_secret}" if codes else f"{self.base}/"

    @property
    def site_link(self) -> str:
        """The phone's own app (the static site the server serves at ``/app/``)."""
        return f"{self.base}/app/"

    @property
    def watcher_link(self) -> str:
        """The watchers' join link (and QR code): its secret, not the watch code."""
        codes = self.codes
        return f"{self.base}/join/{codes.watcher_secret}" if codes else f"{self.base}/"
