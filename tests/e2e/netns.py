"""A browser that is *not* on the host: Chromium in a network namespace.

The web server treats a client whose address is loopback (127.0.0.1 / ::1) as
the host.  To test what a stranger sees, the browser's connections must come
from some other address - without sending anything to a real network.  This
module makes a private one on the machine itself (needs root and ``ip`` from
iproute2; CI runs as root and ``.ci/run`` installs iproute2)::

    host (root namespace)                    namespace sk-<pid>-<n>
    sk<pid>h<n>  10.213.x.1/30  <-- veth -->  sk<pid>c<n>  10.213.x.2/30
    = NetNS.host_ip                            = NetNS.client_ip   (+ lo up)

The namespace has no other interface and no default route: from inside it
only ``host_ip`` is reachable (its own ``lo`` is its own, so the host's
127.0.0.1 is *not*).  A server listening on ``host_ip`` (or on ``0.0.0.0``)
sees requests from the browser in the namespace coming from ``client_ip``.
Nothing touches the host's real interfaces or routes: the only changes are the
veth pair (and the /30 route the kernel adds for its address) and the
namespace, all removed again by ``NetNS.close`` / leaving ``remote_namespace``.

Typical use in a test (``browser.playwright`` is the Playwright instance of
the session ``browser`` fixture of conftest.py; a second ``sync_playwright()``
cannot run in the same thread)::

    with netns.remote_namespace() as ns:
        # server: ``scorekeeper web --host 0.0.0.0 --port P`` (harness.start_server
        # polls http://127.0.0.1:P/, so it must listen on loopback too)
        remote = netns.launch_remote_browser(browser.playwright, ns)
        try:
            context = harness.new_context(remote)
            page = harness.open_app(context, ns.url(port))   # http://10.213.x.1:P/
            ...                                              # server sees ns.client_ip
        finally:
            remote.close()

or, shorter, ``with netns.remote_browser(browser.playwright) as (ns, remote):``.

Errors (not root, no ``ip``, namespaces not allowed) raise RuntimeError: the
tests that need this fail, they never skip.

Notes (measured with Chromium 156 / Flet 1.0.5 on a 2-core box): making the
namespace takes ~25 ms, launching Chromium in it ~0.2 s, ``open_app`` via
``ns.url`` ~1.5 s, deleting it ~30 ms.  No extra Chromium flags are needed
(``ip netns exec`` keeps /dev/shm and the Playwright pipe).  ``--host-resolver-
rules`` applies to IP literals too, so ``chromium_args`` adds ``EXCLUDE
host_ip``.  ``http://host_ip:P/`` is not a secure context for Chromium (it is
for 127.0.0.1): the page logs that the Cross-Origin-Opener-Policy header was
ignored - the same as a phone on the LAN gets.  ``--host 0.0.0.0`` also makes
the server listen on the host's real interfaces for the test's duration.
"""

from __future__ import annotations

import atexit
import contextlib
import ipaddress
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

from . import harness

#: Address pools the /30 subnets are taken from, in order.  A subnet that
#: overlaps any address or (non-default) route of the host is skipped.
POOLS = [ipaddress.IPv4Network("10.213.0.0/16"), ipaddress.IPv4Network("172.29.213.0/24")]

#: How long to wait for both veth ends to report carrier (measured: at once).
LINK_UP_TIMEOUT = 5.0

_NS_RE = re.compile(r"^sk-(\d+)-(\d+)$")  # namespace  sk-<pid>-<n>
_LINK_RE = re.compile(r"^sk(\d+)[hc](\d+)$")  # veth ends  sk<pid>h<n> / sk<pid>c<n>
_LOCK_PATH = "/run/scorekeeper-netns.lock"

_counter = 0
_counter_lock = threading.Lock()
_open: set[NetNS] = set()  # closed at interpreter exit if a test forgot


_IP_FALLBACKS = ("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip")  # when the sbin dirs are not on PATH


def _ip_binary() -> str:
    path = shutil.which("ip") or next((p for p in _IP_FALLBACKS if os.path.exists(p)), None)
    if path is None:
        raise RuntimeError(
            "`ip` (iproute2) is missing: the remote-browser tests need it to make a network namespace "
            "(apt-get install -y iproute2; .ci/run does this)"
        )
    return path


def require_netns() -> str:
    """Check that network namespaces can be made here; return the path of ``ip``.

    Raises RuntimeError with the reason (not root / no ``ip``).  A test that needs
    a remote browser must fail on this, never skip -- on Linux: Windows and macOS have no
    network namespaces at all, and there the test is skipped (the CI's matrix)."""
    if not sys.platform.startswith("linux"):
        import pytest

        pytest.skip("network namespaces (ip netns) are Linux's: not on this system")
    ip = _ip_binary()
    if os.geteuid() != 0:
        raise RuntimeError(
            f"the remote-browser tests make a network namespace and a veth pair and must run as root "
            f"(euid is {os.geteuid()}); CI runs them as root"
        )
    return ip


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``ip ARGS``; on failure (with ``check``) raise RuntimeError with its stderr."""
    cmd = [_ip_binary(), *args]
    res = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
    if check and res.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed ({res.returncode}): {res.stderr.strip() or res.stdout.strip()}")
    return res


def _ip_json(*args: str) -> Any:
    out = _ip("-j", *args).stdout.strip()
    return json.loads(out) if out else []


def namespaces() -> list[str]:
    """Names of all named network namespaces (``ip netns list``)."""
    res = _ip("netns", "list", check=False)
    return [line.split()[0] for line in res.stdout.splitlines() if line.strip()]


def links() -> list[str]:
    """Names of all interfaces of the host (root) namespace."""
    return [link["ifname"] for link in _ip_json("link", "show")]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def cleanup_stale() -> list[str]:
    """Best effort: delete namespaces ``sk-<pid>-<n>`` and veth ends ``sk<pid>[hc]<n>``
    left behind by processes that are gone (killed test runs).  Those of live
    processes (e.g. a parallel test run) are left alone.  Returns what was deleted."""
    removed = []
    stale = [n for n in links() if (m := _LINK_RE.match(n)) and not _pid_alive(int(m.group(1)))]
    for name in stale:
        if name in links():  # deleting one end of a veth pair deletes the other
            _ip("link", "del", name, check=False)
    left = links()
    removed += [n for n in stale if n not in left]
    for name in namespaces():
        m = _NS_RE.match(name)
        if m and not _pid_alive(int(m.group(1))):
            _kill_ns_pids(name)
            if _ip("netns", "del", name, check=False).returncode == 0:
                removed.append(name)
    return removed


def _kill_ns_pids(name: str) -> None:
    """SIGKILL what still runs in our namespace (a browser helper that outlived
    ``browser.close``); those are processes this module started there."""
    res = _ip("netns", "pids", name, check=False)
    for pid in res.stdout.split():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), signal.SIGKILL)


def _used_networks() -> list[ipaddress.IPv4Network]:
    """Every IPv4 network the host has on an interface or in a route (all tables),
    except default routes."""
    nets = []
    for link in _ip_json("-4", "addr", "show"):
        for a in link.get("addr_info", []):
            nets.append(ipaddress.ip_network(f"{a['local']}/{a['prefixlen']}", strict=False))
    for r in _ip_json("-4", "route", "show", "table", "all"):
        dst = r.get("dst", "")
        if dst and dst != "default":
            with contextlib.suppress(ValueError):
                nets.append(ipaddress.ip_network(dst if "/" in dst else f"{dst}/32", strict=False))
    return [n for n in nets if isinstance(n, ipaddress.IPv4Network)]


def _free_subnet(start: int = 0) -> ipaddress.IPv4Network:
    """The first /30 of :data:`POOLS` from the ``start``-th on (wrapping round) that the host
    does not use."""
    used = _used_networks()
    for pool in POOLS:
        if any(u.supernet_of(pool) for u in used):
            continue  # the whole pool lies inside something the host uses
        subs = list(pool.subnets(new_prefix=30))
        k = start % len(subs)
        for sub in subs[k:] + subs[:k]:
            if not any(sub.overlaps(u) for u in used):
                return sub
    raise RuntimeError(f"no free /30 in {', '.join(map(str, POOLS))}: every one overlaps a host address or route")


@contextlib.contextmanager
def _global_lock() -> Iterator[None]:
    """Serialise picking a subnet and giving it to a veth across processes."""
    path = (
        _LOCK_PATH
        if os.access(os.path.dirname(_LOCK_PATH), os.W_OK)
        else os.path.join(tempfile.gettempdir(), "scorekeeper-netns.lock")
    )
    with open(path, "a", encoding="utf-8") as f:
        import fcntl  # Linux only (require_netns)

        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


class NetNS:
    """A network namespace joined to the host by a veth pair (see the module doc).

    ``NetNS()`` only picks names; ``create()`` (or ``with NetNS() as ns``) makes
    it, ``close()`` deletes it (idempotent, also after a half-done ``create``).

    Attributes: ``name`` (namespace), ``host_if`` / ``client_if`` (veth ends),
    ``host_ip`` (the host side: a server must listen on it or on 0.0.0.0),
    ``client_ip`` (the address the server sees the browser coming from),
    ``subnet`` (the /30).
    """

    def __init__(self) -> None:
        global _counter
        with _counter_lock:
            n = _counter
            _counter += 1
        pid = os.getpid()
        self.name = f"sk-{pid}-{n}"
        self.host_if = f"sk{pid}h{n}"
        self.client_if = f"sk{pid}c{n}"
        if len(self.host_if) > 15:  # IFNAMSIZ - 1
            raise RuntimeError(f"interface name {self.host_if!r} too long (more than 15 characters)")
        self._start = pid * 61 + n  # each namespace of a run another address, as another machine
        self.subnet: ipaddress.IPv4Network | None = None
        self.host_ip = ""
        self.client_ip = ""
        self._tmpdir: str | None = None
        self._created = False

    def __repr__(self) -> str:
        return f"<NetNS {self.name} host {self.host_ip or '?'} client {self.client_ip or '?'}>"

    def create(self) -> NetNS:
        """Make the namespace, the veth pair and the addresses; wait until the link is up."""
        require_netns()
        cleanup_stale()
        _open.add(self)
        self._created = True
        try:
            _ip("netns", "add", self.name)
            _ip("-n", self.name, "link", "set", "lo", "up")
            with _global_lock():
                self.subnet = _free_subnet(self._start)
                host, client = list(self.subnet.hosts())
                self.host_ip, self.client_ip = str(host), str(client)
                _ip("link", "add", self.host_if, "type", "veth", "peer", "name", self.client_if, "netns", self.name)
                _ip("addr", "add", f"{self.host_ip}/30", "dev", self.host_if)
            _ip("-n", self.name, "addr", "add", f"{self.client_ip}/30", "dev", self.client_if)
            _ip("link", "set", self.host_if, "up")
            _ip("-n", self.name, "link", "set", self.client_if, "up")
            self._wait_link_up()
        except BaseException:
            self.close()
            raise
        return self

    def _wait_link_up(self) -> None:
        deadline = time.monotonic() + LINK_UP_TIMEOUT
        while True:
            ends = [
                _ip_json("link", "show", "dev", self.host_if),
                _ip_json("-n", self.name, "link", "show", "dev", self.client_if),
            ]
            if all(end and "LOWER_UP" in end[0].get("flags", []) for end in ends):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"veth {self.host_if}/{self.client_if} not up within {LINK_UP_TIMEOUT}s")
            time.sleep(0.02)

    def close(self) -> None:
        """Delete the veth pair and the namespace (ending what still runs in it). Idempotent."""
        if self._created:
            if self.name in namespaces():
                _kill_ns_pids(self.name)
            if self.host_if in links():
                _ip("link", "del", self.host_if, check=False)  # deletes both ends
            if self.name in namespaces():
                _ip("netns", "del", self.name)
            self._created = False
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None
        _open.discard(self)

    def __enter__(self) -> NetNS:
        return self.create()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def exec_args(self, *cmd: str) -> list[str]:
        """``cmd`` prefixed to run inside the namespace: ``ip netns exec NAME cmd...``."""
        return [_ip_binary(), "netns", "exec", self.name, *cmd]

    def run(self, *cmd: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        """``subprocess.run`` of ``cmd`` inside the namespace (text mode, output captured)."""
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("text", True)
        return subprocess.run(self.exec_args(*cmd), **kwargs)

    def url(self, port: int, path: str = "/") -> str:
        """``http://HOST_IP:PORT/path``: how the browser in the namespace reaches a
        server on the host that listens on ``host_ip`` or ``0.0.0.0``."""
        return f"http://{self.host_ip}:{port}{path}"

    def wrapper(self, executable: str = harness.CHROMIUM) -> str:
        """Path of an executable script that runs ``executable`` inside the namespace
        (``exec ip netns exec NAME EXECUTABLE "$@"``: same pid, same pipes, so
        Playwright's ``--remote-debugging-pipe`` works).  Removed by ``close``."""
        if not self._created:
            raise RuntimeError(f"{self.name} is not created")
        if self._tmpdir is None:
            self._tmpdir = tempfile.mkdtemp(prefix=f"{self.name}-")
        path = os.path.join(self._tmpdir, os.path.basename(executable) + "-in-netns")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\nexec {shlex.join(self.exec_args(executable))} "$@"\n')
        os.chmod(path, 0o755)
        return path


@contextlib.contextmanager
def remote_namespace() -> Iterator[NetNS]:
    """``with remote_namespace() as ns:`` a fresh ``NetNS``, deleted on exit (also on errors)."""
    with NetNS() as ns:
        yield ns


def launch_remote_browser(playwright: Any, ns: NetNS, headless: bool = True) -> Any:
    """Launch Debian's Chromium (``harness.CHROMIUM`` with ``harness.CHROMIUM_ARGS``)
    inside ``ns`` and return the Playwright Browser.  Open contexts and pages with
    ``harness.new_context`` / ``harness.open_app`` and URLs from ``ns.url(port)``.
    Close the browser before leaving the namespace (``close`` ends anything left).

    Note: ``harness.new_context`` records every request not to 127.0.0.1 /
    localhost as "external"; use ``external_requests(context, ns)`` to leave out
    the ones to ``ns.host_ip``."""
    playwright.selectors.set_test_id_attribute("flt-semantics-identifier")  # as harness.launch_browser
    return playwright.chromium.launch(executable_path=ns.wrapper(), args=chromium_args(ns), headless=headless)


def chromium_args(ns: NetNS) -> list[str]:
    """``harness.CHROMIUM_ARGS`` with ``ns.host_ip`` excluded from ``--host-resolver-rules``.

    Chromium applies ``MAP * ~NOTFOUND`` to IP literals too (measured with
    Chromium 156: ``http://10.213.0.1:P/`` fails with ERR_NAME_NOT_RESOLVED),
    so without the ``EXCLUDE`` the browser could not open the host's server."""
    prefix = "--host-resolver-rules="
    args = [a + f", EXCLUDE {ns.host_ip}" if a.startswith(prefix) else a for a in harness.CHROMIUM_ARGS]
    if not any(a.startswith(prefix) for a in args):
        raise RuntimeError(f"harness.CHROMIUM_ARGS has no {prefix}...: update netns.chromium_args")
    return args


@contextlib.contextmanager
def remote_browser(playwright: Any, headless: bool = True) -> Iterator[tuple[NetNS, Any]]:
    """``with remote_browser(pw) as (ns, browser):`` a namespace and a Chromium in it;
    both gone on exit."""
    with remote_namespace() as ns:
        browser = launch_remote_browser(playwright, ns, headless=headless)
        try:
            yield ns, browser
        finally:
            browser.close()


def external_requests(context: Any, ns: NetNS) -> list[str]:
    """``harness.external_requests(context)`` without the requests to ``ns.host_ip``
    (which, for a browser in ``ns``, is the app's own server)."""
    own = re.compile(rf"^(https?|wss?)://{re.escape(ns.host_ip)}[:/]")
    return [u for u in harness.external_requests(context) if not own.match(u)]


@atexit.register
def _close_all() -> None:
    for ns in list(_open):
        with contextlib.suppress(Exception):
            ns.close()


__all__ = [
    "NetNS",
    "chromium_args",
    "cleanup_stale",
    "external_requests",
    "launch_remote_browser",
    "links",
    "namespaces",
    "remote_browser",
    "remote_namespace",
    "require_netns",
]
